"""Start positions and the one-line position (NOTATION.md "Positions on one line").

``State.new`` must deal what ``Game`` deals, or a seed would name two different starts. The line
must round-trip exactly with the JSON form (the same reader checks both), so it is checked on a
known position character by character, on 10,000 positions of seeded random play over every
preset, seating and option mix, on Hypothesis' positions, and refused input by input with the
exact message.
"""

from __future__ import annotations

import io
import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cassino import Game, PositionError, State, make_rules
from cassino.cards import CARD_NAMES
from cassino.notation import (
    LINE_FIELDS,
    dumps_position,
    is_position_line,
    position_from_json,
    position_from_line,
    position_to_json,
    position_to_line,
    read_position_text,
)
from crosscheck_support import PRESET_NAMES, SEATINGS, random_play
from positions import BASE
from strategies import positions

BASE_LINE = (
    "classic 2 0 1 5s8h[7:3c4d@1] Ac2d9s/4h7cKd "
    "AdAhAs2c2h2s3d3h3s4c4s5c5d5h6c6d6h6s7d7h7s8c8d8s9hTcTdThTsJcJdJhJsQcQdQhQsKcKhKs 9c9d/- 1 1 3/5 -"
)
"""test_notation's BASE position (a build, a sweep, a pile, scores) on one line."""

DATA = Path(__file__).parent / "data" / "perft_public.jsonl"


def public(i: int) -> dict[str, Any]:
    """The position of line ``i`` (from 0) of the public perft file."""
    with DATA.open() as f:
        return dict(json.loads(next(itertools.islice(f, i, None)))["position"])


def round_trips(state: State) -> str:
    """Assert the line of ``state`` reads back to the same position (by JSON) and writes back to
    the same line; return the line."""
    line = position_to_line(state)
    back = position_from_line(line)
    assert position_to_json(back) == position_to_json(state), line
    assert position_to_line(back) == line
    assert "\n" not in line and "  " not in line
    return line


# ----------------------------------------------------------------------------- State.new


@pytest.mark.parametrize(("preset", "seating"), list(itertools.product(PRESET_NAMES, SEATINGS)))
def test_state_new_deals_what_a_game_starts_with(preset: str, seating: tuple[int, bool]) -> None:
    players, partnerships = seating
    rules = make_rules(preset, players=players, partnerships=partnerships)
    for seed, dealer in itertools.product((0, 1, 7, 2**40 + 3), range(players)):
        state = State.new(rules, seed, dealer)
        game = Game(rules, seed=seed, dealer=dealer)
        assert state == game.state
        assert position_to_json(state) == position_to_json(game.state)
        assert state.moves_played == 0 and state.scores == (0,) * rules.sides


def test_state_new_is_a_fresh_hand_with_the_dealer_default_zero() -> None:
    state = State.new(make_rules("classic"), 1)
    assert (state.dealer, state.to_move, state.builds, state.captured) == (0, 1, (), (0, 0))
    assert [h.bit_count() for h in state.hands] == [4, 4] and state.loose.bit_count() == 4
    assert len(state.remaining_stock) == 40
    assert State.new(make_rules("classic"), 1) == state and State.new(make_rules("classic"), 2) != state


def test_state_new_refuses_a_dealer_out_of_range() -> None:
    with pytest.raises(ValueError, match=r"^dealer seat 2 is out of range: the seats are 0\.\.1 for 2 players$"):
        State.new(make_rules("classic"), 1, 2)


# ----------------------------------------------------------------------------- position_from_json(text)


def test_position_from_json_reads_text_as_well_as_a_dict() -> None:
    state = position_from_json(BASE)
    assert position_from_json(json.dumps(BASE)) == state
    assert position_from_json(json.dumps(BASE, indent=2)) == state
    assert position_from_json("\ufeff" + json.dumps(BASE)) == state
    assert position_from_json(dumps_position(state)) == state
    assert isinstance(position_to_json(state), dict)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"rules": ', "position is not valid JSON: Expecting value at line 1 column 11"),
        ("", "position is not valid JSON: Expecting value at line 1 column 1"),
        ("classic 2 0 1", "position is not valid JSON: Expecting value at line 1 column 1"),
        ("[]", "a position must be a JSON object, got list"),
        ('"text"', "a position must be a JSON object, got str"),
        ('{"hands": [[], []]}', "a position must account for all 52 cards, found 0: missing " + ", ".join(CARD_NAMES)),
        ('{"table": ' + "[" * 100_000 + "]" * 100_000 + "}",
         "position is nested too deeply to read: a position is at most four levels deep"),
    ],
)  # fmt: skip
def test_position_from_json_text_that_is_not_a_position(text: str, message: str) -> None:
    with pytest.raises(PositionError) as info:
        position_from_json(text)
    assert str(info.value) == message


