"""``cassino arena``: mirrored seatings, the statistics on hand-made data, output files, the command
line, and the promise that one seed gives identical results in-process, on a process pool and on Ray.

Ray runs here for real (a local Ray with 2 CPUs, started once for the module and shut down after):
CI installs it with the test extra, so a broken Ray executor fails CI rather than being skipped.
"""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cassino.arena import (
    ArenaConfig,
    Executor,
    InProcessExecutor,
    ProcessExecutor,
    RayExecutor,
    bradley_terry,
    derive_seed,
    identical_part,
    plan,
    run_arena,
    seatings,
    wilson,
    write_outputs,
)
from cassino.arena.executors import chunked, in_order
from cassino.arena.progress import Progress
from cassino.arena.stats import ELO, mean_interval, pair_scores
from cassino.rules import make_rules

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]

CASES: dict[str, ArenaConfig] = {
    "classic 2p": ArenaConfig(("greedy", "random"), make_rules("classic"), deals=6, seed=7),
    "partnerships": ArenaConfig(("greedy", "random"), make_rules("classic", players=4, partnerships=True), 3, 8),
    "3 players": ArenaConfig(("greedy", "random", "random"), make_rules("royal", players=3), deals=2, seed=9),
}


# --- the plan: mirrored deals and seeds ---------------------------------------------------------


def test_derive_seed_is_fixed_across_processes_and_versions() -> None:
    """Seeds come from blake2b, never from ``hash``: a change here changes every published result."""
    assert derive_seed(1, "deal", 0) == 782553730503344955
    assert derive_seed(1, "deal", 1) != derive_seed(1, "deal", 0) != derive_seed(2, "deal", 0)


def test_seatings_are_rotations() -> None:
    assert seatings((0, 1)) == [(0, 1), (1, 0)]
    assert seatings((3, 5, 7)) == [(3, 5, 7), (5, 7, 3), (7, 3, 5)]
    assert len(seatings((0, 1, 2, 3))) == 4


@pytest.mark.parametrize("case", list(CASES))
def test_each_deal_is_played_once_per_seating(case: str) -> None:
    config = CASES[case]
    tables, tasks = plan(config.players, config.rules, config.deals, config.seed)
    rules = config.rules
    per_table = rules.sides
    assert len(tasks) == len(tables) * config.deals * per_table
    assert [t.index for t in tasks] == list(range(len(tasks)))
    deal_seeds = {derive_seed(config.seed, "deal", d) for d in range(config.deals)}
    for t, table in enumerate(tables):
        mine = [task for task in tasks if task.table == t]
        # Every deal seed once per seating, and the same deals at every table.
        assert Counter((task.deal_seed, task.seating) for task in mine) == Counter(
            {(s, r): 1 for s in deal_seeds for r in range(per_table)}
        )
        for d in range(config.deals):
            games = [task for task in mine if task.deal == d]
            # Each entrant on each side exactly once per deal, and its spec in that side's seats.
            for side in range(rules.sides):
                assert sorted(g.sides[side] for g in games) == sorted(table)
            for g in games:
                assert g.seats == tuple(config.players[g.sides[rules.side_of(s)]] for s in range(rules.players))
                assert len(set(g.player_seeds)) == rules.players
    if rules.partnerships:
        assert [t.seats for t in tasks[:2]] == [
            ("greedy", "random", "greedy", "random"),
            ("random", "greedy", "random", "greedy"),
        ]


def test_more_deals_extend_the_same_games() -> None:
    """Player and deal seeds depend on (table, deal, seating, seat), so a longer run starts with
    exactly the games of a shorter one."""
    rules = make_rules("classic")
    _, short = plan(("greedy", "random"), rules, 3, 5)
    _, long = plan(("greedy", "random"), rules, 5, 5)
    assert long[: len(short)] == short


def test_round_robin_tables() -> None:
    tables, _ = plan(("a", "b", "c", "d"), make_rules("classic"), 1, 0)
    assert tables == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    tables, _ = plan(("a", "b", "c", "d"), make_rules("classic", players=3), 1, 0)
    assert tables == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    with pytest.raises(ValueError, match="name at least 4"):
        plan(("a", "b", "c"), make_rules("classic", players=4), 1, 0)


