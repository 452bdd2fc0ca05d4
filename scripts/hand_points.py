"""Learn how a hand's points fall, from self-play: the data behind ``cassino.players.odds``.

    python scripts/hand_points.py [--hands 4000] [--player "search:worlds=10"] [--workers 2]

plays ``--hands`` hands of each preset between two copies of ``--player`` (seat 0 deals every
hand, from the decks of seeds 0, 1, ...) and writes how often each pair of points came
(the dealer's side first, sweeps included) to ``src/cassino/players/data/hand_points.json``.
The chance of winning the game from any scores is computed from these counts when first needed.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

from cassino.players.base import decide, make_player
from cassino.rules import PRESETS, make_rules
from cassino.state import State

OUT = Path(__file__).resolve().parent.parent / "src" / "cassino" / "players" / "data" / "hand_points.json"


def play_hands(job: tuple[str, str, int, int]) -> list[tuple[int, int]]:
    """The points (dealer's side, other side) of the hands of seeds ``start`` to ``stop - 1``."""
    preset, spec, start, stop = job
    rules = make_rules(preset)
    out = []
    for seed in range(start, stop):
        players = [make_player(spec, seed=2 * seed + 1), make_player(spec, seed=2 * seed + 2)]
        state = State.new(rules, seed, dealer=0)
        while not state.hand_over:
            state.push(decide(players[state.to_move], state))
        assert state.result is not None
        points = state.result.points
        out.append((points[0], points[1]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--player", default="search:worlds=10")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--presets", default=",".join(PRESETS))
    args = parser.parse_args()
    data = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    chunk = 50
    with Pool(args.workers) as pool:
        for preset in args.presets.split(","):
            start = time.perf_counter()
            jobs = [(preset, args.player, s, min(s + chunk, args.hands)) for s in range(0, args.hands, chunk)]
            counts: Counter[tuple[int, int]] = Counter()
            for hands in pool.imap_unordered(play_hands, jobs):
                counts.update(hands)
            data[preset] = {
                "player": args.player,
                "hands": args.hands,
                "counts": sorted([d, o, n] for (d, o), n in counts.items()),
            }
            OUT.parent.mkdir(parents=True, exist_ok=True)
            lines = ",\n".join(f"{json.dumps(name)}: {json.dumps(entry)}" for name, entry in data.items())
            OUT.write_text("{\n" + lines + "\n}\n", encoding="utf-8")
            print(f"{preset}: {args.hands} hands in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
