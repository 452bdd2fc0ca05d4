"""The table text both terminal front ends and the replay share (cassino.terminal.table_text).

A person reads these words instead of the engine's numbers, so each must be exactly right: the
noun agrees with its count, a card shows its suit symbol (or, where the terminal cannot show it,
its letter, which is notation again), 10 is ``10``, a build says whose it is from the person's own
seat, and the scores read as words, never as a Python list.
"""

from __future__ import annotations

import codecs
import io

import pytest

from cassino.cards import parse_card
from cassino.moves import Move, parse_code
from cassino.notation import position_from_json
from cassino.rules import make_rules
from cassino.terminal.session import Session
from cassino.terminal.table_text import (
    CardText,
    describe_table,
    from_symbols,
    move_words,
    plural,
    scores_line,
    seat_title,
    side_title,
    wants_ascii,
    whose,
)
from positions import build, make_position

SYMBOLS = CardText()
LETTERS = CardText(ascii=True)


@pytest.mark.parametrize(
    ("n", "word", "expected"),
    [(0, "card", "0 cards"), (1, "card", "1 card"), (2, "card", "2 cards"), (1, "spade", "1 spade")],
)
def test_plurals_agree_with_the_count(n: int, word: str, expected: str) -> None:
    assert plural(n, word) == expected


@pytest.mark.parametrize(
    ("name", "symbols", "letters"),
    [("Td", "10♦", "10d"), ("As", "A♠", "As"), ("Kh", "K♥", "Kh"), ("7c", "7♣", "7c")],
)
def test_a_card_shows_its_suit_symbol_or_letter(name: str, symbols: str, letters: str) -> None:
    card = parse_card(name)
    assert SYMBOLS.card(card) == symbols and LETTERS.card(card) == letters
    assert parse_card(from_symbols(symbols)) == card and parse_card(letters) == card


def test_moves_in_notation_and_in_words() -> None:
    capture = parse_code("capture 8s 8: 3c 5h")
    assert SYMBOLS.notation(capture) == "capture 8♠ 8: 3♣ 5♥"
    assert LETTERS.notation(capture) == "capture 8s 8: 3c 5h"
    assert SYMBOLS.words(capture) == "take 3♣ 5♥ with 8♠"
    build_code = parse_code("build 3c 8: 5h")
    assert SYMBOLS.words(build_code) == "build eight: 3♣ on 5♥"
    assert LETTERS.words(build_code) == "build eight: 3c on 5h"
    assert SYMBOLS.words(parse_code("trail Td")) == "trail 10♦"
    court = parse_code("capture Jc J: Jh")
    assert SYMBOLS.notation(court) == "capture J♣ J: J♥" and SYMBOLS.words(court) == "take J♥ with J♣"


def test_moves_in_words_on_their_table() -> None:
    """On the table it is made on, a move names the builds it uses from the person's seat, other
    seats by their titles; a raise says so."""
    state = position_from_json(
        make_position(
            hands=[["3c", "9h"], ["4d"], ["5s"], ["6s"]],
            table=["5h", build(["2h", "4c"], 6, 0), build(["3d", "6d"], 9, 1)],
            rules={"preset": "classic", "players": 4},
        )
    )
    session = Session(make_rules("classic", players=4), seed=1, opponent="greedy")
    assert (
        move_words(session, 0, SYMBOLS, parse_code("capture 9h 9: 3d 6d"), state) == "take Left computer's nine with 9♥"
    )
    assert move_words(session, 0, SYMBOLS, parse_code("build 3c 9: 2h 4c"), state) == "raise your six to nine with 3♣"
    took = move_words(session, 0, LETTERS, parse_code("capture 9h 9: 3d 6d"), state)
    assert took == "take Left computer's nine with 9h"


def test_every_shown_move_reads_back_as_itself() -> None:
    """What the list shows may be typed back: symbols or letters, it is the same move; and so may
    the notation the hint shows."""
    session = Session(make_rules("royal", players=4), seed=5, opponent="greedy")
    for _ in range(30):
        state = session.state
        names = lambda seat: seat_title(session, seat, 0)  # noqa: E731
        for code in state.legal_codes():
            assert parse_code(from_symbols(SYMBOLS.notation(code))) == code
            assert parse_code(LETTERS.notation(code)) == code
            if session.human_to_move():
                for cards in (SYMBOLS, LETTERS):
                    said = move_words(session, 0, cards, code, state)
                    assert Move.parse_words(said, state, seat=0, names=names).code == code
        if session.human_to_move():
            session.play(session.state.legal_codes()[0])
        else:
            session.step_bot()


def test_ascii_when_asked_or_when_the_stream_cannot_encode_suits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CASSINO_ASCII", raising=False)
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert not wants_ascii(utf8) and not wants_ascii(io.StringIO())
    assert wants_ascii(latin) and wants_ascii(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert wants_ascii(utf8, forced=True)
    assert codecs.lookup(utf8.encoding).name == "utf-8"
    monkeypatch.setenv("CASSINO_ASCII", "1")
    assert wants_ascii(utf8)
    monkeypatch.setenv("CASSINO_ASCII", "0")
    assert not wants_ascii(utf8)


def four_seats(me: int, partnerships: bool) -> Session:
    return Session(make_rules("classic", players=4, partnerships=partnerships), seed=1, humans=(me,))


def test_seats_are_named_from_my_seat() -> None:
    partners = four_seats(1, partnerships=True)
    assert [seat_title(partners, s, 1) for s in range(4)] == ["Right computer", "You", "Left computer", "Partner"]
    assert [side_title(partners, side, 1) for side in range(2)] == ["Opponents", "You & partner"]
    alone = four_seats(0, partnerships=False)
    assert [seat_title(alone, s, 0) for s in range(4)] == [
        "You",
        "Left computer",
        "Opposite computer",
        "Right computer",
    ]
    two = Session(make_rules("classic"), seed=1)
    assert [seat_title(two, s, 0) for s in range(2)] == ["You", "Computer"]
    assert scores_line(two, 0, (7, 12)) == "You 7 - Computer 12"
    assert scores_line(partners, 1, (3, 9)) == "Opponents 3 - You & partner 9"


def test_builds_say_whose_they_are() -> None:
    """Mine, my partner's, an opponent's: never a bare seat number."""
    session = four_seats(0, partnerships=True)
    position = make_position(
        ["Kd", build(["2c", "6h"], 8, 0), build(["3d", "6s"], 9, 2), build(["4h", "6d"], 10, 1)],
        [["8c"], ["Tc"], ["9c"], ["Ac"]],
        {"players": 4, "partnerships": True},
    )
    state = position_from_json({**position, "scores": [0, 0]})
    lines = describe_table(state, SYMBOLS, lambda owner: whose(session, owner, 0))
    assert lines == [
        "  loose: K♦",
        "  your 8-build (single): 2♣ 6♥",
        "  your partner's 9-build (single): 3♦ 6♠",
        "  Left computer's 10-build (single): 4♥ 6♦",
    ]
    assert "seat" not in " ".join(lines)
