"""The teaching library at the web table: the ladder of levels in the lobby, hints with their
reason, the coach's note on a seeded blunder (and silence after the best move), the lessons due at
a seat's turn and all of them at any time, the review once the game is over, clear refusals that
change nothing, and no hidden card in anything the coach or the lessons say."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from fastapi.testclient import TestClient

from cassino.learn import CATEGORIES, all_lessons
from cassino.players import LEVELS
from cassino.web import create_app
from cassino.web.page_config import config
from positions import first_deal
from web_support import assert_no_leak, create, get, hidden_by_version

# Seat 1 (the eldest hand, first to play) holds the ten of clubs, which sweeps the table with Big
# Casino on it: trailing the 3 instead is a blunder.
ELDEST = ["Tc", "3d", "4s", "8c"]
TABLE = ["Td", "Th", "7h", "3s"]
DEALER = ["2h", "6c", "9d", "Jh"]
BEST = "capture Tc 10: 3s 7h Td Th"
BLUNDER = "trail 3d"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(database=f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, rate_limits=False)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def blunder_game(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A game on the fixed first deal: a greedy computer player deals (seat 0), the person is seat 1."""
    deck = first_deal(ELDEST, TABLE, DEALER)
    monkeypatch.setattr("cassino.web.service.derive_deck", lambda *_: list(deck))
    made = create(client, seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Learner"}])
    assert made["you"] == 1
    return {"game": made["game"], "token": made["seats"][1]["token"]}


class Table:
    """A seat's socket: answers by type, and the latest state broadcast meanwhile."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.fresh = False

    def send(self, **message: Any) -> None:
        self.ws.send_json(message)

    def receive(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind`` or the next error, keeping the states that come first."""
        while True:
            message: dict[str, Any] = self.ws.receive_json()
            if message["type"] == "state":
                self.state, self.fresh = message, True
            if message["type"] in (kind, "error"):
                return message

    def latest(self) -> dict[str, Any]:
        """The latest state, waiting for one when none came since the last call."""
        if not self.fresh:
            self.receive("state")
        self.fresh = False
        return self.state

    def turn(self, seat: int) -> dict[str, Any]:
        """The next state where ``seat`` is to play, or the count, or the end."""
        while True:
            state = self.latest()
            if state["phase"] != "play" or state["to_move"] == seat:
                return state


def table(ws: Any) -> Table:
    """A seat's socket once its first state has come (still the latest: nothing has used it)."""
    t = Table(ws)
    t.receive("state")
    return t


# ----------------------------------------------------------------------------- the lobby's levels


def test_the_lobby_offers_the_ladder_of_levels_and_the_tutorial() -> None:
    cfg = config()
    assert [p["name"] for p in cfg["players"]] == [level.name for level in LEVELS]
    assert [p["name"] for p in cfg["players"]] == ["beginner", "novice", "casual", "club", "expert", "master"]
    assert cfg["default_player"] == "casual"
    assert cfg["tutorial"] == {"preset": "classic", "players": 2, "opponent": "beginner"}


def test_a_new_game_seats_a_middle_level_and_the_engines_still_sit(client: TestClient) -> None:
    made = create(client)
    assert [s["bot"] for s in made["seats"]] == ["", "casual"]
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])  # for bot writers
    assert made["seats"][1]["bot"] == "heuristic"
    r = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "grandmaster"}]})
    assert r.status_code == 400 and "grandmaster" in r.json()["error"]


# ----------------------------------------------------------------------------- hints and the coach


