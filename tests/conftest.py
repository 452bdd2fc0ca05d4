"""Shared test plumbing: counts shown at the end of the run, and the web app's test client.

The cross-check asserts its counts chunk by chunk; the summary line says how many positions were
compared with the reference in this run, and how many were skipped as too large for it. The
doctests' line says how many docstring examples each engine module has, so a module without any
shows up in every run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_STATS = pytest.StashKey[dict[str, int]]()
_DOCTESTS = pytest.StashKey[dict[str, int]]()


@pytest.fixture(scope="session")
def crosscheck_stats(pytestconfig: pytest.Config) -> dict[str, int]:
    """Counts of the cross-check in this session (``compared``, ``skipped``)."""
    return pytestconfig.stash.setdefault(_STATS, {})


@pytest.fixture(scope="session")
def doctest_counts(pytestconfig: pytest.Config) -> dict[str, int]:
    """Docstring examples run per module in this session (``test_doctests.py``)."""
    return pytestconfig.stash.setdefault(_DOCTESTS, {})


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """Report the cross-check's and the doctests' counts, when they ran in this process."""
    stats = config.stash.get(_STATS, None)
    if stats:
        terminalreporter.write_line(
            f"cross-check: {stats.get('compared', 0)} positions compared with the reference, "
            f"{stats.get('skipped', 0)} skipped (table too large for it)"
        )
    doctests = config.stash.get(_DOCTESTS, None)
    if doctests:
        modules = ", ".join(f"{name} {count}" for name, count in doctests.items())
        terminalreporter.write_line(f"doctests: {sum(doctests.values())} examples run ({modules})")


@pytest.fixture
def one_torch_thread() -> None:
    """PyTorch on one thread, for the same numbers on every machine (the training tests, which
    skip themselves without the train extra)."""
    import torch

    torch.set_num_threads(1)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """A test client of the web app on a fresh SQLite database, computer players moving at once.
    (The web extra is imported here, not at the top, so the engine's tests need none of it.)"""
    from fastapi.testclient import TestClient

    from cassino.web import create_app

    with TestClient(create_app(database=f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, rate_limits=False)) as c:
        yield c
