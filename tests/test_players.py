"""Computer players: they see only their seat's view, the solver is exact, search respects its
sampled worlds' constraints, and every player only ever plays legal moves."""

from __future__ import annotations

import ast
import dataclasses
import gc
import itertools
import math
import random
from collections import Counter

import pytest

from cassino import native
from cassino.arena.game import play_game
from cassino.cards import ACES_MASK, RANK_MASKS, cards_of, mask_of, parse_card
from cassino.cardset import CardSet
from cassino.game import Game
from cassino.moves import MoveCode, parse_code
from cassino.players import (
    FalliblePlayer,
    GreedyPlayer,
    HeuristicPlayer,
    LearnedPlayer,
    RandomPlayer,
    make_player,
    player_names,
    register,
)
from cassino.players.base import _REGISTRY, decide, parse_spec
from cassino.players.errors import PlayerSpecError
from cassino.players.evaluate import card_worth, deal_moves, distinct_moves, mirror_key, passed_over
from cassino.players.heuristic import MoveRater, rate_moves
from cassino.players.search import MoveMemo, SearchPlayer
from cassino.players.solver import Solver, cards_known, world_of
from cassino.players.worlds import (
    BalancedDeals,
    WorldSampler,
    move_likelihood,
    sample_world,
    shuffle,
    stock_after,
)
from cassino.rules import Rules, make_rules
from cassino.state import State
from cassino.view import view_of

CHEAP = ["random", "greedy", "heuristic", "search:worlds=3,depth=2"]


def _positions(rules: Rules, seed: int, count: int) -> list[State]:
    """Positions reached by seeded random play (copies, with any number of moves played)."""
    rng = random.Random(seed)
    out = []
    game = Game(rules, seed=seed)
    while len(out) < count and not game.over:
        state = game.state
        if rng.random() < 0.3 and state.legal_codes():
            out.append(state.copy())
        codes = state.legal_codes()
        game.push(codes[rng.randrange(len(codes))])
    return out


def _reshuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position for ``seat``, with every card it cannot see dealt differently (the other
    hands keep their sizes and each build owner keeps a card that takes its build)."""
    for _ in range(200):
        other = sample_world(view_of(state, seat), rng)
        if other.hands != state.hands or other.remaining_stock != state.remaining_stock:
            return other
    return state


@pytest.mark.parametrize("spec", CHEAP)
@pytest.mark.parametrize("preset", ["classic", "royal", "draw"])
def test_choice_depends_only_on_the_view(spec: str, preset: str) -> None:
    """Same seed, same view, other hidden cards: the same move."""
    rng = random.Random(11)
    for state in _positions(make_rules(preset), seed=3, count=12):
        seat = state.to_move
        twin = _reshuffle_hidden(state, seat, rng)
        view = view_of(state, seat)
        # A sampled twin is a fresh position: it is handed the same public history of the hand.
        twin_view = view_of(twin, seat, view.history)
        assert twin_view == view
        first = make_player(spec, 5).choose(view)
        second = make_player(spec, 5).choose(twin_view)
        assert first == second
        assert first in state.legal_codes()


def _minimax(state: State, side: int) -> int:
    """Plain minimax to the end of the hand: the side's points minus the best other side's, and
    a thousand more (or less) when the hand wins (or loses) the game."""
    if state.hand_over:
        assert state.result is not None
        points = state.result.points
        margin = points[side] - max(p for s, p in enumerate(points) if s != side)
        if state.winner >= 0:
            margin += 1000 if state.winner == side else -1000
        return margin
    values = []
    for code in state.legal_codes():
        state.push(code)
        values.append(_minimax(state, side))
        state.pop()
    return max(values) if state.rules.side_of(state.to_move) == side else min(values)


def _endgames(rules: Rules, seeds: range, cards_left: int) -> list[State]:
    """Positions with at most ``cards_left`` cards in hands and none in the stock."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(rules, seed=seed)
        state = game.state
        while not state.hand_over:
            if not state.remaining_stock and sum(h.bit_count() for h in state.hands) <= cards_left:
                out.append(state.copy())
                break
            codes = state.legal_codes()
            state.push(codes[rng.randrange(len(codes))])
    return out


@pytest.mark.parametrize("preset", ["classic", "royal", "spade"])
def test_solver_equals_plain_minimax(preset: str) -> None:
    """Alpha-beta with a transposition table gives exactly minimax's values, move by move."""
    rules = make_rules(preset)
    positions = _endgames(rules, range(25), cards_left=6)
    assert len(positions) >= 20
    for state in positions:
        _check_solver(state)


