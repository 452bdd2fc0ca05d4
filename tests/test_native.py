"""The compiled engine and its pure Python fallback: ``cassino.COMPILED`` says which runs, CI runs
the compiled one, a source edited after the build runs as source, and both give the same perft
counts, move sets, games and records."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

import cassino
from cassino import native
from cassino.arena import ArenaConfig, InProcessExecutor, identical_part, play_hands, run_arena
from cassino.game import Game
from cassino.notation import position_from_json, position_to_json
from cassino.perft import perft
from cassino.players import make_player
from cassino.players.base import decide
from cassino.record import record_of_game, write_record
from cassino.rules import make_rules

DATA = Path(__file__).resolve().parent / "data"


def test_compiled_says_which_engine_runs() -> None:
    import cassino.movegen
    import cassino.state

    extension = cassino.state.__file__ is not None and not cassino.state.__file__.endswith(".py")
    assert cassino.COMPILED is native.COMPILED is extension
    assert (cassino.movegen.__file__ or "").endswith(".py") is not extension  # all or none
    assert (native.WHY_PURE == "") is cassino.COMPILED
    if os.environ.get("CASSINO_PURE") == "1":
        assert native.WHY_PURE == "CASSINO_PURE=1"


def test_ci_runs_the_compiled_engine_where_it_can_be_built() -> None:
    if os.environ.get("CASSINO_CI") != "1" or os.environ.get("CASSINO_PURE") == "1":
        pytest.skip("only CI's main run (CASSINO_CI=1, not CASSINO_PURE=1) must run the compiled engine")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}) on this machine: the pure engine is the right build")
    assert cassino.COMPILED, f"CI has a C compiler but runs the pure engine: {native.WHY_PURE}"


def test_version_names_the_engine_build() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cassino.cli", "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == f"cassino {cassino.__version__} ({native.describe()})"


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiled: bool = True) -> Path:
    """A copy of the compiled modules' sources with a build record (and stand-ins for their
    extension files), which ``native`` is pointed at."""
    for name in native.COMPILED_MODULES:
        source = native.source_of(name)
        copy = tmp_path.joinpath(source.relative_to(native.PACKAGE))
        copy.parent.mkdir(exist_ok=True)
        shutil.copy(source, copy)
        if compiled:
            copy.with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0]).write_bytes(b"")
    monkeypatch.setattr(native, "PACKAGE", tmp_path)
    monkeypatch.delenv("CASSINO_PURE", raising=False)
    return tmp_path


def _record(package: Path) -> None:
    sources = {n: hashlib.sha256(native.source_of(n).read_bytes()).hexdigest() for n in native.COMPILED_MODULES}
    (package / native.BUILD_RECORD).write_text(json.dumps({"sources": sources}))


def test_the_build_record_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch)
    assert native._why_not_compiled() == "installed without compiling"
    _record(package)
    assert native._why_not_compiled() == ""
    monkeypatch.setenv("CASSINO_PURE", "1")
    assert native._why_not_compiled() == "CASSINO_PURE=1"
    monkeypatch.delenv("CASSINO_PURE")
    with (package / "movegen.py").open("a") as f:
        f.write("\n# edited after the build\n")
    with pytest.warns(UserWarning, match=r"movegen\.py changed since the engine was compiled"):
        assert native._why_not_compiled() == "movegen.py changed since the build"
    (package / native.BUILD_RECORD).write_text("{not json")
    assert native._why_not_compiled() == f"{native.BUILD_RECORD} is unreadable"


def test_a_missing_extension_file_means_the_source_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = _package(tmp_path, monkeypatch)
    _record(package)
    (package / f"state{importlib.machinery.EXTENSION_SUFFIXES[0]}").unlink()
    assert native._why_not_compiled() == "the compiled state module is missing"
    (package / f"state{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    assert native._why_not_compiled() == ""
    (package / "players" / f"search{importlib.machinery.EXTENSION_SUFFIXES[0]}").unlink()
    assert native._why_not_compiled() == "the compiled players.search module is missing"


# ------------------------------------------------------------------ the same answers


def answers() -> dict[str, Any]:
    """Perft counts of the golden positions (to depth 2), the move lines of each, three seeded
    games between computer players with their records, a mirrored batch of ``play_hands`` and an
    arena's results: what both engines must agree on."""
    out: dict[str, Any] = {"perft": [], "moves": [], "games": []}
    lines = (DATA / "perft_golden.jsonl").read_text().splitlines()[:40]
    for line in lines:
        state = position_from_json(json.loads(line)["position"])
        out["perft"].append([perft(state, d) for d in (1, 2)])
        out["moves"].append(sorted(str(m) for m in state.legal_moves()))
    for seed, preset, players in ((1, "classic", 2), (2, "royal", 3), (3, "spade", 4)):
        game = Game(make_rules(preset, players=players), seed=seed)
        seats = [make_player(("greedy", "heuristic", "random")[i % 3], seed + i) for i in range(players)]
        while not game.over:
            game.play(decide(seats[game.state.to_move], game.state))
        record = write_record(record_of_game(game, {"Event": "native"}, [f"p{i}" for i in range(players)]))
        out["games"].append({"scores": list(game.scores), "record": record})
    batch = play_hands(
        make_rules("royal"), [make_player("heuristic", 1), make_player("random", 2)], 4, seed=9, mirror=True
    )
    out["batch"] = {"points": batch.points, "codes": batch.codes.tolist(), "starts": batch.starts.tolist()}
    config = ArenaConfig(("heuristic", "greedy"), make_rules("classic"), deals=2, seed=4)
    out["arena"] = identical_part(json.loads(json.dumps(run_arena(config, InProcessExecutor()).to_json())))
    return out