# ----------------------------------------------------------------------------- the line, exactly


def test_the_line_of_a_known_position() -> None:
    state = position_from_json(BASE)
    assert position_to_line(state) == BASE_LINE
    assert position_to_json(position_from_line(BASE_LINE)) == BASE


def test_the_line_of_the_public_positions() -> None:
    """Builds of royal values, four seats, options that differ from the preset, in the table's order."""
    assert position_to_line(position_from_json(public(0))) == (
        "royal 4 0 0 8hJcKd[14:2c4h7d7hThQc@0][12:2hTs@3] Ad3hTc/Ac8d/3dJd/AsQd "
        "KhKs7sKcAh8s5h5c7cJs4dTd6s4s5dQh 2d3s5s6d8c9sJh/9c9h/2s4c6cQs/3c6h9d - 3 19/17/18/18 -"
    )
    assert position_to_line(position_from_json(public(1))).split()[:4] == [
        "royal,royal=false,court_capture=one_or_three,trail_restriction=no_rank_match,owner_may_trail=true,"
        "raise_own_build=false,table_cards_may_raise=true",
        "4",
        "3",
        "3",
    ]
    for i in range(4):
        round_trips(position_from_json(public(i)))


def test_the_line_of_a_partnership_start() -> None:
    rules = make_rules("royal", players=4, partnerships=True, sweeps_cancel=True)
    assert position_to_line(State.new(rules, 3, 2)) == (
        "royal,sweeps_cancel=true 2v2 2 3 6h7c8sKs As3s5d5s/7h8d9dKc/Ad3h5hTc/2h4d8c9c "
        "2dAh6dQcQsJsJd7sJh6c2s3d7dKdTs4c4h9s5cQdAcQh2cKhJc8hTh6s3c9hTd4s -/-/-/- - - 0/0 -"
    )
    assert position_from_line(round_trips(State.new(rules, 3, 2))).rules == rules


def test_the_line_of_a_finished_game() -> None:
    """Empty hands and stock, several sweeps in order, a last capturer and a winner."""
    data = dict(BASE)
    data.update(
        table=[],
        hands=[[], []],
        stock=[],
        captured=[list(CARD_NAMES[:30]), list(CARD_NAMES[30:])],
        sweeps=[1, 0, 1],
        scores=[25, 10],
        winner=0,
    )
    state = position_from_json(data)
    line = round_trips(state)
    assert line.split()[4:] == ["-", "-/-", "-", "".join(CARD_NAMES[:30]) + "/" + "".join(CARD_NAMES[30:]), "1,0,1",
                                "1", "25/10", "0"]  # fmt: skip


def test_the_reader_is_lenient_where_json_is() -> None:
    """Runs of spaces, card spellings (case, 10), options equal to the preset, in any order,
    yes/no for true/false, a BOM and surrounding whitespace."""
    stock = BASE_LINE.split()[6].replace("Td", "10d").replace("Kh", "KH")
    lenient = (
        "\ufeff  classic,target=21,sweeps=yes,royal=no   2  0 1\t5S8h[7:4D3c@1] ac2d9s/4h7cKd "
        f"{stock} 9c9d/- 1 1 3/5 -\n"
    )
    assert position_to_line(read_position_text(lenient)) == BASE_LINE
    assert position_to_line(position_from_line(lenient.removeprefix("\ufeff"))) == BASE_LINE


# ----------------------------------------------------------------------------- the line, refused


def with_field(name: str, value: str, line: str = BASE_LINE) -> str:
    """``line`` with one field replaced."""
    fields = line.split()
    fields[LINE_FIELDS.index(name)] = value
    return " ".join(fields)


