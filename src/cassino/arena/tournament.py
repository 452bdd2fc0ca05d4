"""Run an arena and sum it up: play the planned games on an executor, then compute every figure
from the results in task order, so the same seed gives the same numbers under any executor."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..players import make_player
from ..players.base import close_player
from ..rules import Rules
from .executors import Executor, OnDone
from .match import GameResult
from .schedule import GameTask, entrant_labels, plan, table_size
from .stats import Z95, bradley_terry, mean_interval, pair_scores, wilson

FORMAT = "cassino-arena/1"

RATING_METHOD = (
    "Bradley-Terry maximum likelihood over every pair of sides in every game, Elo scale (400 log10), mean 1500"
)
RATING_INTERVAL = "95%, normal approximation from the Fisher information, relative to the mean"


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What an arena plays: the entrants' player specs, the rules, how many deals, and the seed."""

    players: tuple[str, ...]
    rules: Rules
    deals: int
    seed: int
    max_hands: int = 100

    def check(self) -> None:
        """Raise ValueError naming the first bad player spec, before any game is sent anywhere."""
        if len(self.players) < 2:
            raise ValueError(f"name at least two players, got {len(self.players)}")
        for spec in dict.fromkeys(self.players):
            close_player(make_player(spec, 0))
        if self.max_hands < 1:
            raise ValueError(f"max hands must be 1 or more, got {self.max_hands}")


@dataclass
class ArenaResult:
    """The games of an arena in task order, with the summary computed from them."""

    config: ArenaConfig
    labels: list[str]
    tables: list[tuple[int, ...]]
    tasks: list[GameTask]
    results: list[GameResult]
    executor: str
    workers: int
    wall_seconds: float
    summary: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.summary = summarize(self)

    def settings(self) -> dict[str, Any]:
        """What was played: everything needed to play it again."""
        rules = self.config.rules
        return {
            "players": list(self.config.players),
            "labels": self.labels,
            "rules": rules.to_json(),
            "rules_text": rules.describe(),
            "deals": self.config.deals,
            "seed": self.config.seed,
            "max_hands": self.config.max_hands,
            "seatings_per_deal": table_size(rules),
            "tables": [[self.labels[e] for e in t] for t in self.tables],
            "games": len(self.tasks),
        }

    def rows(self) -> list[dict[str, Any]]:
        """One row per game: who sat where, what they scored, who won, and who forfeited (its seat,
        entrant and reason), if anyone did."""
        rules = self.config.rules
        out = []
        for task, res in zip(self.tasks, self.results, strict=True):
            out.append(
                {
                    "game": task.index,
                    "table": task.table,
                    "deal": task.deal,
                    "seating": task.seating,
                    "deal_seed": task.deal_seed,
                    "seats": list(task.seats),
                    "sides": [self.labels[e] for e in task.sides],
                    "winner": self.labels[task.sides[res.winner]] if res.winner >= 0 else None,
                    "scores": list(res.scores),
                    "hands": len(res.hand_points),
                    "hand_points": [list(p) for p in res.hand_points],
                    "moves": res.moves,
                    "seat_moves": list(res.seat_moves),
                    "think_seconds": list(res.think_seconds),
                    "forfeit": None
                    if res.forfeit < 0
                    else {
                        "seat": res.forfeit,
                        "player": self.labels[task.sides[rules.side_of(res.forfeit)]],
                        "reason": res.forfeit_reason,
                    },
                }
            )
        return out

    def timing(self) -> dict[str, Any]:
        """How long it took: the only part of the output that differs between runs of one seed."""
        moves = [0] * len(self.labels)
        think = [0.0] * len(self.labels)
        rules = self.config.rules
        for task, res in zip(self.tasks, self.results, strict=True):
            for seat in range(rules.players):
                e = task.sides[rules.side_of(seat)]
                moves[e] += res.seat_moves[seat]
                think[e] += res.think_seconds[seat]
        return {
            "executor": self.executor,
            "workers": self.workers,
            "wall_seconds": self.wall_seconds,
            "players": [
                {"player": label, "moves": m, "think_seconds": t, "ms_per_move": 1000 * t / m if m else None}
                for label, m, t in zip(self.labels, moves, think, strict=True)
            ],
        }

    def to_json(self) -> dict[str, Any]:
        """The whole result as JSON data: settings, summary, games and timing."""
        return {
            "format": FORMAT,
            "settings": self.settings(),
            "summary": self.summary,
            "games": self.rows(),
            "timing": self.timing(),
        }


