"""Training the learned players: Deep Monte Carlo from self-play, as DouZero learns its game: every seat plays the move the
current network values most (a random one with probability ``epsilon``), each decision's
(position, move) is labelled with what the hand finally brought the mover's side, and a learner
fits the network to those labels by mean squared error. The labels need no search and no model of
the game: the engine's count at the end of the hand is the whole teacher.

The network is ``players.network``'s (an NNUE accumulator and two small layers); here it is a
``torch.nn.Module`` whose first layer reads the position's and the move's inputs side by side, so
its weights export to the players' file as they are (``export``).

This module needs the ``train`` extra (PyTorch, CPU); nothing else imports it, and playing never
needs it: the players read the exported file with no numeric library.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from ..cards import shuffled_deck
from ..moves import MoveCode
from ..players.base import Player, make_player
from ..players.features import MOVE_INPUTS, POSITION_INPUTS, Features, decision_features
from ..players.learned import settled_move
from ..players.network import Network
from ..players.solver import Solver
from ..rules import Rules, make_rules
from ..scoring import HandScore
from ..state import State
from ..view import View, view_of
from .selfplay import play_hands

INPUTS = POSITION_INPUTS + MOVE_INPUTS


class ValueModel(nn.Module):
    """The value of (position, move) for the seat to move, in points of the hand."""

    def __init__(self, hidden: int, hidden2: int) -> None:
        super().__init__()
        self.first = nn.Linear(INPUTS, hidden)
        self.second = nn.Linear(hidden, hidden2)
        self.out = nn.Linear(hidden2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        value: torch.Tensor = self.out(torch.relu(self.second(torch.relu(self.first(x))))).squeeze(-1)
        return value


def inputs(position: Features, moves: Sequence[Features]) -> npt.NDArray[np.float32]:
    """One row of network inputs per move: the position's, then the move's."""
    rows = np.zeros((len(moves), INPUTS), dtype=np.float32)
    rows[:, list(position.active)] = 1.0
    at = position.dense_at
    rows[:, at : at + len(position.dense)] = position.dense
    for r, move in enumerate(moves):
        rows[r, [POSITION_INPUTS + i for i in move.active]] = 1.0
        at = POSITION_INPUTS + move.dense_at
        rows[r, at : at + len(move.dense)] = move.dense
    return rows


def decision(view: View) -> npt.NDArray[np.float32]:
    """The inputs of every legal move of the view's seat, in ``view.legal``'s order."""
    position, moves = decision_features(view)
    return inputs(position, moves)


def hand_return(rules: Rules, result: HandScore, seat: int) -> float:
    """What the hand brought ``seat``'s side: its points less the mean of the other sides'."""
    side = rules.side_of(seat)
    others = [p for s, p in enumerate(result.points) if s != side]
    return result.points[side] - sum(others) / len(others)


class ModelPlayer:
    """A player that plays the move the model values most (for training and its measurements)."""

    def __init__(self, model: ValueModel, epsilon: float = 0.0, seed: int = 0, name: str = "dmc") -> None:
        self.model = model
        self.epsilon = epsilon
        self.rng = random.Random(seed)
        self.name = name
        self.endgame = Solver(20_000)

    def choose(self, view: View) -> MoveCode:
        """As the learned player: the exact endgame once every card is known, else the model's best
        (a random move with probability ``epsilon``)."""
        return self.pick(view)[0]

    def pick(self, view: View) -> tuple[MoveCode, npt.NDArray[np.float32] | None]:
        """``choose``'s move, and the decision's inputs when the model read them (else None), so
        that self-play records them without making them again."""
        legal = view.legal
        settled = settled_move(self.endgame, view)
        if settled is not None:
            return settled, None
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(legal), None
        rows = decision(view)
        with torch.no_grad():
            values = self.model(torch.from_numpy(rows))
        return legal[int(torch.argmax(values))], rows


@dataclass
class Replay:
    """The latest samples, at most ``size``: inputs and their labels."""

    size: int
    rows: list[npt.NDArray[np.float32]] = field(default_factory=list)
    labels: list[float] = field(default_factory=list)
    next: int = 0
    """Once full, where the next sample replaces the oldest (a ring: no list is shifted)."""

    def add(self, row: npt.NDArray[np.float32], label: float) -> None:
        if len(self.rows) < self.size:
            self.rows.append(row)
            self.labels.append(label)
            return
        self.rows[self.next] = row
        self.labels[self.next] = label
        self.next = (self.next + 1) % self.size


def self_play_hand(rules: Rules, player: ModelPlayer, rng: random.Random, dealer: int, replay: Replay) -> None:
    """Play one hand with ``player`` in every seat and add each decision, labelled, to ``replay``."""
    state = State.new_hand(rules, shuffled_deck(rng), dealer)
    taken: list[tuple[int, npt.NDArray[np.float32]]] = []
    while not state.hand_over:
        seat = state.to_move
        view = view_of(state, seat, ())
        code, rows = player.pick(view)
        if len(view.legal) > 1:  # a forced move teaches nothing
            if rows is None:
                rows = decision(view)
            taken.append((seat, rows[view.legal.index(code)]))
        state.push(code)
    result = state.result
    assert result is not None
    for seat, row in taken:
        replay.add(row, hand_return(rules, result, seat))


@dataclass
class Trainer:
    """One learner and its actors in one process: ``run(hands)`` plays and learns."""

    rules: Rules
    seed: int = 0
    hidden: int = 64
    hidden2: int = 32
    epsilon: float = 0.05
    batch: int = 256
    steps_per_hand: int = 2
    replay_size: int = 50_000
    learning_rate: float = 1e-3
    hands_played: int = 0

    def __post_init__(self) -> None:
        torch.manual_seed(self.seed)
        self.rng = random.Random(self.seed)
        self.model = ValueModel(self.hidden, self.hidden2)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.learning_rate)
        self.replay = Replay(self.replay_size)
        self.actor = ModelPlayer(self.model, self.epsilon, self.seed)

    def learn(self, steps: int) -> float:
        """``steps`` gradient steps on random batches of the replay; the mean loss."""
        if len(self.replay.rows) < self.batch:
            return 0.0
        total = 0.0
        for _ in range(steps):
            pick = [self.rng.randrange(len(self.replay.rows)) for _ in range(self.batch)]
            x = torch.from_numpy(np.stack([self.replay.rows[i] for i in pick]))
            y = torch.tensor([self.replay.labels[i] for i in pick], dtype=torch.float32)
            loss = torch.mean((self.model(x) - y) ** 2)
            self.optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            self.optimizer.step()
            total += loss.item()
        return total / steps

    def run(self, hands: int) -> float:
        """Play ``hands`` hands of self-play, learning after each; the last mean loss."""
        loss = 0.0
        for _ in range(hands):
            self_play_hand(self.rules, self.actor, self.rng, self.hands_played % self.rules.players, self.replay)
            self.hands_played += 1
            loss = self.learn(self.steps_per_hand)
        return loss

    def export(self, about: str = "") -> Network:
        """The model as the players' network (its weights as they are)."""
        return export(self.model, about)


