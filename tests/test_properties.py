"""Invariants of the rules checked at every step of random hands under random rule sets.

Each example plays one whole hand (48 plays) from a seeded deal and checks the invariant after
every play, so one example crosses every deal, the last play and the scoring of the hand: the
places where bookkeeping bugs hide.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino import State, movegen
from cassino.cards import ACE, CARD_NAMES, FULL_DECK, RANKS, SPADES_MASK, cards_of
from cassino.moves import CAPTURE, TRAIL, Move, code_cards, code_kind, format_code, parse_code
from cassino.notation import position_from_json, position_to_json
from cassino.players.evaluate import card_worth, mask_worth
from cassino.players.search import DealSearch
from cassino.players.solver import in_order
from strategies import HAND_MOVES, Deal, deals, positions, rules_st

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hand_walk(deal: Deal) -> Iterator[State]:
    """Yield the state at the deal and after every random play until the hand ends.

    The same object is yielded each time; a test may push and pop on it before resuming.
    """
    state = deal.start()
    rng = deal.walk()
    yield state
    while not state.hand_over:
        state.push(rng.choice(sorted(state.legal_codes())))
        yield state


def hand_sizes(state: State) -> list[int]:
    """Cards in each hand."""
    return [h.bit_count() for h in state.hands]


def capture_values(state: State, card: int) -> set[int]:
    """The values a card from hand can capture a build of (RULES.md 5.1, 5.2): a classic court
    card none, a royal ace 14 too (build values start at 2, so 1 never matters)."""
    value = state.values[card]
    out = {value} if value else set()
    if state.ace_high and card >> 2 == ACE:
        out.add(14)
    return out


# ----------------------------------------------------------------------------- cards


@PROPERTY
@given(deals())
def test_every_card_is_in_exactly_one_place(deal: Deal) -> None:
    """Hands, loose cards, builds, stock and piles partition the pack at every step."""
    for state in hand_walk(deal):
        stock = state.remaining_stock
        assert len(set(stock)) == len(stock)
        places = [*state.hands, state.loose, *(b[0] for b in state.builds), sum(1 << c for c in stock), *state.captured]
        assert sum(p.bit_count() for p in places) == 52
        union = 0
        for p in places:
            assert union & p == 0
            union |= p
        assert union == FULL_DECK


@PROPERTY
@given(deals())
def test_a_legal_move_exists_until_the_hand_ends(deal: Deal) -> None:
    """7.2 guarantees a move while cards remain; a hand is exactly 48 plays and then has none."""
    plays = -1
    for state in hand_walk(deal):
        plays += 1
        codes = state.legal_codes()
        assert bool(codes) == (not state.hand_over), state
        assert len(set(codes)) == len(codes), "a move is generated twice"
        assert [m.code for m in state.legal_moves()] == sorted(codes, key=format_code)
    assert plays == HAND_MOVES
    assert not any(state.hands) and not state.remaining_stock


@PROPERTY
@given(deals(rules_st(draw=False)))
def test_deals_give_four_cards_each_only_when_every_hand_is_empty(deal: Deal) -> None:
    """RULES.md 3: a later deal gives 4 to each player, the eldest then moves."""
    state = deal.start()
    assert hand_sizes(state) == [4] * state.players
    assert state.loose.bit_count() == 4 and not state.builds
    assert state.to_move == (deal.dealer + 1) % state.players
    rng = deal.walk()
    deals_made = 1
    while not state.hand_over:
        before = hand_sizes(state)
        state.push(rng.choice(sorted(state.legal_codes())))
        after = hand_sizes(state)
        if sum(before) == 1 and not state.hand_over:
            deals_made += 1
            assert after == [4] * state.players
            assert state.to_move == (deal.dealer + 1) % state.players
        else:
            assert sum(after) == sum(before) - 1
    assert deals_made == state.rules.deals_per_hand


@PROPERTY
@given(deals(rules_st(draw=True)))
def test_draw_keeps_hands_at_four_until_the_stock_runs_out(deal: Deal) -> None:
    """Draw Casino: one deal, then each player draws after playing while the stock lasts."""
    for state in hand_walk(deal):
        if state.remaining_stock:
            assert hand_sizes(state) == [4] * state.players
    assert state.hand_over


# ----------------------------------------------------------------------------- builds


@PROPERTY
@given(deals())
def test_every_build_owner_holds_a_card_that_captures_it(deal: Deal) -> None:
    """RULES.md 7.2 (in every variant): a build's owner keeps a card able to capture it."""
    for state in hand_walk(deal):
        for mask, value, owner in state.builds:
            held = [c for c in cards_of(state.hands[owner]) if value in capture_values(state, c)]
            assert held, f"seat {owner} owns the {value}-build {mask:#x} without a card to take it: {state!r}"


