"""The tutorial: lessons in teaching order, each told when its idea first comes up in play.

Every lesson can be read at any time (``all_lessons``); during a game ``due_lessons`` gives the
lessons whose idea the seat's position shows now and that the player has not seen, each with an
example naming the cards on the table (``LessonNote``). The count's lesson is told after the
first hand, from that hand's count (``count_lesson``). A guided first game is the classic game
for two against a gentle opponent (``TUTORIAL_RULES``, ``TUTORIAL_OPPONENT``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..cards import cards_of
from ..checks import build_is_single
from ..moves import BUILD, CAPTURE, TRAIL, Move, MoveCode
from ..players import Player, make_player
from ..reasons import Cards
from ..rules import Rules, make_rules
from ..scoring import CountItem
from ..view import View
from .messages import Message, words
from .reading import MoveFacts, careless_trail, keeper, read_move, table_cards

TUTORIAL_RULES: Final = make_rules("classic", players=2)
"""The rules of the guided first game: the classic game for two."""
TUTORIAL_OPPONENT: Final = "beginner"
"""The player spec of the guided game's opponent: the gentlest level of the ladder."""


def tutorial_opponent(seed: int | None = None) -> Player:
    """The guided game's opponent (``TUTORIAL_OPPONENT``)."""
    return make_player(TUTORIAL_OPPONENT, seed)


words(
    "lesson.trailing",
    title="Trailing",
    text=(
        "When you cannot or do not want to capture or build, you trail: you lay one card face up on the "
        "table. It becomes a loose card that anyone may take later, so trail a card that is worth little."
    ),
    example="You can trail {card}: it stays on the table as a loose card.",
)
words(
    "lesson.pairing",
    title="Pairing",
    text=(
        "A card from your hand captures a loose card of the same rank: a 7 takes a 7. The card you "
        "played and the cards you took go to your pile, to be counted at the end of the hand."
    ),
    example="Your {card} can take the {target}: cards of the same rank pair.",
)
words(
    "lesson.court_cards",
    title="Court cards",
    text=(
        "In the classic game jacks, queens and kings have no number. They never add up and never build: a "
        "court card captures only by pairing with a loose card of its own rank."
    ),
    example="Your {card} can take the {target}: a court card pairs only with its own rank.",
)
words(
    "lesson.summing",
    title="Capturing a sum",
    text=(
        "A numeral card also takes loose cards that add up to its value: an 8 takes a 5 and a 3 together. "
        "In one play it may take several such groups, and cards of its own rank too, as long as no card "
        "belongs to two groups."
    ),
    example="Your {card} can take {cards}: they add up to {value}.",
)
words(
    "lesson.building",
    title="Building",
    text=(
        "Play a card onto loose cards and call their total: the pile is now a build of that value, which you "
        "capture whole on a later turn with a card of that value. You may only build a value you still hold "
        "a card for, and your opponent may take the build first if they hold one."
    ),
    example="Play {card} onto {cards} and call {value}: you keep {keeper} to take the build on your next turn.",
)
words(
    "lesson.raising",
    title="Raising a build",
    text=(
        "A build whose cards add up to its value can be raised: add a card from your hand and call the new "
        "total. Anyone who still holds a card of the new value afterwards may raise it, and the build is then "
        "theirs."
    ),
    example="Your {card} can raise the {value}-build ({build}) to {target}.",
)
words(
    "lesson.multiple",
    title="Multiple builds",
    text=(
        "A build may hold several groups of the same value, such as 5 and 3 with an 8, called 8. Such a "
        "multiple build is frozen: nobody can raise it to another value. It can only be added to, with more "
        "groups of its value, or captured."
    ),
    example="Play {card} onto {cards} and call {value}: it makes a multiple build, which nobody can raise.",
    example_table="The {value}-build ({build}) holds several groups of {value}: it is frozen, so nobody can raise it.",
)
words(
    "lesson.obligation",
    title="Your build, your duty",
    text=(
        "While you own a build you may not trail (rule 7.1), and you must keep a card that captures it: your "
        "last such card may only be played in a move that takes the build along, by capturing it, adding to "
        "it or raising it (rule 7.2)."
    ),
    text_may_trail=(
        "While you own a build you must keep a card that captures it: your last such card may only be played "
        "in a move that takes the build along, by capturing it, adding to it or raising it (rule 7.2)."
    ),
    example="You own the {value}-build ({build}): keep {keeper} until you take it.",
)
words(
    "lesson.sweeps",
    title="Sweeps",
    text=(
        "A capture that leaves the table empty, with no loose card and no build, is a sweep: it scores a "
        "point of its own. Take care not to leave your opponent a table they can sweep."
    ),
    example="Your {card} can take everything on the table ({cards}): that is a sweep.",
)
words(
    "lesson.last_capture",
    title="The last capture takes the rest",
    text=(
        "When the last card of the hand has been played, the cards still on the table go to whoever made the "
        "last capture. Near the end of a hand a late capture is worth more than it looks."
    ),
    example="The stock is empty: whoever captures last also takes what is left on the table, now {cards}.",
)
words(
    "lesson.count",
    title="The count",
    text=(
        "At the end of each hand the captured cards are counted: 3 points for most cards, 1 for most spades, "
        "2 for Big Casino (the 10 of diamonds), 1 for Little Casino (the 2 of spades), 1 for each ace and 1 "
        "for each sweep. A tie for most cards or most spades scores for nobody. The first to reach {target} "
        "points wins."
    ),
    text_spade=(
        "At the end of each hand the captured cards are counted: 3 points for most cards, 2 for Big Casino "
        "(the 10 of diamonds), 1 for each ace, 1 for each spade, 1 more each for Little Casino (the 2 of "
        "spades) and the jack of spades, and 1 for each sweep. The first to reach {target} points wins."
    ),
    example=(
        "Your count this hand: cards {cards}, spades {spades}, points {points}. The others: cards "
        "{their_cards}, spades {their_spades}, points {their_points}."
    ),
)


