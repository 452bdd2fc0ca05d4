"""Training the learned players from the all-seeing search (oracle distillation): in self-play
hands, at each decision the search that sees every card (``CheaterPlayer.world_values``) values
each candidate move in the true deal, and the network learns those values from the mover's view
alone.

Over many deals the network so learns, for each view, the mean of the true deals' values under
the hidden cards as they really lie in such play: the determinized search's average over sampled
worlds, with every world drawn from the real distribution and no sampling left at play time.
Each label is the move's value less the mean of its decision's candidates (only differences
within one deal compare), clipped to ``LABEL_CLIP``. Labels of one move are far less noisy than
the whole hand's outcome that Deep Monte Carlo (``dmc``) learns from: the measured difference is
in docs/players.md.

Actors label hands in parallel (``label_hands``: processes, or Ray tasks on a local Ray or a
cluster with ``address``); the learner fits the network to the latest labels after each round,
and the next round's actors play half their hands with that network (so its own positions get
labelled too) and half with the heuristic. A run checkpoints after every round and resumes.

This module needs the ``train`` extra (PyTorch, CPU), as ``dmc`` does.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TypeAlias

import numpy as np
import numpy.typing as npt
import torch

from ..cards import shuffled_deck
from ..players.base import Player, choose_code, make_player
from ..players.heuristic import rate_moves
from ..players.learned import LearnedPlayer, settled_move
from ..players.network import Network
from ..players.search import CheaterPlayer
from ..players.solver import Solver
from ..rules import Rules, make_rules
from ..state import State
from ..view import view_of
from .dmc import INPUTS, ValueModel, decision, export, margin_against, rules_of, run_parser, save_run
from .executors import import_ray, start_ray

LABEL_CLIP = 20.0
"""The largest label, in points a hand either way: one decided endgame must not swamp the rest."""

Samples: TypeAlias = "tuple[npt.NDArray[np.float16], npt.NDArray[np.float32]]"
"""Labelled decisions: one row of network inputs per candidate move (float16: they are mostly
zeros and ones), and its label."""


@dataclass(frozen=True)
class LabelJob:
    """One actor's work: ``hands`` hands of the rules, seeded; the seats play ``behaviour`` (a
    network's file bytes) or, when empty, the heuristic, with a random move at rate ``epsilon``."""

    preset: str
    players: int
    partnerships: bool
    seed: int
    hands: int
    behaviour: bytes = b""
    epsilon: float = 0.1
    candidates: int = 24
    """How many moves of a decision are labelled: the heuristic's best-rated ones."""

    def rules(self) -> Rules:
        return make_rules(self.preset, players=self.players, partnerships=self.partnerships)


def label_hands(job: LabelJob) -> Samples:
    """Play ``job``'s hands and label every decision that the network would make (more than one
    legal move, and no exact endgame yet): the actors' whole task, a plain function for any pool."""
    rules = job.rules()
    rng = random.Random(job.seed)
    network = Network.from_bytes(job.behaviour, "the behaviour network") if job.behaviour else None
    seats: list[Player] = [
        LearnedPlayer(seed=job.seed + s, network=network) if network else make_player("heuristic", job.seed + s)
        for s in range(rules.players)
    ]
    teacher = CheaterPlayer(seed=job.seed)
    endgame = Solver(20_000)
    rows: list[npt.NDArray[np.float32]] = []
    labels: list[float] = []
    for h in range(job.hands):
        state = State.new_hand(rules, shuffled_deck(rng), h % rules.players)
        while not state.hand_over:
            seat = state.to_move
            view = view_of(state, seat, ())
            legal = view.legal
            if len(legal) > 1 and settled_move(endgame, view) is None:
                rated = sorted(rate_moves(view), key=lambda rc: -rc[0])[: job.candidates]
                values, _work = teacher.world_values(state.copy(), [c for _, c in rated], rules.side_of(seat))
                mean = sum(values.values()) / len(values)
                inputs = decision(view)
                for code, value in values.items():
                    rows.append(inputs[legal.index(code)])
                    labels.append(max(-LABEL_CLIP, min(LABEL_CLIP, value - mean)))
            explore = len(legal) > 1 and rng.random() < job.epsilon
            state.push(rng.choice(legal) if explore else choose_code(seats[seat], view))
    if not rows:
        return np.zeros((0, INPUTS), dtype=np.float16), np.zeros(0, dtype=np.float32)
    return np.stack(rows).astype(np.float16), np.array(labels, dtype=np.float32)


