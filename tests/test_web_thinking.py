"""Computer players and the coach think in worker processes: the same move as in this process for
the same seed, ply and view; a game of searching players played to its end through the pool; a
dead worker replaced while the game goes on; and the event loop free while they think."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from cassino.game import Game
from cassino.players import make_player
from cassino.players.base import choose_code
from cassino.rules import make_rules
from cassino.view import view_of
from cassino.web import thinking
from cassino.web.service import GameService
from cassino.web.store import Store
from cassino.web.thinking import Thinkers, move_seed


def test_a_move_depends_only_on_the_seed_the_ply_and_the_view() -> None:
    game = Game(make_rules("classic"), seed=5)
    view = view_of(game.state, game.state.to_move)
    expected = choose_code(make_player("club", move_seed(77, 3)), view)
    assert thinking.think("club", 77, 3, view) == expected
    assert move_seed(77, 3) == move_seed(77, 3) != move_seed(77, 4) != move_seed(78, 3)

    async def in_workers() -> list[int]:
        pool = Thinkers(workers=2)
        try:
            return list(await asyncio.gather(*(pool.run(thinking.think, "club", 77, 3, view) for _ in range(4))))
        finally:
            pool.close()

    assert asyncio.run(in_workers()) == [expected] * 4


def test_the_coach_in_a_worker_weighs_as_in_this_process() -> None:
    from cassino.learn import Coach

    game = Game(make_rules("classic"), seed=9)
    view = view_of(game.state, game.state.to_move)
    code = sorted(view.legal)[0]
    here = Coach(seed=4).assess(view, code)

    async def there() -> tuple[object, object]:
        pool = Thinkers(workers=1)
        try:
            return await pool.run(thinking.assess, 4, view, code), await pool.run(thinking.hint, 4, view)
        finally:
            pool.close()

    assessed, (best, why) = asyncio.run(there())
    assert assessed == here
    assert best == here.best
    assert why == Coach(seed=4).hint(view)[1]


def test_a_game_of_thinking_players_ends_through_the_pool_though_a_worker_dies(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
        pool = Thinkers(workers=1)
        service = GameService(store, bot_delay=0, thinkers=pool)
        body = {"options": {"target": 3}, "seats": [{"kind": "bot", "bot": "club"}, {"kind": "bot", "bot": "expert"}]}
        live, _, _ = service.create(body)
        killed = False
        gaps: list[float] = []
        last = time.monotonic()
        deadline = last + 240
        while not live.over:
            assert time.monotonic() < deadline, f"the game stalled at ply {live.ply}"
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now
            if not killed and live.ply >= 10 and pool._pool is not None:
                workers = list(pool._pool._processes)  # the one worker, to kill mid-game
                os.kill(workers[0], 9)
                killed = True
        assert killed
        stored = store.load_game(live.id)
        assert stored is not None and stored.status == "over"
        assert [m.ply for m in stored.moves] == list(range(live.ply))
        replay = Game(live.rules, decks=[d for d in live.game.decks])
        for row in stored.moves:
            replay.play(row.move)
        assert replay.over and replay.scores == live.game.scores
        # the expert's searches ran in the worker: this loop was never held for long meanwhile
        assert max(gaps) < 1.0, f"the event loop was held for {max(gaps):.2f} s"
        await service.stop()
        store.close()

    asyncio.run(scenario())


def test_a_pool_size_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="workers must be 0 to 64, got -1"):
        Thinkers(workers=-1)
