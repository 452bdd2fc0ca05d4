"""``cassino.arena.match``: the arena from Python, with players given as specs or as the caller's own
objects and classes, and the runnable code of docs/bots-python.md."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

from cassino import ArgumentError, CardSet, Move, Rules, View, make_rules
from cassino.arena import ArenaConfig, ArenaResult, InProcessExecutor, format_report, identical_part, match, run_arena
from cassino.players import GreedyPlayer
from cassino.players.errors import PlayerSpecError

DOC = Path(__file__).resolve().parent.parent / "docs" / "bots-python.md"


def games(result: ArenaResult) -> dict[str, Any]:
    """What the same seed reproduces: the settings, summary and games, without the timing."""
    return identical_part(result.to_json())


class Lowest:
    """Plays its lowest legal move, and keeps every view it was shown."""

    name = "lowest"

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose(self, view: View) -> Move:
        self.views.append(view)
        return view.legal_moves()[0]


def test_match_of_specs_is_the_arena_in_this_process() -> None:
    """The games, figures and report of ``cassino arena`` with the same settings."""
    result = match(["greedy", "random"], deals=4, seed=3)
    arena = run_arena(ArenaConfig(("greedy", "random"), Rules(), 4, 3), InProcessExecutor())
    assert games(result) == games(arena)
    assert result.executor == "inprocess" and result.workers == 1
    assert result.report() == format_report(result)
    assert result.report().splitlines()[:2] == [
        "greedy vs random: classic, 2 players",
        "4 deals x 2 seatings = 8 games; seed 3",
    ]


def test_a_players_class_plays_as_its_spec() -> None:
    """A class is made afresh for each game with the game's seed: the built-in greedy player's
    class plays exactly the games of its spec; only the settings say it was the caller's own."""
    by_class = games(match([GreedyPlayer, "random"], deals=3, seed=5, rules=make_rules("royal")))
    by_spec = games(match(["greedy", "random"], deals=3, seed=5, rules=make_rules("royal")))
    assert by_class["settings"].pop("own_players") == ["greedy"]
    assert by_class == by_spec


def test_an_object_plays_every_game_of_its_entrant_from_its_views() -> None:
    lowest = Lowest()
    result = match([lowest, "greedy"], deals=2, seed=1)
    assert result.labels == ["lowest", "greedy"] and result.settings()["own_players"] == ["lowest"]
    assert len(lowest.views) == result.timing()["players"][0]["moves"] > 0
    for view in lowest.views:
        assert view.to_move == view.seat and type(view.hand) is CardSet and view.hand
    assert {r.winner for r in result.results} <= {0, 1}


def test_partnerships_seat_an_object_in_both_seats_of_its_team() -> None:
    lowest = Lowest()
    result = match([lowest, "random"], deals=1, seed=2, rules=make_rules("classic", players=4, partnerships=True))
    seats = {v.seat for v in lowest.views}
    assert seats == {0, 1, 2, 3}  # team 0+2 in one seating, 1+3 in the other
    assert [t.seats for t in result.tasks] == [("lowest", "random", "lowest", "random"), ("random", "lowest") * 2]


def test_specs_spread_over_processes_play_the_same_games() -> None:
    assert games(match(["greedy", "random"], deals=2, seed=4, workers=2)) == games(
        match(["greedy", "random"], deals=2, seed=4)
    )


class Needy:
    """A player class whose constructor needs an argument ``match`` cannot give."""

    name = "needy"

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def choose(self, view: View) -> Move:
        return view.legal_moves()[0]


@pytest.mark.parametrize(
    ("players", "settings", "error", "message"),
    [
        (
            "greedy",
            {},
            ArgumentError,
            "players is a list of players, got the one string 'greedy': write ['greedy', ...]",
        ),
        (["greedy"], {}, ArgumentError, "name at least two players, got 1"),
        (["greedy", "randm"], {}, PlayerSpecError, "unknown player 'randm'; did you mean 'random'? the players are: "),
        (["greedy", 7], {}, ArgumentError, "player 1 (7) is no player: give a spec such as 'greedy', or an object "),
        (["greedy", "random"], {"deals": 0}, ArgumentError, "deals must be a whole number, 1 or more, got 0"),
        (
            ["greedy", "random"],
            {"rules": "royal"},
            ArgumentError,
            "rules must be a Rules, such as make_rules('royal', players=4), got 'royal'",
        ),
        (["greedy", "random"], {"executor": "threads"}, ArgumentError, "unknown executor 'threads': choose one of "),
        (["greedy", "random"], {"workers": 0}, ArgumentError, "workers must be 1 or more, got 0"),
        (["greedy", "random"], {"max_hands": 0}, ArgumentError, "max hands must be 1 or more, got 0"),
        (
            ["greedy", Lowest()],
            {"workers": 2},
            ArgumentError,
            "'lowest' is a player of this process (an object or class, not a spec), so the games are played here: "
            "leave workers at 1 and executor unset",
        ),
        (
            [Needy, "greedy"],
            {},
            ArgumentError,
            "player class 'needy' could not be made (Needy.__init__() missing 1 required positional argument: ",
        ),
    ],
)
def test_bad_settings_are_refused_by_name(
    players: Any, settings: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as refused:
        match(players, **settings)
    assert str(refused.value).startswith(message)


def test_the_documented_player_runs_as_written() -> None:
    """Every Python block of docs/bots-python.md, in order in one namespace, as a script runs them
    (the match with 2 deals where the page says 50), printing what its comments say."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3 and blocks[0].count("deals=50") == 1
    blocks[0] = blocks[0].replace("deals=50", "deals=2")
    namespace: dict[str, Any] = {"__name__": "__main__"}
    outputs = []
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(DOC), "exec"), namespace)
        outputs.append(out.getvalue())
    report = outputs[0].splitlines()
    assert report[:2] == [
        "round robin of grabber, casual, greedy: classic, 2 players",
        "3 tables x 2 deals x 2 seatings = 12 games; seed 1",
    ]
    result = namespace["result"]
    assert result.report() + "\n" == outputs[0]
    assert {p["player"]: (p["games"], p["wins"]) for p in result.summary["players"]} == {
        "grabber": (8, 2),
        "casual": (8, 6),
        "greedy": (8, 4),
    }
    for block, printed in zip(blocks[1:], outputs[1:], strict=True):
        expected = re.findall(r"^print\(.*\)  # (.+)$", block, re.M)
        assert expected and printed == "".join(line + "\n" for line in expected)
