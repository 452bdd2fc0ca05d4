"""One rule for both sides of teaching: a trail of an ace or a casino while a capture is there
(``careless_trail``) is flagged by the guided coach however its search rates it, and no lesson ever
shows one. The reported first turn (A♠ 2♠ 3♦ in hand, 3♣ on the table), the coach's flag word for
word, the guided hint, the learners the table and the terminal guide, and random tutorial positions."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino.learn import TUTORIAL_RULES, Assessment, Coach, coach_note, due_lessons
from cassino.learn.lessons import TRIGGERS
from cassino.learn.reading import careless_trail
from cassino.moves import Move, MoveCode, parse_code
from cassino.rules import make_rules
from cassino.state import State
from cassino.terminal.newgame import NewGame
from cassino.terminal.table_text import CardText, note_text
from cassino.view import View, view_of
from positions import scripted_position
from strategies import positions

# The reported turn: the hand holds A♠ and Little Casino, and 3♦ could take 3♣.
REPORTED = (["3c", "9h", "Qd"], [["As", "2s", "3d"], ["4h", "5c", "Jd"]])
CAPTURE = parse_code("capture 3d 3: 3c")
FLAG_2S = (
    "Better: capture 3d 3: 3c. You trailed 2s, which scores by itself, while 3d could take 3c: capture first, "
    "and never trail an ace or a casino when a capture is there."
)


def seat0(table: list[Any], hands: list[list[str]]) -> View:
    return view_of(scripted_position(table, hands), 0)


def level(view: View, move: MoveCode) -> Assessment:
    """An assessment in which the search rates every move alike: whatever the coach says of ``move``
    then comes from its rules, not from the search."""
    values = tuple((code, 0.0) for code in sorted(view.legal))
    return Assessment(view, move, values, move, 0.0, "aces_casinos")


def test_the_reported_turn_shows_the_capture_not_the_trail_of_the_ace() -> None:
    view = seat0(*REPORTED)
    notes = due_lessons(view, set())
    assert [(n.lesson.id, n.move) for n in notes] == [("pairing", CAPTURE)]
    assert notes[0].example.text() == "Your 3d can take the 3c: cards of the same rank pair."
    assert careless_trail(view, parse_code("trail As")) and careless_trail(view, parse_code("trail 2s"))
    assert not careless_trail(view, CAPTURE)


def test_the_coach_flags_both_careless_trails_of_the_reported_turn() -> None:
    view = seat0(*REPORTED)
    coach = Coach(seed=1)
    ace = coach.assess(view, parse_code("trail As"))
    note = coach.note(ace, guided=True)
    assert note is not None and note.better == CAPTURE and not note.flagged  # the search says it too
    assert note.why.text() == "You trailed As, which scores, where your opponent can take it."
    # Trailing Little Casino costs too little for the search alone to speak: the silence reported.
    casino = coach.assess(view, parse_code("trail 2s"))
    assert casino.loss < coach.margin and coach.note(casino) is None
    flag = coach.note(casino, guided=True)
    assert flag is not None and flag.flagged and flag.better == CAPTURE
    assert flag.text() == FLAG_2S
    assert flag.to_json()["template"] == "learn.coach.flag"
    assert note_text(flag, CardText()) == (
        "Better: take 3♣ with 3♦. You trailed 2♠, which scores by itself, while 3♦ could take 3♣: capture first, "
        "and never trail an ace or a casino when a capture is there."
    )
    assert flag.to_json()["why"]["params"] == {
        "card": {"cards": ["2s"]},
        "taker": {"cards": ["3d"]},
        "cards": {"cards": ["3c"]},
    }


def test_the_rule_alone_flags_only_a_scoring_trail_beside_a_capture() -> None:
    view = seat0(["3c", "9h", "Qd"], [["As", "Td", "3d", "8h"], ["4h", "5c", "Jd", "2s"]])
    for trail in ("trail As", "trail Td"):
        note = coach_note(level(view, parse_code(trail)), guided=True)
        assert note is not None and note.flagged and note.loss == 0.0 and str(Move(note.better)) == "capture 3d 3: 3c"
        assert coach_note(level(view, parse_code(trail))) is None, "unguided, only the search speaks"
    assert coach_note(level(view, parse_code("trail 8h")), guided=True) is None, "8h scores nothing"
    # Nothing to capture: trailing the ace is no careless trail.
    quiet = seat0(["9h", "Qd"], [["As", "Td", "3d", "8h"], ["4h", "5c", "Jd", "2s"]])
    assert coach_note(level(quiet, parse_code("trail As")), guided=True) is None


class Ranked(Coach):
    """A coach whose search ranks the moves as given, best first (the others after them)."""

    def __init__(self, ranking: list[str]) -> None:
        super().__init__(seed=0)
        self.ranking = [parse_code(m) for m in ranking]

    def values(self, view: View) -> tuple[tuple[MoveCode, float], ...]:
        rest = sorted(set(view.legal) - set(self.ranking))
        return tuple((code, -float(i)) for i, code in enumerate([*self.ranking, *rest]))


def test_a_guided_hint_never_names_a_move_the_coach_flags() -> None:
    view = seat0(*REPORTED)
    coach = Ranked(["trail As", "trail 2s", "trail 3d", "capture 3d 3: 3c"])
    assert coach.hint(view)[0] == parse_code("trail As")
    move, why = coach.hint(view, guided=True)
    assert move == parse_code("trail 3d") and why.text() == "Trail 3d: it gives your opponent the least."


def test_the_tutorial_guides_its_learner_and_the_table_passes_it_to_the_coach() -> None:
    session = NewGame.guided(seed=3).session()
    assert session.table.teaching.learner(0).guided
    coached = NewGame(make_rules("classic"), seed=3, coach=True).session()
    assert not coached.table.teaching.learner(0).guided
    teaching = coached.table.teaching
    view = seat0(*REPORTED)
    casino = level(view, parse_code("trail 2s"))
    assert teaching.note(0, casino) is None
    teaching.guide(0)
    note = teaching.note(0, casino)
    assert note is not None and note.text() == FLAG_2S


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(st.just(TUTORIAL_RULES)), st.sets(st.sampled_from(sorted(TRIGGERS))))
def test_no_lesson_of_a_tutorial_position_shows_a_move_the_coach_flags(state: State, seen: set[str]) -> None:
    """Every lesson due at any seat's turn of a tutorial game, whatever was seen before: its move is
    no careless trail, and the guided coach, with the search rating every move alike, lets it be."""
    if not state.legal_codes():
        return
    view = view_of(state, state.to_move)
    for note in due_lessons(view, seen):
        if note.move is not None:
            assert note.move in view.legal
            assert not careless_trail(view, note.move)
            assert coach_note(level(view, note.move), guided=True) is None