def test_hint_coach_note_and_silence_after_the_best_move(client: TestClient, blunder_game: dict[str, Any]) -> None:
    game, token = blunder_game["game"], blunder_game["token"]
    r = client.get(f"/api/games/{game}/hint", headers={"x-cassino-token": token})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["move"] == BEST and hint["version"] == 0
    assert hint["why"]["key"] == "learn.hint.sweep"
    assert hint["why"]["text"] == "Tc sweeps the table (3s 7h Td Th): a point of its own."
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        t = table(ws)
        assert t.state["you"] == 1
        t.send(type="hint")
        assert t.receive("hint") == {"type": "hint", **hint}  # the same coach, the same position
        t.send(type="move", move=BLUNDER, version=0)
        t.send(type="coach", ply=0)
        coach = t.receive("coach")
        note = coach["note"]
        assert coach["ply"] == 0 and note is not None
        assert note["move"] == BLUNDER and note["best"] == BEST and note["loss"] > 1.4
        assert note["why"]["key"] == "learn.why.sweep"
        assert note["why"]["text"] == "Tc would have swept the table (3s 7h Td Th), a point of its own."
        assert note["ply"] == 0 and set(note["table"]["loose"]) == set(TABLE)
        assert note["text"].startswith(f"Better: {BEST}, about ")
        assert t.turn(1)["version"] == 2  # the computer has played ply 1
        t.send(type="coach", ply=1)
        refused = t.receive("coach")
        assert refused["type"] == "error" and refused["status"] == 403
        assert refused["error"] == "move 1 was seat 0's: the coach speaks only of your own moves (you are seat 1)"
        for ply, status, words in ((2, 404, "has no move 2"), ("1", 400, "ply must be"), (-1, 400, "ply must be")):
            t.send(type="coach", ply=ply)
            error = t.receive("coach")
            assert error["status"] == status and words in error["error"], error
        t.send(type="hint")
        best = t.receive("hint")
        assert best["version"] == 2
        t.send(type="move", move=best["move"], version=2)
        t.send(type="coach", ply=2)
        assert t.receive("coach") == {"type": "coach", "ply": 2, "note": None}
    assert get(client, game, token)["version"] >= 3  # the refusals changed nothing


def test_only_a_seat_is_coached(client: TestClient, blunder_game: dict[str, Any]) -> None:
    game, token = blunder_game["game"], blunder_game["token"]
    r = client.get(f"/api/games/{game}/hint")
    assert r.status_code == 403 and r.json() == {"error": "hints need a seat token: spectators only watch"}
    assert client.get(f"/api/games/{game}/review").status_code == 403
    with client.websocket_connect(f"/api/games/{game}/ws") as ws:
        t = table(ws)
        t.send(type="coach", ply=0)
        assert t.receive("coach")["status"] == 403
        t.send(type="lessons", seen=[])
        assert t.receive("lessons")["status"] == 403
        t.send(type="teach")
        assert "'coach', 'lessons'" in t.receive("error")["error"]
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        t = table(ws)
        t.send(type="coach", ply=0)
        assert t.receive("coach")["status"] == 404  # no move made yet
    assert get(client, game, token)["version"] == 0


def test_between_people_hints_and_the_coach_are_off_unless_the_creator_allowed_them(client: TestClient) -> None:
    people = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]
    contest = create(client, seats=people)
    friendly = create(client, seats=people, help=True)
    against = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    assert [g["help"] for g in (contest, friendly, against)] == [False, True, True]
    for made in (contest, friendly):
        invite = made["seats"][1]["invite"]
        claimed = client.post(f"/api/games/{made['game']}/claim", json={"invite": invite})
        assert claimed.status_code == 200, claimed.text
        made["guest"] = claimed.json()["token"]  # seat 1: it leads after dealer 0
    r = client.get(f"/api/games/{contest['game']}/hint", headers={"x-cassino-token": contest["guest"]})
    assert r.status_code == 403 and r.json() == {
        "error": "hints are off at this table: it is a game between people, and its creator did not allow "
        "hints and the coach's notes"
    }
    assert get(client, contest["game"], contest["guest"])["help"] is False
    with client.websocket_connect(f"/api/games/{contest['game']}/ws?token={contest['guest']}") as ws:
        t = table(ws)
        t.send(type="coach", ply=0)
        answer = t.receive("coach")
        assert answer["status"] == 403 and answer["error"].startswith("the coach's notes are off at this table")
    r = client.get(f"/api/games/{friendly['game']}/hint", headers={"x-cassino-token": friendly["guest"]})
    assert r.status_code == 200 and r.json()["version"] == 0
    assert get(client, friendly["game"], friendly["guest"])["help"] is True


