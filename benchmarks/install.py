"""What a regular install's compiled engine is worth: one commit built and installed twice by
``pip install`` into fresh venvs, compiled (where a C compiler is present) and with
``CASSINO_PURE=1``, and ``cassino perft POSITION 4`` timed with each from another folder, in one run.

    python benchmarks/install.py                      # HEAD, 5 repeats
    python benchmarks/install.py --commit HEAD~3 --repeats 9

Each figure is the wall time of the whole command as a user runs it (interpreter start, import,
perft), the best of the repeats; the two builds take turns in each repeat, so both meet the same
noise. ``cassino perft POSITION 0`` times the start alone, to show what the perft itself costs. The
position is a Royal Casino table of 14 cards, whose 4 plies take about a second compiled: long
enough that the start does not hide the engine. Both builds must print its count.

It needs the package index pip is configured with (the build environment: setuptools, mypy), and
takes a few minutes: the compiled build runs mypyc and the C compiler.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POSITION = {
    "rules": {"preset": "royal", "players": 2, "partnerships": False},
    "dealer": 0,
    "to_move": 0,
    "table": ["Ah", "2d", "5h", "6c", "6d", "7d", "9d", "Jh", "Js", "Qc", "Qs", "Kc", "Kd", "Ks"],
    "hands": [["2s"], []],
    "stock": ["4h", "9s", "5c", "Qd", "Ac", "Qh", "2c", "Kh", "Jc", "8h", "Th", "6s", "3c", "9h", "Td", "4s"],
    "captured": [
        ["Ad", "2h", "3d", "3h", "4c", "4d", "5s", "6h", "7c", "7s", "8c", "8d", "9c", "Tc", "Ts", "Jd"],
        ["As", "3s", "5d", "7h", "8s"],
    ],
    "sweeps": [],
    "last_capturer": 0,
    "scores": [0, 0],
    "winner": None,
}
DEPTH = 4
COUNT = 3_328_006
"""``perft(POSITION, 4)``, as both engines and the brute-force reference of tests/ count it."""
BUILDS = {"compiled": "engine compiled with mypyc", "pure": "pure Python engine: installed without compiling"}
"""Each build, and what its ``cassino --version`` must say in brackets."""


def export(commit: str, into: Path) -> None:
    """The commit's tracked files, as ``git archive`` gives them (no build output of this tree)."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def install(commit: str, build: str, folder: Path) -> Path:
    """The ``cassino`` command of a fresh venv into which pip installed the commit (``pip install
    SOURCE``, with ``CASSINO_PURE=1`` for the pure build); its ``--version`` is checked."""
    source = folder / "source"
    export(commit, source)
    venv.create(folder / "venv", with_pip=False)
    python = folder / "venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "CASSINO_PURE"} | (
        {"CASSINO_PURE": "1"} if build == "pure" else {}
    )
    start = time.perf_counter()
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(source)]
    subprocess.run(pip, env=env, check=True)
    print(f"{build:<9} built and installed in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    command = folder / "venv" / "bin" / "cassino"
    version = run(command, "--version").strip()
    if not version.endswith(f"({BUILDS[build]})"):
        sys.exit(f"the {build} build says {version!r}: no comparison (is a C compiler present?)")
    return command


def run(command: Path, *args: str) -> str:
    """What the installed command prints, run from a folder of its own, without PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CASSINO_PURE")}
    cwd = command.parent.parent.parent
    return subprocess.run([str(command), *args], cwd=cwd, env=env, capture_output=True, text=True, check=True).stdout


def timed(command: Path, depth: int) -> float:
    """Seconds for ``cassino perft POSITION DEPTH``, whose count is checked."""
    start = time.perf_counter()
    out = run(command, "perft", json.dumps(POSITION), str(depth))
    seconds = time.perf_counter() - start
    want = COUNT if depth == DEPTH else 1
    if int(out) != want:
        sys.exit(f"{command}: perft {depth} printed {out.strip()}, not {want}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to build (default HEAD)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each command with each build (best is kept)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.commit], capture_output=True, text=True, check=True
    ).stdout.strip()
    times: dict[str, dict[int, list[float]]] = {build: {0: [], DEPTH: []} for build in BUILDS}
    with tempfile.TemporaryDirectory(prefix="cassino-install-") as tmp:
        commands = {build: install(commit, build, Path(tmp, build)) for build in BUILDS}
        for build in BUILDS:  # a first run of each, not timed: the first start reads the files from disk
            timed(commands[build], 0)
        for _ in range(args.repeats):
            for build in BUILDS:
                for depth in (0, DEPTH):
                    times[build][depth].append(timed(commands[build], depth))

    best = {build: {depth: min(runs) for depth, runs in by_depth.items()} for build, by_depth in times.items()}
    print(f"commit {commit}: cassino perft POSITION {DEPTH} ({COUNT:,} leaves), best of {args.repeats}, wall time")
    for build in BUILDS:
        b = best[build]
        print(
            f"{build:<9} {b[DEPTH]:7.3f} s (median {statistics.median(times[build][DEPTH]):.3f} s); "
            f"start alone (perft 0) {b[0]:.3f} s; perft itself {b[DEPTH] - b[0]:.3f} s"
        )
    whole = best["pure"][DEPTH] / best["compiled"][DEPTH]
    engine = (best["pure"][DEPTH] - best["pure"][0]) / (best["compiled"][DEPTH] - best["compiled"][0])
    print(f"ratio     pure / compiled: {whole:.2f}x the whole command, {engine:.2f}x the perft itself")
    if args.json:
        figures = {"commit": commit, "count": COUNT, "repeats": args.repeats, "times": times, "best": best}
        figures |= {"ratio_command": whole, "ratio_perft": engine}
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