@dataclass(frozen=True, slots=True)
class Lesson:
    """One idea of the game: its ``id``, a ``title`` and a ``text`` to read at any time."""

    id: str
    title: Message
    text: Message

    def to_json(self) -> dict[str, Any]:
        """The lesson for the page."""
        return {"id": self.id, "title": self.title.to_json(), "text": self.text.to_json()}


@dataclass(frozen=True, slots=True)
class LessonNote:
    """A lesson told at the moment its idea comes up: the ``example`` names the cards on the table,
    and ``move`` is the move it shows (None when it shows none), for the page to point at."""

    lesson: Lesson
    example: Message
    move: MoveCode | None = None

    def to_json(self) -> dict[str, Any]:
        """The note for the page: the lesson, its example and the move as a move line."""
        move = str(Move(self.move)) if self.move is not None else None
        return {**self.lesson.to_json(), "example": self.example.to_json(), "move": move}


Example = tuple[Message, MoveCode | None]
Trigger = Callable[[View, list[MoveFacts]], Example | None]


def _first(moves: list[MoveFacts], keep: Callable[[MoveFacts], bool]) -> MoveFacts | None:
    """The simplest move that ``keep`` accepts: the fewest table cards, then the lowest code."""
    chosen = [f for f in moves if keep(f)]
    return min(chosen, key=lambda f: ((f.pairs | f.sums).bit_count() + len(f.builds), f.code), default=None)


def _trailing(view: View, moves: list[MoveFacts]) -> Example | None:
    """A trail of a card that takes nothing: one that could capture is better shown capturing."""
    takers = {f.card for f in moves if f.kind == CAPTURE}
    f = _first(moves, lambda f: f.kind == TRAIL and f.card not in takers)
    return (Message.of("lesson.trailing.example", card=Cards.one(f.card)), f.code) if f else None


def _pairing(view: View, moves: list[MoveFacts]) -> Example | None:
    f = _first(moves, lambda f: f.kind == CAPTURE and f.value > 0 and bool(f.pairs))
    if f is None:
        return None
    target = f.pairs & -f.pairs
    return Message.of("lesson.pairing.example", card=Cards.one(f.card), target=Cards.of(target)), f.code


def _court_cards(view: View, moves: list[MoveFacts]) -> Example | None:
    f = _first(moves, lambda f: f.kind == CAPTURE and f.value == 0)
    if f is None:
        return None
    return Message.of("lesson.court_cards.example", card=Cards.one(f.card), target=Cards.of(f.pairs)), f.code


def _summing(view: View, moves: list[MoveFacts]) -> Example | None:
    values = view.rules.values
    one_group = _first(
        moves,
        lambda f: (
            f.kind == CAPTURE and not f.pairs and not f.builds and sum(values[c] for c in cards_of(f.sums)) == f.value
        ),
    )
    f = one_group or _first(moves, lambda f: f.kind == CAPTURE and f.value > 0 and bool(f.sums))
    if f is None:
        return None
    return Message.of("lesson.summing.example", card=Cards.one(f.card), cards=Cards.of(f.sums), value=f.value), f.code


def _building(view: View, moves: list[MoveFacts]) -> Example | None:
    f = _first(moves, lambda f: f.kind == BUILD and not f.builds and not f.multiple)
    if f is None:
        return None
    kept = keeper(view.hand & ~(1 << f.card), f.value)
    assert kept is not None, "rule 6.2: a build keeps a card to take it"
    message = Message.of(
        "lesson.building.example", card=Cards.one(f.card), cards=Cards.of(f.sums), value=f.value, keeper=kept
    )
    return message, f.code


def _raising(view: View, moves: list[MoveFacts]) -> Example | None:
    f = _first(moves, lambda f: f.raises and len(f.builds) == 1 and not f.sums)
    if f is None:
        return None
    raised = f.builds[0]
    message = Message.of(
        "lesson.raising.example",
        card=Cards.one(f.card),
        value=raised.value,
        build=Cards.of(raised.cards),
        target=f.value,
    )
    return message, f.code