def label_all(
    jobs: Sequence[LabelJob], executor: str = "process", workers: int | None = None, address: str | None = None
) -> list[Samples]:
    """Every job's samples, in the jobs' order: in this process (``inprocess``), in processes of
    their own (``process``, all cores by default) or as Ray tasks (``ray``; a cluster with ``address``)."""
    if executor == "inprocess":
        return [label_hands(job) for job in jobs]
    if executor == "process":
        # Fresh processes ("spawn"): the learner's PyTorch threads must not be forked.
        with ProcessPoolExecutor(workers or os.cpu_count() or 1, mp_context=get_context("spawn")) as pool:
            return list(pool.map(label_hands, jobs))
    if executor == "ray":
        ray = import_ray()
        started = start_ray(ray, workers, address)
        try:
            remote = ray.remote(label_hands)
            return list(ray.get([remote.remote(job) for job in jobs]))
        finally:
            if started:
                ray.shutdown()
    raise ValueError(f"unknown executor {executor!r}: choose inprocess, process or ray")


@dataclass
class Learner:
    """The network being trained and its optimizer; ``fit`` makes passes over labelled samples."""

    seed: int = 0
    hidden: int = 128
    hidden2: int = 32
    learning_rate: float = 1e-3
    batch: int = 512
    rng: np.random.Generator = field(init=False)

    def __post_init__(self) -> None:
        torch.manual_seed(self.seed)
        self.rng = np.random.default_rng(self.seed)
        self.model = ValueModel(self.hidden, self.hidden2)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=self.learning_rate)

    def fit(self, samples: Samples, epochs: int, held_out: float = 0.05) -> tuple[float, float]:
        """``epochs`` passes over all but ``held_out`` of the samples, in random batches; the last
        pass's mean loss and the loss on the held-out samples (what says whether it overfits)."""
        rows, labels = samples
        order = self.rng.permutation(len(labels))
        cut = int(len(order) * held_out)
        test, train = order[:cut], order[cut:]
        loss_sum, batches = 0.0, 0
        for _ in range(epochs):
            loss_sum, batches = 0.0, 0
            for start in range(0, len(train), self.batch):
                pick = train[start : start + self.batch]
                x = torch.from_numpy(rows[pick].astype(np.float32))
                y = torch.from_numpy(labels[pick])
                loss = torch.mean((self.model(x) - y) ** 2)
                self.optimizer.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                self.optimizer.step()
                loss_sum += loss.item()
                batches += 1
            self.rng.shuffle(train)
        with torch.no_grad():
            x = torch.from_numpy(rows[test].astype(np.float32))
            held = float(torch.mean((self.model(x) - torch.from_numpy(labels[test])) ** 2)) if cut else math.nan
        return loss_sum / max(1, batches), held

    def network(self, about: str = "") -> Network:
        return export(self.model, about)