def _check_solver(state: State) -> int:
    """The solver's value of ``state`` and of each move equal minimax's; returns the value."""
    side = state.rules.side_of(state.to_move)
    value, scored = Solver().solve(state, side)
    assert value == _minimax(state, side) == Solver().value(state, side)
    for code, v in scored:
        state.push(code)
        assert v == _minimax(state, side)
        state.pop()
    assert Solver().best_moves(state, side) == [code for code, v in scored if v == value]
    return value


def test_the_best_moves_cost_fewer_positions_than_every_move_s_value() -> None:
    """``best_moves`` (exactly ``solve``'s best, checked above) searches fewer positions over the
    last deals of classic hands: after the first move, a window one point wide is enough."""
    rules = make_rules("classic")
    best = every = 0
    for state in _endgames(rules, range(20), cards_left=8):
        side = rules.side_of(state.to_move)
        solver = Solver()
        solver.best_moves(state, side)
        best += solver.nodes
        solver.solve(state, side)
        every += solver.nodes
    assert best < 0.8 * every


def test_solver_plays_to_win_the_game() -> None:
    """Near the target the solver's values count the game won or lost, exactly as minimax does."""
    rules = make_rules("classic")
    decided = 0
    for i, state in enumerate(_endgames(rules, range(30), cards_left=6)):
        state.scores = ((17, 19), (19, 15), (20, 20))[i % 3]
        decided += abs(_check_solver(state)) > 500
    assert decided >= 10


def test_solver_in_partnerships_matches_minimax() -> None:
    """With two teams the solver is exact too (partners maximise together)."""
    rules = make_rules("classic", players=4, partnerships=True)
    for state in _endgames(rules, range(15), cards_left=5):
        side = rules.side_of(state.to_move)
        assert Solver().solve(state, side)[0] == _minimax(state, side)


def test_cards_known_rebuilds_the_true_position() -> None:
    """On the 2-player last deal, counting cards gives the opponent's hand exactly."""
    rules = make_rules("classic")
    for state in _endgames(rules, range(10), cards_left=8):
        view = view_of(state, state.to_move)
        assert cards_known(view)
        assert world_of(view).hands == state.hands


def test_sampled_worlds_are_consistent() -> None:
    """Sampled worlds keep the view, the hand sizes and each build owner's capturing card."""
    rng = random.Random(2)
    for preset in ("classic", "royal"):
        for players in (2, 3, 4):
            for state in _positions(make_rules(preset, players=players), seed=players, count=15):
                seat = state.to_move
                view = view_of(state, seat)
                world = sample_world(view, rng)
                assert view_of(world, seat, view.history) == view
                assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
                for _mask, value, owner in world.builds:
                    kind = ACES_MASK if value == 14 else RANK_MASKS[value - 1]
                    if owner != seat and world.hands[owner]:
                        assert world.hands[owner] & kind, f"owner {owner} of a {value}-build holds no card for it"


@pytest.mark.parametrize("spec", [*CHEAP, "cheater:worlds=2,depth=2"])
def test_players_finish_games_with_legal_moves(spec: str) -> None:
    """Every player plays whole games (``Game.play`` checks each move) in every seating."""
    for rules in (
        make_rules("classic"),
        make_rules("royal", players=3),
        make_rules("spade", players=4, partnerships=True),
    ):
        opponents = [make_player("greedy", s) for s in range(rules.players - 1)]
        outcome = play_game(rules, [make_player(spec, 1), *opponents], seed=4)
        assert outcome.winner >= 0
        assert outcome.moves == sum(outcome.seat_moves)


def test_player_specs() -> None:
    """Specs read settings as numbers; unknown names and settings are refused clearly."""
    assert parse_spec("search:worlds=40,time=0.5") == ("search", {"worlds": 40, "time": 0.5})
    assert {"random", "greedy", "heuristic", "search", "cheater"} <= set(player_names())
    with pytest.raises(PlayerSpecError, match="unknown player 'strong'"):
        make_player("strong")
    with pytest.raises(PlayerSpecError, match=r"^greedy takes no settings, got 'depth'$"):
        make_player("greedy:depth=3")


def test_only_the_cheater_sees_everything() -> None:
    """``decide`` hands the full position to a declared benchmark only."""
    seen: list[object] = []

    class Spy:
        name = "spy"

        def choose(self, view: object) -> MoveCode:
            seen.append(view)
            return view.legal[0]  # type: ignore[attr-defined, no-any-return]

    state = Game(make_rules("classic"), seed=1).state
    decide(Spy(), state)
    assert not isinstance(seen[0], State)
    assert getattr(make_player("cheater"), "sees_all", False)
    assert not getattr(make_player("search"), "sees_all", False)