# --- statistics on hand-made data ----------------------------------------------------------------


def test_wilson_interval() -> None:
    z2 = 1.959963984540054**2
    assert wilson(0, 10) == pytest.approx((0.0, z2 / (10 + z2)))  # (0, 0.27753...)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(0, 10)[1] == pytest.approx(0.2775328, abs=1e-7)
    assert wilson(5, 10) == pytest.approx((0.2365931, 0.7634069), abs=1e-7)
    assert wilson(8, 10) == pytest.approx((0.4901625, 0.9433178), abs=1e-7)
    assert wilson(10, 10) == pytest.approx((1 - z2 / (10 + z2), 1.0))
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, half = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert half == pytest.approx(1.959963984540054 * math.sqrt((5 / 3) / 4))
    assert mean_interval([3.0]) == (3.0, None)


def test_bradley_terry_two_players() -> None:
    """3 wins in 4: the MLE gap is 400 log10(3); the information is 4 p(1-p) = 3/4, so each
    rating's variance about the mean is 1/(4 * 3/4) = 1/3 in natural units."""
    r = bradley_terry([[0, 3], [1, 0]])
    assert r.ratings[0] == pytest.approx(1500 + 200 * math.log10(3))  # 1595.424...
    assert r.ratings[1] == pytest.approx(1500 - 200 * math.log10(3))
    assert r.se[0] == pytest.approx(ELO * math.sqrt(1 / 3))  # 100.296...
    assert r.se[0] == pytest.approx(100.2960144, abs=1e-6)
    assert not r.virtual_draws


def test_bradley_terry_cycle_and_general_case() -> None:
    """A 2-1 cycle is a dead heat; L = 3/4 (3I - J), so each variance is (2/3) / (9/4)."""
    r = bradley_terry([[0, 2, 1], [1, 0, 2], [2, 1, 0]])
    assert r.ratings == pytest.approx((1500, 1500, 1500))
    assert r.se == pytest.approx([ELO * math.sqrt(8 / 27)] * 3)  # 94.560 each
    # An uneven table: the MLE matches each player's expected score to its actual score.
    wins = [[0, 7, 8], [3, 0, 6], [2, 4, 0]]
    r = bradley_terry(wins)
    assert sum(r.ratings) / 3 == pytest.approx(1500)
    for i in range(3):
        expected = sum(
            (wins[i][j] + wins[j][i]) / (1 + 10 ** ((r.ratings[j] - r.ratings[i]) / 400)) for j in range(3) if j != i
        )
        assert expected == pytest.approx(sum(wins[i]), abs=1e-9)
    assert r.ratings == pytest.approx((1628.6502, 1474.0983, 1397.2515), abs=1e-4)


def test_bradley_terry_perfect_record_adds_a_virtual_draw() -> None:
    r = bradley_terry([[0, 4], [0, 0]])
    assert r.virtual_draws
    assert r.ratings[0] - r.ratings[1] == pytest.approx(400 * math.log10(9))  # 4.5 against 0.5


def test_pair_scores() -> None:
    assert pair_scores(0, (21, 9)) == [(0, 1, 1.0)]
    assert pair_scores(-1, (18, 18)) == [(0, 1, 0.5)]
    assert pair_scores(1, (10, 22, 10)) == [(0, 1, 0.0), (0, 2, 0.5), (1, 2, 1.0)]
    assert pair_scores(2, (12, 3, 21)) == [(0, 1, 1.0), (0, 2, 0.0), (1, 2, 0.0)]


# --- executors ------------------------------------------------------------------------------------


def test_in_order_puts_chunks_back_in_order() -> None:
    done: list[int] = []
    chunks_done: list[tuple[int, list[Any]]] = [(2, ["c"]), (0, ["a1", "a2"]), (1, ["b"])]
    out: list[Any] = list(in_order(chunks_done, done.append))
    assert out == ["a1", "a2", "b", "c"]
    assert done == [1, 2, 1]
    _, tasks = plan(("greedy", "random"), make_rules("classic"), 50, 1)
    chunks = chunked(tasks, 2)
    assert [t for c in chunks for t in c] == tasks
    assert len(chunks) == 8


