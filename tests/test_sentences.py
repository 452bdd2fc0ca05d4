"""Moves as sentences (cassino.sentences, ``Move.describe`` and ``Move.parse_words``): one language
of moves for the page, the terminal and the engine.

Each sentence the game prints must be worded exactly, in each language of the catalogues, and read
back as the very move it says, in the position it was said in: checked on every move of 100
random whole games in English, German and Indonesian. A card or a rank alone names its only move;
anything that names several, or none, is refused with what it could be. The catalogue is read with
the standard library here and with Babel by the web app: both must read the same words.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cassino import IllegalMoveError, Move, MoveError, State
from cassino.cards import shuffled_deck
from cassino.errors import CassinoError
from cassino.moves import format_code
from cassino.notation import position_from_json
from cassino.sentences import (
    describe,
    move_languages,
    move_messages,
    po_file,
    read_move,
    read_po,
)
from cassino.view import view_of
from crosscheck_support import POLICIES, PRESET_NAMES, SEATINGS, choose_move, random_rules, table_items
from positions import build, make_position

NAMES = ("Ana", "Ben", "Cy", "Dee")


def names(seat: int) -> str:
    return NAMES[seat]


def table_of_three() -> State:
    """Seat 0 (Ana) to move with 3♣ 9♥ 8♠ K♦; loose 3♥ 5♥ A♥; Ben's six (2♥ 4♣), Cy's eight (3♠ 5♦)."""
    return position_from_json(
        make_position(
            hands=[["3c", "9h", "8s", "Kd"], ["4d", "2s", "6h"], ["8c", "7c", "Qd"]],
            table=["5h", "3h", "Ah", build(["2h", "4c"], 6, 1), build(["3s", "5d"], 8, 2)],
            rules={"players": 3},
        )
    )


def sentence(line: str, state: State | None, lang: str = "en", *, seat: int | None = None, ascii: bool = False) -> str:
    return Move.parse(line).describe(state, lang, seat=seat, names=names, ascii=ascii)


def read(text: str, state: State, *, lang: str | None = None, seat: int | None = None) -> str:
    return str(Move.parse_words(text, state, lang=lang, seat=seat, names=names))


def refusal(text: str, state: State, *, lang: str | None = None, ascii: bool = False) -> str:
    with pytest.raises(MoveError) as caught:
        Move.parse_words(text, state, lang=lang, names=names, ascii=ascii)
    return str(caught.value)


# ----------------------------------------------------------------------------- wording


def test_each_kind_of_move_in_three_languages() -> None:
    state = table_of_three()
    expected = {
        "trail Kd": ("trail K♦", "K♦ ablegen", "mengekor K♦"),
        "capture 8s 8: 3h 5h": ("take 3♥ 5♥ with 8♠", "3♥ 5♥ mit 8♠ nehmen", "ambil 3♥ 5♥ dengan 8♠"),
        "capture 8s 8: 3s 5d": (
            "take Cy's eight with 8♠",
            "den Bau acht von Cy mit 8♠ nehmen",
            "ambil bangunan delapan milik Cy dengan 8♠",
        ),
        "capture 8s 8: 3h 3s 5d 5h": (
            "take 3♥ 5♥, Cy's eight with 8♠",
            "3♥ 5♥, den Bau acht von Cy mit 8♠ nehmen",
            "ambil 3♥ 5♥, bangunan delapan milik Cy dengan 8♠",
        ),
        "build 8s 9: Ah": ("build nine: 8♠ on A♥", "neun bauen: 8♠ auf A♥", "bangun sembilan: 8♠ di atas A♥"),
        "build 3c 8: 3s 5d 5h": (
            "build eight: 3♣ on 5♥, Cy's eight",
            "acht bauen: 3♣ auf 5♥, den Bau acht von Cy",
            "bangun delapan: 3♣ di atas 5♥, bangunan delapan milik Cy",
        ),
        "build 3c 9: 2h 4c": (
            "raise Ben's six to nine with 3♣",
            "den Bau sechs von Ben mit 3♣ auf neun erhöhen",
            "naikkan bangunan enam milik Ben menjadi sembilan dengan 3♣",
        ),
        "build 3c 9: Ah 2h 3h 4c 5h": (
            "raise Ben's six to nine with 3♣ A♥ 3♥ 5♥",
            "den Bau sechs von Ben mit 3♣ A♥ 3♥ 5♥ auf neun erhöhen",
            "naikkan bangunan enam milik Ben menjadi sembilan dengan 3♣ A♥ 3♥ 5♥",
        ),
    }
    for line, words in expected.items():
        assert tuple(sentence(line, state, lang) for lang in ("en", "de", "id")) == words, line
    assert move_languages() == ("en", "de", "id")


def test_the_readers_seat_the_names_letters_and_no_table() -> None:
    state = table_of_three()
    assert sentence("build 3c 9: 2h 4c", state, seat=1) == "raise your six to nine with 3♣"
    assert sentence("build 3c 9: 2h 4c", state, "de", seat=1) == "deinen Bau sechs mit 3♣ auf neun erhöhen"
    assert sentence("build 3c 9: 2h 4c", state, "id", seat=1) == "naikkan bangunanmu enam menjadi sembilan dengan 3♣"
    assert Move.parse("build 3c 9: 2h 4c").describe(state) == "raise seat 1's six to nine with 3♣"
    assert sentence("capture 8s 8: 3s 5d", state, ascii=True) == "take Cy's eight with 8s"
    assert sentence("build 3c 9: 2h 4c", None) == "build nine: 3♣ on 2♥ 4♣"
    assert sentence("capture Qd Q: Qc Qh", None, "de") == "D♣ D♥ mit D♦ nehmen"
    assert sentence("capture Td 10: Tc", None, "id", ascii=True) == "ambil 10c dengan 10d"
    view = view_of(state, 2)
    assert Move.parse("capture 8s 8: 3s 5d").describe(view, names=names) == "take your eight with 8♠"


def test_builds_alike_are_named_by_their_cards() -> None:
    """Two of "your nine" would not say which: each is named by its cards instead, so every
    sentence names one move (and the page says the same, tests/js/words.test.mjs)."""
    state = two_nines()
    assert [m.describe(state) for m in state.legal_moves() if m.card_name == "9d"] == [
        "build nine: 9♦ on 2♣ 4♦ 5♦ 7♣",
        "build nine: 9♦ on 2♣ 7♣",
        "build nine: 9♦ on 4♦ 5♦",
        "take 2♣ 4♦ 5♦ 7♣ with 9♦",
        "take 2♣ 7♣ with 9♦",
        "take 4♦ 5♦ with 9♦",
    ]


def two_nines() -> State:
    """Seat 0 owns two nines (duplicate builds allowed) and holds 9♦ 9♥."""
    return position_from_json(
        make_position(
            hands=[["9d", "9h"], ["Kc", "9c"]],
            table=["Kd", build(["4d", "5d"], 9, 0), build(["2c", "7c"], 9, 0)],
            rules={"duplicate_value_builds": True},
        )
    )


def test_a_raise_that_joins_a_build_reads_as_a_build() -> None:
    """Were it a raise, the sentence would leave the joined build out and say two moves."""
    state = position_from_json(
        make_position(
            hands=[["3c", "9h"], ["Kc", "9c"]],
            table=["Kd", build(["2h", "4c"], 6, 1), build(["3s", "6d"], 9, 0)],
        )
    )
    assert "build 3c 9: 2h 3s 4c 6d" in map(str, state.legal_moves())
    assert sentence("build 3c 9: 2h 3s 4c 6d", state) == "build nine: 3♣ on Ben's six, your nine"


# ----------------------------------------------------------------------------- reading


def test_canonical_lines_are_read_as_ever() -> None:
    state = table_of_three()
    for move in state.legal_moves():
        assert Move.parse_words(str(move), state) == move
    assert read("Capture 8S 8: 5h, 3h", state) == "capture 8s 8: 3h 5h"
    assert read("capture 8♠ 8: 5♥ 3♥", state) == "capture 8s 8: 3h 5h"
    with pytest.raises(IllegalMoveError) as caught:
        Move.parse_words("trail 7c", state)
    with pytest.raises(IllegalMoveError) as verified:
        state.verify("trail 7c")
    assert str(caught.value) == str(verified.value)
    assert str(caught.value) == "illegal move 'trail 7c': 7c is not in the hand of seat 0, the player to move"
    assert refusal("trail 9z", state) == (
        "in move 'trail 9z': '9z' is not a card: write a rank of A 2 3 4 5 6 7 8 9 T J Q K then a suit of c d h s, e.g. 'Td'"
    )


def test_sentences_read_in_any_case_order_and_spelling() -> None:
    state = table_of_three()
    for text in (
        "take 3♥ 5♥ with 8♠",
        "TAKE 5H 3H WITH 8S",
        "take 5♥  3h with 8♠.",
        "3♥ 5♥ mit 8♠ nehmen",
        "ambil 5h 3h dengan 8s",
    ):
        assert read(text, state) == "capture 8s 8: 3h 5h", text
    for text in (
        "take Cy's eight with 8♠",
        "take cy’s EIGHT with 8s",
        "take cy's 8 with 8s",
        "take 3s 5d with 8s",
        "den Bau acht von Cy mit 8♠ nehmen",
        "ambil bangunan delapan milik cy dengan 8♠",
    ):
        assert read(text, state) == "capture 8s 8: 3s 5d", text
    assert read("take 5♥ 3♥, Cy's eight with 8♠", state) == "capture 8s 8: 3h 3s 5d 5h"
    assert read("take Cy's eight, 3♥ 5♥ with 8♠", state) == "capture 8s 8: 3h 3s 5d 5h"
    assert read("raise Ben's six to nine with 3♣", state) == "build 3c 9: 2h 4c"
    assert read("raise Ben's six to 9 with 5h 3c AH 3h", state) == "build 3c 9: Ah 2h 3h 4c 5h"
    assert read("build nine: 3c on 2h 4c", state) == "build 3c 9: 2h 4c"
    assert read("build nine: 3c on Ben's six", state) == "build 3c 9: 2h 4c"
    assert read("den Bau sechs von Ben mit 3♣ auf neun erhöhen", state) == "build 3c 9: 2h 4c"
    assert read("naikkan bangunan enam milik Ben menjadi sembilan dengan 3♣", state) == "build 3c 9: 2h 4c"
    assert read("raise your six to nine with 3c", state, seat=1) == "build 3c 9: 2h 4c"
    assert read("trail K♦", state) == "trail Kd"
    assert read("mengekor kd", state, lang="id") == "trail Kd"
    assert Move.parse_words("take Cy's eight with 8♠", view_of(state, 0), names=names) == Move.parse(
        "capture 8s 8: 3s 5d"
    )


def test_a_name_is_checked_when_it_is_a_seats() -> None:
    state = table_of_three()
    assert read("take Computer's eight with 8♠", state) == "capture 8s 8: 3s 5d"  # no seat's name
    assert refusal("take Ben's eight with 8♠", state) == (
        '"take Ben\'s eight with 8♠" is not a legal move here: 8♠ can: build nine: 8♠ on A♥; '
        "take 3♥ 5♥, Cy's eight with 8♠; take 3♥ 5♥ with 8♠; take Cy's eight with 8♠; trail 8♠"
    )
    assert refusal("take your eight with 8♠", state).startswith("'take your eight with 8♠' is not a legal move here")


def test_a_card_or_a_rank_alone() -> None:
    state = table_of_three()
    assert read("Kd", state) == "trail Kd"
    assert read("K♦", state) == "trail Kd"
    assert read("k", state) == "trail Kd"
    assert refusal("9h", state) == "'9h' could be any of 2 moves: take A♥ 3♥ 5♥ with 9♥; trail 9♥"
    assert refusal("9", state) == "'9' could be any of 2 moves: take A♥ 3♥ 5♥ with 9♥; trail 9♥"
    assert refusal("9♥", state, ascii=True) == "'9♥' could be any of 2 moves: take Ah 3h 5h with 9h; trail 9h"
    assert refusal("7c", state) == "7♣ is not in your hand"
    assert refusal("Q", state) == "no Q is in your hand"
    assert refusal("10", state) == "no 10 is in your hand"
    stuck = position_from_json(
        make_position(hands=[["9h", "2s"], ["Kc", "9c"]], table=["Kd", build(["3s", "6d"], 9, 0)])
    )
    assert refusal("2s", stuck) == (
        "2♠ has no legal move: you own the 9-build (3s 6d), so you may not trail (rule 7.1)"
    )
    assert refusal("take Kd with 2s", stuck) == (
        "'take Kd with 2s' is not a legal move here: 2♠ has no legal move: you own the 9-build (3s 6d), "
        "so you may not trail (rule 7.1)"
    )
    german = position_from_json(make_position(hands=[["Qd", "Jc"], ["Kc", "9c"]], table=["Qh", "5s"]))
    assert read("B", german) == read("b♣", german) == "trail Jc"  # the German jack, Bube
    assert read("D♥ mit D♦ nehmen", german) == "capture Qd Q: Qh"  # and queen, Dame
    assert refusal("D", german) == "'D' could be any of 2 moves: take Q♥ with Q♦; trail Q♦"


def test_a_sentence_that_names_several_moves_lists_them() -> None:
    state = two_nines()
    assert refusal("take your nine with 9h", state) == (
        "'take your nine with 9h' could be any of 2 moves: take 2♣ 7♣ with 9♥; take 4♦ 5♦ with 9♥"
    )
    assert read("take 7c 2c with 9h", state) == "capture 9h 9: 2c 7c"


def test_what_is_no_move_is_refused_saying_why() -> None:
    state = table_of_three()
    assert refusal("jump 5h", state) == (
        "'jump 5h' is not a move: write it as the game does (e.g. 'take 5h 3c with 8s', 'build eight: 3c "
        "on 5h', 'trail 2h'), a card or a rank alone when it has one move ('5c', 'K'), or a line of notation "
        "('trail CARD', 'capture CARD VALUE: CARDS' or 'build CARD VALUE: CARDS')"
    )
    assert refusal("take 3♥ 3♥ with 8♠", state).startswith("'take 3♥ 3♥ with 8♠' is not a move:")
    assert refusal("take 5♥ with 8♠", state) == (
        "'take 5♥ with 8♠' is not a legal move here: 8♠ can: build nine: 8♠ on A♥; "
        "take 3♥ 5♥, Cy's eight with 8♠; take 3♥ 5♥ with 8♠; take Cy's eight with 8♠; trail 8♠"
    )
    assert refusal("take 5♥ with 7♣", state) == "'take 5♥ with 7♣' is not a legal move here: 7♣ is not in your hand"
    assert refusal("take 5♥ with 8♠", state, lang="de").startswith("'take 5♥ with 8♠' is not a move:")
    assert refusal("x" * 401, state).endswith("is not a move: a move line has at most 400 characters")
    assert refusal("take ٣♥ with 3♣", state) == "in move 'take ٣♥ with 3♣': '٣' is not one of the digits 0-9"
    with pytest.raises(CassinoError, match="no move words in 'fr': the languages are en, de, id"):
        Move.parse("trail Kd").describe(state, "fr")


# ----------------------------------------------------------------------------- the catalogues


def test_the_catalogue_reader_reads_what_gettext_writes() -> None:
    text = '# a comment\nmsgid ""\nmsgstr ""\n"Language: en\\n"\n\nmsgid "a"\nmsgstr "one "\n"\\"two\\" \\\\ \\t"\n'
    assert read_po(text, "t.po") == {"a": 'one "two" \\ \t'}
    for bad, problem in (
        ('msgid "a"\nmsgstr "b"\nmsgctxt "c"\n', "t.po:3: not a line this catalogue reader knows: 'msgctxt \"c\"'"),
        ('msgid "a"\nmsgstr "b\\q"\n', "t.po:2: unknown escape \\q"),
        ('msgid "a"\n\nmsgstr "b"\n', "t.po:3: not a line this catalogue reader knows: 'msgstr \"b\"'"),
        ('msgid "a"\n', "t.po: 'a' has no msgstr"),
        ('msgid "a"\nmsgstr "b"\nmsgid "a"\nmsgstr "c"\n', "t.po: 'a' is written twice"),
    ):
        with pytest.raises(CassinoError) as caught:
            read_po(bad, "t.po")
        assert str(caught.value) == problem


def test_babel_reads_the_move_catalogues_alike_and_the_page_is_served_them() -> None:
    """One source per language: the engine's catalogue, read by Babel as by the engine, merged into
    what the web serves to the page (and no web catalogue words a move again)."""
    pytest.importorskip("babel")
    from babel.messages.pofile import read_po as babel_read_po

    from cassino.web.i18n import LANGUAGES, catalogue, check_catalogues

    assert move_languages() == LANGUAGES
    for lang in move_languages():
        with po_file(lang).open("rb") as f:
            babel = {str(m.id): str(m.string) for m in babel_read_po(f, locale=lang) if m.id}
        assert move_messages(lang) == babel
        assert {k: catalogue(lang)[k] for k in babel} == babel
    assert move_messages("en")["move.capture"] == "take {items} with {card}"
    assert check_catalogues() == []


# ----------------------------------------------------------------------------- whole games

GAMES = 100
SEED = 20260514


def random_games(seed: int, games: int) -> list[list[tuple[State, int]]]:
    """Seeded random play through whole games, each in every variant and seating drawn at random
    (crosscheck_support): each game's positions (copies) with the move played in each."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        players, partnerships = rng.choice(SEATINGS)
        rules = random_rules(rng, rng.choice(PRESET_NAMES), players, partnerships)
        scores, dealer, played = [0] * rules.sides, rng.randrange(players), []
        while True:
            state = State.new_hand(rules, shuffled_deck(rng), dealer, scores)
            policy = rng.choice(POLICIES)
            while not state.hand_over:
                code = choose_move(rng, sorted(state.legal_codes()), policy, table_items(state))
                played.append((state.copy(), code))
                state.push(code)
            if state.winner >= 0:
                break
            scores, dealer = list(state.scores), state.next_dealer
        out.append(played)
    return out


def test_every_move_of_100_random_games_reads_back_in_three_languages() -> None:
    """Each move's sentence, as the log words it from seat 0's side (and as the coach words it,
    without the table), in English, German and Indonesian, reads back as that very move in its
    position, the language found by itself."""
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    wrong = []
    games = random_games(SEED, GAMES)
    for played in games:
        for state, code in played:
            kinds[describe(code, state, seat=0, names=names).split()[0]] += 1
            for lang in move_languages():
                for position in (state, None):
                    text = describe(code, position, lang, seat=0, names=names)
                    try:
                        back = read_move(text, state, seat=0, names=names)
                    except MoveError as exc:
                        back = -1
                        wrong.append(f"{format_code(code)}: {exc}")
                    if back != code:
                        wrong.append(f"{format_code(code)}: {text!r} read as {back}")
                    counts[lang] += 1
    assert wrong == []
    moves = sum(len(played) for played in games)
    assert len(games) == GAMES and counts == {lang: 2 * moves for lang in ("en", "de", "id")}
    assert moves == 21600 and kinds == {"trail": 12215, "take": 6862, "build": 2376, "raise": 147}
