"""Run an arena and sum it up: play the planned games on an executor, then compute every figure
from the results in task order, so the same seed gives the same numbers under any executor.

``match`` is the arena from Python: ``print(match(["greedy", MyBot()], deals=50).report())``."""

from __future__ import annotations

import inspect
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..errors import ArgumentError
from ..players import Player, make_player
from ..players.base import close_player
from ..rules import Rules
from .executors import Executor, InProcessExecutor, OnDone, make_executor
from .game import GameResult
from .schedule import GameTask, entrant_labels, plan, table_size
from .stats import Z95, bradley_terry, mean_interval, pair_scores, wilson
from .worker import PlayerMaker

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
    own: frozenset[int] = frozenset()
    """The entrants played by objects of this process (``match``'s players given as objects or
    classes), whose entry in ``players`` is their name, not a spec: only ``match`` plays them."""

    def check(self) -> None:
        """Raise a CassinoError naming the first bad setting or player spec (PlayerSpecError),
        before any game is sent anywhere."""
        if len(self.players) < 2:
            raise ArgumentError(f"name at least two players, got {len(self.players)}")
        for spec in dict.fromkeys(p for e, p in enumerate(self.players) if e not in self.own):
            close_player(make_player(spec, 0))
        if self.max_hands < 1:
            raise ArgumentError(f"max hands must be 1 or more, got {self.max_hands}")


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
    tournament: dict[str, Any] | None = None
    """A Swiss or arena tournament's own part (``arena.rounds``): its kind, deals, pairings and
    standings, written into results.json and heading the report; None for a match or round robin."""
    summary: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.summary = summarize(self)

    def report(self) -> str:
        """The standard report, as ``cassino arena`` prints it (``format_report``)."""
        return format_report(self)

    def settings(self) -> dict[str, Any]:
        """What was played: everything needed to play it again (``own_players``: the entrants that
        were the caller's own objects, to be given again)."""
        rules = self.config.rules
        own = {"own_players": [self.labels[e] for e in sorted(self.config.own)]} if self.config.own else {}
        return {
            "players": list(self.config.players),
            **own,
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
        tournament = {} if self.tournament is None else {"tournament": self.tournament}
        return {
            "format": FORMAT,
            "settings": self.settings(),
            **tournament,
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
            "unmet_draws": ratings.unmet_draws,
        },
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell: the first left-aligned, the rest right-aligned."""
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
    lines = []
    for r in [header, *rows]:
        cells = [r[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def format_report(result: ArenaResult) -> str:
    """The summary as text: what was played, one line per player (best rating first), the games
    forfeited (by player and reason), the pairwise scores of a round robin, and how each interval
    was computed."""
    settings = result.settings()
    summary = result.summary
    timing = result.timing()
    rules = result.config.rules
    names = " vs ".join(result.labels) if len(result.tables) == 1 else f"round robin of {', '.join(result.labels)}"
    seat_word = "team" if rules.partnerships else "player"
    tables = f"{len(result.tables)} tables x " if len(result.tables) > 1 else ""
    workers = f"{timing['workers']} worker{'s' if timing['workers'] != 1 else ''}"
    played = f"{tables}{settings['deals']} deals x {settings['seatings_per_deal']} seatings = {settings['games']} games"
    event = result.tournament
    if event is not None:
        names = f"{event['kind']} tournament of {', '.join(event['entrants'])}"
        rounds = "rounds" if event["kind"] == "swiss" else "deals"
        played = f"{len(event['deals'])} {rounds}, every table of one on the same cards: {settings['games']} games"
    lines = [
        f"{names}: {settings['rules_text']}",
        f"{played}; seed {settings['seed']}",
        f"executor {timing['executor']} ({workers}): {timing['wall_seconds']:.1f} s,"
        f" {settings['games'] / max(timing['wall_seconds'], 1e-9):.0f} games/s",
        "",
    ]
    ms = {p["player"]: p["ms_per_move"] for p in timing["players"]}
    order = sorted(summary["players"], key=lambda p: -p["rating"])
    header = [seat_word, "games", "wins", "undecided", "win rate", "95% CI", "pts/hand", "95% CI", "rating", "95% CI"]
    header.append("ms/move")
    rows = []
    for p in order:
        pph_ci = (
            "-"
            if p["points_per_hand_low"] is None
            else f"[{p['points_per_hand_low']:.2f}, {p['points_per_hand_high']:.2f}]"
        )
        think = ms[p["player"]]
        rows.append(
            [
                p["player"],
                str(p["games"]),
                str(p["wins"]),
                str(p["undecided"]),
                _pct(p["win_rate"]),
                f"[{_pct(p['win_rate_low'])}, {_pct(p['win_rate_high'])}]",
                f"{p['points_per_hand']:.2f}",
                pph_ci,
                f"{p['rating']:.0f}",
                f"[{p['rating_low']:.0f}, {p['rating_high']:.0f}]",
                "-" if think is None else f"{think:.3f}",
            ]
        )
    lines += _grid(header, rows)
    forfeits = summary["forfeits"]
    if forfeits:
        total = sum(f["games"] for f in forfeits)
        each = "; ".join(f"{f['player']}: {f['reason']} ×{f['games']}" for f in forfeits)
        lines += ["", f"forfeits: {total} ({each})"]
    if len(result.labels) > 2:
        labels = [p["player"] for p in order]
        rate: dict[tuple[str, str], float] = {}
        for pair in summary["pairwise"]:
            rate[pair["a"], pair["b"]] = pair["a_rate"]
            rate[pair["b"], pair["a"]] = 1 - pair["a_rate"]
        lines += ["", "score of each row against each column (win 1, draw 1/2; in 3-4 player games, by final points):"]
        lines += _grid(
            ["", *labels],
            [[a, *(_pct(rate[a, b]) if (a, b) in rate else "-" for b in labels)] for a in labels],
        )
    lines += [
        "",
        f"win rate: 95% Wilson interval (an even share is {_pct(summary['even_share'])});"
        " pts/hand: mean points per hand, normal 95% interval over hands",
        f"rating: {summary['ratings']['method']};",
        f"  interval {summary['ratings']['interval']}",
    ]
    if summary["ratings"].get("unmet_draws"):
        lines.append("  (not everyone is linked by games played: one virtual draw between each pair that never met")
        lines.append("  was added to put them on one scale)")
    if summary["ratings"]["virtual_draws"]:
        lines.append("  (someone won or lost every game: one virtual draw per pairing was added so the fit exists)")
    return "\n".join(lines)


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


Entrant: TypeAlias = str | Player | type[Any]
"""Who ``match`` plays: a player spec, or a player of the caller's own, as an object or a class."""


def match(
    players: Sequence[Entrant],
    deals: int = 100,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    workers: int | None = 1,
    executor: str | None = None,
    address: str | None = None,
    max_hands: int = 100,
    on_done: OnDone | None = None,
) -> ArenaResult:
    """Play a match (two players, or two teams) or a round robin (more) on mirrored deals, as
    ``cassino arena`` does, and return its ``ArenaResult`` (``print(result.report())``).

    Each of ``players`` is a spec (``"greedy"``, ``"search:worlds=30"``) or a player of the
    caller's own: an object with a ``name`` and ``choose(view)``, which plays every game of its
    entrant, or a class, of which each game gets a fresh one (made with the game's ``seed=`` when
    it takes one). Those are played in this process only: they may not pickle, and a worker could
    not import a class of a script. ``rules`` defaults to classic for two; ``seed`` makes the deals
    and the players' seeds, the same on every executor.

    ``workers=1`` (the default) plays in this process, which needs nothing more of a script; more
    spreads specs over that many processes (``None``: every core), which like any spawned pool
    needs the script's ``if __name__ == "__main__":`` guard; ``executor`` (``inprocess``,
    ``process``, ``ray``) and ``address`` choose as ``cassino arena`` does. ``on_done(n)`` is called
    as games finish. Bad settings raise a CassinoError naming them (PlayerSpecError for a spec).
    """
    if isinstance(players, str):
        raise ArgumentError(f"players is a list of players, got the one string {players!r}: write [{players!r}, ...]")
    entrants = list(players)
    names: list[str] = []
    own: dict[int, Player | type[Any]] = {}
    for e, entrant in enumerate(entrants):
        if isinstance(entrant, str):
            names.append(entrant)
        else:
            names.append(_own_name(e, entrant))
            own[e] = entrant
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ArgumentError(f"deals must be a whole number, 1 or more, got {deals!r}")
    if rules is not None and not isinstance(rules, Rules):
        raise ArgumentError(f"rules must be a Rules, such as make_rules('royal', players=4), got {rules!r}")
    config = ArenaConfig(tuple(names), rules or Rules(), deals, seed, max_hands, frozenset(own))
    if executor is None:
        executor = "ray" if address else "inprocess" if workers == 1 else "process"
    in_process = executor == "inprocess"
    if own and not in_process:
        first = names[min(own)]
        raise ArgumentError(
            f"{first!r} is a player of this process (an object or class, not a spec), so the games are played "
            "here: leave workers at 1 and executor unset"
        )
    config.check()
    for e, entrant in own.items():  # a class that cannot be made fails here, before any game
        if isinstance(entrant, type):
            _made(entrant, names[e], 0)
    if in_process:
        runner: Executor = InProcessExecutor(_maker(config.rules, own, names)) if own else InProcessExecutor()
    else:
        runner = make_executor(executor, workers, address)
    try:
        return run_arena(config, runner, on_done)
    finally:
        runner.close()


def _own_name(e: int, entrant: object) -> str:
    """The name of a player of the caller's (its ``name``, else its class's); ArgumentError for
    something that is no player."""
    if not callable(getattr(entrant, "choose", None)):
        raise ArgumentError(
            f"player {e} ({entrant!r}) is no player: give a spec such as 'greedy', or an object or class "
            "with a name and a choose(view) method"
        )
    name = getattr(entrant, "name", None)
    if isinstance(name, str) and name:
        return name
    return entrant.__name__ if isinstance(entrant, type) else type(entrant).__name__


def _made(cls: type[Any], name: str, seed: int) -> Player:
    """A player of the caller's class for one game: made with the game's seed when it takes one."""
    try:
        takes_seed = "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_seed = False
    try:
        player: Player = cls(seed=seed) if takes_seed else cls()
    except TypeError as exc:
        raise ArgumentError(
            f"player class {name!r} could not be made ({exc}): give it no required arguments but seed, "
            "or give an object"
        ) from None
    return player


def _maker(rules: Rules, own: dict[int, Player | type[Any]], names: list[str]) -> PlayerMaker:
    """Makes each seat's player: the caller's own object or a fresh one of its class for its
    entrants, from the spec for the others."""

    def make(task: GameTask, seat: int) -> Player:
        entrant = task.sides[rules.side_of(seat)]
        given = own.get(entrant)
        if given is None:
            return make_player(task.seats[seat], task.player_seeds[seat])
        if isinstance(given, type):
            return _made(given, names[entrant], task.player_seeds[seat])
        return given

    return make
