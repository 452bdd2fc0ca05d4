"""Swiss and arena tournaments of players, round by round on the arena's executors, with duplicate
deals: every table of a round plays the same cards.

The pairing and the scoring are the club's (``club.pairing``, ``club.standings``): the very code
the web's tournaments run. This module only plays: it pairs a round, plays its games on an
executor (in-process, processes, Ray), reads the results back, and pairs the next; at the end the
games go to the arena's report (``ArenaResult``: ratings, the table per player, results.json,
results.csv and ratings.png), with the tournament's own part (deals, pairings, standings) beside.

- **Entrants** are the players' specs in the order given, named as the arena names them (a spec
  given twice: ``greedy#1``, ``greedy#2``). Their **seeding order**, which breaks the ties nothing
  else breaks, is drawn from the seed, so a place in a file favours nobody.
- **Deals**: Swiss round ``r`` plays the seed ``derive_seed(seed, "round", r)``, an arena's deal
  ``d`` the seed ``derive_seed(seed, "deal", d)``; the commitment published with each pairing is
  ``club.duplicate.seed_commitment`` of it (SHA-256 of its decimal digits), and the report reveals
  every seed. A game is dealt from its seed as ``cassino arena`` deals (``Game(rules, seed)``), so
  the tables of a round get the same deck hand after hand. Each player's own seed is
  ``derive_seed(seed, "player", round, table, seat)``.
- **A Swiss** plays ``rounds`` rounds, each paired looking ahead to the rounds left
  (``swiss_round``'s ``rounds``); one that still cannot be paired without a repeat stops there,
  and the result says why (``stopped``).
- **An arena** runs a simulated clock in waves: every entrant is free at the start of a wave, the
  free are paired as ``club.pairing.arena_tables`` pairs them (so those who waited in the last wave
  are seated first), and the wave lasts as long as its longest game, at ``move_seconds`` a move.
  No table starts once ``minutes`` have passed or ``games`` games were started (the first of the
  two set); every table started is played to its end and counts. A server calls ``arena_tables``
  each time someone is free instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..club.duplicate import seed_commitment
from ..club.errors import PairingError
from ..club.pairing import BYE_PLAYER, arena_tables, swiss_round
from ..club.standings import Result, Standing, Table, standings
from ..errors import ArgumentError
from ..players import make_player
from ..players.base import close_player
from ..rules import Rules
from .executors import Executor, OnDone, make_executor
from .game import GameResult
from .schedule import GameTask, derive_seed, entrant_labels, table_size
from .tournament import ArenaConfig, ArenaResult

SWISS = "swiss"
ARENA = "arena"
KINDS: tuple[str, ...] = (SWISS, ARENA)
MOVE_SECONDS = 2.0
"""Simulated seconds a move takes on an arena's clock, unless told."""
MAX_WAVES = 10_000
"""Waves an arena plays at most, whatever its clock: a bound for a clock that barely moves."""


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What a tournament plays: its kind, the entrants' player specs, the rules and the seed; a
    Swiss's ``rounds``; an arena's simulated ``minutes`` and/or budget of ``games``."""

    kind: str
    players: tuple[str, ...]
    rules: Rules
    seed: int
    rounds: int = 0
    minutes: float = 0.0
    games: int = 0
    move_seconds: float = MOVE_SECONDS
    bye_player: str = BYE_PLAYER
    """The computer player (a spec) that fills a bye's table."""
    max_hands: int = 100

    @property
    def size(self) -> int:
        """Entrants a table seats: one per scoring side."""
        return table_size(self.rules)

    def check(self) -> None:
        """Raise a CassinoError naming the first bad setting or player spec, before any game."""
        if self.kind not in KINDS:
            raise ArgumentError(f"unknown kind of tournament {self.kind!r}: choose {' or '.join(KINDS)}")
        n, size = len(self.players), self.size
        byes = (self.bye_player,) if self.kind == SWISS and n % size else ()
        for spec in dict.fromkeys((*self.players, *byes)):
            close_player(make_player(spec, 0))
        if n < size:
            raise ArgumentError(f"a table seats {size} entrants: name at least {size}, got {n}")
        if self.kind == SWISS:
            if self.rounds < 1:
                raise ArgumentError(f"a Swiss needs 1 round or more, got {self.rounds}")
            most = n - 1 if n % 2 == 0 else n
            if size == 2 and self.rounds > most:
                raise ArgumentError(
                    f"{n} entrants meet new opponents for at most {most} round{'s' if most != 1 else ''},"
                    f" got {self.rounds}"
                )
        else:
            if self.minutes < 0 or self.games < 0 or not (self.minutes > 0 or self.games > 0):
                raise ArgumentError("an arena needs minutes or a number of games (more than 0)")
            if not self.move_seconds > 0:
                raise ArgumentError(f"seconds a move must be more than 0, got {self.move_seconds}")
        if self.max_hands < 1:
            raise ArgumentError(f"max hands must be 1 or more, got {self.max_hands}")


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's deal (an arena's numbered deal): its seed, revealed after the tournament, and the
    commitment published before it was played."""

    number: int
    seed: int
    commitment: str

    def to_json(self) -> dict[str, Any]:
        """The deal as results.json gives it."""
        return {"number": self.number, "seed": self.seed, "commitment": self.commitment}


@dataclass
class TournamentResult:
    """A tournament played: its deals, every table's result in the order played, the standings, and
    the same games as an ``ArenaResult`` (``games``) for the arena's report and files."""

    config: TournamentConfig
    entrants: list[str]
    """The entrants' names, in the order given."""
    seeding: list[str]
    """The same names in seeding order (drawn from the seed)."""
    deals: list[Deal]
    results: list[Result]
    games: ArenaResult
    stopped: str = ""
    """Why a Swiss ended before its last round (a pairing that does not exist); empty otherwise."""
    standings: list[Standing] = field(init=False)

    def __post_init__(self) -> None:
        self.standings = standings(self.seeding, self.results)

    def pairings(self) -> list[dict[str, Any]]:
        """Every table as the API gives it, with ``game``: its game's number in ``games``."""
        return [{**r.table.to_json(), "game": g} for g, r in enumerate(self.results)]

    def summary(self) -> dict[str, Any]:
        """The tournament's own part of results.json: kind, entrants, deals, pairings with their
        results, standings, and why it stopped early (if it did)."""
        config = self.config
        limits: dict[str, Any] = (
            {"rounds": config.rounds}
            if config.kind == SWISS
            else {"minutes": config.minutes, "games": config.games, "move_seconds": config.move_seconds}
        )
        return {
            "kind": config.kind,
            **limits,
            "entrants": self.entrants,
            "seeding": self.seeding,
            "bye_player": config.bye_player,
            "deals": [d.to_json() for d in self.deals],
            "pairings": [
                {**p, "scores": list(r.scores), "winner": r.winner, "forfeit": r.forfeit}
                for p, r in zip(self.pairings(), self.results, strict=True)
            ],
            "standings": [s.to_json() for s in self.standings],
            "stopped": self.stopped,
        }

    def report(self) -> str:
        """The tournament's report: pairings by round, standings, then the arena's report."""
        return format_tournament(self)


