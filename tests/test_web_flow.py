"""The flow of a game at the server: the count between hands (every person presses next, or the
creator's timer runs out), taking back a move against computer players, the computer player that
must not play a move it thought about before an undo, and both across a restart."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from fastapi.testclient import TestClient
from sqlalchemy import update

from cassino.moves import MoveCode, format_code
from cassino.state import State
from cassino.view import View
from cassino.web import create_app, thinking
from cassino.web.schema import settings_table
from cassino.web.service import GameService
from cassino.web.store import Store
from web_support import claim_seats, create, get


def app_on(path: Path, bot_delay: float = 0) -> TestClient:
    return TestClient(create_app(database=f"sqlite:///{path / 'web.sqlite3'}", bot_delay=bot_delay, rate_limits=False))


def post(client: TestClient, game: str, what: str, token: str | None, body: Any = None) -> Any:
    return client.post(f"/api/games/{game}/{what}", json=body, headers={"x-cassino-token": token} if token else {})


def wait(predicate: Callable[[], bool], what: str, limit: float = 20) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.005)


def to_end_of_hand(client: TestClient, game: str, tokens: dict[int, str], rng: random.Random) -> dict[str, Any]:
    """Random legal moves by the people (computer players answer by themselves) until the hand is
    over; returns the public state of the count."""
    while True:
        public = get(client, game)
        if public["phase"] != "play":
            return public
        seat = public["to_move"]
        if seat not in tokens:
            time.sleep(0.002)
            continue
        mine = get(client, game, tokens[seat])
        if mine["version"] != public["version"]:
            continue
        r = post(client, game, "moves", tokens[seat], {"move": rng.choice(mine["legal"])["move"]})
        assert r.status_code == 200, r.text


AGAINST_GREEDY = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


# ---------------------------------------------------------------------- the count between hands


def test_after_a_hand_nothing_is_played_until_every_person_pressed_next(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], help=True)  # a hint is asked below
    game = made["game"]
    tokens = claim_seats(client, made)
    with client.websocket_connect(f"/api/games/{game}/ws") as watcher:
        assert watcher.receive_json()["phase"] == "play"
        r = post(client, game, "next", tokens[0])
        assert r.status_code == 409 and r.json() == {"error": "hand 1 is in play: next is pressed when a hand is over"}
        count = to_end_of_hand(client, game, tokens, random.Random(1))
        assert count["version"] == 48 and count["hand_number"] == 2 and count["finished"][0]["hand"] == 1
        assert (count["phase"], count["ready"], count["waiting_for"], count["next_deadline"]) == (
            "count",
            [],
            [0, 1],
            None,
        )
        for _ in range(47):
            assert watcher.receive_json()["phase"] == "play"
        assert watcher.receive_json() == count  # the move that ended the hand was broadcast with the count
        mover = count["to_move"]
        mine = get(client, game, tokens[mover])
        assert mine["legal"] == [] and mine["can_undo"] is False and len(mine["hand"]) == 4
        reason = "hand 1 is over: hand 2 starts when every person at the table has pressed next (waiting for seat 0, 1)"
        r = post(client, game, "moves", tokens[mover], {"move": f"trail {mine['hand'][0]}"})
        assert r.status_code == 409 and r.json() == {"error": reason}
        r = client.get(f"/api/games/{game}/hint", headers={"x-cassino-token": tokens[mover]})
        assert r.status_code == 409 and r.json() == {"error": reason}
        r = post(client, game, "next", None)
        assert r.status_code == 403 and r.json() == {
            "error": "only a person at the table presses next: spectators only watch"
        }
        assert get(client, game) == count  # nothing refused changed anything

        r = post(client, game, "next", tokens[1])
        assert r.status_code == 200 and r.json()["you"] == 1
        pressed = watcher.receive_json()
        assert (pressed["phase"], pressed["ready"], pressed["waiting_for"], pressed["version"]) == (
            "count",
            [1],
            [0],
            48,
        )
        r = post(client, game, "moves", tokens[mover], {"move": f"trail {mine['hand'][0]}"})
        assert r.json() == {"error": reason.replace("seat 0, 1", "seat 0")}
        assert post(client, game, "next", tokens[1]).json() == get(client, game, tokens[1])  # again: no change
        assert get(client, game) == pressed

        with client.websocket_connect(f"/api/games/{game}/ws?token={tokens[0]}") as ws:
            assert ws.receive_json()["waiting_for"] == [0]
            ws.send_json({"type": "next"})
            started = ws.receive_json()
            assert (started["phase"], started["ready"], started["waiting_for"]) == ("play", [], [])
            assert started["version"] == 48 and started["hand_number"] == 2
        heard = watcher.receive_json()  # seat 0's page opened: everyone hears it is online
        assert heard["phase"] == "count" and heard["presence"][0]["presence"] == "online"
        assert watcher.receive_json()["phase"] == "play"
        gone = watcher.receive_json()  # and closed again: away, since then
        assert (
            gone["presence"][0]["presence"] == "away" and gone["presence"][0]["since"] >= heard["presence"][0]["since"]
        )
    mine = get(client, game, tokens[mover])
    assert mine["legal"] and mine["phase"] == "play"
    r = post(client, game, "moves", tokens[mover], {"move": mine["legal"][0]["move"]})
    assert r.status_code == 200 and r.json()["version"] == 49 and r.json()["phase"] == "play"


def test_computer_players_wait_for_the_one_person_to_press_next(client: TestClient) -> None:
    made = create(client, players=3, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                                            {"kind": "bot", "bot": "random"}])  # fmt: skip
    game, token = made["game"], made["seats"][0]["token"]
    count = to_end_of_hand(client, game, {0: token}, random.Random(2))
    assert (
        count["phase"] == "count" and count["waiting_for"] == [0] and count["to_move"] == 2
    )  # a computer player leads
    time.sleep(0.3)  # the computer players, with no delay, would have moved by now
    assert get(client, game) == count
    r = post(client, game, "next", token)
    assert r.status_code == 200
    wait(lambda: get(client, game)["version"] >= 49, "the computer players")
    assert get(client, game)["moves"][0]["seat"] == 2


def test_a_count_with_a_timer_ends_by_itself(client: TestClient) -> None:
    made = create(client, seats=AGAINST_GREEDY, next_hand_after=1)
    game, token = made["game"], made["seats"][0]["token"]
    assert made["next_hand_after"] == 1 and get(client, game)["next_hand_after"] == 1
    rng = random.Random(3)
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        first = ws.receive_json()
        assert first["next_deadline"] is None
        seen = first
        while seen["phase"] == "play":
            if seen["to_move"] == 0 and seen["legal"]:
                before = time.time()
                ws.send_json({"type": "move", "move": rng.choice(seen["legal"])["move"], "version": seen["version"]})
            seen = ws.receive_json()
        after = time.time()
        assert seen["phase"] == "count" and seen["waiting_for"] == [0]
        assert before + 1 <= seen["next_deadline"] <= after + 1
        started = ws.receive_json()  # nobody pressed: the timer starts the hand, and says so
        assert time.time() >= seen["next_deadline"]
        assert (started["phase"], started["next_deadline"], started["waiting_for"]) == ("play", None, [])
        assert started["version"] == seen["version"] and started["legal"]


def test_a_timer_also_ends_a_count_some_pressed(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], next_hand_after=1)
    game = made["game"]
    tokens = claim_seats(client, made)
    count = to_end_of_hand(client, game, tokens, random.Random(4))
    assert count["phase"] == "count" and count["next_deadline"] is not None
    assert post(client, game, "next", tokens[0]).json()["ready"] == [0]
    wait(lambda: get(client, game)["phase"] == "play", "the timer", limit=5)
    assert time.time() >= count["next_deadline"] and get(client, game)["ready"] == []


# ---------------------------------------------------------------------- undo against computer players


def my_turn(client: TestClient, game: str, token: str) -> dict[str, Any]:
    wait(lambda: get(client, game)["to_move"] == 0 or get(client, game)["phase"] != "play", "the computer player")
    return get(client, game, token)


def test_undo_restores_the_exact_position_before_the_persons_move(client: TestClient) -> None:
    made = create(client, seats=AGAINST_GREEDY)
    game, token = made["game"], made["seats"][0]["token"]
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    before = my_turn(client, game, token)  # after the computer player's lead
    assert before["version"] == 1 and before["can_undo"] is False
    r = post(client, game, "undo", token)
    assert r.status_code == 409 and r.json() == {"error": "you have made no move in this hand to take back"}
    move = before["legal"][-1]["move"]
    assert post(client, game, "moves", token, {"move": move}).status_code == 200
    after = my_turn(client, game, token)
    assert after["version"] == 3 and after["can_undo"] is True and [m["seat"] for m in after["moves"]] == [1, 0, 1]
    assert after["hand"] != before["hand"] and service.store.count_moves(game) == 3
    r = post(client, game, "undo", None)
    assert r.status_code == 403 and r.json() == {
        "error": "taking back a move needs a seat token: spectators only watch"
    }
    r = post(client, game, "undo", token)
    assert r.status_code == 200
    undone = r.json()
    assert undone == before  # hand, table, piles, stock, moves, version: exactly as before the move
    assert (undone["hand"], undone["table"], undone["version"]) == (before["hand"], before["table"], 1)
    assert get(client, game, token) == before
    stored = service.store.load_game(game)
    assert stored is not None and [m.ply for m in stored.moves] == [0] and service.store.count_moves(game) == 1
    # The game goes on from there: the same move may be made again, or another.
    assert post(client, game, "moves", token, {"move": before["legal"][0]["move"]}).json()["version"] == 2


def test_undo_takes_back_every_computer_move_after_the_persons_on_the_websocket(client: TestClient) -> None:
    made = create(client, players=3, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                                            {"kind": "bot", "bot": "random"}])  # fmt: skip
    game, token = made["game"], made["seats"][0]["token"]
    before = my_turn(client, game, token)
    assert before["version"] == 2
    with client.websocket_connect(f"/api/games/{game}/ws?token={token}") as ws:
        got = ws.receive_json()  # as before, but for this page: its seat is online now
        assert [p["presence"] for p in got["presence"]] == ["online", "joined", "joined"]
        assert {**got, "presence": before["presence"]} == before
        ws.send_json({"type": "move", "move": before["legal"][0]["move"]})
        seen = ws.receive_json()
        while seen["to_move"] != 0:
            seen = ws.receive_json()
        assert seen["version"] == 5 and seen["can_undo"] is True
        ws.send_json({"type": "undo"})
        assert ws.receive_json() == got  # the position before the move, this page still online


def test_undo_is_refused_across_a_new_deal_after_the_hand_and_with_two_people(client: TestClient) -> None:
    made = create(client, seats=AGAINST_GREEDY)
    game, token = made["game"], made["seats"][0]["token"]
    rng = random.Random(6)
    mine = my_turn(client, game, token)
    while mine["deal"] == 1:  # four moves each, then the second deal: seat 1 leads it
        assert post(client, game, "moves", token, {"move": rng.choice(mine["legal"])["move"]}).status_code == 200
        mine = my_turn(client, game, token)
    assert mine["deal"] == 2 and mine["version"] == 9 and mine["can_undo"] is False
    r = post(client, game, "undo", token)
    assert r.status_code == 409 and r.json() == {
        "error": "new cards have come from the stock since your last move (they were seen), so it can no longer be taken back"
    }
    assert get(client, game, token) == mine
    count = to_end_of_hand(client, game, {0: token}, rng)
    assert count["phase"] == "count"
    r = post(client, game, "undo", token)
    assert r.status_code == 409 and r.json() == {"error": "hand 1 is over: its moves cannot be taken back"}

    people = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = claim_seats(client, people)
    first = get(client, people["game"], tokens[1])
    assert post(client, people["game"], "moves", tokens[1], {"move": first["legal"][0]["move"]}).status_code == 200
    assert get(client, people["game"], tokens[1])["can_undo"] is False
    r = post(client, people["game"], "undo", tokens[1])
    assert r.status_code == 409 and r.json() == {
        "error": "moves are taken back only against computer players: seat 0 is another person's"
    }
    assert get(client, people["game"])["version"] == 1


def test_undo_is_refused_under_draw_once_a_card_was_drawn(client: TestClient) -> None:
    made = create(client, preset="draw", seats=AGAINST_GREEDY)
    game, token = made["game"], made["seats"][0]["token"]
    mine = my_turn(client, game, token)
    assert post(client, game, "moves", token, {"move": mine["legal"][0]["move"]}).status_code == 200
    after = my_turn(client, game, token)
    assert after["can_undo"] is False and post(client, game, "undo", token).status_code == 409


class Gate:
    """A computer player that waits at each decision until the test opens the gate; it records every
    position it was asked about and what it answered."""

    name = "gate"

    def __init__(self) -> None:
        self.open = threading.Event()
        self.asked: list[View] = []
        self.answered: list[MoveCode] = []

    def think(self, spec: str, seed: int, ply: int, view: View) -> MoveCode:
        """Stands for ``thinking.think``: what the computer player is asked, answered when let go."""
        self.asked.append(view)
        assert self.open.wait(20)
        code = sorted(view.legal, key=format_code)[0]
        self.answered.append(code)
        return code


def table(position: View | State) -> tuple[object, ...]:
    """What a move changes in public: the table and the piles."""
    return (position.loose, position.builds, position.captured)


def test_a_computer_player_thinking_when_an_undo_comes_does_not_play_its_stale_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def until(predicate: Callable[[], bool]) -> None:
        for _ in range(4000):
            if predicate():
                return
            await asyncio.sleep(0.005)
        raise AssertionError("timed out")

    gate = Gate()
    monkeypatch.setattr(thinking, "think", gate.think)  # heuristic is not a fast player: it thinks there

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
        service = GameService(store, bot_delay=0)
        live, tokens, _ = service.create({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]})
        gate.open.set()
        service.background.schedule_bots(live)
        await until(lambda: live.ply == 1)
        gate.open.clear()
        legal = sorted(live.game.state.legal_moves(), key=str)
        first, second = str(legal[0]), str(legal[1])
        service.play(live.id, tokens[0], first)
        after_first = table(live.game.state)
        await until(lambda: len(gate.asked) == 2)  # the computer player thinks about the answer to `first`
        service.undo(live.id, tokens[0])
        service.play(live.id, tokens[0], second)  # the same ply again, another position
        after_second = table(live.game.state)
        assert after_second != after_first
        assert live.ply == 2 and len(gate.asked) == 2
        gate.open.set()
        await until(lambda: live.ply == 3)
        assert [table(v) for v in gate.asked[1:]] == [after_first, after_second]
        assert len(gate.asked) == 3  # the stale answer was dropped, and the player asked again
        stored = store.load_game(live.id)
        assert stored is not None
        assert [m.move for m in stored.moves] == [format_code(gate.answered[0]), second, format_code(gate.answered[2])]
        await service.stop()
        store.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------------- after a restart


def test_a_restart_restores_the_count_and_who_pressed_next(tmp_path: Path) -> None:
    with app_on(tmp_path) as client:
        made = create(client, seats=[{"kind": "human"}, {"kind": "human"}], next_hand_after=600)
        game = made["game"]
        tokens = claim_seats(client, made)
        to_end_of_hand(client, game, tokens, random.Random(7))
        count = post(client, game, "next", tokens[1]).json()
        assert count["ready"] == [1]
        deadline = count["next_deadline"]
        assert deadline is not None and deadline > time.time() + 590
    with app_on(tmp_path) as client:
        again = get(client, game, tokens[1])
        assert again == count  # in the count again, seat 1 still ready (it is stored), the same deadline
        assert (again["phase"], again["ready"], again["waiting_for"], again["next_deadline"]) == (
            "count",
            [1],
            [0],
            deadline,
        )
        assert post(client, game, "next", tokens[0]).status_code == 200
        played = get(client, game, tokens[again["to_move"]])
        assert played["phase"] == "play"
        assert (
            post(client, game, "moves", tokens[again["to_move"]], {"move": played["legal"][0]["move"]}).status_code
            == 200
        )
    with app_on(tmp_path) as client:
        assert get(client, game)["phase"] == "play" and get(client, game)["version"] == 49  # a hand begun: no count


def test_a_count_whose_deadline_passed_during_a_restart_is_over(tmp_path: Path) -> None:
    with app_on(tmp_path) as client:
        made = create(client, seats=AGAINST_GREEDY, next_hand_after=600)
        game, token = made["game"], made["seats"][0]["token"]
        assert to_end_of_hand(client, game, {0: token}, random.Random(8))["phase"] == "count"
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with store.engine.begin() as conn:  # as if the server had been down for ten minutes
        conn.execute(
            update(settings_table).where(settings_table.c.game_id == game).values(count_deadline=time.time() - 1)
        )
    store.close()
    with app_on(tmp_path) as client:
        wait(lambda: get(client, game)["phase"] == "play", "the count to end")
        assert get(client, game)["next_deadline"] is None


def test_undone_moves_are_gone_after_a_restart(tmp_path: Path) -> None:
    with app_on(tmp_path) as client:
        made = create(client, seats=AGAINST_GREEDY)
        game, token = made["game"], made["seats"][0]["token"]
        before = my_turn(client, game, token)
        assert post(client, game, "moves", token, {"move": before["legal"][0]["move"]}).status_code == 200
        my_turn(client, game, token)
        assert post(client, game, "undo", token).json() == before
    with app_on(tmp_path) as client:
        assert get(client, game, token) == before
        record = client.app.state.service.store.load_game(game)  # type: ignore[attr-defined]
        assert [(m.ply, m.seat) for m in record.moves] == [(0, 1)]