# ----------------------------------------------------------------------------- a training run
@dataclass
class Run:
    """A training run kept in ``folder``: each round's labels (``labels-N.npz``, the latest
    ``window`` samples kept), the learner's checkpoint, the curve and the players' weights file."""

    rules: Rules
    folder: Path
    seed: int = 1
    hands: int = 8000
    """Hands labelled a round, over all actors."""
    epochs: int = 3
    window: int = 2_000_000
    """The most samples the learner fits at once: the latest rounds' (older files are deleted)."""
    deals: int = 200
    executor: str = "process"
    workers: int | None = None
    address: str | None = None
    learner: Learner = field(init=False)
    curve: list[dict[str, float]] = field(default_factory=list)
    rounds: int = 0

    def __post_init__(self) -> None:
        self.learner = Learner(self.seed)
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / "checkpoint.pt"
        if path.is_file():
            state = torch.load(path, weights_only=False)
            self.learner.model.load_state_dict(state["model"])
            self.learner.optimizer.load_state_dict(state["optimizer"])
            self.rounds = int(state["rounds"])
            self.curve = json.loads((self.folder / "curve.json").read_text())

    @property
    def hands_played(self) -> int:
        return int(self.curve[-1]["hands"]) if self.curve else 0

    def jobs(self) -> list[LabelJob]:
        """This round's actors' jobs: after the first round, half of them play the current network."""
        count = max(1, min(self.hands, 2 * (self.workers or os.cpu_count() or 1)))
        behaviour = self.learner.network().to_bytes() if self.rounds else b""
        rules = self.rules
        return [
            LabelJob(
                rules.preset,
                rules.players,
                rules.partnerships,
                seed=self.seed * 1_000_003 + self.rounds * 1_000 + i,
                hands=self.hands // count + (i < self.hands % count),
                behaviour=behaviour if i % 2 else b"",
            )
            for i in range(count)
        ]

    def samples(self) -> Samples:
        """The latest ``window`` samples on disk, older label files deleted."""
        files = sorted(self.folder.glob("labels-*.npz"), key=lambda p: int(p.stem.split("-")[1]), reverse=True)
        rows: list[npt.NDArray[np.float16]] = []
        labels: list[npt.NDArray[np.float32]] = []
        total = 0
        for path in files:
            if total >= self.window:
                path.unlink()
                continue
            with np.load(path) as data:
                rows.append(data["rows"])
                labels.append(data["labels"])
            total += len(labels[-1])
        return np.concatenate(rows), np.concatenate(labels)

    def round(self, log: Callable[[str], None] = print) -> dict[str, float]:
        """Label a round of hands, fit, measure against the heuristic, checkpoint; the curve's new point."""
        start = time.monotonic()
        results = label_all(self.jobs(), self.executor, self.workers, self.address)
        rows = np.concatenate([r for r, _ in results])
        labels = np.concatenate([y for _, y in results])
        np.savez_compressed(self.folder / f"labels-{self.rounds}.npz", rows=rows, labels=labels)
        labelled = time.monotonic() - start
        loss, held = self.learner.fit(self.samples(), self.epochs)
        self.rounds += 1
        hands = self.hands_played + self.hands
        network = self.learner.network(f"{self.rules.describe()}, {hands} hands labelled by the all-seeing search")
        point: dict[str, float] = {
            "round": self.rounds,
            "hands": hands,
            "samples": len(labels),
            "seconds": round((self.curve[-1]["seconds"] if self.curve else 0.0) + time.monotonic() - start, 1),
            "label_seconds": round(labelled, 1),
            "loss": round(loss, 4),
            "held_out_loss": round(held, 4),
        }
        if self.rules.players == 2 and self.deals:
            player = LearnedPlayer(seed=self.seed, network=network)
            mean, error = margin_against(
                self.rules, player, make_player("heuristic", self.seed), self.deals, seed=10_000 + self.rounds
            )
            point["vs_heuristic"], point["vs_heuristic_se"] = round(mean, 4), round(error, 4)
        self.curve.append(point)
        self.save(network)
        log(json.dumps(point))
        return point

    def save(self, network: Network) -> None:
        """The checkpoint (replaced whole), the curve and ``network.bin``."""
        state = {
            "model": self.learner.model.state_dict(),
            "optimizer": self.learner.optimizer.state_dict(),
            "rounds": self.rounds,
        }
        save_run(self.folder, state, self.curve, network)

    def train(self, hours: float, log: Callable[[str], None] = print) -> list[dict[str, float]]:
        """Rounds for ``hours`` (one at least); the curve. A Ray started here serves every round."""
        end = time.monotonic() + hours * 3600
        ray = import_ray() if self.executor == "ray" else None
        started = ray is not None and start_ray(ray, self.workers, self.address)
        try:
            while True:
                self.round(log)
                if time.monotonic() >= end:
                    return self.curve
        finally:
            if started and ray is not None:
                ray.shutdown()


def plot_curve(curve: list[dict[str, float]], path: Path, title: str) -> None:
    """The training curve as a picture (the ``train`` extra's matplotlib): points a hand against
    the heuristic by hands labelled, with one standard error of each measurement when known."""
    import matplotlib

    matplotlib.use("Agg")  # no display: a file only
    import matplotlib.pyplot as plt

    measured = [p for p in curve if "vs_heuristic" in p]
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = [p["hands"] for p in measured]
    ys = [p["vs_heuristic"] for p in measured]
    errors = [p.get("vs_heuristic_se", 0.0) for p in measured]
    ax.errorbar(xs, ys, yerr=errors, marker="o", capsize=3)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("self-play hands labelled")
    ax.set_ylabel("points a hand against the heuristic")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """``python -m cassino.arena.oracle``: train (or go on training) a learned player."""
    p = run_parser("python -m cassino.arena.oracle", main.__doc__, "labels, checkpoint, curve and network.bin")
    p.add_argument("--hands", type=int, default=8000, help="hands labelled a round")
    p.add_argument("--epochs", type=int, default=3, help="passes over the window after each round")
    p.add_argument("--window", type=int, default=2_000_000, help="samples the learner fits at once")
    p.add_argument("--deals", type=int, default=200, help="mirrored deals against the heuristic after each round")
    p.add_argument("--executor", choices=("inprocess", "process", "ray"), default="ray")
    p.add_argument("--workers", type=int, help="actors (default: every core)")
    p.add_argument("--address", help="a Ray cluster to join (with --executor ray)")
    p.add_argument("--plot", type=Path, metavar="PNG", help="draw the run's curve to this file and stop")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    rules = rules_of(args)
    if args.plot:
        curve = json.loads((args.folder / "curve.json").read_text())
        plot_curve(curve, args.plot, f"{rules.describe()}: learning from the all-seeing search")
        return 0
    run = Run(
        rules,
        args.folder,
        args.seed,
        args.hands,
        args.epochs,
        args.window,
        args.deals,
        args.executor,
        args.workers,
        args.address,
    )
    if run.curve:
        print(f"resumed after round {run.rounds} ({run.hands_played} hands)")
    run.train(args.hours)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
