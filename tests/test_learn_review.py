"""The review after a game: the categories' losses add up exactly to the points lost (a
property), where the points went per item of the count, the costliest moves with the better one,
and at most two strengths and two habits, never the same category for both."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.game import Game
from cassino.learn import CATEGORIES, MARGIN, Assessment, Coach, review
from cassino.learn.review import CategoryStat, advice, cents
from cassino.players.base import decide, make_player
from cassino.view import view_of
from positions import scripted_position

VIEW = view_of(scripted_position(["5h"], [["5d", "4c"], ["2h", "6c"]]), 0)
MOVE = VIEW.legal[0]


def assessment(category: str, loss: float) -> Assessment:
    """An assessment of some loss in some category (the position does not matter to the review)."""
    return Assessment(VIEW, MOVE, ((MOVE, 0.0),), MOVE, loss, category)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(CATEGORIES), st.floats(0, 8, allow_nan=False)), max_size=60))
def test_the_categories_add_up_exactly_to_the_points_lost(moves: list[tuple[str, float]]) -> None:
    result = review([assessment(c, loss) for c, loss in moves], [], 0, VIEW.rules)
    assert sum((c.lost for c in result.categories), Decimal(0)) == result.lost
    assert sum(c.moves for c in result.categories) == len(moves)
    assert result.lost == sum((cents(loss) for _, loss in moves), Decimal(0))
    assert len(result.strengths) <= 2 and len(result.habits) <= 2
    assert not {a.category for a in result.strengths} & {a.category for a in result.habits}


def test_strengths_are_many_moves_with_little_lost_and_habits_the_costliest() -> None:
    stats = [
        CategoryStat("pairs", 9, Decimal("0.20")),
        CategoryStat("sums", 4, Decimal("0")),
        CategoryStat("building", 3, Decimal("0")),  # too few moves to show a strength
        CategoryStat("trailing", 12, Decimal("3.10")),
        CategoryStat("sweeps", 2, Decimal("4.50")),
        CategoryStat("answering", 1, Decimal("0.30")),  # within the margin: no habit
    ]
    strengths, habits = advice(stats)
    assert [a.category for a in strengths] == ["pairs", "sums"]
    assert [a.category for a in habits] == ["sweeps", "trailing"]
    assert habits[0].message.text() == (
        "To work on: leaving sweeps, 4.5 points lost. Before each move, look at what the table will be: "
        "if one card can take all of it, keep a card back."
    )
    assert strengths[0].message.text() == "Strong: pairing, 9 moves with hardly a point lost."


def test_a_played_game_is_reviewed() -> None:
    """Seat 0 plays the greedy player's moves for a hand and a half; the coach assesses each."""
    game = Game(seed=4)
    players = [make_player("greedy", 1), make_player("heuristic", 2)]
    coach = Coach(seed=0)
    assessments = []
    while not game.over and (not game.hand_results or game.state.moves_played < 20):
        state = game.state
        code = decide(players[state.to_move], state)
        if state.to_move == 0:
            assessments.append(coach.assess(view_of(state, 0), code))
        game.push(code)
    counts = [result.count for result in game.hand_results]
    result = review(assessments, counts, 0, game.rules)
    yours = sum(p.yours for p in result.points)
    theirs = sum(p.theirs for p in result.points)
    assert (yours, theirs) == tuple(sum(r.points[s] for r in game.hand_results) for s in (0, 1))
    assert [p.item for p in result.points][:2] == ["cards", "spades"]
    assert len(result.costly) <= 3
    losses = [note.loss for note in result.costly]
    assert losses == sorted(losses, reverse=True) and all(loss > MARGIN for loss in losses)
    assert all(note.better != note.move for note in result.costly)
    assert sum((c.lost for c in result.categories), Decimal(0)) == result.lost
    data = result.to_json()
    assert data["lost"] == float(result.lost) and len(data["categories"]) == len(CATEGORIES)