def _cards(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def test_views_carry_the_hands_public_history() -> None:
    """``view_of`` hands every seat the moves of this hand so far, in order, with who made them."""
    rules = make_rules("classic")
    game = Game(rules, seed=4)
    for _ in range(9):
        game.push(game.state.legal_codes()[0])
    state = game.state
    for seat in range(2):
        assert (
            view_of(state, seat).history == state.history == tuple(zip(state.movers(), state.move_stack, strict=True))
        )
    assert len(view_of(state, 0).history) == 9


def test_passed_over_names_the_ranks_a_trail_declined() -> None:
    """A seat that trailed facing 5h 3c Qs Kd could have taken a 3, a 5, an 8 (5+3), a Q or a K."""
    rules = make_rules("classic")
    hands = [_cards("2d 4d 6d 7d"), _cards("9d Ac 2h 4h")]
    table = _cards("5h 3c Qs Kd")
    stock = cards_of(((1 << 52) - 1) & ~(hands[0] | hands[1] | table))
    state = State(rules, dealer=0, to_move=1, hands=hands, loose=table, builds=(), stock=stock, captured=(0, 0))
    state.push(parse_code("trail 9d"))
    declined = passed_over(view_of(state, 0))
    assert declined == {1: RANK_MASKS[2] | RANK_MASKS[4] | RANK_MASKS[7] | RANK_MASKS[11] | RANK_MASKS[12]}
    # Seat 1 learns nothing about itself, and a position without its hand's history tells nothing.
    assert passed_over(view_of(state, 1)) == {}
    assert passed_over(view_of(state, 0, ())) == {}


def test_search_with_inference_keeps_worlds_consistent() -> None:
    """Worlds dealt around the declined ranks still match the view and keep build owners' cards."""
    rng = random.Random(5)
    checked = 0
    game = Game(make_rules("classic"), seed=9)
    greedy = make_player("greedy", 1)
    while not game.over:
        state = game.state
        seat = state.to_move
        view = view_of(state, seat)
        game.push(decide(greedy, state))
        unlikely = passed_over(view)
        world = sample_world(view, rng, unlikely, 0.0)
        assert view_of(world, seat, view.history) == view
        for other, ranks in unlikely.items():
            owns_build = any(owner == other for _, _, owner in view.builds)
            if not owns_build and (view.unseen & ~ranks).bit_count() >= view.hand_sizes[other]:
                assert not world.hands[other] & ranks
                checked += 1
    assert checked >= 5


def test_search_work_cap_bounds_the_worlds_searched() -> None:
    """``work`` stops the sampling once that many positions were searched (one world at least),
    the same way on every run: a cap that keeps moves short without a clock."""
    state = next(s for s in _positions(make_rules("classic"), seed=6, count=40) if len(s.legal_codes()) > 3)
    view = view_of(state, state.to_move)
    capped = SearchPlayer(seed=1, worlds=500, work=1)
    capped.choose(view)
    assert capped.last_worlds == 1
    assert capped.last_work >= 1
    free = SearchPlayer(seed=1, worlds=7, work=0)
    free.choose(view)
    assert free.last_worlds == 7
    per_world = free.last_work / 7
    budget = SearchPlayer(seed=1, worlds=500, work=int(3 * per_world))
    first = budget.choose(view)
    assert 2 <= budget.last_worlds < 500
    assert budget.last_work >= budget.work
    again = SearchPlayer(seed=1, worlds=500, work=int(3 * per_world))
    assert again.choose(view) == first and again.last_worlds == budget.last_worlds


def test_racing_drops_the_candidates_clearly_behind() -> None:
    """``race``: a candidate whose loss to the leader, world by world, is beyond ``race`` standard
    errors of nothing is searched no more; one within them stays, and the leader always does."""
    player = SearchPlayer(seed=1, race=2.0)
    lead, close, behind = 1, 2, 3
    seen = [{lead: 5.0 + d, close: 5.0 + d + wobble, behind: 3.0 + d} for d, wobble in zip(
        [0.0, 1.0, -1.0, 0.5, 2.0, -0.5], [-1.0, 0.8, -0.6, 0.9, -0.9, 0.6], strict=True)]  # fmt: skip
    values = {code: [world[code] for world in seen] for code in (lead, close, behind)}
    totals = {code: sum(values[code]) for code in (lead, close, behind)}
    assert player._raced([lead, close, behind], values, totals) == [lead, close]
    assert player._raced([behind], values, totals) == [behind]


def test_racing_searches_fewer_positions_for_the_same_worlds() -> None:
    """With racing, the same worlds cost fewer positions once the weak moves drop out, a race
    won by one move stops drawing worlds, and the same seed still gives the same move."""
    states = [s for s in _positions(make_rules("classic"), seed=8, count=60) if len(s.legal_codes()) > 4][:6]
    assert len(states) == 6
    works = {"plain": 0, "raced": 0}
    stopped = 0
    for state in states:
        view = view_of(state, state.to_move)
        plain, raced = SearchPlayer(seed=3, worlds=24, work=0), SearchPlayer(seed=3, worlds=24, work=0, race=1.0)
        plain.choose(view)
        move = raced.choose(view)
        assert move in view.legal and plain.last_worlds == 24
        assert raced.race_after <= raced.last_worlds <= 24
        stopped += raced.last_worlds < 24
        assert raced.last_work <= plain.last_work
        works["plain"] += plain.last_work
        works["raced"] += raced.last_work
        again = SearchPlayer(seed=3, worlds=24, work=0, race=1.0)
        assert again.choose(view) == move
    assert works["raced"] < 0.8 * works["plain"], works
    assert stopped, "no race was won before the last world"


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("royal", 2), ("classic", 3), ("classic", 4)])
def test_deal_moves_rebuild_each_position_of_the_deal(preset: str, players: int) -> None:
    """Replaying public play gives, for every other seat's move of this deal, exactly the table,
    piles and hand sizes it was made in, and the cards it has played since (its hand then)."""
    rules = make_rules(preset, players=players)
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        state = Game(rules, seed=seed).state
        before: list[tuple[int, State]] = []
        while not state.hand_over:
            view = view_of(state, state.to_move)
            moves = deal_moves(view)
            in_deal = [(i, s) for i, s in before if s.stock_pos == state.stock_pos and s.to_move != view.seat]
            assert len(moves) == len(in_deal)
            for move, (index, then) in zip(moves, in_deal, strict=True):
                assert (move.seat, move.loose, move.builds) == (then.to_move, then.loose, then.builds)
                assert move.captured == then.captured
                assert move.hand_sizes == tuple(h.bit_count() for h in then.hands)
                assert move.kept | state.hands[move.seat] == then.hands[move.seat]
                assert (move.seat, move.code) == view.history[index]
                checked += 1
            before.append((len(view.history), state.copy()))
            codes = state.legal_codes()
            state.push(codes[rng.randrange(len(codes))])
    assert checked >= 30


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("royal", 2), ("classic", 4)])
def test_a_move_s_likelihood_is_the_model_s_softmax_of_every_rating(preset: str, players: int) -> None:
    """``DealPosition.likelihood`` (which stops rating once the floor is reached) is exactly the
    model's chance worked out from every move's rating: ``max(floor, exp((made - best) / t))``,
    for hand after drawn hand, the floor reached and not; under a ``limit`` it is that chance, or
    a bound of it below the limit, negated."""
    from cassino.players.heuristic import PLAYER_WEIGHTS
    from cassino.players.worlds import DealPosition

    rules = make_rules(preset, players=players)
    rng = random.Random(players)
    floors = checked = bounds = 0
    for seed in range(4):
        state = Game(rules, seed=seed).state
        while not state.hand_over:
            view = view_of(state, state.to_move)
            for move in deal_moves(view):
                position = DealPosition(view, move)
                unseen = cards_of(int(view.unseen))
                size = state.hands[move.seat].bit_count()
                for _ in range(6):
                    # Its hand then: a hand it may hold now and the cards it has played since.
                    hand = move.kept | mask_of(rng.sample(unseen, size))
                    got = position.likelihood(move, hand, 0.2, 0.05)
                    hands = [hand if s == move.seat else 0 for s in range(players)]
                    trial = State(rules, dealer=view.dealer, to_move=move.seat, hands=hands, loose=move.loose,
                                  builds=move.builds, stock=(), captured=move.captured)  # fmt: skip
                    legal = trial.legal_codes()
                    if move.code not in legal:
                        assert got == 0.0
                        continue
                    risk, _keep, follow, _trail = PLAYER_WEIGHTS
                    rated = position.rater.rate(hand, legal, risk, follow)
                    made = next(r for r, c in rated if c == move.code)
                    best = max(r for r, _ in rated)
                    expected = 1.0 if len(legal) == 1 else max(0.05, math.exp((made - best) / 0.2))
                    assert got == expected
                    floors += expected == 0.05
                    checked += 1
                    # Under a limit it may stop early, with a bound between the chance and the limit.
                    limit = rng.uniform(0.05, 1.0)
                    bounded = position.likelihood(move, hand, 0.2, 0.05, limit)
                    assert bounded == expected or expected <= -bounded < limit
                    bounds += bounded < 0
            codes = state.legal_codes()
            state.push(codes[rng.randrange(len(codes))])
    assert checked >= 100 and floors >= 10 and bounds >= 10


