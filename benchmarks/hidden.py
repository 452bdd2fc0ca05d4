"""What the hidden cards are worth: the search told part of the other hand, against the plain search.

``told:p=P`` is the default search that, before each move, is told each card of the other
player's hand with probability ``p`` and deals those cards to that hand in every world it samples
(the rest as ``search`` deals them, reading the deal's play). ``p=0`` is the plain search with
other seeds (a control), ``p=1`` knows the whole hand (as ``cheater`` does, without the stock).
Each ``p`` plays ``search`` on the same mirrored deals (``strength.py``); the table gives the points
a hand it gains, with the standard error over deals. A fair player learns the other hand only from
its play: the curve is the yardstick of what reading that play better could gain.

    python benchmarks/hidden.py --told 0,0.1,0.25,0.5,1 --deals 300 --first 50000 [--preset royal]
"""

from __future__ import annotations

import argparse
import json
import random
from functools import partial
from multiprocessing import Pool
from pathlib import Path

from strength import mean_and_error, play_deal

from cassino.cards import CardMask, cards_of
from cassino.moves import MoveCode
from cassino.players.base import Player, decide, register
from cassino.players.evaluate import value_takers
from cassino.players.heuristic import rate_moves
from cassino.players.search import SearchPlayer
from cassino.players.worlds import WorldSampler
from cassino.state import State
from cassino.view import View, view_of


class ToldPlayer:
    """The default search, told each card of the other (2-player) hand with probability ``p``.

    It is asked through ``ask`` below, which shows it its view and the other hand; asked as any
    other player (``decide``), it sees its view only and plays as ``search``."""

    name = "told"

    def __init__(self, seed: int | None = None, p: float = 0.5) -> None:
        self.search = SearchPlayer(seed=seed)
        self.p = float(p)
        # A generator of its own, so that p=0 samples exactly the worlds the plain search would.
        self.tell = random.Random(seed)

    def choose(self, view: View) -> MoveCode:
        """The plain search's move: nothing told."""
        return self.search.choose(view)

    def choose_told(self, view: View, hidden: CardMask) -> MoveCode:
        """The search's move over worlds that give the other hand the cards of ``hidden`` (its
        real cards) it was told."""
        search = self.search
        if len(view.legal) == 1 or search._known(view):
            return search.choose(view)
        if view.rules.players != 2:
            raise SystemExit("hidden.py: told players are for 2-player rules")
        told = 0
        for card in cards_of(hidden):
            if self.tell.random() < self.p:
                told |= 1 << card
        rated = sorted(rate_moves(view), key=lambda rc: -rc[0])[: search.candidates]
        sampler = WorldSampler(view, search.rng, search.infer, search.floor)
        other = 1 - view.seat
        keep = _build_takers(view, other)

        def make_world() -> State:
            return _with_told(sampler(), other, told, keep, search.rng)

        return search._sample(make_world, [c for _, c in rated], view.rules.side_of(view.seat))


def ask(player: Player, state: State) -> MoveCode:
    """A told player's move from its view and the other hand; any other player's as ``decide``."""
    if isinstance(player, ToldPlayer):
        seat = state.to_move
        return player.choose_told(view_of(state, seat), state.hands[1 - seat])
    return decide(player, state)


def _build_takers(view: View, seat: int) -> CardMask:
    """The cards that take a build ``seat`` owns: a world must leave it one of them."""
    out = 0
    for _cards, value, owner in view.builds:
        if owner == seat:
            out |= value_takers(value)
    return out


def _with_told(world: State, other: int, told: CardMask, keep: CardMask, rng: random.Random) -> State:
    """``world`` with the ``told`` cards moved into ``other``'s hand, each in exchange for one of its
    untold cards (taken from the stock's place of the told card); a build's takers leave last."""
    hand = world.hands[other]
    missing = told & ~hand
    if not missing:
        return world
    spare = cards_of(hand & ~told)
    rng.shuffle(spare)
    spare.sort(key=lambda c: bool(keep >> c & 1), reverse=True)  # takers first in the list: popped last
    stock = list(world.remaining_stock)
    for card in cards_of(missing):
        out = spare.pop()
        hand = (hand & ~(1 << out)) | 1 << card
        stock[stock.index(card)] = out
    hands = list(world.hands)
    hands[other] = hand
    return State(
        world.rules, dealer=world.dealer, to_move=world.to_move, hands=hands, loose=world.loose, builds=world.builds,
        stock=stock, captured=world.captured, sweeps=world.sweeps, last_capturer=world.last_capturer,
        scores=world.scores,
    )  # fmt: skip


register("told", ToldPlayer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--told", default="0,0.1,0.25,0.5,1", help="the chances p, comma-separated")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first", type=int, default=50_000, help="the first deal's number")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write the table as JSON to this file")
    args = parser.parse_args()
    rows = []
    print(f"told:p=P against search, {args.preset}: {args.deals} mirrored deals from deal {args.first}")
    for p in (float(x) for x in args.told.split(",")):
        spec = f"told:p={p}"
        jobs = [(spec, "search", args.preset, deal) for deal in range(args.first, args.first + args.deals)]
        with Pool(args.workers) as pool:
            diffs = [part["deal difference"] / 2 for part, _ in pool.imap(partial(play_deal, ask=ask), jobs)]
        mean, error = mean_and_error(diffs)
        rows.append({"p": p, "points_a_hand": round(mean, 3), "error": round(error, 3), "deals": args.deals})
        print(f"p={p:<5} {mean:+.3f} ± {error:.3f} a hand")
    if args.out:
        Path(args.out).write_text(json.dumps({"preset": args.preset, "first": args.first, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