def summarize(result: ArenaResult) -> dict[str, Any]:
    """Per player (or team): games, wins, forfeits, win rate and points per hand with 95% intervals,
    rating; per pair: the score between them; the forfeits by player and reason, in the order
    first met; and the rating fit. A forfeited game is a loss to every other side."""
    n = len(result.labels)
    games = [0] * n
    wins = [0] * n
    undecided = [0] * n
    hand_points: list[list[float]] = [[] for _ in range(n)]
    final: list[list[float]] = [[] for _ in range(n)]
    score = [[0.0] * n for _ in range(n)]
    met = [[0] * n for _ in range(n)]
    forfeits = [0] * n
    reasons: dict[tuple[int, str], int] = {}
    rules = result.config.rules
    for task, res in zip(result.tasks, result.results, strict=True):
        loser = -1
        if res.forfeit >= 0:
            loser = rules.side_of(res.forfeit)
            forfeits[task.sides[loser]] += 1
            key = (task.sides[loser], res.forfeit_reason)
            reasons[key] = reasons.get(key, 0) + 1
        for side, e in enumerate(task.sides):
            games[e] += 1
            wins[e] += res.winner == side
            undecided[e] += res.winner < 0
            hand_points[e].extend(p[side] for p in res.hand_points)
            final[e].append(res.scores[side])
        for a, b, s in pair_scores(res.winner, res.scores, loser):
            ea, eb = task.sides[a], task.sides[b]
            score[ea][eb] += s
            score[eb][ea] += 1 - s
            met[ea][eb] += 1
            met[eb][ea] += 1
    ratings = bradley_terry(score)
    players = []
    for e in range(n):
        lo, hi = wilson(wins[e], games[e])
        pph, half = mean_interval(hand_points[e])
        r_lo, r_hi = ratings.interval(e)
        players.append(
            {
                "player": result.labels[e],
                "spec": result.config.players[e],
                "games": games[e],
                "wins": wins[e],
                "losses": games[e] - wins[e] - undecided[e],
                "undecided": undecided[e],
                "forfeits": forfeits[e],
                "win_rate": wins[e] / games[e] if games[e] else 0.0,
                "win_rate_low": lo,
                "win_rate_high": hi,
                "hands": len(hand_points[e]),
                "points_per_hand": pph,
                "points_per_hand_low": None if half is None else pph - half,
                "points_per_hand_high": None if half is None else pph + half,
                "mean_final_score": mean_interval(final[e])[0],
                "rating": ratings.ratings[e],
                "rating_low": r_lo,
                "rating_high": r_hi,
                "rating_se": ratings.se[e],
            }
        )
    pairwise = [
        {
            "a": result.labels[i],
            "b": result.labels[j],
            "games": met[i][j],
            "a_score": score[i][j],
            "b_score": score[j][i],
            "a_rate": score[i][j] / met[i][j],
        }
        for i in range(n)
        for j in range(i + 1, n)
        if met[i][j]
    ]
    return {
        "even_share": 1 / table_size(result.config.rules),
        "players": players,
        "pairwise": pairwise,
        "forfeits": [
            {"player": result.labels[e], "reason": reason, "games": count} for (e, reason), count in reasons.items()
        ],
        "ratings": {
            "method": RATING_METHOD,
            "interval": RATING_INTERVAL,
            "z": Z95,
            "virtual_draws": ratings.virtual_draws,
        },
    }


def run_arena(config: ArenaConfig, executor: Executor, on_done: OnDone | None = None) -> ArenaResult:
    """Plan the games, play them on ``executor`` and sum them up."""
    config.check()
    tables, tasks = plan(config.players, config.rules, config.deals, config.seed, config.max_hands)
    start = time.perf_counter()
    results = list(executor.map(tasks, on_done))
    wall = time.perf_counter() - start
    if [r.index for r in results] != list(range(len(tasks))):
        raise RuntimeError(f"executor {executor.name} returned results out of order or incomplete")
    labels = entrant_labels(config.players)
    return ArenaResult(config, labels, tables, tasks, results, executor.name, executor.workers, wall)


def identical_part(data: dict[str, Any]) -> dict[str, Any]:
    """A result's JSON without its timing (the think seconds of each game and the ``timing``
    section): what the same seed reproduces exactly under every executor."""
    games: Sequence[dict[str, Any]] = data["games"]
    return {
        "format": data["format"],
        "settings": data["settings"],
        "summary": data["summary"],
        "games": [{k: v for k, v in g.items() if k != "think_seconds"} for g in games],
    }
