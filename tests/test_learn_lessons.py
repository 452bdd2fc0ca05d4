"""The tutorial's lessons: each fires on a scripted position with the table's own cards as its
example, and not again once seen; the count's lesson after a hand; every learn message has its
English text and a German and an Indonesian translation with the same placeholders."""

from __future__ import annotations

from typing import Any

import pytest

from cassino.cards import SPADES_MASK
from cassino.learn import (
    LEARN_TEXTS,
    TUTORIAL_OPPONENT,
    TUTORIAL_RULES,
    Message,
    all_lessons,
    count_lesson,
    due_lessons,
    tutorial_opponent,
)
from cassino.learn.lessons import TRIGGERS
from cassino.players import choose_code, make_player
from cassino.rules import make_rules
from cassino.scoring import count_hand
from cassino.view import View, view_of
from positions import ALL_CARDS, build, mask, scripted_position

EVERY = frozenset(TRIGGERS)


def seat0(
    table: list[Any], hands: list[list[str]], rules: dict[str, Any] | None = None, captured: tuple[str, ...] = ()
) -> View:
    """Seat 0's view of a scripted position (seat 0 to move)."""
    return view_of(scripted_position(table, hands, rules, captured), 0)


def only(lesson_id: str, view: View) -> Message:
    """The example of the one lesson due when every other lesson has been seen."""
    notes = due_lessons(view, EVERY - {lesson_id})
    assert [n.lesson.id for n in notes] == [lesson_id]
    assert lesson_id not in [n.lesson.id for n in due_lessons(view, {lesson_id})], "a seen lesson comes back"
    return notes[0].example


# Each lesson, the position that shows its idea, and the example's English.
CASES = [
    ("trailing", (["2h"], [["9c", "Kd"], ["3s", "4s"]]), "You can trail 9c: it stays on the table as a loose card."),
    ("pairing", (["7c"], [["7h", "2d"], ["3s", "4s"]]), "Your 7h can take the 7c: cards of the same rank pair."),
    (
        "court_cards",
        (["Qs"], [["Qd", "2d"], ["3s", "4s"]]),
        "Your Qd can take the Qs: a court card pairs only with its own rank.",
    ),
    ("summing", (["5d", "3c"], [["8h", "Kd"], ["2s", "4s"]]), "Your 8h can take 3c 5d: they add up to 8."),
    (
        "building",
        (["3c"], [["5d", "8h"], ["2s", "4s"]]),
        "Play 5d onto 3c and call 8: you keep 8h to take the build on your next turn.",
    ),
    (
        "raising",
        ([build(["3c", "2d"], 5, 1)], [["4h", "9s"], ["5s", "Kc"]]),
        "Your 4h can raise the 5-build (2d 3c) to 9.",
    ),
    (
        "multiple",
        (["5c", "3d", "8h"], [["8d", "8s"], ["2s", "4s"]]),
        "Play 8d onto 8h and call 8: it makes a multiple build, which nobody can raise.",
    ),
    (
        "obligation",
        ([build(["3c", "4d"], 7, 0)], [["7h", "Ks"], ["2s", "9d"]]),
        "You own the 7-build (3c 4d): keep 7h until you take it.",
    ),
    (
        "sweeps",
        (["5h"], [["5d", "Kc"], ["2s", "4s"]]),
        "Your 5d can take everything on the table (5h): that is a sweep.",
    ),
]


@pytest.mark.parametrize(("lesson_id", "position", "text"), CASES, ids=[c[0] for c in CASES])
def test_each_lesson_fires_on_its_position_with_the_table_as_example(
    lesson_id: str, position: tuple[list[Any], list[list[str]]], text: str
) -> None:
    table, hands = position
    assert only(lesson_id, seat0(table, hands)).text() == text


def test_a_frozen_build_on_the_table_is_the_multiple_lesson() -> None:
    view = seat0([build(["5c", "3d", "8h"], 8, 1)], [["9d", "Ks"], ["8s", "4s"]])
    example = only("multiple", view)
    assert example.code == "lesson.multiple.example_table"
    assert example.text() == "The 8-build (3d 5c 8h) holds several groups of 8: it is frozen, so nobody can raise it."


