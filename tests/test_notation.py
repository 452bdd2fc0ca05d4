"""Reading and writing positions (NOTATION.md "Positions"): every rejection the format lists, the
defaults, the writer's canonical form.

Outside tools feed the engine hand-written JSON, so a bad position must fail with a message that
names the problem (checked here by its key words), never load into a state that breaks later.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from cassino import PositionError, State, make_rules
from cassino.cards import CARD_NAMES, parse_card
from cassino.moves import MoveError, parse_code
from cassino.notation import (
    MAX_TEXT_BYTES,
    ascii_number,
    excerpt,
    position_from_json,
    position_to_json,
    read_move,
    read_position_text,
    read_text,
)
from positions import BASE, STOCK


def base() -> dict[str, Any]:
    """A fresh deep copy of BASE to mutate."""
    return copy.deepcopy(BASE)


def move_to_stock(data: dict[str, Any], *cards: str) -> None:
    """Take cards off wherever they are and put them at the bottom of the stock (keeps 52)."""
    for seat in (*data["hands"], *data["captured"], data["stock"]):
        for c in cards:
            if c in seat:
                seat.remove(c)
    data["table"] = [t for t in data["table"] if t not in cards]
    data["stock"].extend(cards)


def reject(data: Any, *words: str) -> str:
    """Assert reading fails with a message that names the problem (all ``words``, any case)."""
    with pytest.raises(PositionError) as info:
        position_from_json(data)
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not named in: {message}"
    assert "\n" not in message
    return message


def dealt(preset: str = "classic", players: int = 2, seed: int = 7, **options: Any) -> dict[str, Any]:
    """The JSON of a real first deal, for rule sets with other seat counts."""
    import random

    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return position_to_json(State.new_hand(make_rules(preset, players=players, **options), deck, 0))


def test_base_position_is_accepted() -> None:
    """The fixture itself is consistent, so each rejection below is caused by its one change."""
    state = position_from_json(base())
    assert position_to_json(state) == BASE


# ----------------------------------------------------------------------------- cards


@pytest.mark.parametrize("bad", ["Xz", "1c", "Tx", "", "Ace", "T", "11h"])
def test_unknown_card(bad: str) -> None:
    data = base()
    data["hands"][0][0] = bad
    data["stock"].append("Ac")
    reject(data, "not a card", "hands[0]")


def test_card_that_is_not_a_string() -> None:
    data = base()
    data["stock"][0] = 12
    reject(data, "card", "stock")


@pytest.mark.parametrize(
    ("where", "card"),
    [("stock", "8h"), ("hands", "5s"), ("captured", "Ac"), ("table", "9d"), ("build", "7c")],
)
def test_duplicate_card(where: str, card: str) -> None:
    data = base()
    if where == "stock":
        data["stock"].append(card)
    elif where == "hands":
        data["hands"][1].append(card)
    elif where == "captured":
        data["captured"][1].append(card)
    elif where == "table":
        data["table"].append(card)
    else:
        data["table"][2]["cards"].append(card)  # 3+4, 7: still a valid build on its own
    reject(data, "duplicate", card)


def test_duplicate_within_one_list() -> None:
    data = base()
    data["captured"][0].append("9c")
    reject(data, "duplicate", "9c")


def test_duplicate_through_lenient_spelling() -> None:
    """``10S`` and ``Ts`` are the same card, so naming both is a duplicate."""
    data = base()
    data["stock"][data["stock"].index("Ts")] = "10S"
    data["stock"].append("Ts")
    reject(data, "duplicate", "Ts")


@pytest.mark.parametrize("missing", ["Kh", "8h", "9c", "Ac"])
def test_card_count_other_than_52(missing: str) -> None:
    data = base()
    move_to_stock(data, missing)
    data["stock"].pop()
    reject(data, "52", missing)


# ----------------------------------------------------------------------------- builds


def test_build_of_fewer_than_two_cards() -> None:
    data = base()
    data["table"][2] = {"cards": ["3c"], "value": 3, "owner": 1}
    data["stock"].append("4d")
    reject(data, "table[2]", "two")


def test_build_with_no_cards() -> None:
    data = base()
    data["table"][2] = {"cards": [], "value": 7, "owner": 1}
    data["stock"].extend(["3c", "4d"])
    reject(data, "table[2]", "two")


def test_court_card_in_a_classic_build() -> None:
    data = base()
    data["table"][2]["cards"].append("Jd")
    data["stock"].remove("Jd")
    reject(data, "Jd", "court")


def test_court_card_builds_under_royal() -> None:
    """Under royal values J counts 11, so ``2c Jd`` is a legal single 13-build."""
    data = base()
    data["rules"] = {"preset": "royal"}
    data["table"][2] = {"cards": ["Jd", "2c"], "value": 13, "owner": 1}
    data["stock"] = [c for c in data["stock"] if c not in ("2c", "Jd")] + ["3c", "4d"]
    state = position_from_json(data)
    assert [(b[0], b[1], b[2]) for b in state.builds] == [((1 << parse_card("2c")) | (1 << parse_card("Jd")), 13, 1)]


@pytest.mark.parametrize(
    ("rules", "value", "top"),
    [
        ({"preset": "classic"}, 11, 10),
        ({"preset": "classic"}, 1, 10),
        ({"preset": "classic"}, 0, 10),
        ({"preset": "royal"}, 15, 14),
        ({"preset": "royal", "royal_ace_high": False}, 14, 13),
    ],
)
def test_build_value_out_of_range(rules: dict[str, Any], value: int, top: int) -> None:
    data = base()
    data["rules"] = rules
    data["table"][2]["value"] = value
    reject(data, "value", str(top), str(value))


@pytest.mark.parametrize("value", ["7", None, True, [7]])
def test_build_value_not_a_whole_number(value: Any) -> None:
    data = base()
    data["table"][2]["value"] = value
    reject(data, "value")


@pytest.mark.parametrize(("cards", "value"), [(["3c", "4d"], 6), (["3c", "4d"], 2), (["3c", "4d", "2c"], 3)])
def test_build_cards_that_cannot_split_into_groups_of_its_value(cards: list[str], value: int) -> None:
    data = base()
    data["table"][2] = {"cards": cards, "value": value, "owner": 1}
    data["stock"] = [c for c in data["stock"] if c not in cards]
    reject(data, "split", str(value))


def test_multiple_build_that_splits_is_accepted() -> None:
    """``3c 4d 7d`` as a 7 is two groups (3+4, 7): a multiple build."""
    data = base()
    data["table"][2] = {"cards": ["7d", "4d", "3c"], "value": 7, "owner": 1}
    data["stock"].remove("7d")
    out = position_to_json(position_from_json(data))
    assert out["table"][2] == {"cards": ["3c", "4d", "7d"], "value": 7, "owner": 1}


# ----------------------------------------------------------------------------- seats


@pytest.mark.parametrize("owner", [2, -1, "1", None])
def test_build_owner_out_of_range(owner: Any) -> None:
    data = base()
    data["table"][2]["owner"] = owner
    reject(data, "owner")


@pytest.mark.parametrize(
    ("key", "value"), [("to_move", 2), ("to_move", -1), ("dealer", 2), ("dealer", "0"), ("last_capturer", 5)]
)
def test_seat_out_of_range(key: str, value: Any) -> None:
    data = base()
    data[key] = value
    reject(data, key)


def test_sweep_seat_out_of_range() -> None:
    data = base()
    data["sweeps"] = [0, 2]
    reject(data, "sweeps")


def test_seat_range_follows_players() -> None:
    """Seat 3 is fine with four players, out of range with three."""
    data = dealt(players=4)
    data["to_move"] = 3
    position_from_json(data)
    data = dealt(players=3)
    data["to_move"] = 3
    reject(data, "to_move")


@pytest.mark.parametrize("key", ["hands", "captured"])
def test_one_card_list_per_seat(key: str) -> None:
    data = base()
    data[key] = [*data[key], []]
    reject(data, key)


def test_scores_one_per_side() -> None:
    data = base()
    data["scores"] = [1, 2, 3]
    reject(data, "scores")
    data = dealt(players=4, partnerships=True)
    data["scores"] = [0, 0, 0, 0]
    reject(data, "scores")


# ----------------------------------------------------------------------------- consistency


def test_every_hand_empty_while_stock_is_not() -> None:
    data = base()
    move_to_stock(data, "Ac", "2d", "9s", "Kd", "7c", "4h")
    reject(data, "every hand", "empty", "stock")


def test_player_to_move_with_no_card_while_another_has_cards() -> None:
    data = base()
    data["to_move"] = 0
    move_to_stock(data, "Ac", "2d", "9s")
    reject(data, "seat 0", "to move")


def test_player_to_move_with_no_card_is_fine_when_nobody_has_cards() -> None:
    """A finished hand: every hand and the stock empty."""
    data = base()
    pile = [c for c in CARD_NAMES if c not in ("8h", "5s", "3c", "4d")]
    data.update(hands=[[], []], stock=[], captured=[pile, []], to_move=1)
    state = position_from_json(data)
    assert state.hand_over and state.legal_codes() == []


def test_winner_set_while_cards_remain_in_hands_and_stock() -> None:
    data = base()
    data["winner"] = 1
    reject(data, "winner")


def test_winner_set_while_cards_remain_in_hands_on_the_last_deal() -> None:
    data = base()
    data["captured"][1] = data.pop("stock")
    data["stock"] = []
    data["winner"] = 0
    reject(data, "winner")


def test_winner_accepted_on_a_finished_hand() -> None:
    data = base()
    data.update(
        hands=[[], []],
        stock=[],
        table=[],
        captured=[list(CARD_NAMES[:30]), list(CARD_NAMES[30:])],
        scores=[25, 10],
        winner=0,
    )
    state = position_from_json(data)
    assert state.winner == 0 and state.hand_over


# ----------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"preset": "classic", "sweep": True}, ("sweep", "unknown")),
        ({"preset": "classic", "royal": True, "colour": "red"}, ("colour",)),
        ({"preset": "poker"}, ("poker", "preset")),
        ({"preset": "classic", "court_capture": "two"}, ("court_capture", "two")),
        ({"preset": "classic", "target": 0}, ("target",)),
        ({"preset": "classic", "sweeps": "yes"}, ("sweeps",)),
        ({"preset": "classic", "players": 5}, ("players",)),
        ({"preset": "classic", "players": 2, "partnerships": True}, ("partnerships", "4")),
        ({"preset": "spade", "tiebreak": "count_out"}, ("count_out", "spade")),
        ({"preset": "classic", "scoring": "spade", "tiebreak": "count_out"}, ("count_out", "spade")),
        ({"preset": "royal", "scoring": "spade"}, ("count_out", "spade")),
        ({"preset": "classic", "players": 3, "sweeps_cancel": True}, ("sweeps_cancel",)),
        ({"preset": "classic", "players": 4, "sweeps_cancel": True}, ("sweeps_cancel",)),
    ],
)
def test_rejected_rules(rules: dict[str, Any], words: tuple[str, ...]) -> None:
    """An unknown option or value, or a combination RULES.md section 10 rejects, is named."""
    players = rules.get("players", 2)
    data = dealt(players=players if players in (2, 3, 4) else 2)
    data["rules"] = rules
    reject(data, *words)


def test_rules_not_an_object() -> None:
    data = base()
    data["rules"] = "classic"
    reject(data, "rules")


def test_accepted_combinations() -> None:
    """sweeps_cancel is fine with two sides: two players, or four in partnerships."""
    data = dealt(players=4, partnerships=True)
    data["rules"]["sweeps_cancel"] = True
    assert position_from_json(data).rules.sweeps_cancel
    data = base()
    data["rules"]["sweeps_cancel"] = True
    assert position_from_json(data).rules.sweeps_cancel


def test_options_equal_to_the_preset_are_accepted_and_not_written() -> None:
    data = base()
    data["rules"] = {
        "preset": "classic",
        "players": 2,
        "partnerships": False,
        "sweeps": True,
        "target": 21,
        "tiebreak": "higher_total",
        "royal": False,
    }
    assert position_to_json(position_from_json(data))["rules"] == BASE["rules"]


# ----------------------------------------------------------------------------- defaults


def test_missing_rules_fields_default_to_classic_two_players_alone() -> None:
    data = base()
    data["rules"] = {}
    state = position_from_json(data)
    assert state.rules == make_rules("classic")
    assert position_to_json(state)["rules"] == {"preset": "classic", "players": 2, "partnerships": False}
    data["rules"] = {"players": 2, "royal": True}
    assert position_to_json(position_from_json(data))["rules"] == {
        "preset": "classic",
        "players": 2,
        "partnerships": False,
        "royal": True,
    }


def test_missing_optional_fields_read_as_empty_none_and_zero() -> None:
    data = base()
    data["stock"] = data["stock"] + ["9c", "9d"]
    for key in ("captured", "sweeps", "last_capturer", "scores", "winner"):
        del data[key]
    state = position_from_json(data)
    assert state.captured == (0, 0)
    assert state.sweeps == ()
    assert state.last_capturer == -1
    assert state.scores == (0, 0)
    assert state.winner == -1
    out = position_to_json(state)
    assert (out["captured"], out["sweeps"], out["last_capturer"], out["scores"], out["winner"]) == (
        [[], []],
        [],
        None,
        [0, 0],
        None,
    )


def test_null_optional_fields_read_as_missing() -> None:
    data = base()
    data["last_capturer"] = None
    data["winner"] = None
    state = position_from_json(data)
    assert state.last_capturer == -1 and state.winner == -1


def test_scores_default_per_side_in_partnerships() -> None:
    data = dealt(players=4, partnerships=True)
    del data["scores"]
    assert position_from_json(data).scores == (0, 0)


# ----------------------------------------------------------------------------- writer


def test_writer_emits_canonical_order() -> None:
    """Loose cards by rank then suit, builds after them ordered by first card, every list sorted;
    the stock keeps its order (it is the order of the coming deals)."""
    data = base()
    data["table"] = [
        {"cards": ["4d", "3c"], "value": 7, "owner": 1},
        "8h",
        {"cards": ["6s", "2c"], "value": 8, "owner": 0},
        "5s",
        "As",
    ]
    data["hands"] = [["9s", "2d", "Ac", "8c"], ["4h", "Kd", "7c"]]
    data["captured"] = [["9d", "9c"], []]
    data["stock"] = [c for c in reversed(STOCK) if c not in ("6s", "2c", "As", "8c")]
    state = position_from_json(data)
    out = position_to_json(state)
    assert out["table"] == [
        "As",
        "5s",
        "8h",
        {"cards": ["2c", "6s"], "value": 8, "owner": 0},
        {"cards": ["3c", "4d"], "value": 7, "owner": 1},
    ]
    assert out["hands"] == [["Ac", "2d", "8c", "9s"], ["4h", "7c", "Kd"]]
    assert out["captured"] == [["9c", "9d"], []]
    assert out["stock"] == data["stock"]
    assert list(out) == [
        "rules",
        "dealer",
        "to_move",
        "table",
        "hands",
        "stock",
        "captured",
        "sweeps",
        "last_capturer",
        "scores",
        "winner",
    ]


def test_writer_normalises_lenient_card_spellings() -> None:
    data = base()
    data["hands"][0] = ["AC", "2D", "9S"]
    data["stock"][data["stock"].index("Td")] = "10d"
    out = position_to_json(position_from_json(data))
    assert out["hands"][0] == ["Ac", "2d", "9s"]
    assert "Td" in out["stock"] and "10d" not in out["stock"]


def test_unknown_top_level_keys_are_ignored() -> None:
    data = base()
    data["comment"] = "from a test"
    data["moves"] = ["trail 7c"]
    data["legal_moves"] = 3
    assert position_to_json(position_from_json(data)) == BASE


def test_not_an_object() -> None:
    reject([], "object")
    reject('"classic"', "a position must be a JSON object, got str")
    reject("classic", "position is not valid JSON: Expecting value at line 1 column 1")


def test_read_position_text_reports_bad_json_and_missing_files(tmp_path: Any) -> None:
    with pytest.raises(PositionError, match="JSON"):
        read_position_text("{not json")
    with pytest.raises(PositionError, match=r"nope\.json"):
        read_position_text(str(tmp_path / "nope.json"))
    path = tmp_path / "p.json"
    path.write_text(json.dumps(BASE))
    assert position_to_json(read_position_text(str(path))) == BASE
    assert position_to_json(read_position_text(json.dumps(BASE))) == BASE


# ----------------------------------------------------------------------------- outside text


def test_excerpt_cuts_a_long_input_to_its_start_and_length() -> None:
    assert excerpt("9z") == "'9z'"
    assert excerpt("é" * 61) == repr("é" * 60) + "… (61 characters)"
    assert excerpt("[1, 2]", quote=False) == "[1, 2]"
    assert excerpt("a\nb") == "'a\\nb'", "quoted, a message stays one line"


@pytest.mark.parametrize("text", ["٣", "3٣", "²", "+3", "-3", " 3", "3_0", "", "3.0", "١٢"])
def test_ascii_number_takes_only_the_digits_0_to_9(text: str) -> None:
    assert ascii_number(text) is None


def test_ascii_number_reads_plain_numbers_and_caps_huge_ones() -> None:
    assert (ascii_number("0"), ascii_number("007"), ascii_number("123456789")) == (0, 7, 123456789)
    assert ascii_number("1" * 10) is None and ascii_number("9" * 5000, huge=53) == 53


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ('{"a": 1}'.encode("utf-16"), "it is UTF-16 text: save it as UTF-8"),
        ('{"a": 1}'.encode("utf-16-le"), "it holds NUL bytes: binary data or UTF-16 text, not UTF-8 text"),
        (b'{"a": "caf\xe9"}', "not UTF-8 text: byte 0xe9 at offset 10 (invalid continuation byte)"),
        (b"\xff\xd8\xff\xe0 a jpeg", "not UTF-8 text: byte 0xff at offset 0 (invalid start byte)"),
    ],
)
def test_read_text_names_what_is_wrong_with_a_file(tmp_path: Any, data: bytes, reason: str) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    with pytest.raises(OSError) as info:
        read_text(path)
    assert info.value.strerror == reason
    with pytest.raises(PositionError) as position_info:
        read_position_text(str(path))
    assert str(position_info.value) == f"cannot read position file {str(path)!r}: {reason}"


def test_read_text_refuses_a_huge_file_and_a_folder(tmp_path: Any) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.truncate(MAX_TEXT_BYTES + 1)
    with pytest.raises(OSError, match="more than 16 MiB"):
        read_text(path)
    with pytest.raises(OSError, match="Is a directory"):
        read_text(tmp_path)
    with pytest.raises(OSError, match="NUL character"):
        read_text("a\0b")


def test_read_text_drops_a_utf8_bom(tmp_path: Any) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(BASE).encode())
    assert read_text(path) == json.dumps(BASE)
    assert position_to_json(read_position_text(str(path))) == BASE
    assert position_to_json(read_position_text("\ufeff" + json.dumps(BASE))) == BASE


def test_json_too_deep_or_with_a_huge_number_is_refused() -> None:
    with pytest.raises(PositionError, match="nested too deeply"):
        read_position_text('{"table": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(PositionError, match="not valid JSON: Exceeds the limit"):
        read_position_text('{"dealer": ' + "1" * 5000 + "}")


def test_odd_json_values_are_refused_with_a_reason() -> None:
    data = base()
    data["rules"] = {"preset": ["classic"]}
    reject(data, 'rules: preset must be a string, got ["classic"]')
    data = base()
    data["dealer"] = None
    reject(data, "dealer must be a whole number from 0 to 1, got null")


def test_long_json_values_are_quoted_by_an_excerpt() -> None:
    data = base()
    data["sweeps"] = list(range(100_000))
    message = reject(data, "sweeps must be a list of seats 0..1, got [0, 1, 2,")
    assert message.endswith("… (688890 characters)")
    data = base()
    data["hands"][0][0] = "x" * 100_000
    assert reject(data, "hands[0][0]: 'xxx", "(100000 characters) is not a card").count("x") == 60
    data = base()
    data["rules"] = {"preset": "y" * 100_000}
    assert len(reject(data, "rules: unknown preset 'yyy")) < 200


def test_read_move_refuses_other_digits_and_long_lines() -> None:
    assert read_move("capture 8c 8: 8d") == parse_code("capture 8c 8: 8d")
    with pytest.raises(MoveError, match="'٨' is not one of the digits 0-9"):
        read_move("capture 8c ٨: 8d")
    with pytest.raises(MoveError, match=r"the value must be 1\.\.14, got 999"):
        read_move("capture 8c 999: 8d")
    with pytest.raises(MoveError, match=r"\(401 characters\) is not a move: a move line has at most 400"):
        read_move("trail " + "x" * 395)