def test_the_true_hands_explain_a_heuristic_opponents_play() -> None:
    """Against the heuristic (the model), the hands it really held make its play certain, and a
    hand with which it would rather have captured than trailed makes it less likely."""
    rules = make_rules("classic")
    hands = [_cards("2d 4d 6d 7d"), _cards("Jd Jh 6c 10c")]
    table = _cards("5h 3c Qs Kd")
    stock = cards_of(((1 << 52) - 1) & ~(hands[0] | hands[1] | table))
    state = State(rules, dealer=0, to_move=1, hands=hands, loose=table, builds=(), stock=stock, captured=(0, 0))
    state.push(decide(make_player("heuristic", 1), state))
    assert state.move_stack[-1] & 3 == 0  # nothing to capture: it trailed
    view = view_of(state, 0)
    moves = deal_moves(view)
    assert [m.seat for m in moves] == [1]
    assert move_likelihood(view, moves, state.hands, 0.2, 0.05) == 1.0
    # Had it held the 3 of spades it would have taken the 3 of clubs, not trailed.
    other = list(state.hands)
    other[1] = other[1] & ~_cards("Jh") | _cards("3s")
    assert 0.05 <= move_likelihood(view, moves, tuple(other), 0.2, 0.05) < 1.0
    assert move_likelihood(view, moves, tuple(other), 0.01, 0.05) == 0.05
    played = state.move_stack[-1]
    doubted = 0
    for seed in range(40):
        world = sample_world(view, random.Random(seed))
        p = move_likelihood(view, moves, world.hands, 0.2, 0.05)
        assert 0.05 <= p <= 1.0
        if world.hands[1] & (RANK_MASKS[2] | RANK_MASKS[4]):
            assert p < 1.0, cards_of(world.hands[1] | 1 << ((played >> 2) & 63))
            doubted += 1
    assert doubted >= 5