def test_the_last_capture_lesson_comes_with_an_empty_stock() -> None:
    hands = [["9h", "Kd"], ["Jd", "2c"]]
    used = {"4c", *hands[0], *hands[1]}
    view = seat0(["4c"], hands, captured=tuple(c for c in ALL_CARDS if c not in used))
    assert view.stock_size == 0
    text = only("last_capture", view).text()
    assert text == "The stock is empty: whoever captures last also takes what is left on the table, now 4c."
    assert "last_capture" not in [n.lesson.id for n in due_lessons(seat0(["4c"], hands), set())]


def test_lessons_come_in_teaching_order_and_not_once_seen() -> None:
    view = seat0(["5d", "3c", "8c"], [["8h", "5s", "Kd"], ["2s", "4s", "6d"]])
    ids = [n.lesson.id for n in due_lessons(view, set())]
    assert ids == ["trailing", "pairing", "summing", "building", "multiple", "sweeps"]
    assert [n.lesson.id for n in due_lessons(view, {"trailing", "pairing"})] == ids[2:]
    first = due_lessons(view, set())[0]
    assert first.move is not None and first.move in view.legal
    # The trail shown is of the card that takes nothing: 8h and 5s could capture.
    assert first.to_json()["example"]["params"] == {"card": {"cards": ["Kd"]}}


def test_no_lesson_without_a_sweep_when_sweeps_do_not_score() -> None:
    view = seat0(["5h"], [["5d", "Kc"], ["2s", "4s"]], {"sweeps": False})
    assert "sweeps" not in [n.lesson.id for n in due_lessons(view, set())]


def test_no_lesson_for_a_seat_not_to_move() -> None:
    state = scripted_position(["5h"], [["5d", "Kc"], ["2s", "4s"]])
    assert due_lessons(view_of(state, 1), set()) == []


def test_the_count_lesson_tells_the_first_hands_count() -> None:
    rules = TUTORIAL_RULES
    mine = mask("Td 2s As Ac 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")  # 15 cards, every spade
    theirs = ((1 << 52) - 1) & ~mine
    count = count_hand(rules, [mine, theirs], [0])
    note = count_lesson(rules, count, 0)
    assert note.lesson.id == "count"
    assert note.example.args["spades"] == (mine & SPADES_MASK).bit_count()
    assert note.example.text() == (
        "Your count this hand: cards 15, spades 13, points 7. The others: cards 37, spades 0, points 5."
    )
    assert "21 points wins" in note.lesson.text.text()


def test_every_lesson_can_be_read_at_any_time() -> None:
    lessons = all_lessons()
    assert [lesson.id for lesson in lessons] == list(TRIGGERS)
    assert len(lessons) >= 11
    for lesson in lessons:
        assert lesson.title.text() and len(lesson.text.text()) > 60
    spade = {lesson.id: lesson for lesson in all_lessons(make_rules("classic", scoring="spade"))}
    assert spade["count"].text.code == "lesson.count.text_spade"


def test_the_guided_game_is_classic_for_two_against_a_gentle_player() -> None:
    assert TUTORIAL_RULES.players == 2 and not TUTORIAL_RULES.royal
    assert TUTORIAL_OPPONENT == "beginner"
    opponent = tutorial_opponent(3)
    view = seat0(["7c"], [["7h", "2d"], ["3s", "4s"]])
    assert choose_code(opponent, view) in view.legal
    assert make_player(TUTORIAL_OPPONENT).name


def test_messages_round_trip_through_json() -> None:
    for note in due_lessons(seat0(["5d", "3c", "8c"], [["8h", "5s", "Kd"], ["2s", "4s", "6d"]]), set()):
        data = note.example.to_json()
        assert data["key"] == "learn." + note.example.code
        assert Message.from_json(data) == note.example
    with pytest.raises(ValueError, match="takes"):
        Message.of("lesson.pairing.example", card=1)
    with pytest.raises(ValueError, match="unknown"):
        Message.of("lesson.nothing")


def test_every_learn_message_has_english_german_and_indonesian() -> None:
    pytest.importorskip("babel")
    from cassino.web.i18n import LANGUAGES, catalogue, placeholders

    assert len(LEARN_TEXTS) > 60
    for language in LANGUAGES:
        messages = catalogue(language)
        for code, english in LEARN_TEXTS.items():
            text = messages.get(f"learn.{code}")
            assert text, f"{language}: no text for learn.{code}"
            assert placeholders(text) == placeholders(english), f"{language}: learn.{code}"
            if language != "en":
                assert text != english or len(english) < 12, f"{language}: learn.{code} is not translated"
