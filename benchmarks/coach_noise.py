"""The coach's noise: how much the estimated loss of a move changes with the seed of the sampled
worlds, which sets the margin below which the coach stays silent (``learn.coach.MARGIN``).

Positions come from games of the heuristic player against itself (classic, two players), at turns
with a real choice and hidden cards (the last deal for two is solved exactly: no noise). Each
position is valued by coaches of ``--seeds`` different seeds; for every legal move the loss
(best - move) is taken under each seed and its standard deviation over the seeds measured. The
pooled figure (root mean square over every move of every position) is the noise of one loss
estimate on average; the margin suggested is 2.5 times the 90th percentile, so that it covers the
noisier positions too. Also timed: seconds per position valued.

    python benchmarks/coach_noise.py [--positions 60] [--seeds 8] [--worlds 24] [--plain] [--full]

``--plain`` draws each world independently, as the coach did before its worlds were balanced
(``worlds.BalancedDeals``). ``--full`` values every move on every world, as the coach did before
its moves raced: the margin is set from that noise, since a move near the margin is never settled
early. Racing leaves a settled move's loss noisier (it was valued on fewer worlds) but only where
it clears the margin: what a person meets is whether a move is flagged, so the script also counts
the moves that some seeds flag and others do not.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from cassino.game import Game
from cassino.learn.coach import MARGIN, WORLDS, Coach
from cassino.players.base import decide, make_player
from cassino.rules import make_rules
from cassino.view import View, view_of

SIGMAS = 2.5
"""How many standard deviations of noise the margin covers: a loss this far above the noise is
a real one about 99 times in 100 (one-sided, were the noise normal)."""


def positions(count: int, seed: int) -> list[View]:
    """Views of the seat to move with several legal moves and cards still in the stock."""
    out: list[View] = []
    game_seed = seed
    while len(out) < count:
        game = Game(make_rules("classic"), seed=game_seed)
        players = [make_player("heuristic", game_seed), make_player("heuristic", game_seed + 1)]
        while not game.over and len(out) < count:
            state = game.state
            if len(state.legal_codes()) > 2 and state.remaining_stock:
                out.append(view_of(state, state.to_move))
            game.push(decide(players[state.to_move], state))
        game_seed += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--plain", action="store_true", help="independent worlds, not balanced ones")
    parser.add_argument("--full", action="store_true", help="every move valued on every world (no racing)")
    args = parser.parse_args()
    views = positions(args.positions, 1)
    squares: list[float] = []
    per_move: list[float] = []
    flips = 0
    flagged = unsettled = 0
    elapsed = 0.0
    for view in views:
        losses: dict[int, list[float]] = {code: [] for code in view.legal}
        bests = set()
        for seed in range(args.seeds):
            coach = Coach(seed=seed, worlds=args.worlds, balanced=not args.plain, race=not args.full)
            start = time.perf_counter()
            ranked = coach.values(view)
            elapsed += time.perf_counter() - start
            top = ranked[0][1]
            bests.add(ranked[0][0])
            for code, value in ranked:
                losses[code].append(top - value)
        flips += len(bests) > 1
        for values in losses.values():
            flags = sum(loss > MARGIN for loss in values)
            flagged += flags > 0
            unsettled += 0 < flags < len(values)
            sd = statistics.stdev(values)
            per_move.append(sd)
            squares.append(sd * sd)
    pooled = math.sqrt(sum(squares) / len(squares))
    per_move.sort()
    kind = "independent" if args.plain else "balanced"
    print(f"{len(views)} positions, {len(per_move)} moves, {args.seeds} seeds, {args.worlds} {kind} worlds each")
    print(
        f"sd of a loss estimate: pooled {pooled:.3f}, median {per_move[len(per_move) // 2]:.3f}, "
        f"90th percentile {per_move[int(len(per_move) * 0.9)]:.3f}, largest {per_move[-1]:.3f} points"
    )
    print(f"best move differs between seeds in {flips} of {len(views)} positions")
    print(f"moves flagged by some seed: {flagged}, of them by some seeds and not others: {unsettled}")
    print(f"seconds per position valued: {elapsed / (len(views) * args.seeds):.3f}")
    high = per_move[int(len(per_move) * 0.9)]
    print(f"suggested margin ({SIGMAS} x the 90th percentile sd): {SIGMAS * high:.2f} points (MARGIN now {MARGIN})")


if __name__ == "__main__":
    main()