def test_a_world_s_weight_below_its_draw_is_known_early_and_only_then() -> None:
    """``move_likelihood`` under ``below`` (the world's acceptance draw) may stop rating as soon
    as the chance is surely under it: it is under ``below`` exactly when the full chance is, is
    never under the full chance, and equals it when the world is kept."""
    from cassino.players.worlds import deal_positions

    rules = make_rules("classic")
    rng = random.Random(5)
    early = checked = 0
    for seed in range(6):
        state = Game(rules, seed=seed).state
        while not state.hand_over:
            view = view_of(state, state.to_move)
            moves = deal_moves(view)
            if moves:
                positions = deal_positions(view, moves)
                for _ in range(8):
                    hands = sample_world(view, rng).hands
                    exact = move_likelihood(view, moves, hands, 0.2, 0.05, positions=positions)
                    below = rng.random()
                    got = move_likelihood(view, moves, hands, 0.2, 0.05, below=below, positions=positions)
                    assert (got < below) == (exact < below) and got >= exact
                    assert got == exact or got < below
                    early += got != exact
                    checked += 1
            codes = state.legal_codes()
            state.push(codes[rng.randrange(len(codes))])
    assert checked >= 200 and early >= 20


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("royal", 2), ("classic", 4)])
def test_one_rater_rates_every_hand_as_a_fresh_view_does(preset: str, players: int) -> None:
    """A ``MoveRater`` asked about hand after hand of one position (what it keeps from one to the
    next is the table's part alone) rates each exactly as ``rate_moves`` does on a view holding it."""
    rules = make_rules(preset, players=players)
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        state = Game(rules, seed=seed).state
        while not state.hand_over:
            view = view_of(state, state.to_move)
            rater = MoveRater.of_view(view, 0.9, 0.25)
            pool = int(view.unseen) | int(view.hand)
            size = int(view.hand).bit_count()
            for _ in range(4):
                hand = mask_of(rng.sample(cards_of(pool), size))
                trial = State(
                    rules, dealer=view.dealer, to_move=view.seat, hands=[hand if s == view.seat else 0 for s in range(players)],
                    loose=int(view.loose), builds=view.builds, stock=(), captured=tuple(int(p) for p in view.captured),
                )  # fmt: skip
                legal = trial.legal_codes()
                fresh = dataclasses.replace(view, hand=CardSet(hand), legal=tuple(legal))
                assert rater.rate(hand, legal, 0.6, 0.3) == rate_moves(fresh, 0.6, 0.9, 0.3, 0.25)
                checked += 1
            state.push(state.legal_codes()[rng.randrange(len(state.legal_codes()))])
    assert checked >= 100