CARD_HINT = "is not a card: write a rank of A 2 3 4 5 6 7 8 9 T J Q K then a suit of c d h s, e.g. 'Td'"
FIELDS = "(rules players dealer to_move table hands stock captured sweeps last_capturer scores winner)"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("classic 2 0 1 - -/-", f"a one-line position has 12 fields separated by spaces {FIELDS}, got 6"),
        (BASE_LINE + " -", f"a one-line position has 12 fields separated by spaces {FIELDS}, got 13"),
        (BASE_LINE.replace(" 9c9d", "\n9c9d"), "a one-line position is one line of text, but this text goes on to a second line"),
        # rules
        (with_field("rules", "poker"), "rules: unknown preset 'poker': choose one of classic, royal, spade, draw"),
        (with_field("rules", "Classic"), "rules: unknown preset 'Classic': choose one of classic, royal, spade, draw"),
        (with_field("rules", "classic,sweeps"), "rules: option 'sweeps' must be written NAME=VALUE, e.g. sweeps=false"),
        (with_field("rules", "classic,"), "rules: option '' must be written NAME=VALUE, e.g. sweeps=false"),
        (with_field("rules", "classic,colour=red"), "rules: unknown rule option 'colour': known options are royal, royal_ace_high, "
         "court_capture, sweeps, sweeps_cancel, capture_must_be_maximal, trail_restriction, owner_may_trail, raise_own_build, "
         "table_cards_may_raise, duplicate_value_builds, draw, scoring, target, tiebreak"),
        (with_field("rules", "classic,sweeps=maybe"), "rules: sweeps must be true or false, got 'maybe'"),
        (with_field("rules", "classic,target=٣"), "rules: option 'target=٣': '٣' is not one of the digits 0-9"),
        (with_field("rules", "classic,target=9,target=11"), "rules: option target is given twice"),
        (with_field("rules", "classic,players=3"), "rules: players is not an option: it is the players field"),
        (with_field("rules", "classic,partnerships=true"), "rules: partnerships is not an option: it is the players field"),
        (with_field("rules", "classic,preset=royal"), "rules: preset is not an option: it is the first word"),
        (with_field("rules", "spade,tiebreak=count_out"), "rules: tiebreak count_out counts the standard items one by one, so it "
         "cannot be used with spade scoring"),
        (with_field("rules", "classic,sweeps_cancel=true", with_field("players", "3")),
         "rules: sweeps_cancel needs exactly two sides, and this game has 3"),
        # players
        (with_field("players", "5"), "players must be 2, 3, 4 or 2v2 (four players in two partnerships), got '5'"),
        (with_field("players", "2x2"), "players must be 2, 3, 4 or 2v2 (four players in two partnerships), got '2x2'"),
        (with_field("players", "3"), "hands must be 3 card lists, one per seat, separated by '/', got 2: 'Ac2d9s/4h7cKd'"),
        # seats
        (with_field("dealer", "x"), "dealer must be a whole number written with the digits 0-9, got 'x'"),
        (with_field("dealer", "2"), "dealer must be a whole number from 0 to 1, got 2"),
        (with_field("dealer", "-"), "dealer must be a whole number written with the digits 0-9, got '-'"),
        (with_field("to_move", "١"), "to_move must be a whole number written with the digits 0-9, got '١'"),
        (with_field("to_move", "2"), "to_move must be a whole number from 0 to 1, got 2"),
        # table
        (with_field("table", "5s8h[7:3c4d]"), "table[2]: a build is written [VALUE:CARDS@OWNER], e.g. [7:3c4d@1], got '[7:3c4d]'"),
        (with_field("table", "5s8h[3c4d@1]"), "table[2]: a build is written [VALUE:CARDS@OWNER], e.g. [7:3c4d@1], got '[3c4d@1]'"),
        (with_field("table", "5s8h[7:3c4d@1"), "table[2]: the build '[7:3c4d@1' is never closed by ']'"),
        (with_field("table", "5s8h[x:3c4d@1]"), "table[2]: the build's value must be a whole number written with the digits 0-9, got 'x'"),
        (with_field("table", "5s8h[7:3c4d@]"), "table[2]: the build's owner must be a whole number written with the digits 0-9, got ''"),
        (with_field("table", "5s8h[7:3c4d@2]"), "table[2]: owner must be a seat 0..1, got 2"),
        (with_field("table", "5s8h[11:3c4d@1]"), "table[2]: build value must be 2..10 under these rules, got 11"),
        (with_field("table", "5s8h[6:3c4d@1]"), "table[2]: the cards 3c 4d cannot be split into groups each worth 6"),
        (with_field("table", "5s8[7:3c4d@1]h"), f"table[1]: '8' {CARD_HINT}"),
        (with_field("table", "5s8h[7:3c4x@1]"), f"table[2].cards[1]: '4x' {CARD_HINT}"),
        (with_field("table", "5s8h[7:3c@1]4d"), "table[2]: a build has at least two cards, this one has 1"),
        # zones
        (with_field("hands", "Ac2d9s"), "hands must be 2 card lists, one per seat, separated by '/', got 1: 'Ac2d9s'"),
        (with_field("hands", "Ac2d9s/4h7cK"), f"hands[1][2]: 'K' {CARD_HINT}"),
        (with_field("hands", "/4h7cKdAc2d9s"), "hands[0] is empty: write - for a seat without cards"),
        (with_field("hands", "Ac2d9s/4h7cKd5s"), "duplicate card 5s: in table[0] and in hands[1]"),
        (with_field("hands", "Ac2d/4h7cKd"), "a position must account for all 52 cards, found 51: missing 9s"),
        (with_field("stock", "-"), "a position must account for all 52 cards, found 12: missing " + ", ".join(
            c for c in CARD_NAMES if c not in ("8h", "5s", "3c", "4d", "Ac", "2d", "9s", "Kd", "7c", "4h", "9c", "9d"))),
        (with_field("stock", "Ad-" + BASE_LINE.split()[6][2:]), f"stock[1]: '-A' {CARD_HINT}"),
        (with_field("captured", "9c9d/-/-"), "captured must be 2 card lists, one per seat, separated by '/', got 3: '9c9d/-/-'"),
        (with_field("captured", "9c9d/"), "captured[1] is empty: write - for a seat without cards"),
        # the rest
        (with_field("sweeps", "1,,0"), "sweeps[1] must be a whole number written with the digits 0-9, got ''"),
        (with_field("sweeps", "2"), "sweeps must be a list of seats 0..1, got [2]"),
        (with_field("last_capturer", "none"), "last_capturer must be a whole number written with the digits 0-9, or - for none, got 'none'"),
        (with_field("last_capturer", "4"), "last_capturer must be a whole number from 0 to 1, got 4"),
        (with_field("scores", "3"), "scores must be 2 whole numbers, one per side, separated by '/', got 1: '3'"),
        (with_field("scores", "3/"), "scores[1] is empty: write its number, e.g. 0"),
        (with_field("scores", "3/five"), "scores[1] must be a whole number written with the digits 0-9, got 'five'"),
        (with_field("scores", "3/" + "9" * 10), "scores[1]: a number of more than 9 digits is too large, got '9999999999'"),
        (with_field("winner", "0"), "winner is set while cards remain in hands or stock: a game is decided only at the end of a hand"),
        (with_field("winner", "2"), "winner must be a whole number from 0 to 1, got 2"),
        (with_field("winner", "?"), "winner must be a whole number written with the digits 0-9, or - for none, got '?'"),
    ],
)  # fmt: skip
def test_a_line_that_is_not_a_position_is_refused_with_its_reason(line: str, message: str) -> None:
    with pytest.raises(PositionError) as info:
        position_from_line(line)
    assert str(info.value) == message


