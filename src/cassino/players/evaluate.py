"""What cards and tables are worth, for players that weigh moves: points each card brings, what a
move takes now, and what it leaves an opponent, given the cards still unseen (card counting).

Everything works on masks and move codes: no State is built, so a player can rate many moves fast.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Final, NamedTuple

from ..cards import (
    ACE,
    ACES_MASK,
    BIG_CASINO,
    DECK_SIZE,
    FULL_DECK,
    JACK,
    JACK_OF_SPADES,
    KING,
    LITTLE_CASINO,
    QUEEN,
    RANK_MASKS,
    SPADES_MASK,
    CardMask,
    cards_of,
    count,
)
from ..moves import CAPTURE, HIGHEST_VALUE, TRAIL, MoveCode, code_card, code_cards, code_kind, code_table, code_value
from ..partition import UP_TO, card_sets
from ..rules import Rules
from ..state import Build, sorted_builds
from ..view import View

_NUMERAL = {False: UP_TO[10], True: UP_TO[13]}

CARD_SHARE: Final = 3 / 27
"""A card's share of the 3 points for most cards, which 27 of the 52 cards make sure of."""
SPADE_SHARE: Final = 1 / 7
"""A spade's share of the point for most spades, which 7 of the 13 spades make sure of."""
COURTS: Final = (JACK, QUEEN, KING)
"""The court ranks: under classic values they capture by pairing only."""


@lru_cache(maxsize=64)
def card_worth(rules: Rules) -> tuple[float, ...]:
    """The points a card is worth when captured, on average: its share of most cards and most
    spades, plus its own points (casinos, aces, spades under spade scoring)."""
    out = []
    for c in range(DECK_SIZE):
        w = CARD_SHARE
        bit = 1 << c
        if rules.scoring == "standard":
            w += SPADE_SHARE if bit & SPADES_MASK else 0.0
            w += 2.0 if c == BIG_CASINO else 0.0
            w += 1.0 if c == LITTLE_CASINO else 0.0
            w += 1.0 if bit & ACES_MASK else 0.0
        else:
            w += 1.0 if bit & SPADES_MASK else 0.0
            w += 2.0 if c == BIG_CASINO else 0.0
            w += 1.0 if c in (LITTLE_CASINO, JACK_OF_SPADES) else 0.0
            w += 1.0 if bit & ACES_MASK else 0.0
        out.append(w)
    return tuple(out)


def mirror_key(code: MoveCode, loose: CardMask, worth: tuple[float, ...]) -> tuple[object, ...]:
    """What a move is up to exchanging cards that score alike: its kind and value, the played
    card's rank and worth, the builds it takes, and the rank and worth of each loose card it takes.

    Two cards of one rank and one worth score alike (``card_worth`` holds every point a suit can
    bring), so where both lie in the same place, both in the mover's hand or both loose on the
    table, exchanging them changes nothing in the position or in what any seat has seen: moves of
    one key are worth exactly the same in every world (mirror images)."""
    card = code_card(code)
    taken = code_table(code)
    kinds = []
    rest = taken & loose
    while rest:
        low = rest & -rest
        rest ^= low
        c = low.bit_length() - 1
        kinds.append((c >> 2, worth[c]))
    kinds.sort()
    return (code_kind(code), code_value(code), card >> 2, worth[card], taken & ~loose, tuple(kinds))