def _run(config: ArenaConfig, executor: Executor) -> dict[str, Any]:
    finished: list[int] = []
    result = run_arena(config, executor, finished.append)
    assert sum(finished) == len(result.tasks)
    # Through JSON text, as results.json holds it.
    return dict(json.loads(json.dumps(result.to_json())))


@pytest.fixture(scope="module")
def ray_executor() -> Iterator[RayExecutor]:
    """One local Ray (2 CPUs) for the executor cases, shut down when the module is done."""
    ray = pytest.importorskip("ray")

    assert not ray.is_initialized()
    start = time.perf_counter()
    executor = RayExecutor(workers=2)
    try:
        yield executor
    finally:
        executor.close()
        print(f"\nlocal Ray started, used and shut down in {time.perf_counter() - start:.1f} s")
    assert not ray.is_initialized()


class TestExecutors:
    """The same seed gives the same results on every executor."""

    @pytest.mark.parametrize("case", list(CASES))
    def test_identical_results_across_executors(self, case: str, ray_executor: RayExecutor) -> None:
        config = CASES[case]
        inprocess = _run(config, InProcessExecutor())
        process = _run(config, ProcessExecutor(workers=2))
        ray = _run(config, ray_executor)
        executors = (inprocess["timing"]["executor"], process["timing"]["executor"], ray["timing"]["executor"])
        assert executors == ("inprocess", "process", "ray")
        assert identical_part(process) == identical_part(inprocess)
        assert identical_part(ray) == identical_part(inprocess)
        # And the figures add up.
        summary = inprocess["summary"]
        games = inprocess["games"]
        assert len(games) == inprocess["settings"]["games"]
        assert sum(p["wins"] for p in summary["players"]) + sum(g["winner"] is None for g in games) == len(games)
        for p in summary["players"]:
            assert p["games"] == p["wins"] + p["losses"] + p["undecided"]
            assert p["win_rate_low"] <= p["win_rate"] <= p["win_rate_high"]
            assert p["rating_low"] < p["rating"] < p["rating_high"]
        assert sum(p["rating"] for p in summary["players"]) / len(summary["players"]) == pytest.approx(1500)