@PROPERTY
@given(deals(rules_st(owner_may_trail=False)))
def test_no_build_survives_a_deal(deal: Deal) -> None:
    """With owners unable to trail, the table holds no build when a new deal is made and the last
    play of a deal (and of the hand) takes every build left."""
    rng = deal.walk()
    state = deal.start()
    while not state.hand_over:
        code = rng.choice(sorted(state.legal_codes()))
        last_of_deal = sum(hand_sizes(state)) == 1
        if last_of_deal:
            for mask, value, owner in state.builds:
                assert code & 3 == 1 and mask & ~(code >> 12) == 0, (
                    f"the last play {format_code(code)} leaves the {value}-build of seat {owner}: {state!r}"
                )
        state.push(code)
        if last_of_deal:
            assert not state.builds


@PROPERTY
@given(deals(rules_st(duplicate_value_builds=False)))
def test_one_build_per_value(deal: Deal) -> None:
    """RULES.md 6.7: no two builds on the table share a value."""
    for state in hand_walk(deal):
        values = [b[1] for b in state.builds]
        assert len(values) == len(set(values)), state


# ----------------------------------------------------------------------------- scoring


def expected_checksum(state: State) -> int:
    """The non-sweep points of a finished hand, computed from the piles alone (RULES.md 8)."""
    rules = state.rules
    piles = [0] * rules.sides
    for seat, pile in enumerate(state.captured):
        piles[rules.side_of(seat)] |= pile
    if not any(piles):
        return 0
    cards = [p.bit_count() for p in piles]
    spades = [(p & SPADES_MASK).bit_count() for p in piles]
    cards_tied = cards.count(max(cards)) > 1
    spades_tied = spades.count(max(spades)) > 1
    if rules.scoring == "spade":
        return 24 - 3 * cards_tied
    return 11 - 3 * cards_tied - 1 * spades_tied


def expected_sweep_points(state: State) -> int:
    """How many sweep points the hand scores in all (RULES.md 5.4)."""
    rules = state.rules
    if not rules.sweeps:
        return 0
    if not rules.sweeps_cancel:
        return len(state.sweeps)
    made = [0, 0]
    for seat in state.sweeps:
        made[rules.side_of(seat)] += 1
    return abs(made[0] - made[1])


@PROPERTY
@given(deals())
def test_points_per_hand(deal: Deal) -> None:
    """11 less 3 on a cards tie less 1 on a spades tie (spade: 24 or 21), plus sweeps, added to
    the game scores in full."""
    *_, state = hand_walk(deal)
    result = state.result
    assert result is not None
    if state.last_capturer >= 0:
        assert not state.loose and not state.builds, "the residue goes to the last capturer"
    assert result.checksum == expected_checksum(state)
    assert sum(result.points) == result.checksum + expected_sweep_points(state)
    assert [s - b for s, b in zip(state.scores, deal.scores, strict=True)] == list(result.points)
    for side in range(state.rules.sides):
        assert sum(result.breakdown(side).values()) == result.points[side]


@PROPERTY
@given(deals())
def test_winner_only_at_the_end_of_a_hand_and_at_or_above_target(deal: Deal) -> None:
    """A game is decided only when a hand ends, and only for a side that reached the target."""
    for state in hand_walk(deal):
        if not state.hand_over:
            assert state.winner == -1
    if state.winner >= 0:
        assert state.scores[state.winner] >= state.rules.target
        if state.rules.tiebreak == "higher_total":
            assert state.scores.count(max(state.scores)) == 1
            assert state.scores[state.winner] == max(state.scores)
    else:
        top = max(state.scores)
        if state.rules.tiebreak == "count_out":
            assert top < state.rules.target
        else:
            assert top < state.rules.target or state.scores.count(top) > 1


# ----------------------------------------------------------------------------- notation


@PROPERTY
@given(deals())
def test_position_json_round_trips_at_every_step(deal: Deal) -> None:
    """to_json -> text -> from_json -> to_json is the identity, and the states are equal."""
    for state in hand_walk(deal):
        data = position_to_json(state)
        again = position_from_json(json.loads(json.dumps(data)))
        assert position_to_json(again) == data
        assert again == state
        assert sorted(again.legal_codes()) == sorted(state.legal_codes())
        assert again.hand_over == state.hand_over
        if state.hand_over:
            assert again.result == state.result