def seeding_order(labels: Sequence[str], seed: int) -> list[str]:
    """The entrants in an order drawn from the seed (the same on every machine)."""
    order = list(labels)
    random.Random(derive_seed(seed, "seeding")).shuffle(order)
    return order


class _Games:
    """Plays tables on an executor and keeps every game, in order, for the arena's report."""

    def __init__(self, config: TournamentConfig, labels: list[str], executor: Executor, on_done: OnDone | None):
        self.config = config
        self.executor = executor
        self.on_done = on_done
        self.index = {name: e for e, name in enumerate(labels)}
        self.labels = list(labels)
        self.specs = list(config.players)
        self.computers: dict[int, int] = {}
        self.tables: list[tuple[int, ...]] = []
        self.tasks: list[GameTask] = []
        self.results: list[GameResult] = []
        self.rules_json = config.rules.to_json()

    def computer(self, j: int) -> int:
        """The entrant number of the ``j``-th computer player of a bye's table (a label of its own)."""
        if j not in self.computers:
            many = self.config.size > 2
            self.computers[j] = len(self.labels)
            self.labels.append(f"{self.config.bye_player} (bye{f' {j + 1}' if many else ''})")
            self.specs.append(self.config.bye_player)
        return self.computers[j]

    def play(self, tables: Sequence[Table], deal_seeds: dict[int, int]) -> list[Result]:
        """Play ``tables`` (the seed of each one's deal by its round) and return their results."""
        rules = self.config.rules
        batch: list[GameTask] = []
        for table in tables:
            sides = tuple(
                self.computer(table.computers.index(s)) if s in table.computers else self.index[name]
                for s, name in enumerate(table.seats)
            )
            seats = tuple(self.specs[sides[rules.side_of(s)]] for s in range(rules.players))
            player_seeds = tuple(
                derive_seed(self.config.seed, "player", table.round, table.number, s) for s in range(rules.players)
            )
            batch.append(
                GameTask(
                    len(self.tasks) + len(batch),
                    len(self.tables),
                    table.round - 1,
                    0,
                    sides,
                    seats,
                    deal_seeds[table.round],
                    player_seeds,
                    self.rules_json,
                    self.config.max_hands,
                )
            )
            self.tables.append(sides)
        done = list(self.executor.map(batch, self.on_done))
        if [r.index for r in done] != [t.index for t in batch]:
            raise RuntimeError(f"executor {self.executor.name} returned results out of order or incomplete")
        self.tasks += batch
        self.results += done
        return [
            Result(table, tuple(res.scores), res.winner, rules.side_of(res.forfeit) if res.forfeit >= 0 else -1)
            for table, res in zip(tables, done, strict=True)
        ]