class FakeRay:
    """Just enough of ``ray`` to follow the executor's calls: tasks run at once, finish in reverse."""

    def __init__(self) -> None:
        self.inits: list[dict[str, Any]] = []
        self.shut = False

    def is_initialized(self) -> bool:
        return bool(self.inits) and not self.shut

    def init(self, **kwargs: Any) -> None:
        self.inits.append(kwargs)

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 3.0}

    def remote(self, fn: Any) -> Any:
        class Ref:  # hashable by identity, like an object ref
            def __init__(self, value: Any) -> None:
                self.value = value

        class Remote:
            @staticmethod
            def remote(*args: Any) -> Any:
                return Ref(fn(*args))

        return Remote

    def wait(self, refs: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        return refs[-num_returns:], refs[:-num_returns]

    def get(self, ref: Any) -> Any:
        return ref.value

    def shutdown(self) -> None:
        self.shut = True


def test_ray_address_joins_a_cluster_and_ships_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--address`` calls ``ray.init(address=...)`` with this package as a runtime py_module, uses
    the cluster's CPUs, and gathers results in task order however they finish."""
    import cassino
    from cassino.arena import executors

    fake = FakeRay()
    monkeypatch.setattr(executors, "import_ray", lambda: fake)
    executor = RayExecutor(address="ray://head:10001")
    assert fake.inits[0]["address"] == "ray://head:10001"
    assert fake.inits[0]["runtime_env"] == {"py_modules": [cassino]}
    assert executor.workers == 3
    config = CASES["classic 2p"]
    assert identical_part(_run(config, executor)) == identical_part(_run(config, InProcessExecutor()))
    executor.close()
    assert fake.shut


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from cassino.arena import make_executor

    monkeypatch.setitem(sys.modules, "ray", None)  # what an uninstalled module looks like to import
    with pytest.raises(RuntimeError, match=r"--executor ray needs Ray: pip install 'cassino\[arena\]'"):
        make_executor("ray")


def test_greedy_beats_random() -> None:
    """A sanity check of the whole pipeline: the stronger player comes out on top."""
    result = run_arena(ArenaConfig(("random", "greedy"), make_rules("classic"), 20, 3), InProcessExecutor())
    by_name = {p["player"]: p for p in result.summary["players"]}
    assert by_name["greedy"]["win_rate"] > 0.75
    assert by_name["greedy"]["rating"] > by_name["random"]["rating"]
    assert by_name["greedy"]["points_per_hand"] > by_name["random"]["points_per_hand"]


def test_duplicate_names_enter_twice() -> None:
    result = run_arena(ArenaConfig(("random", "random"), make_rules("classic"), 2, 1), InProcessExecutor())
    assert result.labels == ["random#1", "random#2"]


# --- output ---------------------------------------------------------------------------------------


def test_output_files(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")  # ratings.png; a plain install writes the rest with a note
    config = ArenaConfig(("greedy", "random", "random"), make_rules("classic"), 2, 4)
    result = run_arena(config, InProcessExecutor())
    written, note = write_outputs(result, tmp_path / "out")
    assert note is None
    assert [p.name for p in written] == ["results.json", "results.csv", "ratings.png"]

    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["format"] == "cassino-arena/1"
    assert data["settings"]["seed"] == 4
    assert data["settings"]["tables"] == [["greedy", "random#1"], ["greedy", "random#2"], ["random#1", "random#2"]]
    assert len(data["games"]) == 12
    assert [p["player"] for p in data["summary"]["players"]] == ["greedy", "random#1", "random#2"]
    assert len(data["summary"]["pairwise"]) == 3
    assert "Fisher information" in data["summary"]["ratings"]["interval"]

    with (tmp_path / "out" / "results.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12
    for row, game in zip(rows, data["games"], strict=True):
        assert int(row["game"]) == game["game"]
        assert row["winner"] == (game["winner"] or "")
        assert [int(s) for s in row["scores"].split(";")] == game["scores"]
        assert row["seats"].split(";") == game["seats"]

    png = (tmp_path / "out" / "ratings.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    import matplotlib.image

    assert matplotlib.image.imread(tmp_path / "out" / "ratings.png").shape[2] in (3, 4)


def test_progress_is_silent_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    progress = Progress(10)
    progress.update(10)
    progress.close()
    assert capsys.readouterr().err == ""


# --- the command line -----------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COMMAND, "arena", *args], capture_output=True, text=True, timeout=120)


def test_cli_match(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = run_cli("greedy", "random", "--games", "3", "--seed", "5", "--workers", "2", "--out", str(tmp_path), "-q")
    assert out.returncode == 0, out.stderr
    assert "greedy vs random: classic, 2 players" in out.stdout
    assert "3 deals x 2 seatings = 6 games; seed 5" in out.stdout
    assert "executor process (2 workers)" in out.stdout
    assert out.stderr == ""
    assert {p.name for p in tmp_path.iterdir()} == {"results.json", "results.csv", "ratings.png"}
    again = run_cli(
        "greedy", "random", "--games", "3", "--seed", "5", "--executor", "inprocess", "--out", str(tmp_path / "b")
    )
    first = json.loads((tmp_path / "results.json").read_text())
    second = json.loads((tmp_path / "b" / "results.json").read_text())
    assert again.returncode == 0
    assert identical_part(first) == identical_part(second)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy", "nobody"], "unknown player 'nobody'; the players are: alphamu, beginner, "),
        (["random", "greedy:bogus=3"], "greedy takes no settings, got 'bogus'"),
        (["greedy"], "name at least two players, got 1"),
        (["greedy", "random", "--players", "3"], "seats 3 players: name at least 3, got 2"),
        (["greedy", "random", "-o", "bogus=1"], "unknown rule option 'bogus'"),
        (["greedy", "random", "-o", "players=3"], "players is not a rule option: choose it with --players"),
        (["greedy", "random", "--players", "3", "--partnerships"], "partnerships need 4 players"),
        (["greedy", "random", "--games", "0"], "--games must be 1 or more, got 0"),
        (["greedy", "random", "--workers", "0"], "workers must be 1 or more, got 0"),
        (["greedy", "random", "--executor", "process", "--address", "x:1"], "use it with --executor ray"),
    ],
)
def test_cli_errors(args: list[str], message: str) -> None:
    out = run_cli(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("cassino arena: ")
    assert message in lines[0]
