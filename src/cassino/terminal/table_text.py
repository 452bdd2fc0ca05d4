"""The table as text: one wording for the plain game, the full screen and the replay, so a person
reads the same cards, seat names, builds, moves, scores and results wherever they look.

Cards are shown with suit symbols (``10♦``, ``A♠``) or, where the terminal cannot show them, in
letters (``10d``, ``As``), which are also valid notation; seats are named from the person's point
of view ("You", "Partner", "Computer"), so nobody has to remember which seat number is theirs.
Moves read as the engine words them (``cassino.sentences``, the web page's words too), and each
sentence shown can be typed back.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ..cards import cards_of, parse_card
from ..explain import TableItem, WhyNot
from ..learn import Advice, CoachNote, Lesson, LessonNote, Message, Review
from ..learn.messages import english
from ..moves import TRAIL, MoveCode, code_card, code_kind, code_table, format_code
from ..players import LEVELS, Level
from ..reasons import Cards
from ..sentences import SUIT_SYMBOLS, Names, card_text, describe
from ..sentences import from_symbols as from_symbols
from ..state import Build, State, build_is_single
from ..table import HandEnded, SideTracker
from ..view import View
from .session import Session

ASCII_ENV = "CASSINO_ASCII"
"""Set (to anything but empty or 0) to show suits as letters whatever the terminal can show."""


def wants_ascii(stream: TextIO | None, forced: bool = False) -> bool:
    """True when suits must be letters: asked for (``--ascii`` or ``$CASSINO_ASCII``), or the
    stream's encoding cannot write the suit symbols (a stream without one takes any text)."""
    if forced or os.environ.get(ASCII_ENV, "") not in ("", "0"):
        return True
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return False
    try:
        "".join(SUIT_SYMBOLS.values()).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return True
    return False


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``: a count with its noun agreeing."""
    return f"{n} {word if n == 1 else many or word + 's'}"


@dataclass(frozen=True, slots=True)
class CardText:
    """How cards are written: suit symbols, or letters when ``ascii``; 10 is always ``10``."""

    ascii: bool = False

    def card(self, card: int) -> str:
        """One card, e.g. ``10♦`` (``10d`` in letters)."""
        return card_text(card, "en", self.ascii)

    def cards(self, mask: int) -> str:
        """Cards in canonical order, separated by spaces."""
        return " ".join(self.card(c) for c in cards_of(mask))

    def named(self, name: str) -> str:
        """A card given by its engine name (``Td``), written this way (``10♦``)."""
        return self.card(parse_card(name))

    def notation(self, code: MoveCode) -> str:
        """A move's line in notation, its cards written this way (still readable as notation
        once ``from_symbols`` has turned symbols into letters)."""
        verb, _, *value = format_code(code).partition(": ")[0].split(" ")
        shown = " ".join([verb, self.card(code_card(code)), *value])
        return shown if code_kind(code) == TRAIL else f"{shown}: {self.cards(code_table(code))}"

    def words(
        self, code: MoveCode, position: State | View | None = None, seat: int | None = None, names: Names | None = None
    ) -> str:
        """A move in words, as the engine and the web page word it: on the ``position`` it is made
        in, builds named from ``seat``'s side (``take your eight with 8♠``, ``raise Computer's six
        to nine with 3♣``, other seats by ``names``); without one, each card by itself
        (``take 3♣ 5♥ with 8♠``, ``build eight: 3♣ on 5♥``, ``trail J♣``)."""
        return describe(code, position, "en", seat=seat, names=names, ascii=self.ascii)


# ---------------------------------------------------------------------------------- seats and sides
_AROUND = {3: {1: "Left", 2: "Right"}, 4: {1: "Left", 2: "Opposite", 3: "Right"}}
"""Where the other seats sit, seen from the person (play passes to the left)."""


def is_partner(session: Session, seat: int, me: int) -> bool:
    """True when ``seat`` plays on my side (partnerships only)."""
    return seat != me and session.rules.side_of(seat) == session.rules.side_of(me)


def seat_title(session: Session, seat: int, me: int) -> str:
    """A seat's name seen from ``me``: ``You``, ``Partner``, another person's name, ``Computer``
    (or ``Left computer`` and so on when there are several)."""
    if seat == me:
        return "You"
    if is_partner(session, seat, me):
        return "Partner"
    if seat in session.humans:
        return session.names[seat]
    where = _AROUND.get(session.rules.players, {}).get((seat - me) % session.rules.players)
    return f"{where} computer" if where else "Computer"


def seat_long_title(session: Session, seat: int, me: int) -> str:
    """A seat's title with its number and player (a computer's level or spec, a person's name),
    for the list of the other seats."""
    if seat == me:
        return f"You (seat {seat})"
    player = session.opponent if seat not in session.humans else session.names[seat]
    return f"{seat_title(session, seat, me)} (seat {seat}, {player})"


def side_title(session: Session, side: int, me: int) -> str:
    """A scoring side's name: a seat's title, or ``You & partner`` / ``Opponents`` in partnerships."""
    if not session.rules.partnerships:
        return seat_title(session, side, me)
    return "You & partner" if side == session.rules.side_of(me) else "Opponents"


def scores_line(session: Session, me: int, scores: tuple[int, ...] | None = None) -> str:
    """The scores as a person reads them: ``You 7 - Computer 12``."""
    values = session.state.scores if scores is None else scores
    return " - ".join(f"{side_title(session, side, me)} {v}" for side, v in enumerate(values))


def whose(session: Session, owner: int, me: int) -> str:
    """The owner of a build as a possessive: ``your``, ``your partner's``, ``Computer's``."""
    if owner == me:
        return "your"
    if is_partner(session, owner, me):
        return "your partner's"
    return f"{seat_title(session, owner, me)}'s"


def move_words(session: Session, me: int, cards: CardText, code: MoveCode, position: State | View) -> str:
    """A move as ``me`` reads it, worded on the ``position`` it is (or was) made in: ``take your
    eight with 8♠``, ``raise Left computer's six to nine with 3♣`` (seats by ``seat_title``)."""
    return cards.words(code, position, me, lambda seat: seat_title(session, seat, me))


