"""The engine's reasons as structured data: the English sentences unchanged, the JSON round trip, a
German and an Indonesian text for every code, and ``why_not``'s hints in the page's payload.

The English sentences are the command line's and the errors' (other tests compare them), so each
code is produced here by a real refused move on a scripted position and compared word for word.
``explain.why_not`` itself is tested in tests/test_explain.py; here, that the payload of the seat
to move carries exactly its answer, and nobody else's payload any.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from fastapi.testclient import TestClient

from cassino import State
from cassino.cards import parse_card
from cassino.explain import REASON_TEXTS, Cards, Rank, Reason, explain_illegal, reason_illegal, why_not
from cassino.moves import BUILD, CAPTURE, MoveCode, encode, parse_code
from cassino.view import view_of
from cassino.web import create_app, i18n
from positions import build, hand_over_state, scripted_position
from web_support import claim_seats


def card(name: str) -> int:
    return parse_card(name)


def mask(*names: str) -> int:
    m = 0
    for n in names:
        m |= 1 << parse_card(n)
    return m


OWN_EIGHT = [build(["3c", "5d"], 8, 0)]
"""RULES.md example 9: seat 0 owns an 8-build."""


# (code, position, refused move, the exact English sentence): one real refusal per engine code.
ENGINE_CASES: list[tuple[str, State, MoveCode, str]] = [
    ("hand_over", hand_over_state(), parse_code("trail 5h"), "the hand is over: no move is left to play"),
    (
        "not_in_hand",
        scripted_position([], [["5h"], ["9s"]]),
        parse_code("trail 9s"),
        "9s is not in the hand of seat 0, the player to move",
    ),
    (
        "last_card_may_not_trail",
        scripted_position(OWN_EIGHT, [["8c", "4d"], ["9h", "Kc"]]),
        parse_code("trail 8c"),
        "you own the 8-build (3c 5d) and 8c is your last card that can take it: "
        "you may not trail it unless the move takes that build along (rule 7.2)",
    ),
    (
        "last_card_may_not_play",
        scripted_position(["2c", "6d", *OWN_EIGHT], [["8c", "4d"], ["9h", "Kc"]]),
        parse_code("build 8c 8: 2c 6d"),
        "you own the 8-build (3c 5d) and 8c is your last card that can take it: "
        "you may not play it unless the move takes that build along (rule 7.2)",
    ),
    (
        "owner_may_not_trail",
        scripted_position(OWN_EIGHT, [["8c", "4d"], ["9h", "Kc"]]),
        parse_code("trail 4d"),
        "you own the 8-build (3c 5d), so you may not trail (rule 7.1)",
    ),
    (
        "trail_rank_on_table",
        scripted_position(["5c"], [["5d", "9s"], ["9h", "Kc"]], {"trail_restriction": "no_rank_match"}),
        parse_code("trail 5d"),
        "a loose card of the same rank as 5d is on the table, so it may not be trailed (trail_restriction no_rank_match)",
    ),
    (
        "trail_can_capture",
        scripted_position(["5c"], [["5d", "9s"], ["9h", "Kc"]], {"trail_restriction": "no_capturing_card"}),
        parse_code("trail 5d"),
        "5d can capture, so it may not be trailed (trail_restriction no_capturing_card)",
    ),
    (
        "build_only_whole",
        scripted_position([build(["3c", "5d"], 8, 1)], [["8c"], ["9h"]]),
        parse_code("capture 8c 8: 3c"),
        "the 8-build (3c 5d) can only be taken or joined whole",
    ),
    (
        "not_on_table_one",
        scripted_position(["5c"], [["8c"], ["9h"]]),
        parse_code("capture 8c 8: 9d"),
        "9d is not on the table",
    ),
    (
        "not_on_table_many",
        scripted_position(["5c"], [["8c"], ["9h"]]),
        parse_code("capture 8c 8: 9h 9d"),
        "9d 9h are not on the table",
    ),
    (
        "pairing_value_is_number",
        scripted_position(["5c"], [["5h"], ["9h"]]),
        encode(CAPTURE, card("5h"), 0, mask("5c")),
        "5h is a numeral card: write its capture value as a number, not a rank letter",
    ),
    (
        "court_pairs_only",
        scripted_position(["Qs", "5c"], [["Qd"], ["9h"]]),
        parse_code("capture Qd Q: 5c"),
        "a court card captures only loose cards of its own rank by pairing (rule 5.3)",
    ),
    (
        "court_capture_one",
        scripted_position(["Qs", "Qh"], [["Qd", "3c"], ["9h", "9s"]]),
        parse_code("capture Qd Q: Qh Qs"),
        "Qd takes exactly one loose Q, not 2 (court_capture one)",
    ),
    (
        "court_capture_all",
        scripted_position(["Qs", "Qh"], [["Qd", "3c"], ["9h", "9s"]], {"court_capture": "all"}),
        parse_code("capture Qd Q: Qh"),
        "Qd must take every loose Q (2), not 1 (court_capture all)",
    ),
    (
        "court_capture_one_or_three",
        scripted_position(["Qc", "Qh", "Qs"], [["Qd"], ["9h"]], {"court_capture": "one_or_three"}),
        parse_code("capture Qd Q: Qh Qs"),
        "Qd takes one loose Q, or all three when exactly three are loose (court_capture one_or_three)",
    ),
    (
        "court_has_no_number",
        scripted_position(["Qs"], [["Qd"], ["9h"]]),
        parse_code("capture Qd 12: Qs"),
        "Qd is a court card: under classic values it has no number and captures only by pairing, "
        "e.g. 'capture Qd Q: ...'",
    ),
    (
        "capture_value",
        scripted_position(["3h", "4d"], [["8c"], ["9h"]]),
        parse_code("capture 8c 7: 3h 4d"),
        "8c captures as 8, not 7",
    ),
    (
        "capture_value_ace",
        scripted_position(["5c"], [["Ad", "3c"], ["9h", "9s"]], {"preset": "royal"}),
        parse_code("capture Ad 5: 5c"),
        "Ad captures as 1 or 14, not 5",
    ),
    (
        "build_not_in_sum",
        scripted_position(["2h", build(["3d", "4c"], 7, 1)], [["9s", "7h"], ["9h", "9c"]]),
        parse_code("capture 9s 9: 2h 3d 4c"),
        "a build is taken whole by a card of its own value: the 7-build cannot be taken as 9 "
        "(a build is never part of a sum)",
    ),
    (
        "loose_court_no_value",
        scripted_position(["Kd"], [["8c"], ["9h"]]),
        parse_code("capture 8c 8: Kd"),
        "Kd is a court card: it has no value and can only be paired by a card of its rank",
    ),
    (
        "capture_no_split",
        scripted_position(["Ah", "2d", "3h", "5d", "6c", "8s"], [["8c", "Kd"], ["9h", "9s"]]),
        parse_code("capture 8c 8: Ah 2d 3h 5d 6c 8s"),
        "the loose cards Ah 2d 3h 5d 6c 8s cannot be split into groups each worth 8",
    ),
    (
        "capture_not_maximal",
        scripted_position(["Ac", "2c", "3c", "3d", "4c", "5c"], [["6h"], ["9h"]], {"capture_must_be_maximal": True}),
        parse_code("capture 6h 6: Ac 2c 3c"),
        "a capture with 6h as 6 that takes more cards exists, and captures must be maximal (capture_must_be_maximal)",
    ),
    (
        "court_never_builds",
        scripted_position(["5c"], [["Qd", "8h"], ["9h", "9s"]]),
        parse_code("build Qd 8: 5c"),
        "Qd is a court card, and court cards never build under classic values (rule 6.1)",
    ),
    (
        "build_value_range",
        scripted_position(["5c"], [["8h"], ["9h"]]),
        parse_code("build 8h 13: 5c"),
        "a build's value must be 2..10 under these rules, not 13 (rule 6.1)",
    ),
    (
        "build_keep_card",
        scripted_position(["5c"], [["3d", "9s"], ["9h", "9c"]]),
        parse_code("build 3d 8: 5c"),
        "to build 8 you must keep a card worth 8 in your hand after playing 3d (rule 6.2)",
    ),
    (
        "build_keep_ace",
        scripted_position(["Kc"], [["Ah", "3c"], ["9h", "9s"]], {"preset": "royal"}),
        parse_code("build Ah 14: Kc"),
        "to build 14 you must keep an ace in your hand after playing Ah (rule 6.2)",
    ),
    (
        "build_court_card",
        scripted_position(["5c", "Kd"], [["3d", "8h"], ["9h", "9s"]]),
        parse_code("build 3d 8: 5c Kd"),
        "Kd is a court card and cannot be built (rule 6.1)",
    ),
    (
        "capture_needs_table",
        scripted_position(["5c"], [["3d", "8h"], ["9h", "9s"]]),
        encode(CAPTURE, card("3d"), 3, 0),
        "a capture must take at least one table card or build; to just lay the card down, trail it",
    ),
    (
        "build_needs_table",
        scripted_position(["5c"], [["3d", "8h"], ["9h", "9s"]]),
        encode(BUILD, card("3d"), 8, 0),
        "a build must use at least one table card or build; to just lay the card down, trail it",
    ),
    (
        "build_frozen",
        scripted_position(
            ["6s", build(["3c", "5d", "8h"], 8, 1)], [["2s", "8c", "8d", "Td"], ["9h", "9s", "9c", "9d"]]
        ),
        parse_code("build 2s 10: 3c 5d 8h"),
        "the 8-build (3c 5d 8h) is a multiple build: it is frozen and can only join whole as a group of 8 (rule 6.5)",
    ),
    (
        "own_build_no_raise",
        scripted_position(
            [build(["3c", "3d"], 6, 0)], [["2h", "8s", "6d"], ["9h", "9s", "9c"]], {"raise_own_build": False}
        ),
        parse_code("build 2h 8: 3c 3d"),
        "you own the 6-build and may not raise it (raise_own_build is off)",
    ),
    (
        "raise_one_build",
        scripted_position([build(["Ac", "2c"], 3, 1), build(["Ad", "3d"], 4, 1)], [["2h", "6s"], ["9h", "9s"]]),
        parse_code("build 2h 6: Ac 2c Ad 3d"),
        "one played card can raise at most one build",
    ),
    (
        "build_value_taken",
        scripted_position(["2h", build(["3c", "3d"], 6, 1)], [["4s", "6h"], ["9h", "9s"]]),
        parse_code("build 4s 6: 2h"),
        "there is already a 6-build (3c 3d): add to it by including it, since only one build per value may stand (rule 6.7)",
    ),
    (
        "build_value_taken_an",
        scripted_position(["4h", *OWN_EIGHT], [["8c", "4d"], ["9h", "Kc"]]),
        parse_code("build 4d 8: 4h"),
        "there is already an 8-build (3c 5d): add to it by including it, since only one build per value may stand (rule 6.7)",
    ),
    (
        "raise_no_loose",
        scripted_position(["2h", build(["Ac", "4d"], 5, 1)], [["3s", "8c", "Td"], ["9h", "9s", "9c"]]),
        parse_code("build 3s 10: Ac 2h 4d"),
        "raising the 5-build with 3s makes 8, not 10; loose cards never help to raise (table_cards_may_raise is off)",
    ),
    (
        "build_no_split",
        scripted_position(["5c"], [["3d", "7h"], ["9h", "9s"]]),
        parse_code("build 3d 7: 5c"),
        "3d with 5c cannot be split into groups each worth 7, one of them holding 3d (rule 6.3)",
    ),
]

FALLBACK_TEXTS = {
    "trail_not_allowed": "this trail is not allowed here",
    "capture_not_allowed": "this capture is not allowed here",
}
"""The engine's last resorts, for a move it finds no broken rule in (no legal position reaches them)."""