# ----------------------------------------------------------------------------- lessons


def test_lessons_due_at_the_seats_turn(client: TestClient, blunder_game: dict[str, Any]) -> None:
    game, token = blunder_game["game"], blunder_game["token"]
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        t = table(ws)
        teaching = client.app.state.service.games[game].teaching  # type: ignore[attr-defined]
        assert not teaching.learner(1).guided
        t.send(type="lessons", seen=[])
        lessons = t.receive("lessons")
        assert lessons["version"] == 0
        assert teaching.learner(1).guided, "a seat that asks for lessons is guided: its coach flags careless trails"
        due = lessons["due"]
        assert [d["id"] for d in due] == ["trailing", "pairing", "summing", "building", "multiple", "sweeps"]
        assert due[0]["title"]["key"] == "learn.lesson.trailing.title"
        assert due[1]["example"]["text"] == "Your 3d can take the 3s: cards of the same rank pair."
        assert due[1]["move"] == "capture 3d 3: 3s"  # the simplest example
        t.send(type="lessons", seen=[d["id"] for d in due])
        assert t.receive("lessons")["due"] == []
        for seen, words in (("trailing", "seen must be a list"), (["juggling"], "no lesson 'juggling'")):
            t.send(type="lessons", seen=seen)
            error = t.receive("lessons")
            assert error["status"] == 400 and words in error["error"], error


def test_no_lesson_is_due_off_the_seats_turn(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], help=True)  # seat 1, the eldest, plays first
    with client.websocket_connect(f"/api/games/{made['game']}/ws?token={made['seats'][0]['token']}") as ws:
        t = table(ws)
        t.send(type="lessons", seen=[])
        assert t.receive("lessons") == {"type": "lessons", "version": 0, "due": []}
        t.send(type="hint")
        assert t.receive("hint") == {
            "type": "error",
            "status": 409,
            "error": "a hint is given only to the seat to move",
            "request": "hint",
        }


def test_every_lesson_can_be_read_at_any_time(client: TestClient, blunder_game: dict[str, Any]) -> None:
    lessons = client.get("/api/lessons").json()["lessons"]
    assert [x["id"] for x in lessons] == [x.id for x in all_lessons()]
    assert lessons[-1]["text"]["params"] == {"target": 21}
    spade = client.get("/api/lessons?preset=spade&players=3").json()["lessons"]
    assert spade[-1]["text"]["key"] == "learn.lesson.count.text_spade"
    assert client.get(f"/api/lessons?game={blunder_game['game']}").json()["lessons"] == lessons
    assert client.get("/api/lessons?preset=chess").status_code == 400
    assert client.get("/api/lessons?players=two").json() == {"error": "players must be a number of players: 2, 3 or 4"}
    assert client.get("/api/lessons?game=nope").status_code == 404


# ----------------------------------------------------------------------------- the review


def play_to_the_end(t: Table, pick: int = 0) -> list[dict[str, Any]]:
    """Play the seat to the end (legal move ``pick`` each turn, next at each count), asking the
    coach after every move; its answers."""
    notes = []
    seat = t.state["you"]
    state = t.turn(seat)
    while state["status"] != "over":
        if state["phase"] == "count":
            t.send(type="next")
        else:
            version = state["version"]
            t.send(type="move", move=state["legal"][pick]["move"], version=version)
            t.send(type="coach", ply=version)
            notes.append(t.receive("coach"))
            assert notes[-1]["type"] == "coach", notes[-1]
        state = t.turn(seat)
    return notes


