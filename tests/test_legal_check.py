"""Checking one move (``State.is_legal``, ``verify``, ``play``) without listing every move, and the
three ways of enumerating moves (list, stream, count) on huge tables.

One move is checked against the families of its own card only, so the check must agree exactly with
membership in the full list: for every legal code, and for the near misses around each (one table
card more or less, another value, card or kind), where a shortcut would go wrong. An illegal move
must raise the same message as before (the explainer's) and change nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cassino import IllegalMoveError, Move, Rules, State
from cassino.cards import CARD_NAMES, cards_of, mask_of
from cassino.explain import explain_illegal, reason_illegal
from cassino.moves import format_code, parse_code
from cassino.notation import position_from_json, position_to_json
from strategies import positions, rules_st

CHECKS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HUGE = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)

BIG_LIST = 400_000
"""The most moves a huge-table example lists in full, which keeps each example near a second."""


def near_misses(code: int, cards: range = range(64), kinds: range = range(4)) -> list[int]:
    """Codes one step from ``code``: a table card flipped, another value, card or kind."""
    out = [code ^ 1 << (12 + i) for i in range(52)]
    out += [(code & ~(15 << 8)) | v << 8 for v in range(16)]
    out += [(code & ~(63 << 2)) | c << 2 for c in cards]
    out += [(code & ~3) | k for k in kinds]
    return [c for c in out if c != code]


def expected_error(state: State, code: int) -> str:
    """The message ``play`` gave before one move was checked alone: the explainer's, after the line."""
    return str(IllegalMoveError(format_code(code), explain_illegal(state, code)))


def check_play(state: State, code: int, legal: set[int]) -> None:
    """``play`` applies ``code`` exactly when it is legal (then it is taken back), and otherwise
    raises the explainer's message and leaves the position as it was."""
    before = position_to_json(state)
    played = state.moves_played
    if code in legal:
        state.play(code)
        assert state.pop() == code
    else:
        with pytest.raises(IllegalMoveError) as caught:
            state.play(code)
        assert str(caught.value) == expected_error(state, code)
    assert state.moves_played == played and position_to_json(state) == before


# ----------------------------------------------------------------------------- one move, random positions


@CHECKS
@given(positions(), st.data())
def test_is_legal_is_membership_in_the_legal_moves(state: State, data: st.DataObject) -> None:
    """``is_legal(code) == (code in set(legal_codes()))`` for every legal code, the near misses of
    some of them and random codes; a ``Move`` and the move line give the same answer."""
    legal = set(state.legal_codes())
    for code in legal:
        assert state.is_legal(code)
        assert state.is_legal(Move(code)) and state.is_legal(format_code(code))
    seeds = data.draw(st.lists(st.sampled_from(sorted(legal)), max_size=4)) if legal else []
    hand = cards_of(state.hands[state.to_move]) or [0]
    seeds += [c << 2 for c in hand]  # the trail of every card in hand, legal or not
    # Random codes: any kind, value and card (mostly from hand), table cards mostly on the table.
    randoms = data.draw(
        st.lists(
            st.builds(
                lambda kind, card, value, table, extra: kind | card << 2 | value << 8 | (table | 1 << extra) << 12,
                st.integers(0, 3),
                st.sampled_from(hand) | st.integers(0, 63),
                st.integers(0, 15),
                st.integers(0, (1 << 52) - 1).map(lambda m: m & state.table_mask),
                st.integers(0, 51),
            ),
            max_size=10,
        )
    )
    for code in [*randoms, *(m for s in seeds for m in near_misses(s))]:
        assert state.is_legal(code) == (code in legal), hex(code)


@CHECKS
@given(positions(), st.data())
def test_play_raises_exactly_when_illegal(state: State, data: st.DataObject) -> None:
    """``play`` of legal codes and their near misses (cards and kinds that can be written) applies
    or refuses as the move list says, with the explainer's message, changing nothing when refused."""
    legal = set(state.legal_codes())
    seeds = data.draw(st.lists(st.sampled_from(sorted(legal)), min_size=1, max_size=3)) if legal else [0]
    for seed in seeds:
        for code in [seed, *near_misses(seed, cards=range(52), kinds=range(3))]:
            check_play(state, code, legal)


