"""The terminal game teaches: the tutorial's lessons, the coach's notes, hints that say why, the
review at the end, and the ladder of levels offered as opponents.

What is told must be the library's own words about the very position on the table: the first
lesson due on a seeded deal word for word, the coach's note on the move just played, the hint of
the coach for this view. Both front ends are driven as a person drives them: plain lines on piped
input, the full screen through Textual's pilot at 80x24, where each lesson box and the review must
lie inside the screen.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TextIO, cast

import pytest

from cassino.cli import main
from cassino.cli.play import new_game_from_args, session_from_args
from cassino.learn import MARGIN, TUTORIAL_OPPONENT, TUTORIAL_RULES, Coach, CoachNote, all_lessons, due_lessons
from cassino.players import LEVELS
from cassino.rules import make_rules
from cassino.terminal.coaching import SeatCoach
from cassino.terminal.newgame import NewGame
from cassino.terminal.plain import run_plain
from cassino.terminal.session import Session
from cassino.terminal.table_text import (
    CardText,
    all_lesson_lines,
    hint_line,
    lesson_lines,
    note_text,
    opponent_line,
    review_lines,
    seat_title,
)
from tui_support import SIZE, play_args, run

CARDS = CardText()
SEED = 3
SHORT = ("-o", "target=5")
"""A target one hand reaches: the tutorial's game on seed 3 ends after its first hand."""


def first_turn(seed: int = SEED) -> Session:
    """The tutorial's session at the person's first turn."""
    session = NewGame.guided(seed=seed).session()
    while not session.human_to_move():
        session.step_bot()
    return session


def plain(*argv: str, answers: Sequence[str] = (), then: str | None = None) -> str:
    """The line mode on piped input: ``answers``, then ``then`` at every later prompt (or the end
    of input); returns everything printed."""
    out = io.StringIO()
    script = [f"{a}\n" for a in answers]

    class Input:
        def readline(self) -> str:
            if script:
                return script.pop(0)
            return "" if then is None else then + "\n"

    run_plain(session_from_args(play_args("--plain", "--no-save", *argv)), out, cast(TextIO, Input()))
    return out.getvalue()


# ----------------------------------------------------------------------------- plain lines


def test_the_plain_tutorial_teaches_through_a_game() -> None:
    """The first lesson due on the seeded deal, word for word, before the first prompt; the
    count's lesson after the first hand; coach notes after my moves, one of them on the little
    casino trailed where it could be taken; the review after the score."""
    # Which first moves are good enough to pass unremarked depends on the deal: the game plays the
    # first move at every prompt but one, where it trails the little casino.
    firsts = plain("--tutorial", "--seed", str(SEED), *SHORT, then="1").split("> ")
    blunders = [
        (i, line.split(".")[0].strip())
        for i, prompt in enumerate(firsts)
        for line in prompt.splitlines()
        if line.endswith(". trail 2♠")
    ]
    assert blunders, "no prompt offers to trail the little casino in a hand of first moves"
    before, number = blunders[0]
    text = plain("--tutorial", "--seed", str(SEED), *SHORT, answers=["1"] * before + [number], then="1")
    note = due_lessons(first_turn().view(0), set())[0]
    assert note.lesson.id == "trailing"
    assert note.example.text() == "You can trail 2h: it stays on the table as a loose card."
    title, body, example = lesson_lines(note, CARDS)
    told = f"\n*** {title} ***\n  {body}\n  {example}\n> "
    assert example == "You can trail 2♥: it stays on the table as a loose card."
    assert text.index(told) + len(told) - 2 == text.index("> "), "the first lesson is told at the first prompt"
    assert text.startswith(f"Casino: classic, 2 players, target=5. Seed {SEED}. You are seat 0.\n")
    assert opponent_line(TUTORIAL_OPPONENT) in text.splitlines()
    assert text.count("*** Lesson: ") == len({line for line in text.splitlines() if line.startswith("*** Lesson: ")})

    hand_over = text.index("Hand 1 over.")
    assert text.index("*** Lesson: The count ***") > hand_over
    lines = text.splitlines()
    coached = [i for i, line in enumerate(lines) if line.startswith("coach: Better: ")]
    assert any(lines[i - 1] == "> You: trail 2♠" for i in coached), "the trailed little casino is told"
    for i in coached:
        assert lines[i - 1].startswith(("> You: ", "coach: ")), "a note follows my move"

    score = next(i for i, line in enumerate(lines) if line.startswith("Final score: "))
    assert lines[score + 3] == "Review of your game: points per item over the game (You - the others)"
    assert any(line.startswith("Points lost to better moves: ") for line in lines[score:])
    assert any(line.startswith(("Strong: ", "To work on: ")) for line in lines[score:])


