"""Train a small masked policy for Casino by policy gradient, in numpy on a CPU, and measure it
against the random player.

    python examples/train_policy.py                      # about 3 minutes; writes docs/rl-training.png
    python examples/train_policy.py --minutes 1 --opponent greedy --figure /tmp/curve.png

The policy is a one-hidden-layer network from the seat's observation vector to one logit per action
of the fixed action space; illegal actions are masked out before the softmax, so it only ever picks
legal actions. It plays seat 0 of the Gymnasium environment (one hand per episode, the dealer drawn
at random, reward = its points less the opponent's) and learns by REINFORCE with a running-mean
baseline and Adam. The evaluation plays fresh hands with the most likely action and reports the
share of decided hands won with a Wilson 95% interval, and the mean points difference.

Needs the rl extra, and matplotlib for the figure: pip install -e '.[rl,arena]'.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cassino.arena.stats import wilson
from cassino.rl.encoding import NUM_ACTIONS, OBS_SIZE
from cassino.rl.gym_env import CasinoGymEnv

Array = npt.NDArray[np.float32]


class MaskedPolicy:
    """obs -> ReLU hidden layer -> one logit per action; masked softmax over the legal ones."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.params: dict[str, Array] = {
            "w1": (rng.standard_normal((OBS_SIZE, hidden)) * math.sqrt(2.0 / OBS_SIZE)).astype(np.float32),
            "b1": np.zeros(hidden, dtype=np.float32),
            "w2": (rng.standard_normal((hidden, NUM_ACTIONS)) * 0.01).astype(np.float32),
            "b2": np.zeros(NUM_ACTIONS, dtype=np.float32),
        }
        self._m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self._t = 0

    def probs(self, obs: Array, mask: npt.NDArray[np.bool_]) -> tuple[Array, Array]:
        """(action probabilities, hidden activations) for a batch of observations and masks."""
        p = self.params
        hidden = np.maximum(obs @ p["w1"] + p["b1"], 0.0)
        logits = hidden @ p["w2"] + p["b2"]
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True), hidden

    def gradients(
        self, obs: Array, mask: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64], weights: Array
    ) -> dict[str, Array]:
        """Gradients of ``-mean(weights * log p(action))`` (the REINFORCE loss)."""
        probs, hidden = self.probs(obs, mask)
        g_logits = probs
        g_logits[np.arange(len(actions)), actions] -= 1.0
        g_logits *= (weights / len(actions))[:, None]
        p = self.params
        g_hidden = (g_logits @ p["w2"].T) * (hidden > 0)
        return {
            "w2": hidden.T @ g_logits,
            "b2": g_logits.sum(axis=0),
            "w1": obs.T @ g_hidden,
            "b1": g_hidden.sum(axis=0),
        }

    def adam(self, grads: dict[str, Array], lr: float, b1: float = 0.9, b2: float = 0.999) -> None:
        """One Adam step."""
        self._t += 1
        for k, g in grads.items():
            self._m[k] = b1 * self._m[k] + (1 - b1) * g
            self._v[k] = b2 * self._v[k] + (1 - b2) * g * g
            m_hat = self._m[k] / (1 - b1**self._t)
            v_hat = self._v[k] / (1 - b2**self._t)
            self.params[k] -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


@dataclass
class Evaluation:
    """Hands played with the most likely action against the opponent."""

    hands: int = 0
    won: int = 0
    lost: int = 0
    points: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        decided = self.won + self.lost
        return self.won / decided if decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.won, self.won + self.lost)

    @property
    def mean_points(self) -> float:
        return float(np.mean(self.points)) if self.points else 0.0

    def describe(self) -> str:
        lo, hi = self.interval
        se = float(np.std(self.points) / math.sqrt(len(self.points))) if self.points else 0.0
        return (
            f"{self.hands} hands: won {self.won}, lost {self.lost}, tied {self.hands - self.won - self.lost}; "
            f"win rate of decided hands {self.win_rate:.3f} (95% {lo:.3f}-{hi:.3f}); "
            f"points difference {self.mean_points:+.2f} ± {1.96 * se:.2f} a hand"
        )


def play_hand(
    env: CasinoGymEnv, policy: MaskedPolicy, rng: np.random.Generator, greedy: bool, seed: int
) -> tuple[list[Array], list[npt.NDArray[np.bool_]], list[int], float]:
    """One hand: the observations, masks and actions of the policy's steps, and its total reward."""
    obs, info = env.reset(seed=seed)
    observations: list[Array] = []
    masks: list[npt.NDArray[np.bool_]] = []
    actions: list[int] = []
    total, done = 0.0, False
    while not done:
        mask = info["action_mask"].astype(bool)
        probs, _ = policy.probs(obs[None, :], mask[None, :])
        action = int(np.argmax(probs[0])) if greedy else int(rng.choice(NUM_ACTIONS, p=probs[0]))
        observations.append(obs)
        masks.append(mask)
        actions.append(action)
        obs, reward, done, _, info = env.step(action)
        total += reward
    return observations, masks, actions, total


