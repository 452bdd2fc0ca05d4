"""Strength per hand: two players on the same single hands, each deal played in both seatings.

Whole games to 21 hide a lot in the luck of the deal; the points of single hands on mirrored deals
separate two players with far fewer games. Reports each side's mean points per scoring item and the
mean difference per hand with its standard error.

    python benchmarks/strength.py search heuristic --deals 150 [--first 0] [--preset royal] [--workers 2]

Each player's time a move is measured in the same run (mean and p99, in ms, its moves in both
seatings), so speed and strength are compared on the same load and the same positions.

Deal ``d`` is the same deck and the same player seeds in every run, so two runs over the same deals
can be compared deal by deal: ``--save FILE`` keeps each deal's result, and ``--against FILE``
reports the mean gain per hand over a saved run on the deals both played, with its standard error.

``--b-src DIR`` (or ``--a-src``) plays that side with another version of the package: ``DIR`` is
the ``src`` folder of another checkout (a git worktree of an older commit, built in place with
``python setup.py build_ext --inplace`` for its compiled engine). Each worker runs that player in a
process of its own importing that version, which times its own moves, so a player is measured
against an earlier version of another in the same run, on the same deals and load:

    git worktree add /tmp/before <commit> && (cd /tmp/before && python setup.py build_ext --inplace)
    python benchmarks/strength.py master search --b-src /tmp/before/src --deals 2000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

from cassino.cards import shuffled_deck
from cassino.moves import MoveCode, format_code, parse_code
from cassino.players.base import Player, decide, make_player
from cassino.rules import Rules, make_rules
from cassino.state import State


def deal_hand(rules: Rules, deal: int) -> State:
    """Deal ``deal``'s hand: the same deck in every run and in every process that plays it."""
    return State.new_hand(rules, shuffled_deck(random.Random(deal)), 0, (0, 0))


class Served:
    """A player of another version of the package, in a process of its own that imports it from
    ``src`` (``serve``): it is told each hand's deal and the moves made, and answers its moves with
    the time each took it."""

    def __init__(self, src: str) -> None:
        env = {**os.environ, "PYTHONPATH": src}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )

    def _ask(self, message: dict[str, object]) -> dict[str, object]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"strength: the served player's process ended (status {self.process.wait()})")
        answer: dict[str, object] = json.loads(line)
        return answer

    def new_hand(self, spec: str, seed: int, preset: str, deal: int) -> None:
        """The next hand to play: the player ``spec`` with ``seed``, deal ``deal``'s deck."""
        self._ask({"spec": spec, "seed": seed, "preset": preset, "deal": deal})

    def choose(self, state: State) -> tuple[MoveCode, float]:
        """The served player's move in ``state`` (checked legal here) and its time in seconds."""
        answer = self._ask({"moves": [format_code(code) for _, code in state.history]})
        code = parse_code(str(answer["move"]))
        if code not in state.legal_codes():
            raise SystemExit(f"strength: the served player answered an illegal move: {answer['move']}")
        return code, float(str(answer["seconds"]))


def serve() -> None:
    """The process of a ``Served`` player: this package (the version on ``PYTHONPATH``) plays."""
    player: Player | None = None
    state: State | None = None
    for line in sys.stdin:
        message = json.loads(line)
        if "spec" in message:
            player = make_player(message["spec"], seed=message["seed"])
            state = deal_hand(make_rules(message["preset"]), message["deal"])
            print(json.dumps({"ok": True}), flush=True)
            continue
        assert player is not None and state is not None
        for text in message["moves"][state.moves_played :]:
            state.push(parse_code(text))
        began = time.perf_counter()
        code = decide(player, state)
        took = time.perf_counter() - began
        print(json.dumps({"move": format_code(code), "seconds": took}), flush=True)


SOURCES: dict[str, str] = {}
"""The ``src`` folder of each side played by another version (``--a-src``, ``--b-src``), by tag."""
_served: dict[str, Served] = {}


def _set_sources(sources: dict[str, str]) -> None:
    """A worker's ``SOURCES`` (the pool's initializer)."""
    SOURCES.update(sources)


