"""Whole games on mirrored deals, checkpointed: a long match that a later session goes on with.

Pair ``p`` is two games from the same decks (seed ``--seed`` + p): A in seat 0, then A in seat 1,
each player with the same seed in both. Every finished pair is appended at once to ``--results``
(one JSON line), so a run stopped anywhere loses at most the pairs in play, and running the same
command again plays only the pairs missing, up to ``--pairs``. ``--minutes`` stops starting new
pairs after that long. The report reads the whole file: A's games won of those decided, with the
Wilson 95% interval, the pairs won 2-0, split and lost 0-2, A's mean final margin a game, and each
player's mean time a move.

    python benchmarks/games.py "search:balance=1,worlds=30" search --pairs 1000 \\
        --results benchmarks/results/games/master-vs-search.jsonl [--workers 2] [--minutes 30]
    python benchmarks/games.py A B --results FILE --report     # the figures only, playing nothing

A file holds one match: its first line names the players, the rules and the seed, and a run with
others is refused rather than mixed in.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from _checkpoint import add_match_arguments, play_into, read_match

from cassino.arena.game import play_game
from cassino.arena.stats import wilson
from cassino.players.base import make_player
from cassino.rules import make_rules


def play_pair(job: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """One pair: the two games on the decks of ``seed + pair``, A in seat 0 then in seat 1."""
    a_spec, b_spec, preset, seed, pair = job
    rules = make_rules(preset)
    games = []
    for a_seat in (0, 1):
        a = make_player(a_spec, seed=7 * pair + 1)
        b = make_player(b_spec, seed=7 * pair + 2)
        result = play_game(rules, [a, b] if a_seat == 0 else [b, a], seed + pair)
        b_seat = 1 - a_seat
        games.append({
            "a_seat": a_seat,
            "a_won": None if result.winner < 0 else result.winner == a_seat,
            "margin": result.scores[a_seat] - result.scores[b_seat],
            "hands": len(result.hand_points),
            "a_moves": result.seat_moves[a_seat], "a_seconds": result.think_seconds[a_seat],
            "b_moves": result.seat_moves[b_seat], "b_seconds": result.think_seconds[b_seat],
        })  # fmt: skip
    return {"pair": pair, "games": games}


def report(pairs: list[dict[str, Any]], a_spec: str, b_spec: str) -> None:
    """The match's figures from its pairs."""
    games = [g for p in pairs for g in p["games"]]
    decided = [g for g in games if g["a_won"] is not None]
    wins = sum(1 for g in decided if g["a_won"])
    lo, hi = wilson(wins, len(decided))
    sweeps = [sum(1 for g in p["games"] if g["a_won"]) for p in pairs]
    print(f"{a_spec} against {b_spec}: {len(pairs)} pairs, {len(games)} games ({len(games) - len(decided)} undecided)")
    if decided:
        print(
            f"A won {wins} of {len(decided)}: {100 * wins / len(decided):.1f}% [95% CI {100 * lo:.1f}, {100 * hi:.1f}]"
        )
    print(f"pairs: A won both {sweeps.count(2)}, split {sweeps.count(1)}, B won both {sweeps.count(0)}")
    if games:
        margin = sum(g["margin"] for g in games) / len(games)
        hands = sum(g["hands"] for g in games) / len(games)
        print(f"A's mean final margin {margin:+.2f} points a game; {hands:.2f} hands a game")
        for side in ("a", "b"):
            moves = sum(g[f"{side}_moves"] for g in games)
            seconds = sum(g[f"{side}_seconds"] for g in games)
            print(f"{side.upper()}: {1000 * seconds / max(moves, 1):.2f} ms a move over {moves} moves")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_match_arguments(parser, "pairs")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=3_000_000, help="pair p plays the decks of seed + p")
    args = parser.parse_args()
    path = Path(args.results)
    match = {"a": args.a, "b": args.b, "preset": args.preset, "seed": args.seed}
    pairs = read_match(path, match, "games")
    if not args.report:
        done = {p["pair"] for p in pairs}
        todo = [(args.a, args.b, args.preset, args.seed, p) for p in range(args.pairs) if p not in done]
        play_into(path, match, pairs, play_pair, todo, args.workers, args.minutes)
    report(sorted(pairs, key=lambda p: int(p["pair"])), args.a, args.b)


if __name__ == "__main__":
    main()