def evaluate(policy: MaskedPolicy, opponent: str, hands: int, seed: int) -> Evaluation:
    """Play ``hands`` fresh hands with the most likely action."""
    env = CasinoGymEnv(opponents=opponent)
    rng = np.random.default_rng(seed)
    result = Evaluation()
    for i in range(hands):
        *_, total = play_hand(env, policy, rng, True, seed + i)
        result.hands += 1
        result.won += total > 0
        result.lost += total < 0
        result.points.append(total)
    return result


def train(
    minutes: float, opponent: str, batch: int, hidden: int, lr: float, seed: int, max_batches: int | None = None
) -> tuple[MaskedPolicy, list[tuple[int, float]]]:
    """Train until the time (or batch) budget is spent; the policy and (hands, mean reward) per batch."""
    rng = np.random.default_rng(seed)
    policy = MaskedPolicy(hidden, rng)
    env = CasinoGymEnv(opponents=opponent)
    baseline = 0.0
    curve: list[tuple[int, float]] = []
    hands = 0
    deadline = time.monotonic() + minutes * 60
    episode_seed = seed * 1_000_003
    while time.monotonic() < deadline and (max_batches is None or len(curve) < max_batches):
        obs_b: list[Array] = []
        mask_b: list[npt.NDArray[np.bool_]] = []
        act_b: list[int] = []
        adv_b: list[float] = []
        rewards = []
        for _ in range(batch):
            observations, masks, actions, total = play_hand(env, policy, rng, False, episode_seed)
            episode_seed += 1
            obs_b += observations
            mask_b += masks
            act_b += actions
            adv_b += [total - baseline] * len(actions)
            rewards.append(total)
        hands += batch
        baseline = 0.9 * baseline + 0.1 * float(np.mean(rewards))
        grads = policy.gradients(
            np.asarray(obs_b), np.asarray(mask_b), np.asarray(act_b), np.asarray(adv_b, dtype=np.float32)
        )
        policy.adam(grads, lr)
        curve.append((hands, float(np.mean(rewards))))
    return policy, curve


def plot(curve: list[tuple[int, float]], before: Evaluation, after: Evaluation, opponent: str, path: Path) -> None:
    """The training curve (mean reward per batch, smoothed) with the evaluations before and after."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = np.array([h for h, _ in curve])
    ys = np.array([r for _, r in curve])
    k = max(1, len(ys) // 20)
    smooth = np.convolve(ys, np.ones(k) / k, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs, ys, color="0.8", linewidth=0.8, label="mean reward of each batch")
    ax.plot(xs[k - 1 :], smooth, color="C0", linewidth=2, label=f"moving mean of {k} batches")
    ax.axhline(0.0, color="k", linewidth=0.6)
    ax.axhline(before.mean_points, color="C3", linestyle="--", label=f"untrained, evaluated: {before.mean_points:+.2f}")
    ax.axhline(after.mean_points, color="C2", linestyle="--", label=f"trained, evaluated: {after.mean_points:+.2f}")
    lo, hi = after.interval
    ax.set_title(
        f"Masked policy vs {opponent}: wins {after.win_rate:.1%} of decided hands (95% {lo:.1%}-{hi:.1%})", fontsize=10
    )
    ax.set_xlabel("training hands")
    ax.set_ylabel("points difference a hand")
    ax.legend(fontsize=8, loc="center right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> tuple[Evaluation, Evaluation]:
    """Train, evaluate before and after, print the results and draw the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    parser.add_argument("--max-batches", type=int, default=None, help="stop after this many batches too")
    parser.add_argument("--opponent", default="random", help="player spec of the opponent (default random)")
    parser.add_argument("--batch", type=int, default=32, help="hands per policy-gradient step (default 32)")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    parser.add_argument("--lr", type=float, default=3e-3, help="Adam step size (default 0.003)")
    parser.add_argument("--eval-hands", type=int, default=2000, help="hands of each evaluation (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--figure", type=Path, default=Path("docs/rl-training.png"), help="where to draw the curve")
    parser.add_argument("--no-figure", action="store_true")
    args = parser.parse_args(argv)
    start = time.monotonic()
    untrained = MaskedPolicy(args.hidden, np.random.default_rng(args.seed))
    before = evaluate(untrained, args.opponent, args.eval_hands, seed=10**9)
    print(f"untrained vs {args.opponent}: {before.describe()}")
    policy, curve = train(args.minutes, args.opponent, args.batch, args.hidden, args.lr, args.seed, args.max_batches)
    print(f"trained on {curve[-1][0] if curve else 0} hands in {args.minutes:g} min ({len(curve)} steps)")
    after = evaluate(policy, args.opponent, args.eval_hands, seed=10**9)
    print(f"trained vs {args.opponent}: {after.describe()}")
    if not args.no_figure and curve:
        plot(curve, before, after, args.opponent, args.figure)
        print(f"figure: {args.figure}")
    print(f"total {time.monotonic() - start:.0f} s")
    return before, after


if __name__ == "__main__":
    main()