def test_the_pure_engine_gives_the_same_answers() -> None:
    env = {**os.environ, "CASSINO_PURE": "1"}
    code = "import json, test_native; print(json.dumps(test_native.answers()))"
    here = Path(__file__).resolve().parent
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=here, capture_output=True, text=True, check=True, timeout=600
    )
    theirs = json.loads(done.stdout)
    ours = answers()
    assert theirs["perft"] == ours["perft"]
    assert theirs["moves"] == ours["moves"]
    assert theirs["games"] == ours["games"]


def test_engine_values_pickle_and_copy_compiled_or_not() -> None:
    """A compiled class has no ``__dict__`` and a compiled frozen dataclass cannot be set field by
    field: the engine's values say how to rebuild themselves, and a copy keeps its undo history."""
    import copy
    import pickle

    from cassino.view import view_of

    game = Game(make_rules("classic"), seed=4)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    state = game.state
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert again is not state and position_to_json(again) == position_to_json(state)
        assert again.history == state.history
        again.pop()
        assert again.moves_played == state.moves_played - 1 and state.moves_played == 5
    move = game.legal_moves()[0]
    assert pickle.loads(pickle.dumps(move)) == move == copy.deepcopy(move)
    view = view_of(state, 0)
    assert pickle.loads(pickle.dumps(view)) == view == copy.deepcopy(view)
    finished = Game(make_rules("classic"), seed=6)
    while len(finished.hands) == 1:
        finished.play(finished.legal_moves()[0])
    result = finished.hands[0].result
    assert result is not None and pickle.loads(pickle.dumps(result)) == result == copy.deepcopy(result)


DOCS_CHECK = """
import inspect, json, pydoc, sys
import importlib.machinery
import cassino
from cassino import native
from cassino.docstrings import source_docstrings

out = {"compiled": cassino.COMPILED, "missing": [], "wrong": [], "kept": 0}
for name in native.COMPILED_MODULES:
    module = __import__(f"cassino.{name}", fromlist=["_"])
    source = str(native.source_of(name))
    code = importlib.machinery.SourceFileLoader(module.__name__, source).get_code(module.__name__)
    for qualname, doc in source_docstrings(code).items():
        obj = module
        for part in filter(None, qualname.split(".")):
            obj = inspect.getattr_static(obj, part, None)
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        last = qualname.rpartition(".")[2]
        if obj is None or "<locals>" in qualname or (last.startswith("__") and last.endswith("__")):
            continue  # a nested function, or a special method's slot wrapper: nothing to document
        got = getattr(obj, "__doc__", None)
        where = f"{module.__name__}:{qualname or '(module)'}"
        if not got:
            out["missing"].append(where)
        elif inspect.cleandoc(got) != inspect.cleandoc(doc):
            out["wrong"].append(where)
        else:
            out["kept"] += 1
from cassino import State
from cassino.playout import playout, random_hands
text = pydoc.render_doc(State, renderer=pydoc.plaintext)
out["help"] = [State.__doc__.splitlines()[0] in text, State.push.__doc__.splitlines()[0] in text]
out["signature"] = str(inspect.signature(State.push))
out["first_lines"] = [f.__doc__.splitlines()[0] for f in (State, State.push, playout, random_hands)]
print(json.dumps(out))
"""


def test_the_compiled_engine_keeps_every_docstring() -> None:
    """mypyc keeps no docstring (``help(cassino.State)`` was empty): every function, class, method
    and property of each compiled module has its source's docstring back, signatures kept."""
    env = {k: v for k, v in os.environ.items() if k != "CASSINO_PURE"}
    done = subprocess.run([sys.executable, "-c", DOCS_CHECK], env=env, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    if not found["compiled"]:
        if os.environ.get("CASSINO_CI") == "1" and os.environ.get("CASSINO_PURE") != "1":
            pytest.fail("CASSINO_CI=1 runs the compiled engine, but it is not built here")
        pytest.skip("the engine is not compiled here")
    assert (found["missing"], found["wrong"]) == ([], [])
    assert found["kept"] > 250
    assert found["help"] == [True, True]
    assert found["signature"] == "(self, /, code)"
    assert found["first_lines"] == [
        "One hand of Casino in progress (or finished), with undo.",
        "Apply a move code, then draw, deal or end the hand: unchecked, the fast path of search",
        "Play uniformly random legal moves until the hand is over; the number of moves played.",
        "Deal ``hands`` hands from one seed (``cards.shuffled_deck``, the dealers taking turns) and",
    ]
