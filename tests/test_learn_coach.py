"""The coach: it flags a known blunder on a fixed position and says why, stays silent after the
best move, gives a hint with a reason, is deterministic for a seed, never reads hidden cards (the
same assessment whatever they are), and stays fast."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cassino.game import Game
from cassino.learn import CATEGORIES, MARGIN, Coach, coach_note
from cassino.moves import Move, parse_code
from cassino.players.base import decide, make_player
from cassino.players.worlds import sample_world
from cassino.state import State
from cassino.view import View, view_of
from positions import ALL_CARDS, build, scripted_position

# Seat 0's ten of clubs sweeps Big Casino and the opponent's 10-build: trailing the 3 instead
# leaves both to the owner of the build, who holds a ten (rule 7.2).
BLUNDER = (["Td", build(["6h", "4c"], 10, 1)], [["Tc", "3d", "4s", "8c"], ["Th", "2h", "9d", "Jh"]])
BEST = "capture Tc 10: 4c 6h Td"


def blunder_view() -> View:
    return view_of(scripted_position(*BLUNDER), 0)


def test_the_coach_flags_a_known_blunder_and_says_why() -> None:
    view = blunder_view()
    coach = Coach(seed=1)
    assessment = coach.assess(view, parse_code("trail 3d"))
    assert assessment.best == parse_code(BEST)
    assert assessment.loss > 4 * MARGIN
    assert assessment.category == "aces_casinos"
    note = coach.note(assessment)
    assert note is not None
    assert note.better == assessment.best
    assert note.why.text() == "Tc would have swept the table (4c 6h Td), a point of its own."
    assert note.text().startswith(f"Better: {BEST}, about ")
    assert note.to_json()["why"]["params"]["cards"] == {"cards": ["4c", "6h", "Td"]}


def test_a_missed_casino_is_named_with_its_points() -> None:
    view = view_of(scripted_position(["Td", "5h"], [["Tc", "3d", "4s", "8c"], ["2h", "6c", "9d", "Jh"]]), 0)
    coach = Coach(seed=1)
    # Trailing the ten itself leaves the casino with nothing left to take it.
    assessment = coach.assess(view, parse_code("trail Tc"))
    assert assessment.loss > 2 * MARGIN
    note = coach.note(assessment)
    assert note is not None and note.why.text() == "Tc could have taken Td, and Td scores 2 points."


def test_the_coach_is_silent_after_the_best_move() -> None:
    view = blunder_view()
    coach = Coach(seed=1)
    best = coach.assess(view, parse_code(BEST))
    assert best.loss == 0.0 and best.best == best.move
    assert coach.note(best) is None
    for code, _value in coach.values(view)[:1]:
        assert coach.note(coach.assess(view, code)) is None


def test_a_hint_is_the_best_move_with_its_reason() -> None:
    move, reason = Coach(seed=1).hint(blunder_view())
    assert str(Move(move)) == BEST
    assert reason.text() == "Tc sweeps the table (4c 6h Td): a point of its own."


def test_leaving_a_sweep_is_named() -> None:
    # Trailing the 4 beside the 5 leaves 4 + 5 for a 9 to sweep; pairing the 5 clears the table.
    view = view_of(scripted_position(["5h"], [["5d", "4c", "Kd", "Qh"], ["2h", "6c", "8d", "Jh"]]), 0)
    coach = Coach(seed=2)
    assessment = coach.assess(view, parse_code("trail 4c"))
    assert assessment.category == "sweeps"
    note = coach.note(assessment)
    assert note is not None and note.why.text() == "You left 4c 5h for your opponent to sweep."


def test_the_same_seed_gives_the_same_assessment() -> None:
    view = blunder_view()
    first = Coach(seed=5).assess(view, parse_code("trail 8c"))
    again = Coach(seed=5).assess(view, parse_code("trail 8c"))
    assert first == again
    assert first.category in CATEGORIES
    assert [c for c, _ in first.values] == sorted(view.legal, key=lambda c: (-dict(first.values)[c], c))


def positions(seed: int, count: int) -> list[State]:
    """Positions of seat 0's turns in a game of the greedy player against itself."""
    game = Game(seed=seed)
    players = [make_player("greedy", seed), make_player("greedy", seed + 1)]
    out = []
    while not game.over and len(out) < count:
        state = game.state
        if state.to_move == 0 and len(state.legal_codes()) > 1:
            out.append(state.copy())
        game.push(decide(players[state.to_move], state))
    return out