def test_negative_and_oversized_codes_are_illegal() -> None:
    """Codes no generator makes (negative, an impossible card) are illegal, not errors."""
    state = State.new_hand(Rules(), list(range(52)))
    code = state.legal_codes()[0]
    assert not state.is_legal(-code) and not state.is_legal(-1)
    assert not state.is_legal(code | 63 << 2)
    assert not state.is_legal(code | 1 << 200)


# ----------------------------------------------------------------------------- a table of 26 small cards


def huge_position() -> State:
    """Every ace to six and two sevens loose (26 cards), seat 0 to move with 7h 8c 9c Tc: about
    50 million legal moves (the table ``benchmarks/engine.py`` times one play on)."""
    table = [n for n in CARD_NAMES if n[0] in "A23456"] + ["7c", "7d"]
    hands = [["7h", "8c", "9c", "Tc"], ["Qs", "Kd", "Kh", "Ks"]]
    rest = [n for n in CARD_NAMES if n not in table and n not in hands[0] and n not in hands[1]]
    return position_from_json({"table": table, "hands": hands, "captured": [rest, []], "to_move": 0})


def test_one_move_on_a_table_of_fifty_million_moves() -> None:
    """Legal and illegal moves are told apart on the 26-card table without listing its moves."""
    state = huge_position()
    assert state.count_legal() == 51_588_853
    before = position_to_json(state)
    for line in ("capture Tc 10: Ac 2c 3c 4c", "build 7h 9: 2d", "capture 8c 8: Ac 2c 3c 5c 6c 7c"):
        assert state.is_legal(line), line
    assert not state.is_legal("capture Tc 10: Ac 2c 3c")
    with pytest.raises(IllegalMoveError, match="cannot be split into groups each worth 10"):
        state.play("capture Tc 10: Ac 2c 3c")
    assert position_to_json(state) == before
    state.play("capture Tc 10: Ac 2c 3c 4c")
    assert state.moves_played == 1 and state.to_move == 1


# ----------------------------------------------------------------------------- huge tables: list, stream, count


@dataclass(frozen=True)
class Forced:
    """A position forced onto a large table of small cards (a real game rarely gets there)."""

    state: State
    note: str


@st.composite
def huge_tables(draw: st.DrawFn) -> Forced:
    """16-24 loose cards of ranks ace to five, six or seven, four cards in each hand, maybe a
    single build (with its owner holding a card to take it), the rest in seat 0's pile."""
    rules = draw(rules_st())
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    top = draw(st.sampled_from((5, 6, 7)))
    small = [c for c in range(52) if c >> 2 < top]
    table = rng.sample(small, draw(st.integers(16, min(24, len(small)))))
    others = [c for c in range(52) if c not in table]
    rng.shuffle(others)
    hands = [others[4 * s : 4 * s + 4] for s in range(rules.players)]
    pile = others[4 * rules.players :]
    builds: list[tuple[int, int, int]] = []
    owner = draw(st.sampled_from((-1, 0, 1)))
    a, b = table[0], table[1]
    value = (a >> 2) + (b >> 2) + 2
    keeper = next((c for c in pile if c >> 2 == value - 1), None)
    if owner >= 0 and value <= 10 and keeper is not None:
        table = table[2:]
        builds.append((1 << a | 1 << b, value, owner))
        pile.remove(keeper)
        pile.append(hands[owner].pop())
        hands[owner].append(keeper)
    state = State(
        rules,
        dealer=rules.players - 1,
        to_move=0,
        hands=[mask_of(h) for h in hands],
        loose=mask_of(table),
        builds=builds,
        stock=(),
        captured=[mask_of(pile), *([0] * (rules.players - 1))],
    )
    return Forced(state, f"{len(table)} loose, builds {builds}")


