"""Tournaments played (``cassino.arena.rounds``): a Swiss of programs over the bot protocol and
computer players completes without a repeat meeting, every table of a round is dealt from the
round's committed seed, the standings follow from the results, an arena keeps to its budget, and
the games reach the arena's report and files."""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from cassino.arena import (
    InProcessExecutor,
    ProcessExecutor,
    TournamentConfig,
    bradley_terry,
    run_tournament,
    tournament,
    write_outputs,
)
from cassino.arena.rounds import seeding_order
from cassino.arena.schedule import derive_seed
from cassino.errors import ArgumentError
from cassino.game import Game
from cassino.players.errors import PlayerSpecError
from cassino.rules import Rules, make_rules

BOTS = Path(__file__).resolve().parent.parent / "examples" / "bots"
PEOPLE = (f"bot:{BOTS / 'captures.py'}", f"bot:{BOTS / 'first.sh'}", f"bot:{BOTS / 'captures.py'}", "random")
"""Four entrants who are not the computer players of the ladder: three programs over the bot
protocol (as a person's client plays over the API) and one random mover."""


def test_a_swiss_of_six_four_from_outside_and_two_computer_players_completes_without_a_repeat() -> None:
    config = TournamentConfig("swiss", (*PEOPLE, "novice", "casual"), Rules(), seed=21, rounds=3)
    result = run_tournament(config, InProcessExecutor())
    assert not result.stopped
    assert len(result.results) == 9 and len(result.deals) == 3
    met = Counter(frozenset(r.table.entrants()) for r in result.results)
    assert len(met) == 9 and set(met.values()) == {1}, "no two entrants meet twice"
    for number, deal in enumerate(result.deals, start=1):
        assert deal.seed == derive_seed(21, "round", number)
        assert deal.commitment == hashlib.sha256(str(deal.seed).encode("ascii")).hexdigest()
        tables = [r.table for r in result.results if r.table.round == number]
        assert sorted(x for t in tables for x in t.seats) == sorted(result.entrants), "everyone plays each round"
        assert {t.deal for t in tables} == {deal.commitment}, "one deal per round"
    # every game of a round was dealt from that round's seed: the same first deck at every table
    for number, deal in enumerate(result.deals, start=1):
        tasks = [t for t in result.games.tasks if t.deal == number - 1]
        assert len(tasks) == 3 and {t.deal_seed for t in tasks} == {deal.seed}
        decks = {tuple(Game(Rules(), seed=t.deal_seed).decks[0]) for t in tasks}
        assert len(decks) == 1
    # the standings follow from the results: points from wins and draws, Buchholz from opponents
    points = Counter[str]()
    for r in result.results:
        for side, name in enumerate(r.table.seats):
            points[name] += 1.0 if r.winner == side else 0.5 if r.winner < 0 else 0.0
    opponents = {
        x: [y for r in result.results if x in r.table.seats for y in r.table.seats if y != x] for x in result.entrants
    }
    for s in result.standings:
        assert s.points == points[s.name]
        assert s.buchholz == sum(points[y] for y in opponents[s.name])
        assert s.games == 3
    keys = [(s.points, s.buchholz, s.board) for s in result.standings]
    assert keys == sorted(keys, reverse=True)


def test_a_bye_is_played_against_the_computer_player_and_counts_for_the_entrant() -> None:
    result = tournament(["random", "greedy", "random"], rounds=3, seed=2, bye_player="novice")
    byes = [r for r in result.results if r.table.bye]
    assert len(byes) == 3 and len({r.table.entrants() for r in byes}) == 3, "a different entrant each round"
    assert all(r.table.seats[r.table.computers[0]] == "novice" for r in byes)
    assert "novice (bye)" in result.games.labels and "novice (bye)" not in [s.name for s in result.standings]
    assert [s.games for s in result.standings] == [3, 3, 3]


def test_three_players_a_table_with_a_short_table_of_computer_players() -> None:
    result = tournament(
        ["random", "greedy", "random", "greedy"], rounds=2, seed=5, rules=make_rules("classic", players=3)
    )
    assert len(result.results) == 4
    short = [r.table for r in result.results if r.table.bye]
    assert len(short) == 2 and all(len(t.entrants()) == 1 and len(t.computers) == 2 for t in short)
    assert {"casual (bye 1)", "casual (bye 2)"} <= set(result.games.labels)


def test_the_same_seed_gives_the_same_tournament_in_process_and_on_processes() -> None:
    config = TournamentConfig("swiss", ("random", "greedy", "random", "greedy"), Rules(), seed=9, rounds=2)
    here = run_tournament(config, InProcessExecutor())
    pool = run_tournament(config, ProcessExecutor(2))
    assert here.summary() == pool.summary()
    assert [r.scores for r in here.games.results] == [r.scores for r in pool.games.results]