def test_without_the_coach_no_note_and_no_review() -> None:
    text = plain("--seed", str(SEED), "--opponent", "greedy", *SHORT, then="1")
    assert "Game over after " in text
    assert "coach: " not in text and "Review of your game" not in text and "*** Lesson" not in text


def test_the_coach_flag_coaches_without_lessons() -> None:
    text = plain("--coach", "--seed", str(SEED), *SHORT, then="1")
    assert "Review of your game" in text and "*** Lesson" not in text
    assert opponent_line("casual") in text.splitlines(), "the default opponent is the middle of the ladder"


def test_lessons_command_lists_every_lesson_and_hint_says_why() -> None:
    """``r`` lists every lesson at any time (the game unchanged); ``h`` is the coach's move and
    reason for this very view."""
    text = plain("--seed", str(SEED), answers=["r", "h", "q", "y"])
    replies = text.split("> ")[1:]
    lessons = all_lesson_lines(all_lessons(TUTORIAL_RULES))
    assert replies[0].splitlines() == ["The lessons:", *(f"  {line}" for line in lessons)]
    assert len(lessons) == 2 * len(all_lessons()) and lessons[0] == "Trailing:"
    session = session_from_args(play_args("--plain", "--seed", str(SEED)))
    while not session.human_to_move():
        session.step_bot()
    view = session.view(0)
    code, why = Coach(SEED).hint(view)
    said = CARDS.words(code, view, 0, lambda s: seat_title(session, s, 0))
    assert replies[1].strip().startswith(f"hint: {said} — ")
    assert replies[1].strip() == f"hint: {hint_line(session, 0, CARDS, view, (code, why))}"


def test_the_tutorial_refuses_another_table(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "--plain", "--no-save", "--tutorial", "--preset", "royal"])
    assert info.value.code == 2
    assert "the tutorial is the classic game for two" in capsys.readouterr().err


def test_opponent_help_offers_the_ladder_and_any_spec(capsys: pytest.CaptureFixture[str]) -> None:
    """``--opponent``: the levels gentlest first, casual by default, and any other spec still."""
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert ", ".join(level.name for level in LEVELS) + "; default casual" in help_text
    assert "heuristic" in help_text and "search:worlds=100" in help_text
    assert new_game_from_args(play_args()).opponent == "casual"
    assert new_game_from_args(play_args("--opponent", "search:worlds=5")).opponent == "search:worlds=5"
    tutorial = new_game_from_args(play_args("--tutorial"))
    assert (tutorial.rules, tutorial.opponent, tutorial.coach, tutorial.tutorial) == (
        TUTORIAL_RULES,
        TUTORIAL_OPPONENT,
        True,
        True,
    )


# ----------------------------------------------------------------------------- the session


def test_undo_takes_back_what_the_coach_weighed() -> None:
    """A move weighed then taken back is not in the review: it counts exactly the moves that stand."""
    session = Session(make_rules("classic", target=5), seed=SEED, opponent=TUTORIAL_OPPONENT, coach=True)
    undone = False
    while not session.over:
        if not session.human_to_move():
            session.step_bot()
            continue
        session.play(session.state.legal_codes()[0])
        session.coach.weigh()
        if not undone and session.table.can_undo(0):
            session.undo(0)
            undone = True
    assert undone
    review = session.coach.review()
    assert review is not None
    mine = sum(1 for hand in session.game.hands for seat in hand.movers() if seat == 0)
    assert sum(c.moves for c in review.categories) == mine


# ----------------------------------------------------------------------------- the full screen

textual = pytest.importorskip("textual")

from textual.pilot import Pilot  # noqa: E402
from textual.widget import Widget  # noqa: E402
from textual.widgets import Select, Static  # noqa: E402
from textual.widgets._select import SelectOverlay  # noqa: E402

from cassino.terminal.fullscreen import (  # noqa: E402
    CassinoApp,
    GameOverScreen,
    GameScreen,
    HandOverScreen,
    LessonScreen,
    SetupScreen,
)


def inside_screen(widget: Widget) -> bool:
    region = widget.region
    return region.width > 0 and region.x >= 0 and region.y >= 0 and region.right <= SIZE[0] and region.bottom <= SIZE[1]


def texts(screen: Widget, selector: str) -> list[str]:
    return [str(w.render()) for w in screen.query(selector).results(Static)]


async def calm(pilot: Pilot[int], app: CassinoApp) -> None:
    """Until no worker thread runs, no computer player waits to move, and the screen is settled."""
    for _ in range(400):
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, GameScreen) or (screen.session.human_to_move() and not screen.waiting):
            return
    raise AssertionError("the game never came back to me")