def test_world_sampler_keeps_worlds_consistent_and_repeats_by_seed() -> None:
    """Weighted worlds still match the view; the same seed draws the same worlds."""
    game = Game(make_rules("classic"), seed=4)
    heuristic = make_player("heuristic:endgame=0", 2)
    drawn = 0
    while not game.over and drawn < 40:
        state = game.state
        view = view_of(state, state.to_move)
        game.push(decide(heuristic, state))
        first = WorldSampler(view, random.Random(3))
        second = WorldSampler(view, random.Random(3))
        for _ in range(3):
            world = first()
            assert view_of(world, view.seat, view.history) == view
            others = 0
            for seat, hand in enumerate(world.hands):
                others |= hand if seat != view.seat else 0
            assert sorted(world.remaining_stock) == cards_of(int(view.unseen) & ~others)
            assert world.hands == second().hands
            drawn += 1
    assert drawn >= 40


def test_a_world_s_stock_is_the_rest_of_the_unseen_cards_in_any_order() -> None:
    """``stock_after`` (dealt only for a world kept): the unseen cards no hand holds, every order
    of them as often as any other (24 orders of four cards over 4,800 stocks: 200 each, within 4.3
    standard deviations)."""
    rng = random.Random(1)
    pool = [3, 17, 25, 40, 51]
    hands = [1 << 17, 1 << 0]  # one card of the pool, and one of the seat's own hand (not in it)
    counts = Counter(tuple(stock_after(pool, hands, rng)) for _ in range(4800))
    assert set(counts) == set(itertools.permutations([3, 25, 40, 51]))
    assert all(140 <= n <= 260 for n in counts.values()), counts


def test_balanced_worlds_match_the_view_and_deal_every_card_evenly() -> None:
    """``BalancedDeals``: each world matches the view (hand sizes, build owners' cards), and over
    the worlds every unseen card lands in the other hands as often as any other, give or take one
    (one shuffle after another: never the pile-up of independent deals)."""
    checked = 0
    for preset, players in (("classic", 2), ("royal", 3), ("classic", 4)):
        for state in _positions(make_rules(preset, players=players), seed=players, count=20):
            seat = state.to_move
            view = view_of(state, seat)
            deals = BalancedDeals(view, random.Random(5))
            unseen = cards_of(int(view.unseen))
            times = dict.fromkeys(unseen, 0)
            for _ in range(40):
                world = deals()
                assert view_of(world, seat, view.history) == view
                assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
                for _mask, value, owner in world.builds:
                    if owner != seat and world.hands[owner]:
                        assert world.hands[owner] & (ACES_MASK if value == 14 else RANK_MASKS[value - 1])
                for other, hand in enumerate(world.hands):
                    if other != seat:
                        for c in cards_of(hand):
                            times[c] += 1
            if deals.free and deals.need:
                assert max(times.values()) - min(times.values()) <= 1, times
                checked += 1
    assert checked >= 30


def test_balanced_worlds_read_only_the_view() -> None:
    """Two positions that differ only in the hidden cards (the other hand and the stock) give the
    seat the same view, and the same seed deals the same balanced worlds from either."""
    state = Game(make_rules("classic"), seed=11).state
    seat = state.to_move
    other = 1 - seat
    pool = cards_of(state.hands[other]) + list(state.remaining_stock)
    random.Random(1).shuffle(pool)
    hands = list(state.hands)
    hands[other] = mask_of(pool[:4])
    swapped = State(state.rules, dealer=state.dealer, to_move=seat, hands=hands, loose=state.loose,
                    builds=state.builds, stock=pool[4:], captured=state.captured)  # fmt: skip
    assert swapped.hands != state.hands and view_of(swapped, seat) == view_of(state, seat)
    first = BalancedDeals(view_of(state, seat), random.Random(9))
    second = BalancedDeals(view_of(swapped, seat), random.Random(9))
    for _ in range(30):
        a, b = first(), second()
        assert a.hands == b.hands and a.stock == b.stock