def distinct_moves(codes: list[MoveCode], loose: CardMask, worth: tuple[float, ...]) -> list[MoveCode]:
    """``codes`` less each move whose mirror image (``mirror_key``) comes earlier: searching both
    doubles the work for nothing, and a race between two moves of one value is never won."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for code in codes:
        key = mirror_key(code, loose, worth)
        if key not in seen:
            seen.add(key)
            out.append(code)
    return out


def value_takers(value: int) -> CardMask:
    """The cards that capture a build of ``value`` (2..14): those of its rank, or the aces for 14
    (royal ace high)."""
    return ACES_MASK if value == HIGHEST_VALUE else RANK_MASKS[value - 1]


def mask_worth(worth: tuple[float, ...], mask: CardMask) -> float:
    """The summed worth of a set of cards."""
    total = 0.0
    while mask:
        low = mask & -mask
        mask ^= low
        total += worth[low.bit_length() - 1]
    return total


def table_after(
    code: MoveCode, loose: CardMask, builds: tuple[Build, ...], seat: int
) -> tuple[CardMask, tuple[Build, ...]]:
    """The table (loose cards, builds) after a move."""
    kind = code_kind(code)
    if kind == TRAIL:
        return loose | 1 << code_card(code), builds
    taken = code_table(code)
    rest = tuple(b for b in builds if not b.cards & taken)
    if kind == CAPTURE:
        return loose & ~taken, rest
    return loose & ~taken, (*rest, Build(code_cards(code), code_value(code), seat))


def holds_probability(unseen_of_kind: int, unseen: int, hand_size: int) -> float:
    """The chance that a hand of ``hand_size`` cards drawn from ``unseen`` cards holds at least one
    of ``unseen_of_kind`` given cards."""
    if hand_size <= 0 or unseen_of_kind <= 0:
        return 0.0
    if unseen_of_kind > unseen - hand_size:
        return 1.0
    key = (unseen_of_kind << 16) | (unseen << 8) | hand_size  # each below 256: at most 52 cards
    p = _HOLDS.get(key)
    if p is None:
        p = _HOLDS[key] = 1.0 - comb(unseen - unseen_of_kind, hand_size) / comb(unseen, hand_size)
    return p


_HOLDS: Final[dict[int, float]] = {}
"""``holds_probability`` by its three counts packed in one int: a few hundred values, asked for
many times a move when worlds are weighed."""


def best_capture(
    rules: Rules,
    worth: tuple[float, ...],
    loose: CardMask,
    builds: tuple[Build, ...],
    value: int,
) -> tuple[float, CardMask]:
    """The most a card of capture ``value`` could take from a table, and the cards taken."""
    table = loose & _NUMERAL[rules.royal] & UP_TO[min(value, HIGHEST_VALUE)]
    best = 0.0
    best_mask = 0
    build_mask = 0
    for build in builds:
        if build.value == value:
            build_mask |= build.cards
    for s in card_sets(table, value, 0, True):
        got = s | build_mask
        if got:
            w = mask_worth(worth, got)
            if w > best:
                best, best_mask = w, got
    return best, best_mask


CaptureOption = tuple[float, int]
"""One way to take something from a table (``capture_options``): what it takes (a card's share
and a sweep's point included) and the rank whose card does it."""


def capture_options(
    rules: Rules, worth: tuple[float, ...], loose: CardMask, builds: tuple[Build, ...]
) -> list[CaptureOption]:
    """Every way a card could take something from this table, the best first (ties by capture
    value, then the court pairings): the part of ``risk_of`` that depends on the table alone."""
    if not loose and not builds:
        return []
    table_all = loose
    for build in builds:
        table_all |= build.cards
    sweep_bonus = 1.0 if rules.sweeps else 0.0
    options: list[CaptureOption] = []
    top = max(rules.values)
    for value in range(1, top + 1):
        gain, got = best_capture(rules, worth, loose, builds, value)
        if not got:
            continue
        if got == table_all:
            gain += sweep_bonus
        options.append((gain + CARD_SHARE, value - 1))
    if not rules.royal:
        # Court cards pair with a loose card of their rank.
        for rank in COURTS:
            on_table = loose & RANK_MASKS[rank]
            if not on_table:
                continue
            gain = max(worth[c] for c in cards_of(on_table))
            if on_table == table_all:
                gain += sweep_bonus
            options.append((gain + CARD_SHARE, rank))
    # Best first: ``risk_of`` orders them by what they take, at every hand it is asked under,
    # and a sorted list sorts again in one pass.
    options.sort(key=lambda option: -option[0])
    return options


def risk_of(options: list[CaptureOption], unseen: CardMask, hand_size: int, sure: CardMask = 0) -> float:
    """What an opponent holding ``hand_size`` of the ``unseen`` cards may take from a table next
    turn (its ``capture_options``), weighted by the chance they hold a card that does it (plus a
    sweep's point): the expected best take. ``sure`` are cards the opponent is known to hold (a
    card of each build they own: of a build's value, so never a court under classic values, where
    courts take by pairing alone)."""
    n_unseen = count(unseen)
    # (gain, chance) for each way to take something; the expected best of them is the risk.
    chances: list[tuple[float, float]] = []
    for gain, rank in options:
        kind = RANK_MASKS[rank]
        if sure & kind:
            p = 1.0
        else:
            p = holds_probability(count(unseen & kind), n_unseen, hand_size)
            if p <= 0.0:
                continue
        chances.append((gain, p))
    chances.sort(reverse=True)
    risk = 0.0
    none_better = 1.0
    for gain, p in chances:
        risk += gain * p * none_better
        none_better *= 1.0 - p
    return risk


def rank_take(rules: Rules, worth: tuple[float, ...], loose: CardMask, builds: tuple[Build, ...], rank: int) -> float:
    """The most a card of ``rank`` could take from this table, its own worth aside, or -1 when it
    takes nothing (court pairing included)."""
    if not rules.royal and rank >= JACK:
        on_table = loose & RANK_MASKS[rank]
        return max(worth[x] for x in cards_of(on_table)) if on_table else -1.0
    best = -1.0
    values = (1, HIGHEST_VALUE) if rank == ACE and rules.royal and rules.royal_ace_high else (rank + 1,)
    for value in values:
        gain, got = best_capture(rules, worth, loose, builds, value)
        if got:
            best = max(best, gain)
    return best


def capturing_ranks(rules: Rules, loose: CardMask, builds: tuple[Build, ...]) -> CardMask:
    """The ranks (as a mask of all four cards of each) of which a card could capture something."""
    out = 0
    worth = card_worth(rules)
    top = max(rules.values)
    for value in range(1, top + 1):
        if best_capture(rules, worth, loose, builds, value)[1]:
            out |= RANK_MASKS[value - 1]
    if rules.royal and best_capture(rules, worth, loose, builds, HIGHEST_VALUE)[1]:
        out |= RANK_MASKS[0]
    if not rules.royal:
        for rank in COURTS:
            if loose & RANK_MASKS[rank]:
                out |= RANK_MASKS[rank]
    return out


class DealMove(NamedTuple):
    """A move another seat made in the current deal, with the public position it was made in."""

    seat: int
    code: MoveCode
    loose: CardMask
    builds: tuple[Build, ...]
    captured: tuple[CardMask, ...]
    hand_sizes: tuple[int, ...]
    kept: CardMask
    """The cards this seat played from this move on: with its hand now, its hand then."""


def deal_moves(view: View) -> list[DealMove]:
    """The moves the other seats made in the current deal, each in the position it was made in.

    Public inference only: the hand's history is replayed from its first table (every card ever
    seen is either in this seat's hand, on that first table or played since). Empty under ``draw``
    (hands change every move) or when the history does not lead to the table on view."""
    rules = view.rules
    if rules.draw or not view.history:
        return []
    played = 0
    for _seat, code in view.history:
        played |= 1 << code_card(code)
    ever = FULL_DECK & ~int(view.unseen) & ~int(view.hand)  # ints: a CardSet's ~ and & are calls
    loose: CardMask = ever & ~played
    builds: tuple[Build, ...] = ()
    captured = [0] * rules.players
    # The moves each seat made in the current deal: a deal gives everyone four cards.
    # Walking back from now, they also give each seat's hand size and played cards at the deal's start.
    left = {s: 4 - view.hand_sizes[s] for s in range(rules.players)}
    sizes = list(view.hand_sizes)
    kept = [0] * rules.players
    current = [False] * len(view.history)
    for i in range(len(view.history) - 1, -1, -1):
        s, code = view.history[i]
        if left[s]:
            left[s] -= 1
            current[i] = True
            sizes[s] += 1
            kept[s] |= 1 << code_card(code)
    out = []
    for i, (seat, code) in enumerate(view.history):
        card_bit = 1 << code_card(code)
        if current[i]:
            if seat != view.seat:
                out.append(
                    DealMove(seat, code, loose, sorted_builds(builds), tuple(captured), tuple(sizes), kept[seat])
                )
            sizes[seat] -= 1
            kept[seat] &= ~card_bit
        if code_kind(code) == CAPTURE:
            captured[seat] |= code_cards(code)
        loose, builds = table_after(code, loose, builds, seat)
    if loose != int(view.loose) or sorted(builds) != sorted(view.builds):
        return []
    return out


def passed_over(view: View) -> dict[int, CardMask]:
    """For each other seat, the ranks it most likely lacks: those that could have captured something
    when it trailed in this deal (most players capture when they can)."""
    out: dict[int, CardMask] = {}
    for move in deal_moves(view):
        if code_kind(move.code) == TRAIL:
            out[move.seat] = out.get(move.seat, 0) | capturing_ranks(view.rules, move.loose, move.builds)
    return out