def log_line(session: Session, seat: int, code: MoveCode, me: int, cards: CardText, before: State | View) -> str:
    """One move of the log, worded on the table ``before`` it: ``You: take 3♣ 5♥ with 8♠``."""
    return f"{seat_title(session, seat, me)}: {move_words(session, me, cards, code, before)}"


def hand_moves(session: Session, me: int, cards: CardText) -> list[tuple[int, str]]:
    """Every move of the hand in play as (seat, words), each worded on the table it was made on."""
    state = session.state
    table = state.root()
    out = []
    for seat, code in state.history:
        out.append((seat, move_words(session, me, cards, code, table)))
        table.push(code)
    return out


def hand_log(session: Session, me: int, cards: CardText) -> list[str]:
    """Every move of the hand in play, in order, in words."""
    return [f"{seat_title(session, seat, me)}: {words}" for seat, words in hand_moves(session, me, cards)]


def last_moves(session: Session, me: int, cards: CardText) -> dict[int, str]:
    """Each seat's last move of the hand in play, in words."""
    return dict(hand_moves(session, me, cards))


# ---------------------------------------------------------------------------------- the table
def describe_table(state: State, cards: CardText, owner: Callable[[int], str]) -> list[str]:
    """The table as lines: loose cards, then each build with value, kind and whose it is
    (``owner`` turns a seat into a possessive such as ``your``)."""
    lines = [f"  loose: {cards.cards(state.loose) or '(none)'}"]
    for build in state.builds:
        lines.append(f"  {build_head(build, owner)}: {cards.cards(build.cards)}")
    return lines


def build_head(build: Build, owner: Callable[[int], str]) -> str:
    """What a build is, before its cards: ``your 8-build (single)``."""
    kind = "single" if build_is_single(build) else "multiple"
    return f"{owner(build.owner)} {build.value}-build ({kind})"


def item_text(item: TableItem, cards: CardText) -> str:
    """A table item in words: a loose card, or ``the 8-build (3♣ 5♦)``."""
    if isinstance(item, int):
        return cards.card(item)
    return f"the {item.value}-build ({cards.cards(item.cards)})"