def lenient_forms(line: str, rng: random.Random) -> list[str]:
    """Other spellings NOTATION.md says parse to the same move: 10 for T, upper-case suits,
    table cards in any order (nothing else is promised, so nothing else is tried)."""
    head, _, tail = line.partition(": ")
    cards = tail.split()
    shuffled = cards[:]
    rng.shuffle(shuffled)

    def ten(card: str) -> str:
        return "10" + card[1] if card[0] == "T" else card

    def upper(card: str) -> str:
        return card[0] + card[1].upper()

    words = head.split()
    forms = [
        " ".join([words[0], ten(words[1]), *words[2:]]) + (": " + " ".join(ten(c) for c in cards) if tail else ""),
        " ".join([words[0], upper(words[1]), *words[2:]]) + (": " + " ".join(upper(c) for c in cards) if tail else ""),
    ]
    if tail:
        forms.append(head + ": " + " ".join(shuffled))
        forms.append(head + ": " + " ".join(reversed(cards)))
    return forms


@PROPERTY
@given(deals())
def test_every_legal_move_string_round_trips(deal: Deal) -> None:
    """Every generated move formats canonically and parses back, from lenient spellings too."""
    rng = random.Random(deal.seed)
    for state in hand_walk(deal):
        for code in state.legal_codes():
            line = format_code(code)
            assert parse_code(line) == code
            assert Move.parse(line) == Move(code) and str(Move(code)) == line
            if code & 3 != TRAIL:
                names = line.partition(": ")[2].split()
                order = [CARD_NAMES.index(n) for n in names]
                assert order == sorted(order), f"cards not in canonical order: {line}"
            for form in lenient_forms(line, rng):
                assert parse_code(form) == code, f"{form!r} does not read as {line!r}"


@settings(max_examples=200, deadline=None)
@given(positions())
def test_court_and_numeral_value_words(state: State) -> None:
    """A capture's value is a number, or the rank letter for a classic court pairing."""
    for code in state.legal_codes():
        line = format_code(code)
        if code & 3 == TRAIL:
            continue
        value = line.split()[2].rstrip(":")
        if (code >> 8) & 15 == 0:
            assert value in RANKS[10:] and not state.rules.royal
        else:
            assert value.isdigit() and 1 <= int(value) <= 14


# ----------------------------------------------------------------------------- undo


@PROPERTY
@given(deals())
def test_push_then_pop_restores_the_position_exactly(deal: Deal) -> None:
    """Every legal move undone restores the position (JSON and state), across deals and the end of
    the hand; then undoing the whole hand retraces every position back to the deal."""
    seen: list[dict[str, object]] = []
    for state in hand_walk(deal):
        before = position_to_json(state)
        key = state.key()
        result = state.result
        seen.append(before)
        for code in state.legal_codes():
            state.push(code)
            assert state.pop() == code
            assert position_to_json(state) == before
            assert state.key() == key and state.result == result
    seen.pop()
    while seen:
        state.pop()
        assert position_to_json(state) == seen.pop()
    assert state.moves_played == 0
    assert state == deal.start()


@PROPERTY
@given(deals())
def test_a_search_and_a_game_played_forward_generate_the_same_moves(deal: Deal) -> None:
    """A state that has taken a move back keeps its tables' answers across positions
    (``State.backtracked``), one played forward does not: the moves are the same either way, in
    the same order, at every position of the hand."""
    forward = deal.start()
    searched = deal.start()
    assert not forward.backtracked and not searched.backtracked
    rng = deal.walk()
    while not forward.hand_over:
        codes = forward.legal_codes()
        for code in codes:  # visit every child, as a search does, and come back
            searched.push(code)
            searched.legal_codes()
            searched.pop()
        assert searched.backtracked and not forward.backtracked
        assert searched.legal_codes() == codes
        code = rng.choice(sorted(codes))
        forward.push(code)
        searched.push(code)
    assert not forward.copy().backtracked and not searched.copy().backtracked
    assert not searched.root().backtracked


@PROPERTY
@given(deals())
def test_the_capture_families_are_exactly_the_captures_of_all_families(deal: Deal) -> None:
    """``movegen.capture_families`` (what a search's leaf reads) makes no build or trail, and
    leaves out no capture: its families are those of ``families`` whose head is a capture, in the
    same order, at every position of a hand under drawn rules."""
    state = deal.start()
    rng = deal.walk()
    while not state.hand_over:
        fams, _trails = movegen.families(state)
        captures = [f for f in fams if code_kind(f[0]) == CAPTURE]
        assert [(h, list(s), p) for h, s, p in movegen.capture_families(state)] == [
            (h, list(s), p) for h, s, p in captures
        ]
        state.push(rng.choice(sorted(state.legal_codes())))


