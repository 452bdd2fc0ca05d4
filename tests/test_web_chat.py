"""Chat at the table (``cassino.club.chat`` at the web, ``cassino.web.chat``): preset phrases sent
as ids and received by the other seat, free text only where the creator chose it and only between
the seats that keep it on, each refusal with its reason and code (an unknown phrase, free text
where it is off, a text too long or holding a control character, a spectator, too many messages),
the limit per seat and the messages taken again after its window, the history after a
reconnection (the last 100 kept), nothing of a hand in any message; two services on one
PostgreSQL, then two real ``cassino serve`` processes: a message sent through one reaches a socket
of the other; and a browser test of two people at one table. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from cassino.club.chat import CHAT_LIMIT, CODES, HISTORY, MAX_TEXT, PHRASES
from cassino.web import create_app
from cassino.web.errors import ServiceError
from cassino.web.i18n import LANGUAGES, catalogue
from cassino.web.store import database_url
from web_support import claim_seats, create, postgres_url, service_seats, two_services

PEOPLE = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
FREE = {**PEOPLE, "chat": "free"}


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh database of each kind."""
    url = database_url(None, tmp_path) if request.param == "sqlite" else database_url(postgres_url())
    with TestClient(create_app(database=url, bot_delay=0, rate_limits=False)) as c:
        yield c


class Clock:
    """A fake epoch clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def table(client: TestClient, body: dict[str, Any]) -> tuple[str, dict[int, str]]:
    """A game made through the API, and every person's seat token."""
    made = create(client, **body)
    return made["game"], claim_seats(client, made)


def say(client: TestClient, game: str, token: str | None, **body: Any) -> Any:
    """POST a chat message; the response."""
    return client.post(f"/api/games/{game}/chat", json=body, headers={"x-cassino-token": token} if token else {})