def test_an_arena_keeps_to_its_budget_and_never_rematches_at_once() -> None:
    result = tournament(["random", "greedy", "beginner", "novice", "random"], "arena", games=7, seed=3)
    assert len(result.results) == 7
    assert result.seeding == seeding_order(result.entrants, 3)
    last: dict[str, frozenset[str]] = {}
    for r in result.results:
        people = frozenset(r.table.seats)
        for x in people:
            assert not (people - {x}) & last.get(x, frozenset())
        for x in people:
            last[x] = people - {x}
    # each wave's tables share a deal, and nobody plays a deal twice
    dealt = Counter((x, r.table.round) for r in result.results for x in r.table.seats)
    assert set(dealt.values()) == {1}
    assert {d.commitment for d in result.deals} == {r.table.deal for r in result.results}


def test_an_arena_stops_starting_tables_when_its_clock_runs_out() -> None:
    """A wave lasts its longest game at two simulated seconds a move: a minute's clock holds one."""
    result = tournament(["random", "greedy", "random", "greedy"], "arena", minutes=1, seed=1)
    assert len(result.results) == 2 and {r.table.round for r in result.results} == {1}


def test_the_games_go_to_the_arenas_report_and_files(tmp_path: Path) -> None:
    result = tournament(["random", "greedy", "beginner", "novice"], rounds=2, seed=6)
    text = result.report()
    assert text.startswith("swiss tournament of 4 entrants: classic, 2 players; seed 6")
    assert "swiss tournament of random, greedy, beginner, novice: classic, 2 players" in text
    assert "2 rounds, every table of one on the same cards: 4 games; seed 6" in text
    write_outputs(result.games, tmp_path)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["tournament"]["standings"] == [s.to_json() for s in result.standings]
    assert [p["deal"] for p in data["tournament"]["pairings"]] == [
        d["commitment"] for d in data["tournament"]["deals"] for _ in range(2)
    ]
    assert len(data["games"]) == 4
    with (tmp_path / "results.csv").open() as f:
        assert len(list(csv.reader(f))) == 5


def test_bad_settings_are_refused_before_any_game() -> None:
    with pytest.raises(ArgumentError, match="at most 3 rounds, got 4"):
        tournament(["random", "greedy", "random", "greedy"], rounds=4)
    with pytest.raises(ArgumentError, match="name at least 2, got 1"):
        tournament(["random"])
    with pytest.raises(ArgumentError, match="minutes or a number of games"):
        tournament(["random", "greedy"], "arena")
    with pytest.raises(ArgumentError, match="unknown kind of tournament 'knockout'"):
        tournament(["random", "greedy"], "knockout")
    with pytest.raises(PlayerSpecError, match="unknown player 'nobody'"):
        tournament(["random", "greedy", "random"], bye_player="nobody")
    with pytest.raises(ArgumentError, match="list of specs"):
        tournament("random")


def test_no_entrant_is_favoured_by_its_place_in_the_list() -> None:
    """The seeding order is drawn from the seed: different seeds, different orders."""
    labels = [f"p{i}" for i in range(8)]
    orders = {tuple(seeding_order(labels, seed)) for seed in range(10)}
    assert len(orders) == 10 and all(sorted(o) == labels for o in orders)
    assert seeding_order(labels, 4) == seeding_order(list(labels), 4)


def test_ratings_of_players_not_all_linked_by_games_are_put_on_one_scale() -> None:
    """After one round a beat b and c beat d: two separate pairs, which a Bradley-Terry fit cannot
    compare; one virtual draw between each pair that never met links them, symmetrically."""
    r = bradley_terry([[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
    assert r.unmet_draws and all(math.isfinite(x) for x in (*r.ratings, *r.se))
    assert r.ratings[0] == pytest.approx(r.ratings[2]) and r.ratings[1] == pytest.approx(r.ratings[3])
    assert r.ratings[0] > 1500 > r.ratings[1]
    assert not bradley_terry([[0, 1, 1], [1, 0, 1], [1, 1, 0]]).unmet_draws


def test_the_docs_examples_run_and_print_what_they_say() -> None:
    """docs/tournaments.md's Python blocks run as written; each ``print(...)  # X`` prints X."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "tournaments.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) == 2
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "docs/tournaments.md", "exec"), {"__name__": "docs_example"})
        expected = re.findall(r"^print\(.*\)  # (.+)$", block, re.M)
        if expected:
            assert out.getvalue().splitlines() == expected
