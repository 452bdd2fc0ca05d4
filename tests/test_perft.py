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
import time
from pathlib import Path
from typing import Any

import pytest

from cassino.cards import CARD_NAMES
from cassino.game import Game
from cassino.movegen import families, generate, iter_sorted_moves
from cassino.moves import format_code
from cassino.notation import position_from_json, position_to_json
from cassino.partition import LazyCardSets, vector_of
from cassino.perft import divide, iter_divide, moves_left, perft
from cassino.rules import make_rules
from cassino.state import State

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


# ----------------------------------------------------------------------------- past the end of the hand


def naive_perft(state: State, depth: int) -> int:
    """Perft by the definition alone: every sequence of ``depth`` moves, one by one."""
    if depth == 0:
        return 1
    total = 0
    for code in state.legal_codes():
        state.push(code)
        total += naive_perft(state, depth - 1)
        state.pop()
    return total


def late_state(left: int) -> State:
    """A three-player royal hand played (first legal move each time) until ``left`` moves remain."""
    game = Game(make_rules("royal", players=3), seed=5)
    while moves_left(game.state) > left:
        game.push(game.state.legal_codes()[0])
    return game.state


def test_moves_left_is_the_length_of_every_line() -> None:
    state = late_state(5)
    assert moves_left(state) == 5
    for _ in range(5):
        assert not state.hand_over
        state.push(state.legal_codes()[-1])
    assert state.hand_over and moves_left(state) == 0


@pytest.mark.parametrize("left", [0, 1, 4])
def test_perft_past_the_end_is_the_exact_count_zero(left: int) -> None:
    """A finished hand counts 0 at every depth above 0, so every depth past the moves left does too."""
    state = late_state(left)
    for depth in range(left + 1, left + 3):
        assert perft(state, depth) == naive_perft(state, depth) == 0
    assert perft(state, left) == naive_perft(state, left) >= 1


def test_perft_of_a_huge_depth_is_instant() -> None:
    state = position_from_json(FILES["public"][0]["position"])
    start = time.perf_counter()
    assert perft(state, 10**23) == 0
    assert divide(state, 10**23) == [(line, 0) for line, _ in divide(state, 1)]
    assert time.perf_counter() - start < 1.0
    with pytest.raises(ValueError, match="0 or more"):
        perft(state, -1)


# ----------------------------------------------------------------------------- streaming in order


def old_sorted(state: State) -> list[str]:
    """The move list as ``cassino moves`` printed it before it streamed: every line, sorted."""
    return sorted(format_code(code) for code in generate(state))


@pytest.mark.parametrize(("name", "line"), CASES, ids=[f"{name}-{line}" for name, line in CASES])
def test_streamed_moves_are_the_sorted_list(name: str, line: int) -> None:
    state = position_from_json(FILES[name][line]["position"])
    streamed = list(iter_sorted_moves(state))
    assert [text for text, _ in streamed] == old_sorted(state)
    assert all(format_code(code) == text for text, code in streamed)
    assert list(iter_divide(state, 2)) == sorted(divide(state, 2))


@pytest.mark.parametrize("preset", ["classic", "royal", "spade", "draw"])
def test_streamed_moves_along_random_games(preset: str) -> None:
    game = Game(make_rules(preset, players=4), seed=11)
    while not game.over and game.state.moves_played < 400:
        state = game.state
        assert [text for text, _ in iter_sorted_moves(state)] == old_sorted(state)
        codes = state.legal_codes()
        game.push(codes[(state.moves_played * 7) % len(codes)])


def big_table(ranks: str, extra: list[str], hand: list[str], royal: bool = False) -> State:
    """Every card of ``ranks`` and ``extra`` loose, seat 0 to move with ``hand`` (as
    benchmarks/engine.py's huge table, smaller)."""
    table = [n for n in CARD_NAMES if n[0] in ranks] + extra
    other = ["Qs", "Js", "Kh", "Ks"]
    rest = [n for n in CARD_NAMES if n not in table and n not in hand and n not in other]
    position: dict[str, Any] = {"table": table, "hands": [hand, other], "captured": [rest, []], "to_move": 0}
    if royal:
        position["rules"] = {"preset": "royal"}
    return position_from_json(position)


@pytest.mark.parametrize(
    "state",
    [
        big_table("A23", ["4c", "4d", "5h"], ["6h", "8c", "9c", "Tc"]),
        big_table("A234", ["Jc", "Qd"], ["Kc", "8c", "9c", "Tc"], royal=True),
    ],
    ids=["classic-lazy", "royal-lazy"],
)
def test_streamed_moves_of_lazy_sets_are_the_sorted_list(state: State) -> None:
    """Tables of tens of thousands of moves, whose sets are lazy: merged runs, same order."""
    fams, _trails = families(state)
    assert any(isinstance(sets, LazyCardSets) for _head, sets, _parts in fams)
    assert [text for text, _ in iter_sorted_moves(state)] == old_sorted(state)


def test_lazy_sets_by_vector_are_their_iteration_in_groups() -> None:
    """``LazyCardSets.by_vector``, what the sorted stream merges: the sets one group per value
    vector, all of a group with that vector, the groups in a row being the iteration itself."""
    state = big_table("A23", ["4c", "4d", "5h"], ["6h", "8c", "9c", "Tc"])
    lazy = [sets for _head, sets, _parts in families(state)[0] if isinstance(sets, LazyCardSets)]
    assert lazy
    for sets in lazy:
        groups = [list(group) for group in sets.by_vector()]
        assert [s for group in groups for s in group] == list(sets)
        assert sum(map(len, groups)) == len(sets)
        assert all(len({vector_of(s) for s in group}) == 1 for group in groups)


def test_plain_perft_streams_the_root_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth 2 on a table of tens of thousands of moves: the root's moves are never listed (a
    table of millions would need gigabytes), and the count is divide's."""
    state = big_table("A23", ["4c", "4d", "5h"], ["6h", "8c", "9c", "Tc"])
    want = sum(n for _line, n in iter_divide(state, 2))
    listed_count = 0
    for code in generate(state):
        state.push(code)
        listed_count += perft(state, 1)
        state.pop()
    assert want == listed_count

    def listed(_state: State) -> list[int]:
        raise AssertionError("perft listed the moves of the position")

    monkeypatch.setattr(State, "legal_codes", listed)
    assert perft(state, 2) == want
