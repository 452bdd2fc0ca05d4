"""``cassino tournament`` end to end: a tiny Swiss from a players file (pairings, commitments,
standings and the arena's report files), an arena on a budget of games, and bad input refused in one
line with no traceback."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from pathlib import Path

from cassino.club.standings import Result, Table, standings
from cli_support import cassino, fails


def players_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "players.txt"
    path.write_text(text)
    return path


def test_a_tiny_swiss_from_a_players_file(tmp_path: Path) -> None:
    file = players_file(tmp_path, "# four cheap players\nrandom\ngreedy  # takes what it sees\n\nbeginner\n")
    out = tmp_path / "out"
    proc = cassino(
        "tournament", "--players-file", str(file), "novice", "--rounds", "2", "--executor", "inprocess",
        "--seed", "11", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert text.startswith("swiss tournament of 4 entrants: classic, 2 players; seed 11\n")
    data = json.loads((out / "results.json").read_text())
    event = data["tournament"]
    assert event["kind"] == "swiss" and event["rounds"] == 2
    assert sorted(event["entrants"]) == ["beginner", "greedy", "novice", "random"]
    # each round: its commitment printed with its seed, the SHA-256 of the seed's digits, on every table
    rounds = re.findall(r"^round (\d): commitment ([0-9a-f]{64}), seed (\d+)$", text, re.M)
    assert [r[0] for r in rounds] == ["1", "2"]
    for number, commitment, seed in rounds:
        assert hashlib.sha256(seed.encode()).hexdigest() == commitment
        tables = [p for p in event["pairings"] if p["round"] == int(number)]
        assert len(tables) == 2 and {p["deal"] for p in tables} == {commitment}
    assert [d["commitment"] for d in event["deals"]] == [r[1] for r in rounds]
    met = [frozenset(p["seats"]) for p in event["pairings"]]
    assert len(met) == len(set(met)) == 4, "no two entrants meet twice"
    # the standings printed are those the results give
    results = [
        Result(Table(p["round"], p["table"], tuple(p["seats"]), p["deal"]), tuple(p["scores"]), p["winner"])
        for p in event["pairings"]
    ]
    expected = standings(event["seeding"], results)
    assert event["standings"] == [s.to_json() for s in expected]
    printed = re.findall(r"^ +(\d)  (\w+) +([\d.]+) +([\d.]+) +([+-][\d.]+|0) +(\d) +(\d) +(\d)$", text, re.M)
    assert [(int(r[0]), r[1], float(r[2]), float(r[3])) for r in printed] == [
        (s.rank, s.name, s.points, s.buchholz) for s in expected
    ]
    # the arena's report and files, of the same four games
    assert "swiss tournament of novice, random, greedy, beginner: classic, 2 players" in text
    assert "2 rounds, every table of one on the same cards: 4 games; seed 11" in text
    assert len(data["games"]) == 4 and data["settings"]["seed"] == 11
    with (out / "results.csv").open() as f:
        assert len(list(csv.reader(f))) == 5
    assert (out / "ratings.png").stat().st_size > 0


def test_an_arena_on_a_budget_of_games() -> None:
    proc = cassino(
        "tournament", "--kind", "arena", "--games", "4", "random", "greedy", "random", "--executor", "inprocess",
        "--seed", "2",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("arena tournament of 3 entrants: classic, 2 players; seed 2\n")
    assert re.findall(r"^deal (\d+): commitment", proc.stdout, re.M) == ["1", "2", "3", "4"]
    assert ": 4 games; seed 2" in proc.stdout


def test_bad_input_is_refused_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    assert (
        fails("tournament", "--players-file", str(missing))
        == f"cassino tournament: --players-file {missing}: no such file"
    )
    empty = players_file(tmp_path, "# nobody yet\n\n")
    assert fails("tournament", "--players-file", str(empty)).endswith("no players in it (one spec a line)")
    unknown = players_file(tmp_path, "random\ngreedy\nfoo  # a typo\n")
    assert fails("tournament", "--players-file", str(unknown)).startswith(
        f"cassino tournament: {unknown}:3: unknown player 'foo'"
    )
    assert fails("tournament", "greedy").endswith("a table seats 2 entrants: name at least 2, got 1")
    assert fails("tournament").endswith("name the players: as arguments, or in a --players-file")
    assert fails("tournament", "--rounds", "4", "random", "greedy", "novice", "beginner").endswith(
        "4 entrants meet new opponents for at most 3 rounds, got 4"
    )
    assert fails("tournament", "--kind", "arena", "--rounds", "2", "random", "greedy").endswith(
        "--rounds is for a Swiss: an arena runs for --minutes or --games"
    )
    assert fails("tournament", "--bye", "nobody", "random", "greedy", "novice").startswith(
        "cassino tournament: unknown player 'nobody'"
    )