@pytest.mark.parametrize(("code", "state", "move", "text"), ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_every_engine_reason_keeps_its_english_sentence(code: str, state: State, move: MoveCode, text: str) -> None:
    """The refusal gives the reason's code, and its text is exactly the sentence the engine gave."""
    assert move not in state.legal_codes()
    reason = reason_illegal(state, move)
    assert reason.code == code
    assert reason.text == text
    assert explain_illegal(state, move) == text


def test_every_code_is_tested_and_worded_once() -> None:
    """No code is left without a sentence checked: engine codes above, why_not's own three in
    tests/test_explain.py."""
    engine = {c[0] for c in ENGINE_CASES}
    assert len(engine) == len(ENGINE_CASES)
    hints = {"capture_no_group", "loose_worth_more", "no_move_with"}
    assert engine | set(FALLBACK_TEXTS) | hints == set(REASON_TEXTS)
    for code, text in FALLBACK_TEXTS.items():
        assert Reason.of(code).text == text


# ----------------------------------------------------------------------------- JSON


def test_reason_json_has_code_params_and_text() -> None:
    """Ints stay ints, cards are ``{"cards": [...]}`` (one card too), ranks ``{"rank": "Q"}``."""
    state = scripted_position(OWN_EIGHT, [["8c", "4d"], ["9h", "Kc"]])
    assert reason_illegal(state, parse_code("trail 4d")).to_json() == {
        "code": "owner_may_not_trail",
        "params": {"value": 8, "build": {"cards": ["3c", "5d"]}},
        "text": "you own the 8-build (3c 5d), so you may not trail (rule 7.1)",
    }
    state = scripted_position(["Qs", "Qh"], [["Qd", "3c"], ["9h", "9s"]])
    assert reason_illegal(state, parse_code("capture Qd Q: Qh Qs")).to_json() == {
        "code": "court_capture_one",
        "params": {"card": {"cards": ["Qd"]}, "rank": {"rank": "Q"}, "taken": 2},
        "text": "Qd takes exactly one loose Q, not 2 (court_capture one)",
    }


@pytest.mark.parametrize(("code", "state", "move", "text"), ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_reason_json_round_trips(code: str, state: State, move: MoveCode, text: str) -> None:
    """``from_json(to_json())`` gives the same reason, through JSON text too."""
    reason = reason_illegal(state, move)
    data = json.loads(json.dumps(reason.to_json()))
    assert Reason.from_json(data) == reason
    assert data["text"] == text
    assert set(data["params"]) == set(i18n.placeholders(REASON_TEXTS[code]))
    for value in data["params"].values():
        assert (type(value) is int) or (isinstance(value, dict) and set(value) in ({"cards"}, {"rank"}))


def test_reasons_refuse_unknown_codes_and_wrong_parameters() -> None:
    with pytest.raises(ValueError, match="unknown reason code"):
        Reason.of("no_such_code")
    with pytest.raises(ValueError, match="takes"):
        Reason.of("owner_may_not_trail", value=8)
    with pytest.raises(ValueError, match="takes"):
        Reason.of("hand_over", value=8)
    with pytest.raises(ValueError, match="not a reason parameter"):
        Reason.from_json({"code": "capture_value", "params": {"card": {"cards": ["Zz"]}, "allowed": 8, "value": 7}})
    with pytest.raises(ValueError, match="not a reason parameter"):
        Reason.from_json({"code": "capture_value", "params": {"card": "8c", "allowed": 8, "value": True}})
    made = Reason.of("court_capture_one", card=Cards.one(card("Qd")), rank=Rank("Q"), taken=2)
    assert made.args == {"card": Cards(("Qd",)), "rank": Rank("Q"), "taken": 2}
    assert Cards.of(mask("Td", "5h", "Ac")) == Cards(("Ac", "5h", "Td"))


# ----------------------------------------------------------------------------- catalogues


def test_every_reason_has_a_german_and_an_indonesian_text() -> None:
    """English comes from REASON_TEXTS itself; de and id have every code with the same placeholders."""
    assert [p for p in i18n.check_catalogues() if "'reason." in p] == []
    english = {k: v for k, v in i18n.catalogue("en").items() if k.startswith("reason.")}
    assert english == {f"reason.{code}": text for code, text in REASON_TEXTS.items()}
    assert not i18n.po_path("en", "reasons").exists()
    for language in ("de", "id"):
        texts = {k: v for k, v in i18n.catalogue(language).items() if k.startswith("reason.")}
        assert texts.keys() == english.keys(), language
        for key, text in texts.items():
            assert i18n.placeholders(text) == i18n.placeholders(english[key]), (language, key)
            assert text != english[key], (language, key)


def test_translations_name_the_rules_and_the_game_terms() -> None:
    """Rule numbers stay; the game's own words are used."""
    de, id_ = i18n.catalogue("de"), i18n.catalogue("id")
    assert "(Regel 7.1)" in de["reason.owner_may_not_trail"] and "ablegen" in de["reason.owner_may_not_trail"]
    assert "(aturan 7.1)" in id_["reason.owner_may_not_trail"] and "mengekor" in id_["reason.owner_may_not_trail"]
    assert "Mehrfachbau" in de["reason.build_frozen"] and "Bau {value}" in de["reason.build_frozen"]
    assert "bangunan {value}" in id_["reason.build_frozen"] and "pemilik" in id_["reason.owner_may_not_trail"]
    assert i18n.render("de", "reason.capture_value", {"card": "8♣", "allowed": 8, "value": 7}) == (
        "8♣ schlägt als 8, nicht als 7"
    )


# ----------------------------------------------------------------------------- payload


def test_the_payload_carries_why_not_only_for_the_seat_to_move(tmp_path: Path) -> None:
    app = create_app(database=f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, rate_limits=False)
    with TestClient(app) as client:
        r = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
        assert r.status_code == 201, r.text
        made = r.json()
        tokens = claim_seats(client, made)
        game = made["game"]
        live = client.app.state.service.games[game]  # type: ignore[attr-defined]
        public = client.get(f"/api/games/{game}").json()
        assert "why_not" not in public
        mover = public["to_move"]
        for seat, token in tokens.items():
            mine = client.get(f"/api/games/{game}", headers={"x-cassino-token": token}).json()
            if seat != mover:
                assert "why_not" not in mine
                continue
            why = mine["why_not"]
            assert why == why_not(view_of(live.game.state, seat)).to_json()
            assert set(why) == {"cards", "table"}
            assert set(why["cards"]) | set(why["table"]) <= set(mine["hand"])
            playable = {m["card"] for m in mine["legal"]}
            assert set(why["cards"]) == set(mine["hand"]) - playable