def _deal(config: TournamentConfig, what: str, number: int) -> Deal:
    seed = derive_seed(config.seed, what, number)
    return Deal(number, seed, seed_commitment(seed))


def run_tournament(config: TournamentConfig, executor: Executor, on_done: OnDone | None = None) -> TournamentResult:
    """Check the settings, then pair, play and score the tournament round by round on ``executor``."""
    config.check()
    labels = entrant_labels(config.players)
    seeding = seeding_order(labels, config.seed)
    log = _Games(config, labels, executor, on_done)
    results: list[Result] = []
    deals: list[Deal] = []
    stopped = ""
    start = time.perf_counter()
    if config.kind == SWISS:
        for number in range(1, config.rounds + 1):
            deal = _deal(config, "round", number)
            try:
                tables = swiss_round(
                    seeding,
                    results,
                    number,
                    deal.commitment,
                    size=config.size,
                    bye_player=config.bye_player,
                    rounds=config.rounds,
                )
            except PairingError as exc:
                stopped = f"stopped before round {number}: {exc}"
                break
            deals.append(deal)
            results += log.play(tables, {number: deal.seed})
    else:
        results, deals = _run_arena(config, seeding, log)
    wall = time.perf_counter() - start
    games = ArenaResult(
        ArenaConfig(tuple(log.specs), config.rules, max(1, len(deals)), config.seed, config.max_hands),
        log.labels,
        log.tables,
        log.tasks,
        log.results,
        executor.name,
        executor.workers,
        wall,
    )
    result = TournamentResult(config, labels, seeding, deals, results, games, stopped)
    games.tournament = result.summary()
    return result


def _run_arena(config: TournamentConfig, seeding: list[str], log: _Games) -> tuple[list[Result], list[Deal]]:
    """The arena's waves (see the module): its results, and the deals its tables played."""
    results: list[Result] = []
    committed: list[Deal] = []
    played: dict[str, int] = dict.fromkeys(seeding, 0)
    free = list(seeding)
    clock, limit, started = 0.0, config.minutes * 60, 0
    for _ in range(MAX_WAVES):
        if (limit and clock >= limit) or (config.games and started >= config.games):
            break
        while len(committed) < 1 + config.size * (1 + max(played.values())):
            committed.append(_deal(config, "deal", len(committed) + 1))
        tables = arena_tables(free, seeding, results, [d.commitment for d in committed], size=config.size)
        if config.games:
            tables = tables[: config.games - started]
        if not tables:
            break
        wave = log.play(tables, {d.number: d.seed for d in committed})
        results += wave
        started += len(tables)
        moves = [r.moves for r in log.results[-len(tables) :]]
        clock += max(1, *moves) * config.move_seconds
        seated = [name for t in tables for name in t.entrants()]
        for name in seated:
            played[name] += 1
        free = [x for x in free if x not in seated] + seated
    used = {r.table.round for r in results}
    return results, [d for d in committed if d.number in used]