def reshuffled(state: State, seat: int, rng: random.Random) -> State:
    """The same position for ``seat`` with every card it cannot see dealt anew."""
    for _ in range(100):
        other = sample_world(view_of(state, seat), rng)
        if other.hands != state.hands or other.remaining_stock != state.remaining_stock:
            return other
    return state


@pytest.mark.parametrize("seed", [3, 8])
def test_the_coach_never_reads_hidden_cards(seed: int) -> None:
    """Hidden cards dealt otherwise, the view the same: the same values, best move and notes."""
    rng = random.Random(seed)
    for state in positions(seed, 8):
        view = view_of(state, 0)
        twin = view_of(reshuffled(state, 0, rng), 0, view.history)
        assert twin == view
        move = view.legal[rng.randrange(len(view.legal))]
        first, second = Coach(seed=seed).assess(view, move), Coach(seed=seed).assess(twin, move)
        assert first == second
        assert coach_note(first) == coach_note(second)


def test_known_cards_are_solved_in_points_not_game_bonuses() -> None:
    """The last deal for two: the one world is solved exactly, valued in points of the hand."""
    hands = [["9h", "Kd", "5c"], ["Jd", "2c", "4h"]]
    used = {"4c", "5d", *hands[0], *hands[1]}
    state = scripted_position(["4c", "5d"], hands, captured=tuple(c for c in ALL_CARDS if c not in used))
    view = view_of(state, 0)
    values = dict(Coach().values(view))
    assert values[parse_code("capture 9h 9: 4c 5d")] == max(values.values())
    assert all(abs(v) < 30 for v in values.values())


def test_an_illegal_move_is_refused() -> None:
    with pytest.raises(ValueError, match="not a legal move"):
        Coach().assess(blunder_view(), parse_code("trail 9c"))


def test_racing_flags_what_the_full_valuation_flags_on_fewer_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move settled early (its loss clear of nothing and of the margin) is valued no more: the
    same flags as valuing every move on every world, for less search. Which of moves within the
    margin of each other is best may differ: the full valuation puts the raced best within it."""
    from cassino.players.search import MoveMemo, SearchPlayer

    searched: list[int] = []
    plain = SearchPlayer.values_once

    def counted(
        self: SearchPlayer,
        world: State,
        candidates: list[int],
        side: int,
        known: dict[tuple[object, ...], Any],
        memo: MoveMemo | None = None,
    ) -> tuple[dict[int, float], int]:
        searched.append(len(candidates))
        return plain(self, world, candidates, side, known, memo)

    monkeypatch.setattr(SearchPlayer, "values_once", counted)
    views = [view_of(state, 0) for seed in (4, 9) for state in positions(seed, 6)]
    raced = [Coach(seed=i).values(view) for i, view in enumerate(views)]
    raced_work = sum(searched)
    searched.clear()
    full = [Coach(seed=i, race=False).values(view) for i, view in enumerate(views)]
    assert raced_work < 0.8 * sum(searched)

    def flagged(ranked: tuple[tuple[int, float], ...]) -> list[int]:
        top = ranked[0][1]
        return sorted(code for code, value in ranked if top - value > MARGIN)

    for fast, slow in zip(raced, full, strict=True):
        # A flag may differ only for a move at the margin (within 0.1 points of it, less than
        # the spread of a loss estimate over seeds in the noisier positions: docs/learn.md).
        top = slow[0][1]
        for code in set(flagged(fast)) ^ set(flagged(slow)):
            assert abs(top - dict(slow)[code] - MARGIN) < 0.1
        assert dict(slow)[fast[0][0]] >= top - MARGIN
