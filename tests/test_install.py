"""A plain ``pip install -e .`` (no extras) is enough for the engine and for ``pytest tests/``: the
test modules of the extras skip themselves (``pytest.importorskip``), which CI must never do."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

EXTRAS = {
    "numpy": "rl",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "rl",
    "textual": "tui",
    "ray": "arena",
    "matplotlib": "arena",
    "tqdm": "arena",
    "fastapi": "web",
    "uvicorn": "web",
    "sqlalchemy": "web",
    "babel": "web",
    "argon2": "web",
    "httpx": "test",
    "websockets": "test",
    "playwright": "test",
    "pdoc": "test",
}
"""The modules the extras' test modules skip without, and the extra that installs each."""


def test_ci_has_every_extra() -> None:
    """Under CASSINO_CI=1 a missing extra would turn its tests into skips: fail instead."""
    if os.environ.get("CASSINO_CI") != "1":
        pytest.skip("only CI (CASSINO_CI=1) must have every extra installed")
    missing = [f"{module} ({extra})" for module, extra in EXTRAS.items() if importlib.util.find_spec(module) is None]
    assert not missing, f"CASSINO_CI=1 but extras are missing: {', '.join(missing)}"


def test_engine_and_fair_deals_import_no_extra() -> None:
    """``import cassino`` and ``cassino.web.fair`` (the deal check) pull in no extra's library,
    so they work after a plain install; a fresh interpreter shows what each import loads."""
    code = (
        "import sys, cassino, cassino.web, cassino.web.fair, cassino.players; "
        f"print(sorted(m for m in {sorted(EXTRAS)!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