def test_a_choice_leaves_the_cycle_collector_as_it_found_it() -> None:
    """The search pauses Python's cycle collector while it chooses and gives it back as it was:
    running after a choice, and still paused where the caller had paused it. It may pause it
    because it makes no cycles: a choice leaves nothing for the collector to find."""
    state = Game(make_rules("classic"), seed=2).state
    view = view_of(state, state.to_move)
    player = make_player("master", seed=1)
    assert gc.isenabled()
    player.choose(view)
    assert gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        player.choose(view)
        assert not gc.isenabled()
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_world_drawn_again_is_searched_once() -> None:
    """Late in a deal many worlds repeat (the other hand holds one card): the search values each
    distinct world once and counts it each time it is drawn. Its move is the one every draw
    searched afresh gives, and the positions it visits are exactly those of the distinct worlds."""
    rules = make_rules("classic")
    state = next(s for s in _positions(rules, seed=3, count=200)
                 if s.hands[1 - s.to_move].bit_count() == 1 and s.remaining_stock and len(s.legal_codes()) > 2)  # fmt: skip
    view = view_of(state, state.to_move)
    side = rules.side_of(view.seat)
    player = SearchPlayer(seed=4, worlds=60, work=0, infer=0)
    move = player.choose(view)
    rng = random.Random(4)
    worlds = [sample_world(view, rng) for _ in range(60)]
    candidates, _ratings = player.candidates_of(view)
    totals = dict.fromkeys(candidates, 0.0)
    work, searched = 0, set()
    for world in worlds:
        values, nodes = SearchPlayer(seed=0).world_values(world, candidates, side)
        for code, v in values.items():
            totals[code] += v
        if world.hands not in searched:
            searched.add(world.hands)
            work += nodes
    best = max(totals.values())
    assert move == rng.choice([c for c, t in totals.items() if t == best])
    assert len(searched) < 60 and player.last_worlds == 60 and player.last_work == work