def export(model: ValueModel, about: str = "") -> Network:
    """A ``ValueModel``'s weights in ``players.network``'s layout: the first layer's columns split
    into the position's rows and the move's."""
    first = model.first.weight.detach().numpy().astype(np.float64)  # hidden x INPUTS
    return Network(
        hidden=first.shape[0],
        hidden2=model.second.weight.shape[0],
        position=first[:, :POSITION_INPUTS].T.ravel().tolist(),
        move=first[:, POSITION_INPUTS:].T.ravel().tolist(),
        bias1=model.first.bias.detach().numpy().astype(np.float64).tolist(),
        layer2=model.second.weight.detach().numpy().astype(np.float64).T.ravel().tolist(),
        bias2=model.second.bias.detach().numpy().astype(np.float64).tolist(),
        out=model.out.weight.detach().numpy().astype(np.float64).ravel().tolist(),
        bias_out=model.out.bias.detach().numpy().astype(np.float64).tolist(),
        about=about,
    )


def points_against(rules: Rules, player: Player, opponent: Player, deals: int, seed: int) -> float:
    """``player``'s points a hand less ``opponent``'s, over mirrored deals (2 players)."""
    return margin_against(rules, player, opponent, deals, seed)[0]


def margin_against(rules: Rules, player: Player, opponent: Player, deals: int, seed: int) -> tuple[float, float]:
    """``player``'s points a hand less ``opponent``'s over mirrored deals (2 players), and its
    standard error over the deals (each deal's two seatings together)."""
    batch = play_hands(rules, [player, opponent], deals, seed, mirror=True)
    diffs = [p[0] - p[1] for p in batch.points]
    pairs = [(diffs[i] + diffs[i + 1]) / 2 for i in range(0, len(diffs) - 1, 2)]
    mean = sum(pairs) / len(pairs)
    return mean, (sum((d - mean) ** 2 for d in pairs) / len(pairs) / len(pairs)) ** 0.5