@PROPERTY
@given(deals())
def test_the_search_leaf_is_the_best_capture_at_hand(deal: Deal) -> None:
    """The deal search's leaf, read from the capture families alone, is the best worth of a legal
    capture's cards (``code_cards``), times the horizon, for or against the side."""
    state = deal.start()
    worth = card_worth(state.rules)
    searcher = DealSearch(worth, side=0, horizon=0.7)
    rng = deal.walk()
    while not state.hand_over:
        takes = [mask_worth(worth, code_cards(c)) for c in state.legal_codes() if code_kind(c) == CAPTURE]
        best = max(takes, default=0.0) * 0.7
        assert searcher.leaf(state) == (best if state.rules.side_of(state.to_move) == 0 else -best)
        state.push(rng.choice(sorted(state.legal_codes())))


@PROPERTY
@given(deals())
def test_a_frontier_bound_is_the_gain_of_making_the_move(deal: Deal) -> None:
    """Whenever ``frontier_bound`` leaves a move without making it, what it gives is exactly the
    move's gain (``play``), the move leaves a card in some hand, and the next seat's leaf cannot
    bring it into the window: for both kinds of node and a window that admits some moves."""
    state = deal.start()
    worth = card_worth(state.rules)
    rng = deal.walk()
    left = 0
    while not state.hand_over:
        for side in range(state.rules.sides):
            searcher = DealSearch(worth, side, horizon=0.7)
            maximizing = state.rules.side_of(state.to_move) == side
            for code in state.legal_codes():
                for edge in (-1.5, 0.0, 0.5, 3.0):
                    alpha, beta = (edge, 9.0) if maximizing else (-9.0, edge)
                    bound = searcher.frontier_bound(state, code, maximizing, alpha, beta)
                    stock_pos = state.stock_pos
                    gain = searcher.play(state, code)
                    next_side = state.rules.side_of(state.to_move)
                    dealt = state.hand_over or state.stock_pos != stock_pos
                    state.pop()
                    if bound is None:
                        continue
                    left += 1
                    assert bound == gain and not dealt
                    assert (
                        (bound <= alpha and next_side != side) if maximizing else (bound >= beta and next_side == side)
                    )
        state.push(rng.choice(sorted(state.legal_codes())))
    assert left or state.rules.draw  # under draw every move draws a card: none is left


def _minimax(searcher: DealSearch, state: State, depth: int, deal_end: int) -> float:
    """The deal search's value by plain minimax over the same moves (no window, no table): what
    its alpha-beta, transposition table and pruning at the horizon must give exactly."""
    if state.hand_over:
        return 0.0
    if depth == 0 or state.stock_pos != deal_end:
        return searcher.leaf(state)
    maximizing = state.rules.side_of(state.to_move) == searcher.side
    values = []
    for code in searcher.ordered(state):
        v = searcher.play(state, code)
        v += _minimax(searcher, state, depth - 1, deal_end)
        state.pop()
        values.append(v)
    return max(values) if maximizing else min(values)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(1, 4))
def test_the_deal_search_gives_each_candidate_its_minimax_value(state: State, depth: int) -> None:
    """Every root candidate's value from the deal search equals plain minimax over the same moves
    to the same depth, under drawn rules (two to four seats, partnerships): pruning never changes
    a value at the root."""
    if state.hand_over:
        return
    worth = card_worth(state.rules)
    side = state.rules.side_of(state.to_move)
    searcher = DealSearch(worth, side, breadth=6, horizon=0.7)
    candidates = state.legal_codes()[:6]
    values = searcher.root(state, candidates, depth)
    deal_end = state.stock_pos  # the search stays within the deal in play
    expected = {}
    for code in candidates:
        v = searcher.play(state, code)
        expected[code] = v + _minimax(searcher, state, depth - 1, deal_end)
        state.pop()
    assert values == expected


@PROPERTY
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 1 << 40)), max_size=60))
def test_moves_in_order_are_the_stable_sort_by_rank(pairs: list[tuple[int, int]]) -> None:
    """``solver.in_order`` (one sort of packed ints) is the stable sort of the codes by rank."""
    codes = [code for _, code in pairs]
    ranks = [rank for rank, _ in pairs]
    assert in_order(codes, ranks) == [code for _, code in sorted(pairs, key=lambda rc: rc[0])]