def _fmt(x: float, sign: bool = False) -> str:
    """A number of points: whole numbers bare, others with up to two decimals."""
    text = f"{x:+.2f}" if sign else f"{x:.2f}"
    return text.rstrip("0").rstrip(".")


def _columns(header: list[str], rows: list[list[str]], right: str) -> list[str]:
    """Columns padded to their widest cell, right-aligned where ``right`` has an ``r``."""
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
    return [
        "  ".join(
            cell.rjust(w) if align == "r" else cell.ljust(w) for cell, w, align in zip(r, widths, right, strict=True)
        ).rstrip()
        for r in [header, *rows]
    ]


def format_tournament(result: TournamentResult) -> str:
    """The tournament as text: its deals and tables round by round (who sat on each side, their
    points, the winner), the standings, then the arena's report of the same games."""
    config = result.config
    word = "round" if config.kind == SWISS else "deal"
    lines = [
        f"{config.kind} tournament of {len(result.entrants)} entrants: {config.rules.describe()}; seed {config.seed}",
        f"seeding order (drawn from the seed): {', '.join(result.seeding)}",
        f"every table of a {word} plays the same cards, committed before it as the SHA-256 of its seed's digits",
    ]
    by_deal: dict[int, list[tuple[int, Result]]] = {}
    for g, r in enumerate(result.results):
        by_deal.setdefault(r.table.round, []).append((g, r))
    seeds = {d.number: d for d in result.deals}
    for number in sorted(by_deal):
        deal = seeds[number]
        lines += ["", f"{word} {number}: commitment {deal.commitment}, seed {deal.seed}"]
        rows = []
        for g, r in by_deal[number]:
            table = r.table
            names = [f"{n} (bye)" if s in table.computers else n for s, n in enumerate(table.seats)]
            winner = names[r.winner] if r.winner >= 0 else "none (draw)"
            if r.forfeit >= 0:
                winner += f" ({names[r.forfeit]} forfeited)"
            seats = ", ".join(f"{n} {p}" for n, p in zip(names, r.scores, strict=True))
            rows.append([f"  {table.number}", seats, winner, str(g)])
        lines += _columns(["  table", "sides and points", "winner", "game"], rows, "rllr")
    if result.stopped:
        lines += ["", result.stopped]
    lines += [
        "",
        "standings: match points (win 1, draw 1/2), then Buchholz (the points of the entrants met),",
        "then board (points beyond the field that held the same cards), then the seeding order",
    ]
    lines += _columns(
        ["rank", "entrant", "points", "buchholz", "board", "games", "wins", "byes"],
        [
            [
                str(s.rank),
                s.name,
                _fmt(s.points),
                _fmt(s.buchholz),
                _fmt(s.board, sign=True),
                str(s.games),
                str(s.wins),
                str(s.byes),
            ]
            for s in result.standings
        ],
        "rlrrrrrr",
    )
    return "\n".join(lines) + "\n\n" + result.games.report()


def tournament(
    players: Sequence[str],
    kind: str = SWISS,
    *,
    rounds: int = 3,
    minutes: float = 0.0,
    games: int = 0,
    rules: Rules | None = None,
    seed: int = 0,
    workers: int | None = 1,
    executor: str | None = None,
    address: str | None = None,
    bye_player: str = BYE_PLAYER,
    max_hands: int = 100,
    on_done: OnDone | None = None,
) -> TournamentResult:
    """Play a Swiss (``rounds``) or an arena (``minutes`` on the simulated clock and/or ``games``)
    among player specs, as ``cassino tournament`` does: ``print(tournament(["greedy", "random",
    "novice", "casual"], rounds=2).report())``. ``workers``, ``executor`` and ``address`` choose
    where the games run as ``match`` does (one worker: in this process)."""
    if isinstance(players, str):
        raise ArgumentError(f"players is a list of specs, got the one string {players!r}: write [{players!r}, ...]")
    config = TournamentConfig(
        kind,
        tuple(players),
        rules or Rules(),
        seed,
        rounds=rounds if kind == SWISS else 0,
        minutes=minutes,
        games=games,
        bye_player=bye_player,
        max_hands=max_hands,
    )
    config.check()
    name = executor or ("ray" if address else "inprocess" if workers == 1 else "process")
    runner = make_executor(name, workers, address)
    try:
        return run_tournament(config, runner, on_done)
    finally:
        runner.close()