def why_not_lines(why: WhyNot, cards: CardText, card: int | None = None) -> list[str]:
    """The reasons the page shows for what cannot be played (``explain.why_not``), in their English
    sentences: each card with no move, and each table item a card's moves leave; ``card``'s alone
    when given, else every card's in hand order."""
    lines = []
    for c in sorted({*why.cards, *why.table}):
        if card is not None and c != card:
            continue
        if c in why.cards:
            lines.append(f"{cards.card(c)} cannot be played: {why.cards[c].text}")
        for item, reason in why.table.get(c, {}).items():
            lines.append(f"{cards.card(c)} cannot use {item_text(item, cards)}: {reason.text}")
    return lines


def tracker_line(name: str, tracker: SideTracker, cards: CardText) -> str:
    """One side's tracker, as the browser's shows it: ``You: 9 cards, 3 spades, A♦ A♠, 10♦, 1 sweep``
    (the aces, the casinos and the sweeps only when there are some)."""
    parts = [plural(tracker.cards, "card"), plural(tracker.spades, "spade")]
    parts += [" ".join(map(cards.card, won)) for won in (tracker.aces, tracker.casinos) if won]
    if tracker.sweeps:
        parts.append(plural(tracker.sweeps, "sweep"))
    return f"{name}: {', '.join(parts)}"


def tracker_lines(session: Session, me: int, cards: CardText) -> list[str]:
    """Every side's tracker of the hand in play (``Table.trackers``), a line each, sides named from
    ``me`` as the scores name them."""
    return [tracker_line(side_title(session, t.side, me), t, cards) for t in session.table.trackers()]


SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
"""The suits' names, in suit order."""


def unseen_lines(session: Session, me: int, cards: CardText) -> list[str]:
    """The cards ``me`` has not seen yet (``Table.unseen``: the other hands and the stock): a head
    line with how many, then a line per suit."""
    by_suit = session.table.unseen(me)
    total = sum(mask.bit_count() for mask in by_suit)
    lines = [f"Not seen yet: {plural(total, 'card')} (the other hands and the stock)"]
    lines += [f"{name}: {cards.cards(mask) or 'none'}" for name, mask in zip(SUIT_NAMES, by_suit, strict=True)]
    return lines


def hand_summary(session: Session, done: HandEnded, me: int) -> list[str]:
    """The score breakdown of a finished hand, one line per side, then the checksum."""
    lines = [f"Hand {done.number} over. Score per side:"]
    for side in range(session.rules.sides):
        parts = ", ".join(f"{k} {v}" for k, v in done.result.breakdown(side).items())
        points = done.result.points[side]
        lines.append(f"  {side_title(session, side, me)}: {parts}; hand {points}, game {done.scores[side]}")
    lines.append(f"  {checksum_line(done)}")
    lines.append(f"Scores: {scores_line(session, me, done.scores)}")
    return lines


def checksum_line(done: HandEnded) -> str:
    """The hand's checksum (section 8.4 of the rules) and its sweeps."""
    sweeps = sum(1 for i in done.result.items if i.category == "sweeps")
    return f"checksum: {done.result.checksum} points without sweeps, {plural(sweeps, 'scored sweep')}"


def game_summary(session: Session, me: int) -> list[str]:
    """The end of the game: final scores, the winner, hands played, where the record went."""
    game = session.game
    lines = [f"Game over after {plural(len(game.hands), 'hand')}."]
    if game.forfeited is not None:
        who = seat_long_title(session, game.forfeited.seat, me)
        lines.append(f"{who[:1].upper() + who[1:]} forfeited the game: {game.forfeited.reason}.")
    lines.append(f"Final score: {scores_line(session, me, game.scores)}")
    winner = side_title(session, game.winner, me)
    lines.append(f"{winner} win!" if game.winner == session.rules.side_of(me) else f"Winner: {winner}.")
    return lines + save_lines(session)