def history(client: TestClient, game: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game}/chat", headers={"x-cassino-token": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def said(messages: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """Each message as (seat, phrase id or text)."""
    return [(m["seat"], m.get("phrase") or m["text"]) for m in messages]


def next_chat(ws: Any) -> dict[str, Any]:
    """The next frame that is not a state (presence and moves come as states meanwhile)."""
    while (frame := ws.receive_json())["type"] == "state":
        pass
    return frame  # type: ignore[no-any-return]


# ------------------------------------------------------------------ phrases


def test_a_phrase_is_sent_as_its_id_and_reaches_the_other_seat_and_the_watchers(client: TestClient) -> None:
    game, tokens = table(client, PEOPLE)
    with (
        client.websocket_connect(f"/api/games/{game}/ws?token={tokens[0]}") as ann,
        client.websocket_connect(f"/api/games/{game}/ws?token={tokens[1]}") as ben,
        client.websocket_connect(f"/api/games/{game}/ws") as watcher,
    ):
        for ws in (ann, ben, watcher):
            ws.send_json({"type": "chat_history"})
            first = next_chat(ws)
            assert first["type"] == "chat_history" and first["messages"] == []
            assert first["phrases"] == list(PHRASES) and first["max_text"] == MAX_TEXT
            assert first["table"] == "phrases" and first["free_text"] is False
        ann.send_json({"type": "chat", "phrase": "good_luck"})
        heard = [next_chat(ws) for ws in (ann, ben, watcher)]
        assert heard[0] == heard[1] == heard[2]
        message = heard[1]
        # the seat, its name, the time and the phrase's id: nothing else, nothing of a hand
        assert set(message) == {"type", "id", "seat", "name", "at", "phrase"}
        assert (message["type"], message["seat"], message["name"], message["phrase"]) == ("chat", 0, "Ann", "good_luck")
        assert abs(message["at"] - time.time()) < 60
        ben.send_json({"type": "chat", "phrase": "thanks"})
        assert next_chat(ann)["phrase"] == "thanks"
    r = say(client, game, tokens[1], phrase="well_played")  # the same through HTTP
    assert r.status_code == 200 and r.json()["phrase"] == "well_played" and r.json()["seat"] == 1
    assert said(history(client, game, tokens[0])["messages"]) == [(0, "good_luck"), (1, "thanks"), (1, "well_played")]
    assert said(history(client, game)["messages"]) == said(history(client, game, tokens[1])["messages"])


def test_phrases_against_computer_players_too(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    assert made["chat"] == "phrases"
    r = say(client, made["game"], made["seats"][0]["token"], phrase="hello")
    assert r.status_code == 200 and r.json()["phrase"] == "hello"


def test_an_unknown_phrase_is_refused_naming_it(client: TestClient) -> None:
    game, tokens = table(client, PEOPLE)
    r = say(client, game, tokens[0], phrase="insult")
    assert r.status_code == 400
    assert r.json() == {
        "error": 'unknown phrase "insult": the phrases are '
        "hello, good_luck, well_played, thanks, one_moment, oops, good_game",
        "code": "unknown_phrase",
        "phrase": "insult",
    }
    with client.websocket_connect(f"/api/games/{game}/ws?token={tokens[0]}") as ws:
        ws.send_json({"type": "chat", "phrase": "shout"})
        error = next_chat(ws)
        assert (error["type"], error["status"], error["request"], error["code"]) == (
            "error",
            400,
            "chat",
            "unknown_phrase",
        )
        assert error["error"].startswith('unknown phrase "shout": the phrases are hello, ')
    assert history(client, game, tokens[0])["messages"] == []


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "a chat message has either a phrase (its id) or a text, not both nor neither"),
        (
            {"phrase": "hello", "text": "hi"},
            "a chat message has either a phrase (its id) or a text, not both nor neither",
        ),
        (
            {"phrase": 3},
            "unknown phrase 3: the phrases are hello, good_luck, well_played, thanks, one_moment, oops, good_game",
        ),
        ({"words": "hi"}, 'unknown field "words" for a chat message; the fields are: phrase or text'),
    ],
)
def test_a_malformed_message_is_refused(client: TestClient, body: dict[str, Any], error: str) -> None:
    game, tokens = table(client, FREE)
    r = say(client, game, tokens[0], **body)
    assert r.status_code == 400 and r.json()["error"] == error


def test_spectators_cannot_send_but_see_the_phrases(client: TestClient) -> None:
    game, tokens = table(client, FREE)
    r = say(client, game, None, phrase="hello")
    assert r.status_code == 403
    assert r.json() == {
        "error": "chat messages need a seat token: spectators only watch (they see the phrases)",
        "code": "spectator",
    }
    with client.websocket_connect(f"/api/games/{game}/ws") as watcher:
        watcher.send_json({"type": "chat", "text": "hello from the stands"})
        error = next_chat(watcher)
        assert (error["status"], error["code"]) == (403, "spectator")
    assert say(client, game, tokens[0], text="only between us").status_code == 200
    assert say(client, game, tokens[0], phrase="good_luck").status_code == 200
    seen = history(client, game)
    assert said(seen["messages"]) == [(0, "good_luck")] and seen["free_text"] is False  # free text is between people
    r = client.post(f"/api/games/{game}/chat/settings", json={"free_text": False})
    assert r.status_code == 403 and r.json()["code"] == "spectator"


# ------------------------------------------------------------------ free text


def test_free_text_is_refused_where_the_creator_chose_phrases(client: TestClient) -> None:
    game, tokens = table(client, PEOPLE)
    r = say(client, game, tokens[1], text="hello there")
    assert r.status_code == 403
    assert r.json() == {
        "error": "free text is off at this table: its creator chose phrases only",
        "code": "free_off",
    }
    r = client.post(
        f"/api/games/{game}/chat/settings", json={"free_text": True}, headers={"x-cassino-token": tokens[1]}
    )
    assert r.status_code == 403 and r.json()["code"] == "free_off"
    assert history(client, game, tokens[0])["messages"] == []


def test_free_text_needs_another_person_and_a_known_choice(client: TestClient) -> None:
    alone = client.post("/api/games", json={"chat": "free"})
    assert alone.status_code == 400
    assert alone.json()["error"] == (
        "chat 'free' is for games between people: free text needs another person's seat, and this game has none"
    )
    loud = client.post("/api/games", json={**PEOPLE, "chat": "loud"})
    assert loud.status_code == 400
    assert (
        loud.json()["error"] == "chat must be 'phrases' or 'free' (free text between the people invited), not \"loud\""
    )
    assert create(client, **FREE)["chat"] == "free"
    assert create(client, **PEOPLE)["chat"] == "phrases"


def test_free_text_where_chosen_is_sent_trimmed_and_as_written(client: TestClient) -> None:
    game, tokens = table(client, FREE)
    markup = "  <b>nice</b> & <script>alert(1)</script> 🂡  "
    with client.websocket_connect(f"/api/games/{game}/ws?token={tokens[1]}") as ben:
        ben.send_json({"type": "chat_history"})
        assert next_chat(ben)["free_text"] is True
        r = say(client, game, tokens[0], text=markup)
        assert r.status_code == 200
        message = next_chat(ben)
        assert set(message) == {"type", "id", "seat", "name", "at", "text"}
        assert message["text"] == "<b>nice</b> & <script>alert(1)</script> 🂡"  # never interpreted, so never stripped
        ben.send_json({"type": "chat", "text": "x" * MAX_TEXT})
        assert next_chat(ben)["text"] == "x" * MAX_TEXT
    assert said(history(client, game, tokens[0])["messages"]) == [
        (0, "<b>nice</b> & <script>alert(1)</script> 🂡"),
        (1, "x" * MAX_TEXT),
    ]


@pytest.mark.parametrize(
    ("text", "code", "error"),
    [
        (
            "x" * (MAX_TEXT + 1),
            "long_text",
            f"text is {MAX_TEXT + 1} characters long: a message has at most {MAX_TEXT}",
        ),
        ("   ", "empty_text", f"text is empty: a message has 1 to {MAX_TEXT} characters after trimming"),
        (
            "ring\u0007ring",
            "control_character",
            "text holds the control character U+0007: a message is one line of plain text",
        ),
        (
            "two\nlines",
            "control_character",
            "text holds the control character U+000A: a message is one line of plain text",
        ),
        (
            "abc\u202edcba",
            "control_character",
            "text holds the control character U+202E: a message is one line of plain text",
        ),
        (17, "bad_message", "text must be a string of 1 to 200 characters"),
    ],
)
def test_a_text_too_long_or_with_control_characters_is_refused(
    client: TestClient, text: Any, code: str, error: str
) -> None:
    game, tokens = table(client, FREE)
    r = say(client, game, tokens[0], text=text)
    assert r.status_code == 400
    assert r.json()["error"] == error and r.json()["code"] == code
    assert history(client, game, tokens[0])["messages"] == []


def test_a_person_who_turns_free_text_off_neither_sends_nor_sees_it(client: TestClient) -> None:
    game, tokens = table(client, FREE)
    assert say(client, game, tokens[0], text="before").status_code == 200
    with (
        client.websocket_connect(f"/api/games/{game}/ws?token={tokens[0]}") as ann,
        client.websocket_connect(f"/api/games/{game}/ws?token={tokens[1]}") as ben,
    ):
        ben.send_json({"type": "chat_settings", "free_text": False})
        quiet = next_chat(ben)  # the chat again, as Ben now reads it
        assert quiet["type"] == "chat_history" and quiet["free_text"] is False and quiet["messages"] == []
        ann.send_json({"type": "chat", "text": "can you read this?"})
        assert next_chat(ann)["text"] == "can you read this?"
        ann.send_json({"type": "chat", "phrase": "one_moment"})
        assert next_chat(ann)["phrase"] == "one_moment"
        assert next_chat(ben)["phrase"] == "one_moment"  # the text before it never came
        ben.send_json({"type": "chat", "text": "let me talk"})
        error = next_chat(ben)
        assert (error["status"], error["code"], error["error"]) == (
            403,
            "free_quiet",
            "you turned free text off at this table: turn it on to send one",
        )
    assert said(history(client, game, tokens[1])["messages"]) == [(0, "one_moment")]
    assert said(history(client, game, tokens[0])["messages"]) == [
        (0, "before"),
        (0, "can you read this?"),
        (0, "one_moment"),
    ]
    r = client.post(
        f"/api/games/{game}/chat/settings", json={"free_text": True}, headers={"x-cassino-token": tokens[1]}
    )
    assert r.status_code == 200 and r.json()["free_text"] is True
    assert len(r.json()["messages"]) == 3
    assert say(client, game, tokens[1], text="back").status_code == 200
    bad = client.post(
        f"/api/games/{game}/chat/settings", json={"free_text": "no"}, headers={"x-cassino-token": tokens[1]}
    )
    assert bad.status_code == 400
    assert bad.json()["error"] == "free_text must be true (show and send free text at this table) or false"


# ------------------------------------------------------------------ limits and history


def test_a_seat_may_send_five_messages_in_ten_seconds_then_again_after_the_window(client: TestClient) -> None:
    clock = Clock()
    client.app.state.service.chats.clock = clock  # type: ignore[attr-defined]
    game, tokens = table(client, PEOPLE)
    for _ in range(CHAT_LIMIT.burst):
        assert say(client, game, tokens[0], phrase="oops").status_code == 200
        clock.now += 1
    refused = say(client, game, tokens[0], phrase="oops")  # at 5 s: the first of the five left at 10 s
    assert refused.status_code == 429 and refused.headers["retry-after"] == "5"
    assert refused.json() == {
        "error": "too many chat messages: at most 5 in 10 s from a seat; try again in 5 s",
        "code": "too_many",
        "retry_after": 5,
    }
    assert say(client, game, tokens[1], phrase="thanks").status_code == 200  # each seat has its own allowance
    with client.websocket_connect(f"/api/games/{game}/ws?token={tokens[0]}") as ws:
        ws.send_json({"type": "chat", "phrase": "oops"})
        error = next_chat(ws)
        assert (error["status"], error["code"], error["retry_after"]) == (429, "too_many", 5)
    clock.now += 4.5  # 9.5 s after the first
    assert say(client, game, tokens[0], phrase="oops").status_code == 429
    clock.now += 0.6  # 10.1 s after the first: it left the window
    assert say(client, game, tokens[0], phrase="good_game").status_code == 200
    assert say(client, game, tokens[0], phrase="oops").status_code == 429  # the second is still in it
    assert said(history(client, game, tokens[0])["messages"])[-2:] == [(1, "thanks"), (0, "good_game")]


def test_the_history_after_a_reconnection_keeps_the_last_hundred(client: TestClient) -> None:
    clock = Clock()
    client.app.state.service.chats.clock = clock  # type: ignore[attr-defined]
    game, tokens = table(client, FREE)
    for i in range(HISTORY + 5):
        r = say(client, game, tokens[i % 2], text=f"message {i}")
        assert r.status_code == 200, r.text
        clock.now += 1.5
    with client.websocket_connect(f"/api/games/{game}/ws?token={tokens[1]}") as ws:
        ws.send_json({"type": "chat_history"})
        first = next_chat(ws)
    with client.websocket_connect(f"/api/games/{game}/ws?token={tokens[1]}") as ws:  # the page reloaded
        ws.send_json({"type": "chat_history"})
        again = next_chat(ws)
    assert first == again
    assert [m["text"] for m in again["messages"]] == [f"message {i}" for i in range(5, HISTORY + 5)]
    assert [m["seat"] for m in again["messages"][:2]] == [1, 0]
    ids = [m["id"] for m in again["messages"]]
    assert ids == sorted(ids) and len(set(ids)) == HISTORY


def test_reads_of_the_history_are_limited_per_client(tmp_path: Path) -> None:
    """Each read is a query: a client reads at the rate of its moves (120 at once, then 5 a second)."""
    with TestClient(create_app(database=database_url(None, tmp_path), bot_delay=0)) as limited:
        limited.app.state.service.chat_reads.clock = Clock()  # type: ignore[attr-defined]  # time stands still
        game, tokens = table(limited, FREE)
        for _ in range(120):
            assert limited.get(f"/api/games/{game}/chat").status_code == 200
        refused = limited.get(f"/api/games/{game}/chat")
        assert refused.status_code == 429
        assert refused.json()["error"].startswith("too many requests for the chat's history: at most 120 at once")
        with limited.websocket_connect(f"/api/games/{game}/ws?token={tokens[0]}") as ws:
            ws.send_json({"type": "chat_history"})
            error = next_chat(ws)
            assert (error["type"], error["status"], error["request"]) == ("error", 429, "chat_history")


def test_every_phrase_and_refusal_is_worded_in_every_language() -> None:
    for language in LANGUAGES:
        words = catalogue(language)
        assert [p for p in PHRASES if f"chat.phrase.{p}" not in words] == [], language
        assert [c for c in CODES if f"chat.error.{c}" not in words] == [], language
    english, german = catalogue("en"), catalogue("de")
    assert (english["chat.phrase.good_luck"], german["chat.phrase.good_luck"]) == ("Good luck!", "Viel Glück!")


# ------------------------------------------------------------------ two processes


async def _until(predicate: Callable[[], bool], what: str, limit: float = 20) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def _frames(queue: asyncio.Queue[str]) -> list[dict[str, Any]]:
    """The frames queued to a socket now, states left out."""
    out = []
    while not queue.empty():
        frame = json.loads(queue.get_nowait())
        if frame["type"] != "state":
            out.append(frame)
    return out


async def _heard(queue: asyncio.Queue[str], count: int, what: str) -> list[dict[str, Any]]:
    """The next ``count`` frames other than states queued to a socket, waited for."""
    got: list[dict[str, Any]] = []

    def enough() -> bool:
        got.extend(_frames(queue))
        return len(got) >= count

    await _until(enough, what)
    return got


def test_a_message_sent_through_one_process_reaches_a_socket_of_the_other() -> None:
    async def scenario() -> None:
        with two_services() as (a, b):
            await a.start()
            await b.start()
            assert a.listener is not None and b.listener is not None
            await _until(lambda: a.listener.listening.is_set() and b.listener.listening.is_set(), "the listeners")
            live, creator, invites = a.create(FREE)
            tokens = service_seats(a, live, creator, invites)
            there = b.get(live.id)
            ben = b.subscribe(there, 1)  # Ben's page is served by process b
            watcher = b.subscribe(there, None)
            await asyncio.sleep(0.2)
            _frames(ben.queue)
            _frames(watcher.queue)
            sent = a.chats.send(live.id, tokens[0], {"phrase": "good_luck"})
            assert await _heard(ben.queue, 1, "the phrase on process b") == [sent.to_json()]
            assert await _heard(watcher.queue, 1, "the phrase on process b") == [sent.to_json()]
            a.chats.send(live.id, tokens[0], {"text": "hello from a"})
            assert [f.get("text") for f in await _heard(ben.queue, 1, "the text on process b")] == ["hello from a"]
            # Ben turns free text off through process b: process a stops sending it to him
            b.chats.set_free(live.id, tokens[1], {"free_text": False})
            again = _frames(ben.queue)  # Ben's page gets the chat again, as he now reads it
            assert [(f["type"], f["free_text"], f["messages"]) for f in again] == [
                ("chat_history", False, [sent.to_json()])
            ]
            await _until(lambda: 1 in a.chats.table(live).quiet, "the setting on process a")
            ben_on_a = a.subscribe(live, 1)
            await asyncio.sleep(0.1)
            _frames(ben_on_a.queue)
            a.chats.send(live.id, tokens[0], {"text": "not for Ben"})
            a.chats.send(live.id, tokens[0], {"phrase": "thanks"})
            assert [f.get("phrase") for f in _frames(ben_on_a.queue)] == ["thanks"]
            assert [f.get("phrase") for f in await _heard(ben.queue, 1, "the phrase on process b")] == ["thanks"]
            # spectators never see free text: the watcher on b heard only the phrases
            assert [f.get("phrase") for f in _frames(watcher.queue)] == ["thanks"]
            with pytest.raises(ServiceError, match="you turned free text off at this table"):
                a.chats.send(live.id, tokens[1], {"text": "from Ben"})
            # the same history through either process, and the limit counted across both: Ann sent
            # four messages through a, a fifth goes through b, and a sixth is refused through a
            assert a.chats.history(live, 0) == b.chats.history(there, 0)
            b.chats.send(live.id, tokens[0], {"phrase": "oops"})
            with pytest.raises(ServiceError, match="too many chat messages: at most 5 in 10 s"):
                a.chats.send(live.id, tokens[0], {"phrase": "oops"})
            for service in (a, b):
                await service.stop()

    asyncio.run(scenario())


def test_two_real_processes_a_phrase_through_one_reaches_a_socket_of_the_other() -> None:
    """Two ``cassino serve`` processes on one PostgreSQL: Ann's page is served by the first, Ben's
    by the second; Ann's phrase and text, sent on her socket, reach Ben's socket, and the history
    read through either process is the same."""
    pytest.importorskip("websockets")
    import httpx
    from websockets.sync.client import connect

    from web_support import Server

    url = postgres_url()
    first, second = Server(url), Server(url)
    try:
        made = httpx.post(first.url + "/api/games", json=FREE, timeout=10).json()
        game = made["game"]
        ann = made["seats"][0]["token"]
        claimed = httpx.post(f"{second.url}/api/games/{game}/claim", json={"invite": made["seats"][1]["invite"]})
        ben = claimed.json()["token"]

        def frames(ws: Any) -> Iterator[dict[str, Any]]:
            while True:
                frame = json.loads(ws.recv(timeout=20))
                if frame["type"] != "state":
                    yield frame

        with (
            connect(f"ws://127.0.0.1:{first.port}/api/games/{game}/ws?token={ann}") as ann_ws,
            connect(f"ws://127.0.0.1:{second.port}/api/games/{game}/ws?token={ben}") as ben_ws,
        ):
            ben_heard = frames(ben_ws)
            ben_ws.send(json.dumps({"type": "chat_history"}))  # Ben's socket is open on the second
            assert next(ben_heard)["messages"] == []
            ann_ws.send(json.dumps({"type": "chat", "phrase": "good_luck"}))
            ann_ws.send(json.dumps({"type": "chat", "text": "from the first process"}))
            phrase, text = next(ben_heard), next(ben_heard)
            assert (phrase["seat"], phrase["name"], phrase["phrase"]) == (0, "Ann", "good_luck")
            assert (text["seat"], text["text"]) == (0, "from the first process")
        histories = [
            httpx.get(f"{s.url}/api/games/{game}/chat", headers={"x-cassino-token": ben}).json()
            for s in (first, second)
        ]
        assert histories[0] == histories[1] and said(histories[0]["messages"]) == [
            (0, "good_luck"),
            (0, "from the first process"),
        ]
    finally:
        first.stop()
        second.stop()


# ------------------------------------------------------------------ in a browser


@pytest.fixture(scope="module")
def chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A real ``cassino serve`` for the browser test."""
    from web_support import Server

    db = tmp_path_factory.mktemp("chat") / "web.sqlite3"
    server = Server(f"sqlite:///{db}", extra=("--no-rate-limits",))
    yield server
    server.stop()


