"""The engine's perft against the two perft files, and perft's own contract.

``perft_public.jsonl`` comes from an independent implementation; ``perft_golden.jsonl`` from the
brute-force reference (``make_golden.py``, positions picked for deals, hand ends, builds, royal
aces, partnerships and large tables).  Depths 1-4 reach far more positions than the files name,
the transitions between moves (draws, deals, the end of a hand) included.  Also: ``divide``
splits perft by first move exactly (one entry per legal move, counts summing to perft), and
neither leaves a trace on the position (push/pop restores it, JSON for JSON).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cassino.moves import format_code
from cassino.notation import position_from_json, position_to_json
from cassino.perft import divide, perft

DATA = Path(__file__).resolve().parent / "data"


def _load(name: str) -> list[dict[str, Any]]:
    """The lines of one perft file: {"position": ..., "perft": {"1": n1, ..., "4": n4}}."""
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


FILES: dict[str, list[dict[str, Any]]] = {
    "public": _load("perft_public.jsonl"),
    "golden": _load("perft_golden.jsonl"),
}
CASES: list[tuple[str, int]] = [(name, line) for name, lines in FILES.items() for line in range(len(lines))]


def test_files_are_complete() -> None:
    """Guard against a truncated file silently shrinking the check."""
    assert len(FILES["public"]) == 60
    assert len(FILES["golden"]) >= 40
    for lines in FILES.values():
        assert all(sorted(entry["perft"]) == ["1", "2", "3", "4"] for entry in lines)


@pytest.mark.parametrize(("name", "line"), CASES, ids=[f"{name}-{line}" for name, line in CASES])
def test_perft(name: str, line: int) -> None:
    """Depths 1-4 equal the file's counts, and counting leaves the position as it was."""
    entry = FILES[name][line]
    state = position_from_json(entry["position"])
    before = position_to_json(state)
    got = {str(depth): perft(state, depth) for depth in range(1, 5)}
    assert got == entry["perft"], f"{name} line {line}: {json.dumps(entry['position'])}"
    assert perft(state, 0) == 1
    assert position_to_json(state) == before
    assert state.moves_played == 0


@pytest.mark.parametrize(("name", "line"), CASES, ids=[f"{name}-{line}" for name, line in CASES])
def test_divide(name: str, line: int) -> None:
    """divide at depth 3: one entry per legal move, sorted, summing to the depth-3 count."""
    entry = FILES[name][line]
    state = position_from_json(entry["position"])
    before = position_to_json(state)
    split = divide(state, 3)
    moves = [move for move, _ in split]
    assert moves == sorted(format_code(code) for code in state.legal_codes())
    assert sum(count for _, count in split) == entry["perft"]["3"]
    assert position_to_json(state) == before
    assert state.moves_played == 0
    # Depth 1: each first move is one sequence.
    assert divide(state, 1) == [(move, 1) for move in moves]
