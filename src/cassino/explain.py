"""Why a move is illegal, in plain words: the rule it breaks, checked in the order a player thinks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import movegen
from .cards import RANK_MASKS, RANKS, card_name, format_cards
from .moves import CAPTURE, TRAIL, MoveCode
from .partition import UNIT, is_splittable

if TYPE_CHECKING:
    from .state import State


def _value_name(v: int) -> str:
    return f"{v}-build"


def explain_illegal(state: State, code: MoveCode) -> str:
    """A sentence saying which rule forbids ``code`` here (assumes it is not legal)."""
    rules = state.rules
    seat = state.to_move
    if state.hand_over:
        return "the hand is over: no move is left to play"
    kind = code & 3
    card = (code >> 2) & 63
    value = (code >> 8) & 15
    taken = code >> 12
    hand = state.hands[seat]
    name = card_name(card)
    if not hand >> card & 1:
        return f"{name} is not in the hand of seat {seat}, the player to move"
    rest = hand & ~(1 << card)
    owned = [b for b in state.builds if b[2] == seat]

    for b in owned:
        if not b[0] & taken and movegen.capturing_cards(state, b[1], rest) == 0:
            what = "trail" if kind == TRAIL else "play"
            return (
                f"you own the {b[1]}-build ({format_cards(b[0])}) and {name} is your last card that can take it: "
                f"you may not {what} it unless the move takes that build along (rule 7.2)"
            )
    if kind == TRAIL:
        if owned and not rules.owner_may_trail:
            b = owned[0]
            return f"you own the {_value_name(b[1])} ({format_cards(b[0])}), so you may not trail (rule 7.1)"
        if rules.trail_restriction == "no_rank_match" and state.loose & RANK_MASKS[card >> 2]:
            return f"a loose card of the same rank as {name} is on the table, so it may not be trailed (trail_restriction no_rank_match)"
        if rules.trail_restriction == "no_capturing_card":
            return f"{name} can capture, so it may not be trailed (trail_restriction no_capturing_card)"
        return "this trail is not allowed here"
    loose_taken = taken & state.loose
    build_taken = [b for b in state.builds if b[0] & taken]
    covered = loose_taken
    for b in build_taken:
        covered |= b[0]
        if b[0] & taken != b[0]:
            return f"the {_value_name(b[1])} ({format_cards(b[0])}) can only be taken or joined whole"
    if covered != taken:
        stray = taken & ~covered
        return f"{format_cards(stray)} {'is' if stray.bit_count() == 1 else 'are'} not on the table"
    if kind == CAPTURE:
        return _explain_capture(state, card, value, taken, loose_taken, build_taken)
    return _explain_build(state, card, value, taken, loose_taken, build_taken, rest)


def _explain_capture(
    state: State, card: int, value: int, taken: int, loose_taken: int, build_taken: list[tuple[int, int, int]]
) -> str:
    rules = state.rules
    values = state.values
    vc = values[card]
    name = card_name(card)
    if value == 0:
        if vc:
            return f"{name} is a numeral card: write its capture value as a number, not a rank letter"
        if build_taken or loose_taken & ~RANK_MASKS[card >> 2]:
            return "a court card captures only loose cards of its own rank by pairing (rule 5.3)"
        n = loose_taken.bit_count()
        same = (state.loose & RANK_MASKS[card >> 2]).bit_count()
        mode = rules.court_capture
        if mode == "one":
            return f"{name} takes exactly one loose {RANKS[card >> 2]}, not {n} (court_capture one)"
        if mode == "all":
            return f"{name} must take every loose {RANKS[card >> 2]} ({same}), not {n} (court_capture all)"
        return f"{name} takes one loose {RANKS[card >> 2]}, or all three when exactly three are loose (court_capture one_or_three)"
    if vc == 0:
        return f"{name} is a court card: under classic values it has no number and captures only by pairing, e.g. 'capture {name} {RANKS[card >> 2]}: ...'"
    allowed = movegen.capture_values(state, card)
    if value not in allowed:
        return f"{name} captures as {' or '.join(map(str, allowed))}, not {value}"
    for b in build_taken:
        if b[1] != value:
            return f"a build is taken whole by a card of its own value: the {_value_name(b[1])} cannot be taken as {value} (a build is never part of a sum)"
    vec = 0
    for c in range(52):
        if loose_taken >> c & 1:
            v = values[c]
            if v == 0:
                return f"{card_name(c)} is a court card: it has no value and can only be paired by a card of its rank"
            vec += UNIT[v]
    if loose_taken and not is_splittable(vec, value):
        return f"the loose cards {format_cards(loose_taken)} cannot be split into groups each worth {value}"
    if rules.capture_must_be_maximal:
        return f"a capture with {name} as {value} that takes more cards exists, and captures must be maximal (capture_must_be_maximal)"
    return "this capture is not allowed here"


def _explain_build(
    state: State,
    card: int,
    value: int,
    taken: int,
    loose_taken: int,
    build_taken: list[tuple[int, int, int]],
    rest: int,
) -> str:
    rules = state.rules
    values = state.values
    vc = values[card]
    name = card_name(card)
    seat = state.to_move
    if vc == 0:
        return f"{name} is a court card, and court cards never build under classic values (rule 6.1)"
    top = rules.max_build
    if not 2 <= value <= top:
        return f"a build's value must be 2..{top} under these rules, not {value} (rule 6.1)"
    if movegen.capturing_cards(state, value, rest) == 0:
        holder = "an ace" if value == 14 else f"a card worth {value}"
        return f"to build {value} you must keep {holder} in your hand after playing {name} (rule 6.2)"
    for c in range(52):
        if loose_taken >> c & 1 and values[c] == 0:
            return f"{card_name(c)} is a court card and cannot be built (rule 6.1)"
    if not taken:
        return "a build must use at least one table card or build; to just lay the card down, trail it"
    for b in build_taken:
        single = sum(values[c] for c in range(52) if b[0] >> c & 1) == b[1]
        if b[1] != value and not single:
            return f"the {_value_name(b[1])} ({format_cards(b[0])}) is a multiple build: it is frozen and can only join whole as a group of {b[1]} (rule 6.5)"
        if b[1] != value and b[2] == seat and not rules.raise_own_build:
            return f"you own the {_value_name(b[1])} and may not raise it (raise_own_build is off)"
    raised = [b for b in build_taken if b[1] != value]
    if len(raised) > 1:
        return "one played card can raise at most one build"
    if not rules.duplicate_value_builds:
        for b in state.builds:
            if b[1] == value and not b[0] & taken:
                return f"there is already {'an' if value in (8, 11) else 'a'} {_value_name(value)} ({format_cards(b[0])}): add to it by including it, since only one build per value may stand (rule 6.7)"
    if raised and loose_taken and not rules.table_cards_may_raise:
        b = raised[0]
        if b[1] + vc != value:
            return f"raising the {_value_name(b[1])} with {name} makes {b[1] + vc}, not {value}; loose cards never help to raise (table_cards_may_raise is off)"
    return f"{name} with {format_cards(taken)} cannot be split into groups each worth {value}, one of them holding {name} (rule 6.3)"


def explain_card(state: State, text: str) -> str | None:
    """What one card of the mover's hand can do, or why it can do nothing; None if ``text`` is no card."""
    from .cards import CardError, parse_card
    from .moves import format_code

    try:
        card = parse_card(text)
    except CardError:
        return None
    name = card_name(card)
    if not state.hands[state.to_move] >> card & 1:
        return f"{name} is not in your hand"
    lines = sorted(format_code(c) for c in movegen.generate(state) if (c >> 2) & 63 == card)
    if lines:
        return f"{name} can: " + "; ".join(lines)
    return f"{name} has no legal move: " + explain_illegal(state, card << 2)
