"""Seats that belong to their players: the creator holds only their own token, every other person's
seat a one-time invitation; unlisted games; clear answers to wrong links; an old database opened by
the new store."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from fastapi.testclient import TestClient
from sqlalchemy import Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, insert, select
from starlette.websockets import WebSocketDisconnect

from cassino.web import create_app
from cassino.web.schema import invites_table, seats_table, settings_table
from cassino.web.service import GameService
from cassino.web.store import Store, database_url
from web_support import cards_in_text, create, get, hidden_from, postgres_url


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


THREE = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Bo"}]


def test_the_creator_holds_one_token_and_every_other_person_an_invitation(client: TestClient) -> None:
    r = client.post("/api/games", json={"players": 4, "seats": [{"kind": "human"}] * 4})
    assert r.status_code == 201
    made = r.json()
    game = made["game"]
    assert [("token" in s, "invite" in s) for s in made["seats"]] == [(True, False)] + [(False, True)] * 3
    assert r.text.count('"token"') == 1 and made["you"] == 0
    codes = [s["invite"] for s in made["seats"][1:]]
    assert len(set(codes)) == 3 and all(len(c) == 32 for c in codes)
    assert [s["link"] for s in made["seats"][1:]] == [f"/#game={game}&invite={c}" for c in codes]
    public = get(client, game)
    assert [s["joined"] for s in public["seats"]] == [True, False, False, False]
    # An invitation is not a token: it opens no seat.
    r = client.get(f"/api/games/{game}", headers={"x-cassino-token": codes[0]})
    assert r.status_code == 403


def test_a_claim_works_once_then_410_and_a_wrong_code_is_403(client: TestClient) -> None:
    made = create(client, players=3, seats=THREE)
    game, invite = made["game"], made["seats"][2]["invite"]
    r = client.post(f"/api/games/{game}/claim", json={"invite": "0" * 32})
    assert r.status_code == 403
    assert r.json() == {"error": f"this invitation opens no seat of game {game}", "watch": f"/#game={game}"}
    r = client.post(f"/api/games/{game}/claim", json={"invite": invite, "name": "Cleo"})
    assert r.status_code == 200
    claimed = r.json()
    assert set(claimed) == {"seat", "token", "link"} and claimed["seat"] == 2 and len(claimed["token"]) == 32
    assert claimed["link"] == f"/#game={game}&token={claimed['token']}"
    public = get(client, game)
    assert [(s["name"], s["joined"]) for s in public["seats"]] == [("Ann", True), ("greedy (1)", True), ("Cleo", True)]
    again = client.post(f"/api/games/{game}/claim", json={"invite": invite, "name": "Mallory"})
    assert again.status_code == 410
    assert again.json() == {
        "error": f"the invitation to seat 2 of game {game} was already used: the seat belongs to whoever "
        "claimed it (their own link opens it)",
        "watch": f"/#game={game}",
    }
    assert get(client, game) == public  # the refused claim changed nothing (the name stays Cleo)
    assert get(client, game, claimed["token"])["you"] == 2


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({}, 400, "invite must be the invitation code from the seat's link"),
        ({"invite": 5}, 400, "invite must be the invitation code from the seat's link"),
        ({"invite": "x", "seat": 2}, 400, "unknown field 'seat' for a claim; the fields are: invite, name"),
        ({"invite": "RIGHT", "name": "x" * 41}, 400, "name must be printable text of at most 40 characters"),
    ],
)
def test_bad_claims_change_nothing(client: TestClient, body: dict[str, Any], status: int, words: str) -> None:
    made = create(client, players=3, seats=THREE)
    game, invite = made["game"], made["seats"][2]["invite"]
    before = get(client, game)
    body = {k: invite if v == "RIGHT" else v for k, v in body.items()}
    r = client.post(f"/api/games/{game}/claim", json=body)
    assert r.status_code == status and r.json() == {"error": words}
    assert get(client, game) == before
    assert client.post(f"/api/games/{game}/claim", json={"invite": invite}).status_code == 200  # still unused
    r = client.post("/api/games/nosuchgame/claim", json={"invite": invite})
    assert r.status_code == 404 and r.json() == {"error": "no game 'nosuchgame' here"}


def test_a_claimed_token_opens_its_seat_and_only_it(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    game, creator = made["game"], made["seats"][0]["token"]
    token = client.post(f"/api/games/{game}/claim", json={"invite": made["seats"][1]["invite"]}).json()["token"]
    mine, theirs = get(client, game, token), get(client, game, creator)
    assert mine["you"] == 1 and theirs["you"] == 0 and not set(mine["hand"]) & set(theirs["hand"])
    assert mine["to_move"] == 1
    r = client.post(f"/api/games/{game}/moves", json={"move": theirs["hand"][0]}, headers={"x-cassino-token": creator})
    assert r.status_code == 409 and r.json() == {"error": "it is seat 1's turn, not seat 0's"}
    move = mine["legal"][0]["move"]
    r = client.post(f"/api/games/{game}/moves", json={"move": move}, headers={"x-cassino-token": token})
    assert r.status_code == 200 and r.json()["you"] == 1 and r.json()["moves"] == [{"seat": 1, "move": move}]


def test_another_seats_hand_and_token_never_reach_the_creator(client: TestClient) -> None:
    r = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    made = r.json()
    game, creator = made["game"], made["seats"][0]["token"]
    seen = [r.text]  # everything the creator is sent
    assert cards_in_text(r.text) == set()
    token = client.post(f"/api/games/{game}/claim", json={"invite": made["seats"][1]["invite"]}).json()["token"]
    live = client.app.state.service.games[game]  # type: ignore[attr-defined]
    rng = random.Random(4)
    with client.websocket_connect(f"/api/games/{game}/ws?token={creator}") as ws:
        for _ in range(20):
            raw = ws.receive_text()
            seen.append(raw)
            assert not cards_in_text(raw) & hidden_from(live.game, 0)
            r = client.get(f"/api/games/{game}", headers={"x-cassino-token": creator})
            seen.append(r.text)
            assert not cards_in_text(r.text) & hidden_from(live.game, 0)
            seat = live.game.state.to_move
            mover = token if seat == 1 else creator
            legal = get(client, game, mover)["legal"]
            r = client.post(f"/api/games/{game}/moves", json={"move": rng.choice(legal)["move"]},
                            headers={"x-cassino-token": mover})  # fmt: skip
            assert r.status_code == 200
            if seat == 0:
                seen.append(r.text)
    assert len(seen) > 40 and not any(token in text for text in seen)


def test_only_hashes_of_tokens_and_invitations_are_stored(tmp_path: Path) -> None:
    path = tmp_path / "web.sqlite3"
    with TestClient(create_app(database=f"sqlite:///{path}", bot_delay=0, rate_limits=False)) as client:
        made = create(client, players=3, seats=THREE)
        game, creator, invite = made["game"], made["seats"][0]["token"], made["seats"][2]["invite"]
        token = client.post(f"/api/games/{game}/claim", json={"invite": invite}).json()["token"]
    store = Store(f"sqlite:///{path}")
    with store.engine.connect() as conn:
        seats = conn.execute(select(seats_table.c.seat, seats_table.c.token_hash).order_by(seats_table.c.seat)).all()
        invites = conn.execute(select(invites_table.c.seat, invites_table.c.code_hash)).all()
    store.close()
    assert [tuple(r) for r in seats] == [(0, sha(creator)), (1, ""), (2, sha(token))]
    assert [tuple(r) for r in invites] == [(2, sha(invite))]
    raw = b"".join(f.read_bytes() for f in tmp_path.glob("web.sqlite3*"))  # the database and its log
    for secret in (creator, invite, token):
        assert secret.encode() not in raw


def test_listing(client: TestClient) -> None:
    people = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    shown = create(client, seats=[{"kind": "human"}, {"kind": "human"}], listed=True)
    computer = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    hidden = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], listed=False)
    robots = create(client, seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
    watched = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], listed=True)
    games = (people, shown, computer, hidden, robots, watched)
    assert [g["listed"] for g in games] == [False, True, False, False, False, True]  # listed only when asked
    listed = [g["game"] for g in client.get("/api/games").json()["games"]]
    assert listed == [watched["game"], shown["game"]]  # newest first; no game against the computer by default
    # An unlisted game is still reachable by its id: a spectator with the link watches it.
    assert get(client, people["game"])["you"] is None and get(client, hidden["game"])["you"] is None


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"listed": "yes"}, "listed must be true or false"),
        ({"listed": 1}, "listed must be true or false"),
        ({"next_hand_after": -1}, "next_hand_after must be a whole number of seconds from 0 to 3600"),
        ({"next_hand_after": 3601}, "next_hand_after must be a whole number of seconds from 0 to 3600"),
        ({"next_hand_after": 1.5}, "next_hand_after must be a whole number of seconds from 0 to 3600"),
        ({"next_hand_after": "5"}, "next_hand_after must be a whole number of seconds from 0 to 3600"),
        ({"next_hand_after": True}, "next_hand_after must be a whole number of seconds from 0 to 3600"),
        ({"list": True}, "unknown field 'list' for a new game"),
        ({"help": "no"}, "help must be true or false (hints and the coach's notes at this table)"),
        ({"help": 0}, "help must be true or false (hints and the coach's notes at this table)"),
    ],
)
def test_bad_listing_and_timer_fields(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.get("/api/games").json()["games"] == []


def test_wrong_links_get_clear_answers(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    game = made["game"]
    r = client.get("/api/games/0123456789abcdef")
    assert r.status_code == 404 and r.json() == {"error": "no game '0123456789abcdef' here"}
    r = client.get(f"/api/games/{game}", headers={"x-cassino-token": "0" * 32})
    assert r.status_code == 403
    assert r.json() == {"error": f"this token opens no seat of game {game}", "watch": f"/#game={game}"}
    r = client.get(f"/api/games/{game}?token={'1' * 32}")
    assert r.status_code == 403 and r.json()["watch"] == f"/#game={game}"
    with client.websocket_connect(f"/api/games/{game}/ws?token=wrong") as ws:
        assert ws.receive_json() == {
            "type": "error",
            "status": 403,
            "error": f"this token opens no seat of game {game}",
            "watch": f"/#game={game}",
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/api/games/0123456789abcdef/ws") as ws:
        assert ws.receive_json() == {"type": "error", "status": 404, "error": "no game '0123456789abcdef' here"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


# ---------------------------------------------------------------------- an old database

OLD = MetaData()
"""The tables as the first release of the web app made them (copied: the test must not follow
later changes of the store)."""
Table(
    "cassino_games",
    OLD,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("rules", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("winner", Integer, nullable=False),
    Column("moves", Integer, nullable=False),
)
Table(
    "cassino_seats",
    OLD,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("bot", String(128), nullable=False),
    Column("bot_seed", Integer, nullable=False),
    Column("token_hash", String(64), nullable=False),
)
Table(
    "cassino_hands",
    OLD,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("deck", Text, nullable=False),
    Column("salt", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)
Table(
    "cassino_moves",
    OLD,
    Column("game_id", String(32), ForeignKey("cassino_games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("hand", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("move", String(80), nullable=False),
)


@pytest.fixture(params=["sqlite", "postgresql"])
def old_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with the old tables only, holding one game of two people with one move made."""
    from sqlalchemy import create_engine

    from cassino.game import Game
    from cassino.rules import make_rules
    from cassino.web.fair import commitment, deck_text, new_salt, secure_deck

    url = database_url(None, tmp_path) if request.param == "sqlite" else database_url(postgres_url())
    engine = create_engine(url)
    OLD.create_all(engine)
    rules = make_rules("classic")
    deck = secure_deck()
    salt = new_salt()
    game = Game(rules, decks=[deck])
    first = str(game.legal_moves()[0])
    t = OLD.tables
    with engine.begin() as conn:
        conn.execute(insert(t["cassino_games"]).values(id="oldgame", created=1.0, rules=json.dumps(rules.to_json()),
                                                       status="playing", winner=-1, moves=1))  # fmt: skip
        for seat, token in enumerate(("a" * 32, "b" * 32)):
            conn.execute(insert(t["cassino_seats"]).values(game_id="oldgame", seat=seat, kind="human", name=f"P{seat}",
                                                           bot="", bot_seed=0, token_hash=sha(token)))  # fmt: skip
        conn.execute(insert(t["cassino_hands"]).values(game_id="oldgame", number=1, deck=deck_text(deck), salt=salt,
                                                       commitment=commitment(salt, deck)))  # fmt: skip
        conn.execute(insert(t["cassino_moves"]).values(game_id="oldgame", ply=0, hand=1, seat=1, move=first))
    engine.dispose()
    return url


