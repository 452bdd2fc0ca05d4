"""Running the ``cassino`` command in tests: the command, its user errors, and the public perft cases
the command-line tests start from (shared by the command's test files, never imported from one)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from cassino.notation import position_from_json

DATA = Path(__file__).parent / "data" / "perft_public.jsonl"
LINES = 4
"""How many positions of the public perft file to check (the first ones)."""

SCRIPT = Path(sys.executable).parent / "cassino"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cassino.cli"]


def perft_cases() -> list[tuple[dict[str, Any], dict[str, int]]]:
    """(position, {depth: count}) from the first lines of the public perft file."""
    out = []
    with DATA.open() as f:
        for _, line in zip(range(LINES), f, strict=False):
            row = json.loads(line)
            out.append((row["position"], {k: int(v) for k, v in row["perft"].items()}))
    return out


CASES = perft_cases()


def cassino(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command with arguments; never raises on a non-zero exit."""
    return subprocess.run([*COMMAND, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False)


def ok(*args: str, stdin: str | None = None) -> str:
    """Run the command, require success and a silent stderr, return stdout."""
    proc = cassino(*args, stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def fails(*args: str, stdin: str | None = None) -> str:
    """Run the command, require a user-error exit (status 2), nothing on stdout, one line on stderr."""
    proc = cassino(*args, stdin=stdin)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    message = proc.stderr.strip()
    assert message and "\n" not in message and "Traceback" not in message, proc.stderr
    return message


def engine_moves(position: dict[str, Any]) -> list[str]:
    """The legal moves as the library lists them."""
    return [str(m) for m in position_from_json(position).legal_moves()]
