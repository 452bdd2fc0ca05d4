"""αμ over the next-to-last deal: its fronts, its bounds and where the player uses it."""

from __future__ import annotations

import random

import pytest

from cassino.cards import shuffled_deck
from cassino.moves import MoveCode
from cassino.players.alphamu import AlphaMu, AlphaMuPlayer, fused_values, pareto
from cassino.players.base import decide, make_player
from cassino.players.errors import PlayerSpecError
from cassino.players.search import SearchPlayer
from cassino.players.solver import Solver
from cassino.players.worlds import sample_world
from cassino.rules import make_rules
from cassino.state import State
from cassino.view import view_of


def test_pareto_keeps_the_vectors_nothing_beats_everywhere() -> None:
    vectors = [(3, 0), (0, 3), (1, 1), (2, 0), (3, 0), (2, 2)]
    assert sorted(pareto(vectors)) == [(0, 3), (2, 2), (3, 0)]
    assert pareto([(1, 2, 3)]) == [(1, 2, 3)]
    assert pareto([(5, 5), (4, 6), (6, 4), (5, 4)]) == [(6, 4), (5, 5), (4, 6)]


def _holding_two(seed: int) -> State:
    """A classic hand played by the heuristic into its next-to-last deal, up to the first turn
    of a player holding two cards there."""
    rules = make_rules("classic")
    state = State.new_hand(rules, shuffled_deck(random.Random(seed)), 0, (0, 0))
    players = [make_player("heuristic", seed=seed), make_player("heuristic", seed=seed + 1)]
    while not (len(state.remaining_stock) == 8 and state.hands[state.to_move].bit_count() == 2):
        state.push(decide(players[state.to_move], state))
    return state


def _worlds(state: State, count: int, seed: int) -> list[State]:
    """``count`` different worlds of the mover's view (the true one need not be among them)."""
    view = view_of(state, state.to_move)
    rng = random.Random(seed)
    found: dict[tuple[object, ...], State] = {}
    while len(found) < count:
        world = sample_world(view, rng)
        found.setdefault((world.hands, world.remaining_stock), world)
    return list(found.values())


def _exact(world: State, side: int) -> dict[MoveCode, int]:
    """Each move's exact value in one world, every card known."""
    return dict(Solver(10_000_000).solve(world, side)[1])


def _one_strategy(world: State, side: int, code: MoveCode, stock: int) -> int:
    """The value in ``world`` of one strategy that needs no hidden card: ``code``, then the
    lowest-coded legal move at each later turn of the deal, the opponent answering as suits it
    in this world, each world solved exactly from the last deal's start."""
    world.push(code)
    try:
        if len(world.remaining_stock) < stock:
            return Solver(10_000_000).solve(world, side)[0]
        codes = world.legal_codes()
        if world.rules.side_of(world.to_move) == side:
            return _one_strategy(world, side, min(codes), stock)
        return min(_one_strategy(world, side, c, stock) for c in codes)
    finally:
        world.pop()


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_in_one_world_alphamu_is_the_exact_solution(seed: int) -> None:
    state = _holding_two(seed)
    side = state.rules.side_of(state.to_move)
    world = _worlds(state, 1, seed)[0]
    values = AlphaMu(side, Solver(10_000_000)).values([world])
    assert values == {code: float(v) for code, v in _exact(world, side).items()}


@pytest.mark.parametrize("seed", [3, 8, 21, 34, 55])
def test_alphamu_lies_between_one_strategy_and_knowing_every_world(seed: int) -> None:
    """Never above the mean of the worlds solved one by one (which lets each world play
    differently), never below a strategy that plays alike in all of them; and a hidden card
    costs something in some position."""
    state = _holding_two(seed)
    side = state.rules.side_of(state.to_move)
    worlds = _worlds(state, 6, seed)
    search = AlphaMu(side, Solver(10_000_000))
    values = search.values(worlds)
    assert search.capped == 0
    exact = [_exact(w, side) for w in worlds]
    means = fused_values(worlds, side, Solver(10_000_000))
    assert means.keys() == values.keys()
    for code, value in values.items():
        fused = sum(e[code] for e in exact) / len(worlds)
        assert means[code] == fused
        fixed = sum(_one_strategy(w, side, code, 8) for w in worlds) / len(worlds)
        assert fixed <= value <= fused, (code, fixed, value, fused)
    assert [w.key() for w in worlds] == [w.key() for w in _worlds(state, 6, seed)], "the worlds were left as they were"


@pytest.mark.parametrize("seed", [7, 15])
def test_a_hidden_card_costs_what_the_fused_mean_promised_somewhere(seed: int) -> None:
    """In these positions some move's fused mean is more than any one strategy makes: there the
    worlds solved one by one each play the player's next card their own way."""
    state = _holding_two(seed)
    side = state.rules.side_of(state.to_move)
    worlds = _worlds(state, 6, seed)
    values = AlphaMu(side, Solver(10_000_000)).values(worlds)
    exact = [_exact(w, side) for w in worlds]
    gaps = [sum(e[c] for e in exact) / len(worlds) - v for c, v in values.items()]
    assert min(gaps) >= 0
    assert max(gaps) > 0


def test_the_player_uses_alphamu_only_in_the_next_to_last_deal_with_few_cards() -> None:
    player = make_player("alphamu:cards=2,mu_worlds=4,worlds=8", seed=1)
    assert isinstance(player, AlphaMuPlayer)
    assert isinstance(player.base, SearchPlayer) and player.base.worlds == 8
    rules = make_rules("classic")
    state = State.new_hand(rules, shuffled_deck(random.Random(5)), 0, (0, 0))
    heuristic = make_player("heuristic", seed=5)
    used = []
    while not state.hand_over:
        view = view_of(state, state.to_move)
        if player.applies(view):
            used.append((len(state.remaining_stock), state.hands[state.to_move].bit_count()))
            assert decide(player, state) in view.legal
        state.push(decide(heuristic, state))
    assert used and all(stock == 8 and cards == 2 for stock, cards in used)


def test_the_player_leaves_four_players_to_its_search() -> None:
    player = make_player("alphamu:cards=4", seed=1)
    assert isinstance(player, AlphaMuPlayer)
    rules = make_rules("classic").replace(players=4)
    state = State.new_hand(rules, shuffled_deck(random.Random(6)), 0, (0, 0, 0, 0))
    heuristic = make_player("heuristic", seed=6)
    while not state.hand_over:
        assert not player.applies(view_of(state, state.to_move))
        state.push(decide(heuristic, state))


def test_a_misspelt_setting_is_named() -> None:
    with pytest.raises(PlayerSpecError, match="mu_wrlds"):
        make_player("alphamu:mu_wrlds=4")


def test_a_world_beyond_the_solvers_budget_leaves_the_base_searchs_move() -> None:
    state = _holding_two(8)
    view = view_of(state, state.to_move)
    player = make_player("alphamu:mu_worlds=4", seed=2)
    assert isinstance(player, AlphaMuPlayer) and player.applies(view)
    player.solver = Solver(10)
    assert player.choose(view) == make_player("search", seed=2).choose(view)