# ----------------------------------------------------------------------------- a training run
def save_checkpoint(trainer: Trainer, folder: Path, curve: list[dict[str, float]]) -> None:
    """The run so far in ``folder``: the model and optimizer (``checkpoint.pt``, replaced whole),
    its training curve (``curve.json``) and the players' weights file (``network.bin``)."""
    state = {
        "model": trainer.model.state_dict(),
        "optimizer": trainer.optimizer.state_dict(),
        "hands_played": trainer.hands_played,
        "rng": trainer.rng.getstate(),
        "actor_rng": trainer.actor.rng.getstate(),
    }
    network = trainer.export(f"{trainer.rules.describe()}, {trainer.hands_played} self-play hands")
    save_run(folder, state, curve, network)


def save_run(folder: Path, state: dict[str, Any], curve: list[dict[str, float]], network: Network) -> None:
    """A training run's files in ``folder``: the learner's ``state`` (``checkpoint.pt``, replaced
    whole, so a run stopped while writing keeps the last one), ``curve.json`` and ``network.bin``."""
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / "checkpoint.pt.partial"
    torch.save(state, partial)
    partial.replace(folder / "checkpoint.pt")
    (folder / "curve.json").write_text(json.dumps(curve, indent=1) + "\n")
    network.save(folder / "network.bin")


def run_parser(prog: str, description: str | None, folder: str) -> argparse.ArgumentParser:
    """The arguments every training command takes: the run's folder (``folder`` says what it
    holds), the rules it trains for, its time and its seed."""
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument("folder", type=Path, help=f"the run's folder: {folder}")
    p.add_argument("--preset", default="classic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--partnerships", action="store_true")
    p.add_argument("--hours", type=float, default=8.0, help="training time of this call (a run resumes)")
    p.add_argument("--seed", type=int, default=1)
    return p


def rules_of(args: argparse.Namespace) -> Rules:
    """The rules ``run_parser``'s arguments name."""
    return make_rules(args.preset, players=args.players, partnerships=args.partnerships)


def load_checkpoint(trainer: Trainer, folder: Path) -> list[dict[str, float]]:
    """Resume ``trainer`` from ``folder`` when it holds a checkpoint; the curve so far."""
    path = folder / "checkpoint.pt"
    if not path.is_file():
        return []
    state = torch.load(path, weights_only=False)
    trainer.model.load_state_dict(state["model"])
    trainer.optimizer.load_state_dict(state["optimizer"])
    trainer.hands_played = int(state["hands_played"])
    trainer.rng.setstate(state["rng"])
    trainer.actor.rng.setstate(state["actor_rng"])
    curve: list[dict[str, float]] = json.loads((folder / "curve.json").read_text())
    return curve


def train(
    rules: Rules, folder: Path, hours: float, seed: int, every: int, deals: int, log: Callable[[str], None] = print
) -> list[dict[str, float]]:
    """Train for ``hours`` (resuming the run in ``folder``; one round of ``every`` hands at
    least), measuring against the heuristic over ``deals`` mirrored deals every ``every`` hands
    and checkpointing then; the training curve. The replay is not kept: a resumed run refills it.
    """
    trainer = Trainer(rules, seed=seed)
    curve = load_checkpoint(trainer, folder)
    if curve:
        log(f"resumed at {trainer.hands_played} hands")
    end = time.monotonic() + hours * 3600
    spent = curve[-1]["seconds"] if curve else 0.0
    while True:  # one round at least, then as many as the time allows
        start = time.monotonic()
        loss = trainer.run(every)
        spent += time.monotonic() - start
        opponent = make_player("heuristic", seed)
        margin = points_against(
            rules, ModelPlayer(trainer.model, name="dmc"), opponent, deals, seed=10_000 + len(curve)
        )
        curve.append(
            {"hands": trainer.hands_played, "seconds": round(spent, 1), "loss": round(loss, 3), "vs_heuristic": margin}
        )
        save_checkpoint(trainer, folder, curve)
        log(
            f"{trainer.hands_played} hands, {spent / 60:.0f} min: loss {loss:.2f}, {margin:+.3f} a hand against heuristic"
        )
        if time.monotonic() >= end:
            return curve


def main(argv: list[str] | None = None) -> int:
    """``python -m cassino.arena.dmc``: train (or go on training) a learned player."""
    p = run_parser("python -m cassino.arena.dmc", main.__doc__, "checkpoints, curve and network.bin")
    p.add_argument("--every", type=int, default=2000, help="hands between measurements and checkpoints")
    p.add_argument("--deals", type=int, default=200, help="mirrored deals of each measurement")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    rules = rules_of(args)
    train(rules, args.folder, args.hours, args.seed, args.every, args.deals)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