def _multiple(view: View, moves: list[MoveFacts]) -> Example | None:
    frozen = [b for b in view.builds if not build_is_single(b)]
    if frozen:
        b = frozen[0]
        return Message.of("lesson.multiple.example_table", value=b.value, build=Cards.of(b.cards)), None
    f = _first(moves, lambda f: f.multiple and not f.builds)
    if f is None:
        return None
    return Message.of("lesson.multiple.example", card=Cards.one(f.card), cards=Cards.of(f.sums), value=f.value), f.code


def _obligation(view: View, moves: list[MoveFacts]) -> Example | None:
    own = [b for b in view.builds if b.owner == view.seat]
    if not own:
        return None
    b = own[0]
    kept = keeper(view.hand, b.value)
    if kept is None:  # rule 7.2 keeps one; a position entered by hand may not
        return None
    return Message.of("lesson.obligation.example", value=b.value, build=Cards.of(b.cards), keeper=kept), None


def _sweeps(view: View, moves: list[MoveFacts]) -> Example | None:
    f = _first(moves, lambda f: f.sweep) if view.rules.sweeps else None
    if f is None:
        return None
    taken = table_cards(view.loose, view.builds)
    return Message.of("lesson.sweeps.example", card=Cards.one(f.card), cards=Cards.of(taken)), f.code


def _last_capture(view: View, moves: list[MoveFacts]) -> Example | None:
    left = table_cards(view.loose, view.builds)
    if view.stock_size or not left:
        return None
    return Message.of("lesson.last_capture.example", cards=Cards.of(left)), None


TRIGGERS: Final[dict[str, Trigger | None]] = {
    "trailing": _trailing,
    "pairing": _pairing,
    "court_cards": _court_cards,
    "summing": _summing,
    "building": _building,
    "raising": _raising,
    "multiple": _multiple,
    "obligation": _obligation,
    "sweeps": _sweeps,
    "last_capture": _last_capture,
    "count": None,
}
"""Every lesson in teaching order, with what shows its idea in a position (the count: a hand's end)."""


def _text_code(lesson: str, rules: Rules) -> str:
    """The code of a lesson's text under ``rules``: some ideas change with an option."""
    if lesson == "obligation" and rules.owner_may_trail:
        return "lesson.obligation.text_may_trail"
    if lesson == "count" and rules.scoring == "spade":
        return "lesson.count.text_spade"
    return f"lesson.{lesson}.text"


def lesson(lesson_id: str, rules: Rules = TUTORIAL_RULES) -> Lesson:
    """One lesson by id, its text as ``rules`` have it."""
    if lesson_id not in TRIGGERS:
        raise ValueError(f"unknown lesson {lesson_id!r}: the lessons are {', '.join(TRIGGERS)}")
    code = _text_code(lesson_id, rules)
    text = Message.of(code, target=rules.target) if lesson_id == "count" else Message.of(code)
    return Lesson(lesson_id, Message.of(f"lesson.{lesson_id}.title"), text)


def all_lessons(rules: Rules = TUTORIAL_RULES) -> tuple[Lesson, ...]:
    """Every lesson in teaching order, to read at any time."""
    return tuple(lesson(lesson_id, rules) for lesson_id in TRIGGERS)


def due_lessons(view: View, seen: Collection[str]) -> list[LessonNote]:
    """The lessons not ``seen`` whose idea the seat's position shows now (it is to move), in
    teaching order, each with an example from the table. A tutorial tells the first, adds its id
    to ``seen``, and asks again next turn: the others come back while their idea holds. No example
    is a move the guided coach flags (``careless_trail``): the rule is the coach's own."""
    if not view.legal:
        return []
    moves = [read_move(view, code) for code in view.legal if not careless_trail(view, code)]
    out = []
    for lesson_id, trigger in TRIGGERS.items():
        if trigger is None or lesson_id in seen:
            continue
        example = trigger(view, moves)
        if example is not None:
            message, move = example
            out.append(LessonNote(lesson(lesson_id, view.rules), message, move))
    return out


def count_lesson(rules: Rules, count: Sequence[CountItem], seat: int) -> LessonNote:
    """The count's lesson after a hand (``scoring.count_hand``, or ``HandScore.count``), with the
    count of ``seat``'s side and the others' as the example."""
    side = rules.side_of(seat)
    cards = spades = points = 0
    their_cards = their_spades = their_points = 0
    for item in count:
        if item.counts is not None:
            mine = item.counts[side]
            theirs = sum(item.counts) - mine
            if item.item == "cards":
                cards, their_cards = mine, theirs
            else:
                spades, their_spades = mine, theirs
        elif item.item == "spade" and item.side >= 0:
            spades += item.side == side
            their_spades += item.side != side
        if item.side >= 0:
            points += item.points if item.side == side else 0
            their_points += item.points if item.side != side else 0
    example = Message.of(
        "lesson.count.example",
        cards=cards,
        spades=spades,
        points=points,
        their_cards=their_cards,
        their_spades=their_spades,
        their_points=their_points,
    )
    return LessonNote(lesson("count", rules), example)