def play_deal(
    job: tuple[str, str, str, int], ask: Callable[[Player, State], MoveCode] = decide
) -> tuple[Counter[str], dict[str, list[float]]]:
    """One deal in both seatings: per-item points of A and B, the squared difference of each hand,
    and the deal's difference (its two hands' sum); and each player's time for each of its moves
    (seconds, by tag). ``ask`` gets each move from a player (a benchmark may show a player more
    than its view); a side of ``SOURCES`` is a ``Served`` player, which times itself."""
    a_spec, b_spec, preset, deal = job
    rules = make_rules(preset)
    out: Counter[str] = Counter()
    times: dict[str, list[float]] = {"A": [], "B": []}
    deal_diff = 0
    for a_seat in (0, 1):
        seeds = {"A": 7 * deal + a_seat, "B": 7 * deal + a_seat + 3}
        made: dict[str, Player | Served] = {}
        for tag, spec in (("A", a_spec), ("B", b_spec)):
            if tag in SOURCES:
                if tag not in _served:
                    _served[tag] = Served(SOURCES[tag])
                served = made[tag] = _served[tag]
                served.new_hand(spec, seeds[tag], preset, deal)
            else:
                made[tag] = make_player(spec, seed=seeds[tag])
        tags = ["A", "B"] if a_seat == 0 else ["B", "A"]
        state = deal_hand(rules, deal)
        while not state.hand_over:
            tag = tags[state.to_move]
            player = made[tag]
            if isinstance(player, Served):
                code, took = player.choose(state)
            else:
                began = time.perf_counter()
                code = ask(player, state)
                took = time.perf_counter() - began
            times[tag].append(took)
            state.push(code)
        result = state.result
        assert result is not None
        for side, tag in ((a_seat, "A"), (1 - a_seat, "B")):
            for item, points in result.breakdown(side).items():
                out[f"{tag} {item}"] += points
            out[f"{tag} total"] += result.points[side]
        diff = result.points[a_seat] - result.points[1 - a_seat]
        out["squares"] += diff * diff
        deal_diff += diff
    out["deal difference"] = deal_diff
    return out, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--save", help="write each deal's points difference (both hands) to this JSON file")
    parser.add_argument("--against", help="compare deal by deal with a file written by --save")
    parser.add_argument("--a-src", help="play A with the package of this src folder (another checkout)")
    parser.add_argument("--b-src", help="play B with the package of this src folder (another checkout)")
    if sys.argv[1:] == ["--serve"]:
        serve()
        return
    args = parser.parse_args()
    sources = {tag: str(Path(src).resolve()) for tag, src in (("A", args.a_src), ("B", args.b_src)) if src}
    for src in sources.values():
        if not (Path(src) / "cassino" / "__init__.py").is_file():
            # Else the served process would import the installed package instead, unannounced.
            raise SystemExit(f"strength: {src} holds no cassino package: give the src folder of a checkout")
    jobs = [(args.a, args.b, args.preset, deal) for deal in range(args.first, args.first + args.deals)]
    total: Counter[str] = Counter()
    by_deal_result: dict[int, int] = {}
    times: dict[str, list[float]] = {"A": [], "B": []}
    with Pool(args.workers, _set_sources, (sources,)) as pool:
        for (_a, _b, _preset, deal), (part, took) in zip(jobs, pool.imap(play_deal, jobs), strict=True):
            by_deal_result[deal] = part.pop("deal difference")
            total.update(part)
            for tag in times:
                times[tag] += took[tag]
    hands = 2 * args.deals
    mean = (total["A total"] - total["B total"]) / hands
    error = ((total["squares"] / hands - mean * mean) / hands) ** 0.5
    _, by_deal = mean_and_error([d / 2 for d in by_deal_result.values()])
    print(f"{args.a} vs {args.b}, {args.preset}: {hands} hands on {args.deals} deals from deal {args.first}")
    print(f"difference per hand: {mean:+.3f} ± {error:.3f} (one standard error over hands; {by_deal:.3f} over deals)")
    for key in sorted(k for k in total if k != "squares"):
        print(f"  {key:22s} {total[key] / hands:6.3f}")
    for tag, spec in (("A", args.a), ("B", args.b)):
        mean_time, p99 = mean_and_p99(times[tag])
        version = f" from {sources[tag]}" if tag in sources else ""
        print(f"  time a move, {tag} ({spec}{version}): mean {1000 * mean_time:.2f} ms, p99 {1000 * p99:.2f} ms")
    mean_a, mean_b = (sum(times[t]) / len(times[t]) for t in ("A", "B"))
    print(f"  time ratio A/B: {mean_a / mean_b:.3f} (mean time a move, {args.workers} worker processes)")
    if args.save:
        Path(args.save).write_text(json.dumps(by_deal_result))
    if args.against:
        compare(by_deal_result, {int(k): v for k, v in json.loads(Path(args.against).read_text()).items()})


def compare(now: dict[int, int], before: dict[int, int]) -> None:
    """The mean gain per hand of this run over an earlier one, deal by deal, with its standard error."""
    shared = sorted(now.keys() & before.keys())
    if len(shared) < 2:
        raise SystemExit("strength: the saved run shares fewer than two deals with this one")
    mean, error = mean_and_error([(now[d] - before[d]) / 2 for d in shared])
    print(f"against the saved run, deal by deal over {len(shared)} deals: {mean:+.3f} ± {error:.3f} a hand")


def mean_and_p99(times: list[float]) -> tuple[float, float]:
    """The mean of move times and the time 99% of them stay within."""
    took = sorted(times)
    return sum(took) / len(took), took[min(len(took) - 1, int(0.99 * len(took)))]


def mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    mean = sum(values) / len(values)
    return mean, (sum((v - mean) ** 2 for v in values) / len(values) / len(values)) ** 0.5


if __name__ == "__main__":
    main()