def test_a_huge_json_number_is_refused() -> None:
    with pytest.raises(PositionError, match=r"^position is not valid JSON: Exceeds the limit"):
        position_from_json('{"dealer": ' + "1" * 5000 + "}")


def test_negative_scores_read_back_as_json_allows_them() -> None:
    data = dict(BASE, scores=[-3, 5])
    assert round_trips(position_from_json(data)).split()[10] == "-3/5"


def test_a_long_input_is_quoted_by_an_excerpt() -> None:
    with pytest.raises(PositionError) as info:
        position_from_line(with_field("players", "x" * 100_000))
    assert str(info.value).endswith("'… (100000 characters)") and len(str(info.value)) < 200
    with pytest.raises(PositionError) as info:
        position_from_line(with_field("table", "[" + "7" * 100_000))
    assert len(str(info.value)) < 200


# ----------------------------------------------------------------------------- round trips


ROUND_TRIPS = 10_000
"""Positions of seeded random play the line must round-trip: 625 for each preset and seating."""


def test_ten_thousand_positions_round_trip_exactly() -> None:
    """Every preset with every seating, options drawn at random per hand, the random players
    leaning to trails, builds or captures by turns; every third position before a move and each
    finished hand (last capturer, residue, scores, a winner at times)."""
    per = ROUND_TRIPS // (len(PRESET_NAMES) * len(SEATINGS))
    seen = {"builds": 0, "sweeps": 0, "finished": 0, "winner": 0, "options": 0, "none_captured": 0}
    done = 0
    started = time.perf_counter()
    for n, (preset, seating) in enumerate(itertools.product(PRESET_NAMES, SEATINGS)):
        count = 0
        previous: State | None = None
        for i, (_setup, state) in enumerate(random_play(1000 + n, preset, seating)):
            if previous is not None and state is not previous:  # the previous hand is over
                assert previous.hand_over
                round_trips(previous)
                seen["finished"] += 1
                seen["winner"] += previous.winner >= 0
                count += 1
            previous = state
            if count < per and i % 3 == 0:
                line = round_trips(state)
                seen["builds"] += "[" in line
                seen["sweeps"] += line.split()[8] != "-"
                seen["options"] += "," in line.split()[0]
                seen["none_captured"] += state.last_capturer < 0
                count += 1
            if count >= per:
                break
        done += count
    assert done == ROUND_TRIPS
    assert all(seen.values()), seen
    print(f"{done} positions round-tripped in {time.perf_counter() - started:.1f} s: {seen}")


PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(positions())
def test_drawn_positions_round_trip(state: State) -> None:
    round_trips(state)
    assert read_position_text(position_to_line(state)) == state


@PROPERTY
@given(st.text(alphabet=st.sampled_from("classic royal2v2 0134-/[]:@,=AcTd5sKhx9\n"), max_size=80))
def test_any_text_is_read_or_refused_with_a_position_error(text: str) -> None:
    """Whatever the text, the reader answers a position or a PositionError, never another error."""
    try:
        position_from_line(text)
    except PositionError as exc:
        assert str(exc) and "\n" not in str(exc)


@PROPERTY
@given(positions(), st.data())
def test_a_line_with_one_field_changed_is_read_or_refused_with_a_position_error(
    state: State, data: st.DataObject
) -> None:
    fields = position_to_line(state).split()
    i = data.draw(st.integers(0, len(fields) - 1))
    fields[i] = data.draw(st.text(alphabet=st.sampled_from("0123-/[]:@,Ac2dTsKhx"), min_size=1, max_size=12))
    try:
        back = position_from_line(" ".join(fields))
    except PositionError:
        return
    round_trips(back)


# ----------------------------------------------------------------------------- where a position is read


def test_a_line_is_read_as_an_argument_from_a_file_and_from_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = position_from_json(BASE)
    assert read_position_text(BASE_LINE) == state
    path = tmp_path / "position.txt"
    path.write_text(BASE_LINE + "\n")
    assert read_position_text(str(path)) == state
    monkeypatch.setattr("sys.stdin", io.StringIO(BASE_LINE + "\n"))
    assert read_position_text("-") == state


def test_a_file_named_like_a_preset_stays_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only text whose first word is a preset and goes on is a line: ``classic`` alone is a file name."""
    monkeypatch.chdir(tmp_path)
    Path("classic").write_text(json.dumps(BASE))
    assert read_position_text("classic") == position_from_json(BASE)
    with pytest.raises(PositionError) as info:
        read_position_text("royal")
    assert str(info.value) == "cannot read position file 'royal': No such file or directory"


@pytest.mark.parametrize(
    ("text", "line"),
    [("classic 2", True), ("  Royal x", True), ("draw", True), ('{"rules": {}}', False), ("[]", False), ("", False),
     ("p.json", False), ("classical 2", False), ("spade,target=11 2", True), ("spade;x", False)],
)  # fmt: skip
def test_is_position_line(text: str, line: bool) -> None:
    assert is_position_line(text) is line
