"""The web API and WebSocket: creating games, seats, invitations and tokens, checked moves with clear
errors that change nothing, computer players, hints, the reveal of each deck, the record after the game."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.cli import main
from cassino.web.fair import SCHEME
from web_support import check_hand, claim_seats, create, press_next_all, replay, service_seats


def two_people(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    made = create(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"}], **body)
    tokens = claim_seats(client, made)
    return made["game"], [tokens[0], tokens[1]]


def state(client: TestClient, game: str, token: str | None = None) -> dict[str, Any]:
    headers = {"x-cassino-token": token} if token else {}
    r = client.get(f"/api/games/{game}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_create_returns_the_creators_token_an_invitation_per_other_person_and_none_for_bots(
    client: TestClient,
) -> None:
    made = create(client, players=3, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}])
    seats = made["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "human"]
    assert set(seats[0]) == {"seat", "kind", "name", "bot", "token", "link"} and len(seats[0]["token"]) == 32
    assert set(seats[1]) == {"seat", "kind", "name", "bot"}
    assert set(seats[2]) == {"seat", "kind", "name", "bot", "invite", "link"} and len(seats[2]["invite"]) == 32
    assert seats[0]["link"] == f"/#game={made['game']}&token={seats[0]['token']}"
    assert seats[2]["link"] == f"/#game={made['game']}&invite={seats[2]['invite']}"
    assert made["spectate"] == f"/#game={made['game']}" and made["you"] == 0
    assert made["listed"] is False and made["next_hand_after"] == 0
    assert client.get("/api/games").json()["games"] == []  # two people: unlisted
    alone = create(client, players=3, seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "human"}, {"kind": "bot"}])
    assert [s.get("token") is not None for s in alone["seats"]] == [False, True, False] and alone["you"] == 1
    assert client.get("/api/games").json()["games"] == []  # against the computer: unlisted unless asked
    shown = create(client, players=3, seats=[{"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}], listed=True)
    listed = client.get("/api/games").json()["games"]
    assert [g["game"] for g in listed] == [shown["game"]] and "token" not in str(listed)


def test_seat_and_spectator_payloads(client: TestClient) -> None:
    game, tokens = two_people(client)
    mine = state(client, game, tokens[1])
    public = state(client, game)
    assert mine["you"] == 1 and len(mine["hand"]) == 4 and mine["hand_sizes"] == [4, 4]
    assert mine["to_move"] == 1 and mine["legal"] and all(m["card"] in mine["hand"] for m in mine["legal"])
    assert len(mine["table"]["loose"]) == 4 and mine["stock"] == 52 - 12
    assert public["you"] is None and "hand" not in public and "legal" not in public
    other = state(client, game, tokens[0])
    assert other["legal"] == [] and not set(other["hand"]) & set(mine["hand"])
    assert mine["deals"] == [{"hand": 1, "commitment": mine["deals"][0]["commitment"], "revealed": False}]


def test_errors_name_what_was_wrong_and_change_nothing(client: TestClient) -> None:
    game, tokens = two_people(client)
    before = state(client, game, tokens[1])
    mover = tokens[1]
    hand = before["hand"]
    not_held = next(c for c in before["table"]["loose"])
    cases: list[tuple[dict[str, Any], str | None, int, str]] = [
        ({"move": before["legal"][0]["move"]}, None, 403, "spectators only watch"),
        ({"move": before["legal"][0]["move"]}, "f" * 32, 403, "opens no seat"),
        ({"move": before["legal"][0]["move"]}, tokens[0], 409, "seat 1's turn, not seat 0's"),
        ({"move": "fly away"}, mover, 400, "is not a move"),
        ({"move": 7}, mover, 400, "move must be a move line"),
        ({"move": f"trail {not_held}"}, mover, 400, f"{not_held} is not in the hand of seat 1"),
        ({"move": before["legal"][0]["move"], "version": 5}, mover, 409, "version 0"),
    ]
    if any(m["kind"] == "build" for m in before["legal"]) is False:
        cases.append(({"move": f"build {hand[0]} 14: {not_held}"}, mover, 400, "illegal move"))
    for body, token, status, words in cases:
        headers = {"x-cassino-token": token} if token else {}
        r = client.post(f"/api/games/{game}/moves", json=body, headers=headers)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["error"], (body, r.json())
    assert state(client, game, tokens[1]) == before
    r = client.post(f"/api/games/{game}/moves", content=b"[1", headers={"x-cassino-token": mover})
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    assert client.get("/api/games/nosuchgame").json() == {"error": "no game 'nosuchgame' here"}
    assert client.get(f"/api/games/{game}/hands/x").status_code == 400


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"preset": "poker"}, "unknown preset 'poker'"),
        ({"preset": "royal", "player": 3}, "unknown field 'player' for a new game"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "bots": "greedy"}]}, "unknown field 'bots' for seats[1]"),
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"partnerships": True}, "partnerships need 4 players"),
        ({"options": {"colour": 1}}, "unknown rule option 'colour'"),
        ({"options": {"target": 0}}, "target must be a positive"),
        ({"options": {"players": 3}}, "players is not a rule option"),
        ({"seats": [{"kind": "human"}]}, "one seat per player: 2"),
        ({"seats": [{"kind": "human"}, {"kind": "ghost"}]}, "seats[1].kind must be 'human' or 'bot'"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "cheater"}]}, "sees every card"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "oracle"}]}, "unknown player 'oracle'"),
        ({"seats": [{"kind": "human", "name": "x" * 41}, {"kind": "human"}]}, "at most 40 characters"),
    ],
)
def test_bad_create_requests(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.get("/api/games").json()["games"] == []


def play_out(client: TestClient, game: str, tokens: list[str], rng: random.Random) -> dict[str, Any]:
    """Random legal moves over REST until the game ends; returns the final public state."""
    while True:
        public = state(client, game)
        if public["status"] == "over":
            return public
        if public["phase"] == "count":
            assert public["waiting_for"] == [0, 1] and public["ready"] == []
            press_next_all(client, game, dict(enumerate(tokens)))
            continue
        token = tokens[public["to_move"]]
        mine = state(client, game, token)
        move = rng.choice(mine["legal"])["move"]
        r = client.post(f"/api/games/{game}/moves", json={"move": move, "version": mine["version"]},
                        headers={"x-cassino-token": token})  # fmt: skip
        assert r.status_code == 200, r.text
        assert r.json()["version"] == mine["version"] + 1


def test_a_whole_game_then_every_deck_revealed_and_verified(client: TestClient) -> None:
    game, tokens = two_people(client, options={"target": 11})
    r = client.get(f"/api/games/{game}/hands/1")
    assert r.status_code == 403 and "revealed when it ends" in r.json()["error"]
    assert client.get(f"/api/games/{game}/record").status_code == 403
    final = play_out(client, game, tokens, random.Random(3))
    assert final["winner"] >= 0 and max(final["scores"]) >= 11 and final["to_move"] is None
    record = client.get(f"/api/games/{game}/record").json()
    hands = record["hands"]
    assert len(hands) == final["hand_number"] == len(final["finished"]) == len(final["deals"])
    for hand, deal in zip(hands, final["deals"], strict=True):
        assert deal["revealed"] and hand["commitment"] == deal["commitment"]
        assert check_hand(hand["game"], hand) is None and hand["scheme"] == SCHEME
    again = replay(hands, final["rules"])
    assert again.over and list(again.scores) == final["scores"] == record["scores"]
    assert [list(r.points) for r in again.hand_results] == [f["points"] for f in final["finished"]]
    from cassino.record import check_record

    replayed = check_record(record["record"])  # the record replays move by move (raises if not)
    assert list(replayed.scores) == final["scores"]
    assert f'[Result "{final["winner"]}"]' in record["record"] and '[Seat0 "Ann"]' in record["record"]
    r = client.post(f"/api/games/{game}/moves", json={"move": "trail Ac"}, headers={"x-cassino-token": tokens[0]})
    assert r.status_code == 409 and "the game is over" in r.json()["error"]


def test_the_replay_frames_are_every_position_of_the_game(client: TestClient) -> None:
    """The record's frames, rebuilt here from the revealed decks and the moves: one at each deal and
    one after each move, with every hand, the table, the piles, the sweeps, the dealer and the deal."""
    from cassino.cards import card_name, cards_of, parse_card
    from cassino.game import Game
    from cassino.moves import parse_code
    from cassino.rules import Rules

    game, tokens = two_people(client, options={"target": 5})
    final = play_out(client, game, tokens, random.Random(8))
    record = client.get(f"/api/games/{game}/record").json()
    decks = [[parse_card(w) for w in h["deck"].split()] for h in record["hands"]]
    again = Game(Rules.from_json(final["rules"]), decks=decks)

    def names(mask: int) -> list[str]:
        return [card_name(c) for c in cards_of(mask)]

    def position(number: int, move: dict[str, Any] | None) -> dict[str, Any]:
        s = again.hands[number - 1]
        return {
            "hand": number, "move": move, "hands": [names(h) for h in s.hands], "loose": names(s.loose),
            "builds": [names(b.cards) for b in s.builds], "stock": len(s.remaining_stock),
            "piles": [names(p) for p in s.captured], "sweeps": list(s.sweeps), "dealer": s.dealer,
            "deal": s.deal_number(), "to_move": None if s.hand_over else s.to_move,
        }  # fmt: skip

    expected = []
    for number, hand in enumerate(record["hands"], 1):
        expected.append(position(number, None))
        for move in hand["moves"]:
            again.play(parse_code(move["move"]))
            expected.append(position(number, {"seat": move["seat"], "move": move["move"]}))
    shown = [
        {
            "hand": f["hand"], "move": f["move"], "hands": f["hands"], "loose": f["table"]["loose"],
            "builds": [b["cards"] for b in f["table"]["builds"]], "stock": f["stock"], "piles": f["piles"],
            "sweeps": f["sweeps"], "dealer": f["dealer"], "deal": f["deal"], "to_move": f["to_move"],
        }
        for f in record["frames"]
    ]  # fmt: skip
    assert shown == expected
    assert [f["captured"] for f in record["frames"]] == [[len(p) for p in f["piles"]] for f in record["frames"]]
    assert {f["deal"] for f in record["frames"]} == set(range(1, 7))  # two players: six deals a hand


def test_websocket_moves_errors_hints_and_spectators(client: TestClient) -> None:
    game, tokens = two_people(client, help=True)  # hints between people: the creator allowed them
    with (
        client.websocket_connect(f"/api/games/{game}/ws?token={tokens[1]}") as ws,
        client.websocket_connect(f"/api/games/{game}/ws") as watcher,
        client.websocket_connect(f"/api/games/{game}/ws?token={tokens[0]}") as other,
    ):
        first = ws.receive_json()
        assert first["type"] == "state" and first["you"] == 1 and first["version"] == 0
        assert [p["presence"] for p in first["presence"]] == ["away", "online"]  # seat 0's page is not open yet
        watched = watcher.receive_json()
        assert watched["you"] is None and [p["presence"] for p in watched["presence"]] == ["away", "online"]
        mine = other.receive_json()
        assert mine["you"] == 0 and [p["presence"] for p in mine["presence"]] == ["online", "online"]
        for heard in (ws.receive_json(), watcher.receive_json()):  # seat 0 came: the others hear of it
            assert [p["presence"] for p in heard["presence"]] == ["online", "online"] and heard["version"] == 0
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["move"] in [m["move"] for m in first["legal"]]
        ws.send_json({"type": "move", "move": "trail"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 400 and "is not a move" in error["error"]
        other.send_json({"type": "move", "move": first["legal"][0]["move"]})
        assert "seat 1's turn" in other.receive_json()["error"]
        ws.send_json({"type": "dance"})
        assert (
            ws.receive_json()["error"]
            == "message type must be 'move', 'next', 'undo', 'contribute', 'hint', 'coach', 'lessons', 'claim', 'chat', "
            "'chat_settings', 'chat_history' or 'state'"
        )
        ws.send_json({"type": "move", "move": first["legal"][0]["move"], "version": 0})
        after = ws.receive_json()
        assert after["version"] == 1 and after["moves"] == [{"seat": 1, "move": first["legal"][0]["move"]}]
        seen = watcher.receive_json()
        assert seen["version"] == 1 and "hand" not in seen
        assert other.receive_json()["to_move"] == 0
    with client.websocket_connect(f"/api/games/{game}/ws?token=bad") as ws:
        assert ws.receive_json() == {
            "type": "error",
            "status": 403,
            "error": f"this token opens no seat of game {game}",
            "watch": f"/#game={game}",
        }


def test_computer_players_answer_at_once(client: TestClient) -> None:
    made = create(client, players=4, partnerships=True,
                  seats=[{"kind": "human"}] + [{"kind": "bot", "bot": b} for b in ("greedy", "random", "heuristic")])  # fmt: skip
    game, token = made["game"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        current = ws.receive_json()
        while current["to_move"] != 0:  # seat 1 leads: the computer players move first
            current = ws.receive_json()
        ws.send_json({"type": "move", "move": current["legal"][0]["move"]})
        movers = []
        while True:
            current = ws.receive_json()
            movers.append(current["moves"][-1]["seat"])
            if current["to_move"] == 0:
                break
    assert movers == [0, 1, 2, 3] and current["version"] == 7


def test_card_images(client: TestClient) -> None:
    for name in ("Ac", "Td", "Qh", "7s", "back"):
        r = client.get(f"/cards/{name}.svg")
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        doc = ET.fromstring(r.text)
        ids = {node.get("id") for node in doc.iter()}
        refs = {v[1:] for node in doc.iter() for k, v in node.attrib.items() if k.endswith("href")}
        assert refs and refs <= ids  # every part it draws with travels in the file itself
        assert doc.findtext("{http://www.w3.org/2000/svg}title") == ("card back" if name == "back" else name)
    for rank, label in enumerate("A23456789T", 1):  # a numeral shows its pips and one sign in each corner
        svg = client.get(f"/cards/{label}h.svg").text
        assert svg.count('href="#heart"') == rank + 2 and 'href="#diamond"' not in svg
        assert svg.count(f'href="#{"ace" if rank == 1 else f"n_{rank}"}"') == 2
    for label, figure in (("J", "jack"), ("Q", "queen"), ("K", "king")):  # courts: the figure's artwork
        svg = client.get(f"/cards/{label}s.svg").text
        assert f'id="{figure}_' in svg and svg.count(f'href="#{figure}"') == 2
    r = client.get("/cards/Zz.svg")
    assert r.status_code == 404 and "is not a card" in r.json()["error"]


def test_config_and_page(client: TestClient) -> None:
    cfg = client.get("/api/config").json()
    presets = {p["name"]: p["options"] for p in cfg["presets"]}
    players = [p["name"] for p in cfg["players"]]
    assert list(presets) == ["classic", "royal", "spade", "draw"]
    assert (
        presets["spade"]["target"] == 61
        and "cheater" not in players
        and players == ["beginner", "novice", "casual", "club", "expert", "master"]
    )
    assert {o["name"]: o["type"] for o in cfg["options"]}["court_capture"] == "choice"
    assert client.get("/").status_code == 200 and "<title>" in client.get("/").text


def test_config_lists_the_languages(client: TestClient) -> None:
    """The page's languages are i18n's, in its order, each named in itself: the page's menu and its
    fallback (the first) come from here, and no other list of them exists."""
    from cassino.web.i18n import LANGUAGE_NAMES, LANGUAGES

    languages = client.get("/api/config").json()["languages"]
    assert languages == [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES]
    assert languages[0] == {"code": "en", "name": "English"}
    assert [entry["code"] for entry in languages] == ["en", "de", "id"]
    assert "<option" not in client.get("/").text.split('id="language"')[1].split("</select>")[0]


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be 1..65535" in capsys.readouterr().err


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 150), st.sampled_from([(2, False), (3, False), (4, True), (4, False)]))
def test_payload_invariants(seed: int, moves: int, seats: tuple[int, bool]) -> None:
    """At any point of any game: every card is somewhere exactly once in what a seat is told (its
    hand, the counts of the others, the stock, the table, the piles), and its legal moves are the
    engine's."""
    from cassino.cards import cards_of, parse_card
    from cassino.web.payloads import encode, state_payload
    from cassino.web.service import GameService
    from cassino.web.store import Store

    players, partnerships = seats
    store = Store("sqlite://")
    service = GameService(store, bot_delay=0)
    live, creator, invites = service.create(
        {"players": players, "partnerships": partnerships, "seats": [{"kind": "human"}] * players}
    )
    assert list(creator) == [0] and sorted(invites) == list(range(1, players))
    tokens = service_seats(service, live, creator, invites)
    rng = random.Random(seed)
    for _ in range(moves):
        if live.over:
            break
        if live.counting:
            for token in tokens.values():
                service.press_next(live.id, token)
            assert not live.counting
        seat = live.game.state.to_move
        service.play(live.id, tokens[seat], rng.choice(state_payload(live, seat)["legal"])["move"])
    state = live.game.state
    for seat in [*range(players), None]:
        p = json.loads(encode(state_payload(live, seat)))  # as sent
        table = p["table"]["loose"] + [c for b in p["table"]["builds"] for c in b["cards"]]
        piles = [c for pile in p["captured"] for c in pile]
        mine = p.get("hand", [])
        shown = mine + table + piles
        assert len(shown) == len(set(shown))
        assert len(shown) + sum(p["hand_sizes"]) - len(mine) + p["stock"] == 52
        if seat is None:
            assert "hand" not in p and "legal" not in p
            continue
        assert {parse_card(c) for c in mine} == set(cards_of(state.hands[seat]))
        expected = sorted(str(m) for m in state.legal_moves()) if state.to_move == seat and live.phase == "play" else []
        assert sorted(m["move"] for m in p["legal"]) == expected
    store.close()