def _init_parameters(cls: type) -> dict[str, str]:
    """The parameters of a class's ``__init__`` but ``self`` and ``seed``, with their annotations,
    read from its source (a compiled class keeps no annotations)."""
    source = native.source_of(cls.__module__.removeprefix("cassino."))
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            init = next(f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
            return {
                a.arg: ast.unparse(a.annotation) if a.annotation else ""
                for a in init.args.args + init.args.kwonlyargs
                if a.arg not in ("self", "seed")
            }
    raise AssertionError(f"{cls.__name__} not found in {source}")


@pytest.mark.parametrize(
    ("name", "cls", "not_settings"),
    [
        ("random", RandomPlayer, set()),
        ("greedy", GreedyPlayer, set()),
        ("heuristic", HeuristicPlayer, set()),
        ("search", SearchPlayer, set()),
        ("learned", LearnedPlayer, {"network"}),
        ("fallible", FalliblePlayer, set()),
    ],
)
def test_declared_settings_are_the_players_parameters(name: str, cls: type, not_settings: set[str]) -> None:
    """What ``register`` declares is each player's ``__init__``, kind for kind (``network`` is an
    object, not something a spec can write)."""
    kinds = {"int": int, "float": float, "str": str, "int | None": int, "bool": bool}
    declared = dict(_REGISTRY[name].settings or {})
    parameters = {p: kinds[a] for p, a in _init_parameters(cls).items() if p not in not_settings}
    assert declared == parameters


def test_a_player_of_your_own_gets_its_settings_from_its_signature() -> None:
    """Registered without settings, a player's are read from its signature's defaults; one that takes
    ``**settings`` takes anything, numbers read as numbers."""

    class Mine:
        name = "mine"

        def __init__(self, seed: int | None = None, depth: int = 3, bold: bool = False) -> None:
            self.depth, self.bold = depth, bold

        def choose(self, view: object) -> int:
            return 0

    register("mine", Mine)
    register("anything", lambda seed=None, **settings: settings)
    try:
        player = make_player("mine:depth=5,bold=yes", 1)
        assert (player.depth, player.bold) == (5, True)  # type: ignore[attr-defined]
        with pytest.raises(
            PlayerSpecError, match=r"^mine has no setting 'dpth'; did you mean 'depth'\? its settings are: depth, bold$"
        ):
            make_player("mine:dpth=5")
        with pytest.raises(PlayerSpecError, match=r"^mine:depth must be a whole number, got '5\.5'$"):
            make_player("mine:depth=5.5")
        assert make_player("anything:x=1,y=0.5,z=deep") == {"x": 1, "y": 0.5, "z": "deep"}  # type: ignore[comparison-overlap]
    finally:
        _REGISTRY.pop("mine")
        _REGISTRY.pop("anything")


def test_a_choice_s_worlds_share_their_positions_moves_exactly() -> None:
    """``MoveMemo``: worlds searched one after another with one memo (a position's moves and best
    capture, met in an earlier world, answered from it) give every candidate exactly the value, and
    visit exactly the positions, that a fresh search of each world does: two to four seats. (It
    answers only the choosing seat's positions, whose hand every world shares.)"""
    checked = used = 0
    for preset, players in (("classic", 2), ("royal", 3), ("classic", 4)):
        rules = make_rules(preset, players=players)
        for state in _positions(rules, seed=players, count=12):
            view = view_of(state, state.to_move)
            side = rules.side_of(view.seat)
            candidates = [c for _, c in sorted(rate_moves(view), key=lambda rc: -rc[0])[:6]]
            player = SearchPlayer(seed=0, solve_below=0)
            memo = MoveMemo()
            rng = random.Random(checked)
            for _ in range(5):
                world = sample_world(view, rng)
                assert player.world_values(world.copy(), candidates, side, memo) == player.world_values(
                    world, candidates, side
                )
                checked += 1
            used += bool(memo.moves or memo.takes)
    assert checked >= 150 and used >= 20


def test_worlds_are_shuffled_with_the_draws_of_random_shuffle() -> None:
    """``worlds.shuffle`` (compiled) leaves a list and the generator exactly as ``Random.shuffle``
    does, so a seed deals the same worlds either way."""
    for seed in range(40):
        for size in (0, 1, 2, 5, 31, 36, 52):
            mine, theirs = random.Random(seed), random.Random(seed)
            cards, expected = list(range(size)), list(range(size))
            shuffle(mine, cards)
            theirs.shuffle(expected)
            assert cards == expected and mine.random() == theirs.random()


def test_mirror_moves_are_worth_the_same_in_every_world() -> None:
    """Two moves that differ only by cards of one rank and one worth in one place (``mirror_key``)
    get the same value in every world, searched or solved: so a choice searches one of them
    (``distinct_moves``, the first kept). Two to four seats, classic, royal and spade scoring."""
    pairs = 0
    for preset, players in (("classic", 2), ("royal", 3), ("spade", 2), ("classic", 4)):
        rules = make_rules(preset, players=players)
        worth = card_worth(rules)
        for state in _positions(rules, seed=11 + players, count=60):
            view = view_of(state, state.to_move)
            legal = list(view.legal)
            kept = distinct_moves(legal, int(view.loose), worth)
            key_of = {code: mirror_key(code, int(view.loose), worth) for code in legal}
            assert kept == [c for i, c in enumerate(legal) if key_of[c] not in {key_of[d] for d in legal[:i]}]
            mirrored = [c for c in legal if c not in kept]
            if not mirrored:
                continue
            pairs += len(mirrored)
            # A breadth that cuts nothing: the search's own tie-breaks at the cut are not the moves'.
            player = SearchPlayer(seed=0, breadth=64, solve_below=6)
            rng = random.Random(pairs)
            for _ in range(3):
                values, _work = player.world_values(sample_world(view, rng), legal, rules.side_of(view.seat))
                for code in mirrored:
                    first = next(c for c in kept if key_of[c] == key_of[code])
                    assert values[code] == values[first]
    assert pairs >= 40


def test_mirror_keys_tell_cards_that_score_apart() -> None:
    """Same rank and same worth are mirrors; the ten of diamonds (big casino), a spade, or another
    place (a hand card against a loose one) are not."""
    rules = make_rules("classic")
    worth = card_worth(rules)
    loose = _cards("4c 4d 10h 10d")
    trails = [parse_code(f"trail {c}") for c in ("4h", "4s")]
    assert distinct_moves(trails, loose, worth) == trails  # a spade's share of most spades
    takes = [parse_code(line) for line in ("capture 4h 4: 4c", "capture 4h 4: 4d", "capture 4s 4: 4c")]
    assert distinct_moves(takes, loose, worth) == [takes[0], takes[2]]
    tens = [parse_code("capture 10c 10: 10h"), parse_code("capture 10c 10: 10d")]
    assert distinct_moves(tens, loose, worth) == tens  # big casino is worth two points more
    hearts = [parse_code("trail 7h"), parse_code("trail 7d"), parse_code("trail 7c")]
    assert distinct_moves(hearts, loose, worth) == [hearts[0]]
