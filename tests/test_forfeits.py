"""A player that fails to move forfeits its game in the arena: the game ends there, its side loses,
the result records the seat and the reason, the report and the files show them, and the other
games go on as if nothing happened."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from cassino.arena import ArenaConfig, InProcessExecutor, format_report, play_game, run_arena
from cassino.arena.report import write_csv
from cassino.arena.stats import pair_scores
from cassino.game import forfeit_winner
from cassino.moves import MoveCode
from cassino.players import base, make_player
from cassino.players.errors import PlayerFaultError
from cassino.rules import make_rules
from cassino.view import View


class Faulty:
    """Plays its first legal move ``after`` times, then fails."""

    name = "faulty"

    def __init__(self, seed: int | None = None, after: int = 0) -> None:
        self.after = after

    def choose(self, view: View) -> MoveCode:
        if self.after <= 0:
            raise PlayerFaultError(self.name, "gave up")
        self.after -= 1
        return view.legal[0]


def test_a_fault_ends_the_game_as_a_forfeit() -> None:
    rules = make_rules("classic")
    result = play_game(rules, [make_player("greedy", 1), Faulty(after=3)], seed=5)  # type: ignore[list-item]
    assert (result.forfeit, result.forfeit_reason, result.winner) == (1, "gave up", 0)
    assert result.seat_moves == (3, 3) and result.moves == 6  # seat 1, the eldest, failed at its fourth turn
    assert result.hand_points == () and result.scores == (0, 0)
    clean = play_game(rules, [make_player("greedy", 1), make_player("greedy", 2)], seed=5)
    assert (clean.forfeit, clean.forfeit_reason) == (-1, "")


def test_an_illegal_move_is_a_forfeit_too() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, view: View) -> MoveCode:
            return 2

    result = play_game(make_rules("classic"), [Cheat(), make_player("greedy", 1)], seed=5)  # type: ignore[list-item]
    assert (result.forfeit, result.winner) == (0, 1)
    assert result.forfeit_reason == "returned 2, which is no move: move code 2: a build needs table cards"


def test_the_winner_of_a_forfeit() -> None:
    """Two sides: the other. More: the other side with the most points, on equal points the first
    of them to play after the seat that forfeited."""
    two = make_rules("classic")
    assert forfeit_winner(two, (20, 0), 0) == 1 and forfeit_winner(two, (0, 20), 1) == 0
    three = make_rules("classic", players=3)
    assert forfeit_winner(three, (5, 9, 9), 0) == 1
    assert forfeit_winner(three, (9, 0, 9), 1) == 2
    assert forfeit_winner(three, (9, 3, 10), 1) == 2
    assert forfeit_winner(three, (0, 0, 0), 2) == 0
    teams = make_rules("classic", players=4, partnerships=True)
    assert forfeit_winner(teams, (15, 3), 2) == 1 and forfeit_winner(teams, (3, 15), 3) == 0
    four = make_rules("classic", players=4)
    assert forfeit_winner(four, (1, 1, 1, 1), 3) == 0 and forfeit_winner(four, (1, 2, 5, 5), 1) == 2


def test_a_side_that_forfeits_loses_to_every_other() -> None:
    # side 1 forfeited with the most points; side 0 won; sides 2 and 3 beat side 1 all the same.
    assert pair_scores(0, (4, 9, 2, 2), 1) == [
        (0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0), (1, 2, 0.0), (1, 3, 0.0), (2, 3, 0.5),
    ]  # fmt: skip
    assert pair_scores(1, (4, 9), 0) == pair_scores(1, (4, 9)) == [(0, 1, 0.0)]


@pytest.fixture
def faulty(monkeypatch: pytest.MonkeyPatch) -> str:
    """A player spec ``faulty`` for this test alone (the registry is put back after it)."""
    monkeypatch.setitem(base._REGISTRY, "faulty", base.Entry(Faulty, {"after": int}))
    return "faulty:after=2"


def test_the_arena_counts_forfeits_and_plays_the_other_games(faulty: str, tmp_path: Path) -> None:
    rules = make_rules("classic")
    with_fault = run_arena(ArenaConfig(("greedy", "random", faulty), rules, 2, 7), InProcessExecutor())
    alone = run_arena(ArenaConfig(("greedy", "random"), rules, 2, 7), InProcessExecutor())
    rows = with_fault.rows()
    # table 0 (greedy vs random) has the seeds of the match alone: the same games, no forfeit
    untouched = [r for r in rows if r["table"] == 0]
    assert [{k: v for k, v in r.items() if k != "think_seconds"} for r in untouched] == [
        {k: v for k, v in r.items() if k != "think_seconds"} for r in alone.rows()
    ]
    assert all(r["forfeit"] is None for r in untouched)
    for row in rows[len(untouched) :]:
        seat = row["seats"].index(faulty)
        assert row["forfeit"] == {"seat": seat, "player": faulty, "reason": "gave up"}
        assert row["winner"] != faulty and row["moves"] == 4 + (seat == 0)  # eldest is seat 1: it moves first
    players = {p["player"]: p for p in with_fault.summary["players"]}
    assert (players[faulty]["forfeits"], players[faulty]["wins"], players[faulty]["losses"]) == (8, 0, 8)
    assert players["greedy"]["forfeits"] == players["random"]["forfeits"] == 0
    assert with_fault.summary["forfeits"] == [{"player": faulty, "reason": "gave up", "games": 8}]
    assert alone.summary["forfeits"] == []
    report = format_report(with_fault)
    assert "\nforfeits: 8 (faulty:after=2: gave up ×8)\n" in report
    assert "forfeits" not in format_report(alone)
    data = json.loads(json.dumps(with_fault.to_json()))
    assert data["games"][-1]["forfeit"] == rows[-1]["forfeit"]
    write_csv(with_fault, tmp_path / "results.csv")
    with (tmp_path / "results.csv").open(newline="") as f:
        table = list(csv.DictReader(f))
    assert [(r["forfeit_seat"], r["forfeit_reason"]) for r in table[:4]] == [("", "")] * 4
    assert {(r["forfeit_reason"]) for r in table[4:]} == {"gave up"}
    assert [int(r["forfeit_seat"]) for r in table[4:]] == [r["forfeit"]["seat"] for r in rows[4:]]