def test_the_review_after_a_game_against_the_computer(client: TestClient) -> None:
    made = create(client, options={"target": 1}, seats=[{"kind": "human"}, {"kind": "bot", "bot": "beginner"}])
    game, token = made["game"], made["seats"][0]["token"]
    headers = {"x-cassino-token": token}
    r = client.get(f"/api/games/{game}/review", headers=headers)
    assert r.status_code == 409
    assert r.json() == {"error": "the review is made when the game is over: play on to the end first"}
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        notes = play_to_the_end(table(ws))
    r = client.get(f"/api/games/{game}/review", headers=headers)
    assert r.status_code == 200, r.text
    review = r.json()
    assert review["seat"] == 0 and review["side"] == 0 and review["moves"] == len(notes)
    record = client.get(f"/api/games/{game}/record").json()
    assert review["moves"] == sum(m["seat"] == 0 for h in record["hands"] for m in h["moves"])
    items = [p["item"] for p in review["points"]]
    assert items[:2] == ["cards", "spades"] and "big_casino" in items
    scored = sum(p["yours"] for p in review["points"]), sum(p["theirs"] for p in review["points"])
    assert list(scored) == record["scores"]
    assert [c["category"] for c in review["categories"]] == list(CATEGORIES)
    assert sum(c["moves"] for c in review["categories"]) == review["moves"]
    assert round(sum(c["lost"] for c in review["categories"]), 2) == review["lost"]
    noted = {n["ply"]: n["note"] for n in notes}
    for costly in review["costly"]:  # the costliest moves, as the coach told them during play
        assert costly["best"] != costly["move"] and costly["table"]
        assert noted[costly["ply"]] is not None and noted[costly["ply"]]["best"] == costly["best"]
    for advice in review["strengths"] + review["habits"]:
        assert advice["message"]["key"] in ("learn.review.strength", "learn.review.habit")
    assert client.get(f"/api/games/{game}/review", headers=headers).json() == review  # kept on the game


# ----------------------------------------------------------------------------- no leak


def test_nothing_the_coach_or_the_lessons_say_holds_a_hidden_card(client: TestClient) -> None:
    made = create(client, options={"target": 5}, seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "human"}])
    game, token = made["game"], made["seats"][1]["token"]
    said: list[tuple[int, str]] = []  # (the version an answer is about, the raw answer)
    seen: list[str] = []
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        t = table(ws)
        state = t.turn(1)
        while state["status"] != "over":
            version = state["version"]
            t.send(type="lessons", seen=seen)
            lessons = t.receive("lessons")
            said.append((version, json.dumps(lessons)))
            seen += [d["id"] for d in lessons["due"][:1]]
            if state["phase"] == "count":
                t.send(type="next")
            else:
                t.send(type="hint")
                said.append((version, json.dumps(t.receive("hint"))))
                t.send(type="move", move=state["legal"][-1]["move"], version=version)
                t.send(type="coach", ply=version)
                said.append((version, json.dumps(t.receive("coach"))))
            state = t.turn(1)
        t.send(type="lessons", seen=seen)  # the count's lesson, even after the last hand
        lessons = t.receive("lessons")
        assert lessons["due"] and lessons["due"][0]["id"] == "count"
        said.append((state["version"], json.dumps(lessons)))
        seen.append("count")
    record = client.get(f"/api/games/{game}/record").json()
    hidden = hidden_by_version(record["hands"], get(client, game)["rules"])
    review = client.get(f"/api/games/{game}/review", headers={"x-cassino-token": token}).json()
    said += [(costly["ply"], json.dumps(costly)) for costly in review["costly"]]
    assert len(said) > 20 and {"trailing", "count"} <= set(seen)
    for version, raw in said:
        assert json.loads(raw).get("type") != "error", raw
        assert_no_leak(raw, hidden[version][1], 1)