def save_lines(session: Session) -> list[str]:
    """Where the record went: its path; why it is not where it was asked to go, when it is not; and,
    when it could be saved nowhere, the record itself, so that the game is not lost."""
    lines = []
    if session.save_problem is not None:
        lines.append(session.save_problem[:1].upper() + session.save_problem[1:] + ".")
    if session.saved_path is not None:
        lines.append(f"Record saved to {session.saved_path}")
        lines.append(f"(replay it with: cassino replay {session.saved_path})")
    elif session.save_problem is not None:
        lines.append("The record follows (save it as a file to replay it):")
        lines += session.record_text().splitlines()
    return lines


# ---------------------------------------------------------------------------------- teaching
def learn_text(message: Message, cards: CardText) -> str:
    """A teaching message in the library's English, its cards written as the table writes them
    (the cards' names are swapped for the shown ones before wording)."""
    params = tuple(
        (name, Cards(tuple(cards.named(n) for n in value.names)) if isinstance(value, Cards) else value)
        for name, value in message.params
    )
    return Message(message.code, params).text()


def hint_line(session: Session, me: int, cards: CardText, view: View, hint: tuple[MoveCode, Message]) -> str:
    """A hint for ``view``: the move in words, as the list says it (it can be typed as shown), then
    why it is good."""
    code, why = hint
    return f"{move_words(session, me, cards, code, view)} — {learn_text(why, cards)}"


def note_text(note: CoachNote, cards: CardText) -> str:
    """The coach's note on a move: the better move in words, about how many points it was worth
    more, and why (the library's template ``coach.note``; ``coach.flag``, without the points, for
    a careless trail the tutorial's coach flags)."""
    values = {"move": cards.words(note.better), "loss": f"{note.loss:.1f}", "why": learn_text(note.why, cards)}
    return english(note.template, values)


def lesson_lines(note: LessonNote, cards: CardText) -> list[str]:
    """A lesson told in play: its title, its text, and the example from the table."""
    return [f"Lesson: {note.lesson.title.text()}", note.lesson.text.text(), learn_text(note.example, cards)]


def all_lesson_lines(lessons: tuple[Lesson, ...]) -> list[str]:
    """Every lesson, to read at any time: its title, then its text."""
    lines: list[str] = []
    for lesson in lessons:
        lines += [f"{lesson.title.text()}:", f"  {lesson.text.text()}"]
    return lines


ITEM_NAMES = {"ace": "aces", "spade": "single spades", "sweep": "sweeps"}
"""Items of the count (``CountItem.item``) whose name reads badly with its underscores replaced."""


def review_lines(review: Review, session: Session, me: int, cards: CardText) -> list[str]:
    """The review after a game: points per item of the count (your side, the others), the points
    lost to better moves, the costliest moves, the strengths and the habits to work on."""
    side = side_title(session, session.rules.side_of(me), me)
    lines = [f"Review of your game: points per item over the game ({side} - the others)"]
    names = [ITEM_NAMES.get(p.item, p.item.replace("_", " ")) for p in review.points]
    width = max(map(len, names), default=0)
    for name, p in zip(names, review.points, strict=True):
        lines.append(f"  {name:{width}}  {p.yours} - {p.theirs}")
    moves = sum(c.moves for c in review.categories)
    lines.append(f"Points lost to better moves: {review.lost:.1f} over {plural(moves, 'move')}.")
    if review.costly:
        lines.append("The costliest moves:")
        lines += [f"  You {cards.words(n.move)}. {note_text(n, cards)}" for n in review.costly]
    else:
        lines.append("No move cost more than the coach can tell from luck.")
    advice: tuple[Advice, ...] = (*review.strengths, *review.habits)
    lines += [learn_text(a.message, cards) for a in advice]
    return lines


def level_line(level: Level) -> str:
    """A level of the ladder for a list: its name and what it plays like."""
    return f"{level.name}: {level.description}"


def opponent_line(spec: str) -> str:
    """Who the computer players are: a level with its place on the ladder and what it plays
    like, or the player spec as given."""
    for number, level in enumerate(LEVELS, 1):
        if level.name == spec:
            return f"Opponent: {level.name} (level {number} of {len(LEVELS)}), {level.description}."
    return f"Opponent: {spec}."