def test_two_people_chat_in_their_own_languages_and_one_mutes_the_other(chat_server: Any) -> None:
    """Ann (English, desktop) and Ben (German, a phone) at one table: the hand and the table stay on
    the first screen with the chat beside or below them; Ann's "Good luck" reaches Ben's folded
    panel as an unread count, said for screen readers and written in German; a text with markup
    is shown as the characters typed; Ben mutes Ann and her next phrase is not shown to him (nor
    after a reload), while his own still is."""
    import httpx

    from browser_support import Page, axe_violations, chromium, english_left, inside, visible_texts

    with chromium() as browser:
        ann = Page(browser, 1280, 800, motion=False)
        ben = Page(browser, 390, 844, lang="de", motion=False)
        # Ann sets the table in the lobby: Ben invited, free text allowed
        ann.page.goto(chat_server.url + "/")
        ann.page.wait_for_selector("#presets .preset")
        ann.page.fill("[name=name-0]", "Ann")
        ann.page.select_option("[name=kind-1]", "human")
        ann.page.fill("[name=name-1]", "Ben")
        ann.page.check("[data-testid=create-chat-free]")
        ann.page.click("#create")
        ann.page.wait_for_selector("#invites input")
        game = ann.page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
        assert httpx.get(f"{chat_server.url}/api/games/{game}/chat", timeout=10).json()["table"] == "free"
        ben.page.goto(ann.page.locator("#invites input").first.input_value())
        for p in (ann, ben):
            p.page.wait_for_selector("[data-testid=chat]:not([hidden]) [data-testid=chat-phrase]")
            p.page.wait_for_selector("[data-testid=hand] [data-card]")
            assert p.page.evaluate("window.scrollY") == 0
            for part in ("[data-testid=hand]", "[data-testid=table] .table-cards"):
                assert inside(p.page.locator(part).bounding_box(), p.width, p.height), (p.width, part)
        desk, board = ann.page.locator("[data-testid=chat]").bounding_box(), ann.page.locator("#board").bounding_box()
        assert desk["x"] >= board["x"] + board["width"] and desk["y"] < 800  # beside the table
        phone, board = ben.page.locator("[data-testid=chat]").bounding_box(), ben.page.locator("#board").bounding_box()
        assert phone["y"] >= board["y"] + board["height"]  # below it
        # Ben folds his panel; Ann's phrase comes as an unread count and is said aloud, in German
        ben.page.click("[data-testid=chat] summary")
        ann.page.click("[data-testid=chat-phrase][data-phrase=good_luck]")
        ann.page.wait_for_selector("[data-testid=chat-message][data-phrase=good_luck]")
        assert ann.page.inner_text("[data-testid=chat-message]").endswith("Good luck!")
        assert "You" in ann.page.inner_text("[data-testid=chat-message] .chat-name")
        ben.page.wait_for_selector("[data-testid=chat-unread]:not([hidden])")
        assert ben.page.inner_text("[data-testid=chat-unread] [aria-hidden]") == "1"
        assert ben.page.text_content("[data-testid=chat-unread] .sr-only") == "1 neue Nachricht"
        assert ben.page.text_content("[data-testid=chat-said]") == "Ann: Viel Glück!"
        # the live region is outside the folded panel, where screen readers still hear it
        assert ben.page.evaluate("!document.querySelector('[data-testid=chat-said]').closest('details:not([open])')")
        ben.page.click("[data-testid=chat] summary")
        ben.page.wait_for_selector("[data-testid=chat-unread]", state="hidden")  # read now
        message = ben.page.locator("[data-testid=chat-message][data-seat='0']")
        assert message.locator(".chat-name").inner_text() == "Ann"
        assert message.locator(".chat-words").inner_text() == "Viel Glück!"
        assert message.locator(".face").inner_text() == "A"
        # free text is shown exactly as typed: markup in it stays characters
        typed = "<b>bold</b> & <img src=x onerror=alert(1)>"
        ann.page.fill("[data-testid=chat-text]", typed)
        ann.page.click("[data-testid=chat-send]")
        ben.page.wait_for_function("document.querySelectorAll('[data-testid=chat-message]').length === 2")
        assert ben.page.locator("[data-testid=chat-message] .chat-words").nth(1).inner_text() == typed
        assert ben.page.locator("[data-testid=chat-log] b, [data-testid=chat-log] img").count() == 0
        assert ann.page.input_value("[data-testid=chat-text]") == ""
        left = english_left(visible_texts(ben.page), "de", exempt={"Ann", "Ben", typed})
        assert not left, left
        assert axe_violations(ben.page) == []
        ben.shot("chat-phone-de.png")
        # Ben mutes Ann: her next phrase is not shown to him; his own is
        ben.page.click("[data-testid=chat-mute-0]")
        assert ben.page.get_attribute("[data-testid=chat-mute-0]", "aria-pressed") == "true"
        assert ben.page.locator("[data-testid=chat-message]").count() == 0
        ann.page.click("[data-testid=chat-phrase][data-phrase=well_played]")
        ann.page.wait_for_selector("[data-testid=chat-message][data-phrase=well_played]")
        ben.page.click("[data-testid=chat-phrase][data-phrase=thanks]")  # after Ann's on Ben's socket
        ben.page.wait_for_selector("[data-testid=chat-message][data-phrase=thanks]")
        assert ben.page.locator("[data-testid=chat-message]").all_inner_texts()[0].endswith("Danke!")
        assert ben.page.locator("[data-testid=chat-message]").count() == 1
        assert ben.page.locator("[data-testid=chat-message][data-seat='0']").count() == 0
        ann.page.wait_for_selector("[data-testid=chat-message][data-phrase=thanks]")
        assert ann.page.locator("[data-testid=chat-message]").count() == 4
        ben.page.reload()
        ben.page.wait_for_selector("[data-testid=chat-message][data-phrase=thanks]")
        assert ben.page.locator("[data-testid=chat-message]").count() == 1
        assert axe_violations(ann.page) == []
        ann.shot("chat-desktop.png")
        assert not ann.errors and not ben.errors, (ann.errors, ben.errors)
        ann.close()
        ben.close()