def test_the_tutorial_shows_lessons_then_the_review_at_80x24() -> None:
    """No variant builder; the first lesson in a box at the foot (the table still in view above
    it), word for word; each lesson closed with Enter; after the hand the count's lesson; at the
    end the review, scrollable, inside the screen."""
    expected = lesson_lines(due_lessons(first_turn().view(0), set())[0], CARDS)
    titles: list[str] = []

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await calm(pilot, app)
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        assert [screen.title_text, *texts(screen, ".line")] == expected
        assert inside_screen(screen.query_one("#dialog"))
        table = app.screen_stack[-2].query_one("#table")
        assert screen.query_one("#dialog").region.y >= table.region.bottom, "the lesson hides the table"
        session = app.session
        assert session is not None and session.rules.target == 5 and session.lessons and session.coach.weighs
        while not isinstance(app.screen, GameOverScreen):
            screen = app.screen
            if isinstance(screen, LessonScreen):
                titles.append(screen.title_text)
                await pilot.press("enter")
            elif isinstance(screen, HandOverScreen):
                await pilot.press("enter")
            else:
                assert isinstance(screen, GameScreen)
                screen.play(session.state.legal_codes()[0])
            await calm(pilot, app)
        over = app.screen
        assert titles[0] == expected[0] and titles[-1] == "Lesson: The count" and len(set(titles)) == len(titles)
        review = session.coach.review()
        assert review is not None
        assert texts(over, ".review") == review_lines(review, session, 0, app.cards)
        assert inside_screen(over.query_one("#dialog")) and inside_screen(over.query_one("#review"))
        await pilot.press("enter")
        await pilot.pause()

    app = run(script, "--tutorial", "--seed", str(SEED), "--no-save", *SHORT)
    assert app.return_value == 0


def costly_first_turn() -> tuple[int, int]:
    """A seed of the coached game whose first turn of mine has a move losing more than the
    margin, with that move."""
    for seed in range(1, 40):
        session = Session(TUTORIAL_RULES, seed=seed, opponent="casual")
        while not session.human_to_move():
            session.step_bot()
        worst, value = Coach(seed).values(session.view(0))[-1]
        if Coach(seed).values(session.view(0))[0][1] - value > 2 * MARGIN:
            return seed, worst
    raise AssertionError("no costly move on 40 seeds")


def test_the_coach_notes_a_costly_move_and_the_hint_says_why() -> None:
    """``h``: the coach's move and reason for the view; then a costly move: under the table, the
    coach's note on it (weighed in a worker thread)."""
    seed, worst = costly_first_turn()

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await calm(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        view = screen.session.view(0)
        await pilot.press("h")
        await calm(pilot, app)
        assert (
            str(screen.query_one("#message", Static).render())
            == f"Hint: {hint_line(screen.session, 0, app.cards, view, Coach(seed).hint(view))}"
        )
        coach = Coach(seed)
        note = coach.note(coach.assess(view, worst))
        assert note is not None
        screen.play(worst)
        await calm(pilot, app)
        assert str(screen.query_one("#coach", Static).render()) == f"Coach: {note_text(note, app.cards)}"

    run(script, "--coach", "--seed", str(seed), "--no-setup", "--no-save")


def test_the_builder_offers_the_six_levels_in_order() -> None:
    """The opponents list: the ladder gentlest first, casual chosen, its description beside it;
    choosing another level says what it plays like."""

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        assert isinstance(app.screen, SetupScreen)
        select = app.screen.query_one("#opponent", Select)
        assert select.value == "casual"
        about = app.screen.query_one("#opponent-about", Static)
        assert str(about.render()) == LEVELS[2].description
        select.focus()
        await pilot.press("enter")
        await pilot.pause()
        overlay = select.query_one(SelectOverlay)
        shown = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
        assert shown == [level.name for level in LEVELS]
        await pilot.press("down", "down", "down", "enter")
        await pilot.pause()
        assert select.value == "master" and str(about.render()) == LEVELS[5].description
        assert inside_screen(app.screen.query_one("#start"))

    run(script, "--no-save")


def test_a_coach_that_fails_says_so_in_a_line_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure in the coach's thread never takes the screen away: the coach's line says it could
    not weigh the move, and the game is still there, to move on."""

    def broken(self: SeatCoach) -> list[CoachNote]:
        raise RuntimeError("the coach broke")

    monkeypatch.setattr(SeatCoach, "weigh", broken)

    async def script(pilot: Pilot[int], app: CassinoApp) -> None:
        await calm(pilot, app)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.play(screen.session.state.legal_codes()[0])
        line = screen.query_one("#coach", Static)
        for _ in range(200):  # not calm(): waiting on the workers re-raises the failed one's error
            await pilot.pause(0.01)
            if str(line.render()) != "Coach: weighing your move...":
                break
        assert str(line.render()) == "Coach: could not weigh your move this time."
        assert app.screen is screen and app.is_running

    run(script, "--coach", "--seed", "3", "--no-setup", "--no-save")