def test_an_old_database_opens_with_the_new_store(old_url: str) -> None:
    store = Store(old_url)
    try:
        stored = store.load_game("oldgame")
        assert stored is not None and stored.listed is True and stored.next_hand_after == 0
        assert stored.invites == [] and stored.count_deadline is None and len(stored.moves) == 1
        assert [g["game"] for g in store.recent()] == ["oldgame"]  # games made before settings stay listed
        service = GameService(store, bot_delay=0)
        live = service.get("oldgame")
        assert live.ply == 1 and live.phase == "play" and live.listed and live.next_after == 0
        assert service.seat_of(live, "a" * 32) == 0 and service.seat_of(live, "b" * 32) == 1  # old tokens still open
        move = str(live.game.legal_moves()[0])
        service.play("oldgame", "a" * 32, move)
        assert store.count_moves("oldgame") == 2
        # New games in the same database use the new tables.
        new, tokens, invites = service.create({"seats": [{"kind": "human"}, {"kind": "human"}]})
        assert list(tokens) == [0] and list(invites) == [1]
        assert [g["game"] for g in store.recent()] == ["oldgame"]  # the new one is unlisted
        with store.engine.connect() as conn:
            settings = conn.execute(select(settings_table)).all()
        assert [(r.game_id, r.listed, r.next_hand_after) for r in settings] == [(new.id, False, 0)]
        seat, token = service.claim(new.id, {"invite": invites[1]})
        again = GameService(store, bot_delay=0).get(new.id)
        assert seat == 1 and again.seats[1].holder == sha(token) and again.invites[1] == sha(invites[1])
    finally:
        store.close()


def test_every_seat_has_a_name_and_computer_players_distinct_ones(client: TestClient) -> None:
    """Three computer players of one level are three characters; a person who typed no name gets a
    name, never a seat number; a name given is kept, and no default takes it."""
    four = create(client, players=4, partnerships=True, seats=[{"kind": "human"}] + [{"kind": "bot"}] * 3)
    assert [s["name"] for s in four["seats"]] == ["Robin", "Sam", "Lena", "Joe"]
    mixed = create(
        client,
        players=4,
        seats=[{"kind": "human", "name": "Sam"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot", "bot": "master"}],
    )
    assert [s["name"] for s in mixed["seats"]] == ["Sam", "Lena", "Robin", "Magnus"]
    state = get(client, four["game"], four["seats"][0]["token"])
    assert [s["name"] for s in state["seats"]] == ["Robin", "Sam", "Lena", "Joe"]