@HUGE
@given(huge_tables())
def test_count_list_and_stream_agree_on_huge_tables(forced: Forced) -> None:
    """``count_legal() == len(legal_codes()) == len(set(iter_legal_codes()))``, the stream giving
    the listed moves, each once and in the same order."""
    state = forced.state
    count = state.count_legal()
    assume(count <= BIG_LIST)
    listed = state.legal_codes()
    streamed = list(state.iter_legal_codes())
    assert count == len(listed) == len(set(streamed)), forced.note
    assert streamed == listed


@HUGE
@given(huge_tables(), st.data())
def test_is_legal_on_huge_tables(forced: Forced, data: st.DataObject) -> None:
    """One move checked alone on a huge table agrees with the full list, near misses included."""
    state = forced.state
    assume(state.count_legal() <= BIG_LIST)
    legal = set(state.legal_codes())
    assume(legal)
    for seed in data.draw(st.lists(st.sampled_from(sorted(legal)), min_size=1, max_size=3)):
        assert state.is_legal(seed)
        for code in near_misses(seed):
            assert state.is_legal(code) == (code in legal)


# ----------------------------------------------------------------------------- what play accepts


def test_play_takes_a_move_a_code_or_a_line() -> None:
    """The same move as a ``Move``, its int code or its line (leniently written) plays the same."""
    start = State.new_hand(Rules(), list(range(52)))
    code = sorted(start.legal_codes())[0]
    results = []
    for move in (Move(code), code, format_code(code), format_code(code).upper()):
        state = start.copy()
        state.play(move)
        results.append(position_to_json(state))
    assert all(r == results[0] for r in results)
    assert parse_code(format_code(code).upper()) == code


@pytest.mark.parametrize("bad", [3.0, None, b"trail 3d", [4], True])
def test_play_refuses_other_types_by_name(bad: object) -> None:
    """Anything but a ``Move``, an int or a str is a TypeError naming its type, changing nothing."""
    state = State.new_hand(Rules(), list(range(52)))
    before = position_to_json(state)
    for check in (state.play, state.verify, state.is_legal):
        with pytest.raises(TypeError, match=f"not {type(bad).__name__}$"):
            check(bad)  # type: ignore[arg-type]
    assert position_to_json(state) == before


def test_numpy_integers_are_codes() -> None:
    """An action decoded by numpy is an int code too (``operator.index``)."""
    np = pytest.importorskip("numpy")
    state = State.new_hand(Rules(), list(range(52)))
    code = state.legal_codes()[0]
    assert state.is_legal(np.int64(code))
    state.play(np.int64(code))
    assert state.move_stack == [code] and state.history == ((1, code),)  # the eldest, seat 1, moved


GENERIC = {"trail_not_allowed", "capture_not_allowed"}
"""The explainer's last-resort codes: reached by no illegal move, so every refusal names its rule."""


@CHECKS
@given(positions(), st.data())
def test_every_refusal_names_a_specific_rule(state: State, data: st.DataObject) -> None:
    """For the illegal near misses of legal moves (each card of the mover's hand, every kind and
    value, every table card flipped), the explainer names a rule, never a generic fallback."""
    legal = set(state.legal_codes())
    if not legal:
        return
    hand = [c for c in range(52) if state.hands[state.to_move] >> c & 1]
    seeds = data.draw(st.lists(st.sampled_from(sorted(legal)), min_size=1, max_size=3))
    for seed in seeds:
        for code in near_misses(seed, cards=range(0), kinds=range(3)) + [(seed & ~(63 << 2)) | c << 2 for c in hand]:
            if code & 3 == 0 and code >> 8:
                continue  # a trail with a value or table cards: no move line writes it
            if code not in legal:
                reason = reason_illegal(state, code)
                assert reason.code not in GENERIC, (format_code(code), reason.text)
