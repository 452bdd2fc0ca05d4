"""Reading a move and a table the way a teacher names them: a pair, a sum, a sweep, a raise, a
table the opponent could sweep, a careless trail of a scoring card. Shared by the lessons, the
coach and the review, from a ``View`` only, and built on the engine's and the players' helpers
(``table_after``, ``best_capture``).
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

from ..cards import ACES_MASK, BIG_CASINO, DECK_SIZE, LITTLE_CASINO, RANK_MASKS, CardMask, rank
from ..checks import build_is_single, court_choices
from ..moves import (
    BUILD,
    CAPTURE,
    HIGHEST_VALUE,
    TRAIL,
    MoveCode,
    code_card,
    code_cards,
    code_kind,
    code_table,
    code_value,
)
from ..players.evaluate import COURTS, best_capture, card_worth, table_after, value_takers
from ..reasons import Cards
from ..rules import Rules
from ..scoring import CARD_ITEMS, POINTS
from ..state import Build
from ..view import View


class MoveFacts(NamedTuple):
    """What a legal move does, in a teacher's words."""

    code: MoveCode
    kind: int
    card: int
    value: int
    pairs: CardMask
    """Loose cards taken by pairing: of the played card's rank (a court card's only way)."""
    sums: CardMask
    """Loose cards taken or built in groups that add up (every loose card not paired)."""
    builds: tuple[Build, ...]
    """The builds the move takes or joins."""
    sweep: bool
    """A capture that leaves the table empty."""
    raises: bool
    """A build move that joins a build at a new value."""
    multiple: bool
    """A build move whose result holds several groups of its value (frozen)."""


def read_move(view: View, code: MoveCode) -> MoveFacts:
    """The facts of one of the view's moves."""
    kind, card, value, taken = code_kind(code), code_card(code), code_value(code), code_table(code)
    loose: CardMask = taken & view.loose
    builds = tuple(b for b in view.builds if b.cards & taken)
    if kind == CAPTURE:
        pairs = loose if not value else loose & (RANK_MASKS[value - 1] if value < HIGHEST_VALUE else 0)
    else:
        pairs = 0
    sweep = kind == CAPTURE and loose == view.loose and len(builds) == len(view.builds)
    raises = kind == BUILD and any(b.value != value for b in builds)
    multiple = kind == BUILD and not build_is_single(Build(code_cards(code), value, view.seat))
    return MoveFacts(code, kind, card, value, pairs, loose & ~pairs, builds, sweep, raises, multiple)


def table_cards(loose: CardMask, builds: tuple[Build, ...]) -> CardMask:
    """Every card on a table: the loose ones and those in builds."""
    for build in builds:
        loose |= build.cards
    return loose


def capture_values(rules: Rules) -> tuple[int, ...]:
    """Every value a card may capture with (1 for an ace, 14 for a royal ace played high)."""
    top = max(rules.values)
    return tuple(range(1, top + 1)) + ((HIGHEST_VALUE,) if rules.royal and rules.royal_ace_high else ())


def sweepable(view: View, code: MoveCode) -> CardMask:
    """The table ``code`` leaves when an opponent could sweep it next (a card that takes it all
    is still unseen, and an opponent still has cards to come), else 0."""
    loose, builds = table_after(code, view.loose, view.builds, view.seat)
    everything = table_cards(loose, builds)
    rules = view.rules
    opponents = [s for s in range(rules.players) if rules.side_of(s) != rules.side_of(view.seat)]
    if not everything or not (view.stock_size or any(view.hand_sizes[s] for s in opponents)):
        return 0
    unseen = view.unseen
    worth = card_worth(rules)
    for value in capture_values(rules):
        if unseen & value_takers(value) and best_capture(rules, worth, loose, builds, value)[1] == everything:
            return everything
    # A classic court card takes only loose cards of its rank (5.3): a sweep when they are all.
    r = rank(everything.bit_length() - 1)
    if rules.royal or builds or r not in COURTS or everything & ~RANK_MASKS[r] or not unseen & RANK_MASKS[r]:
        return 0
    return everything if everything in court_choices(rules.court_capture, everything) else 0


def keeper(hand: CardMask, value: int) -> Cards | None:
    """The card of ``hand`` kept to take a build of ``value`` (the lowest, when several)."""
    keep = hand & value_takers(value)
    return Cards.one((keep & -keep).bit_length() - 1) if keep else None


@cache
def card_points(rules: Rules) -> tuple[int, ...]:
    """The points each card scores by itself in the count (casinos, aces, spades under spade
    scoring): most cards and most spades belong to no single card."""
    points = [0] * DECK_SIZE
    for item, card in CARD_ITEMS[rules.scoring]:
        points[card] += POINTS[item]
    return tuple(points)


def points_in(rules: Rules, cards: CardMask) -> tuple[int, CardMask]:
    """The points that ``cards`` score by themselves, and the cards that score them."""
    points = card_points(rules)
    scoring = 0
    total = 0
    for c in range(DECK_SIZE):
        if cards >> c & 1 and points[c]:
            scoring |= 1 << c
            total += points[c]
    return total, scoring


KEPT: Final[CardMask] = ACES_MASK | 1 << BIG_CASINO | 1 << LITTLE_CASINO
"""The cards a learner is taught never to trail while a capture is there: the aces and the two
casinos, which score by themselves under every scoring."""


def careless_trail(view: View, code: MoveCode) -> bool:
    """True when ``code`` trails an ace or a casino while the seat could capture: what the tutorial
    teaches never to do. The one rule for both sides of teaching: a guided coach flags such a move
    whatever its search says, and no lesson shows one."""
    if code_kind(code) != TRAIL or not KEPT >> code_card(code) & 1:
        return False
    return any(code_kind(c) == CAPTURE for c in view.legal)
