"""Shared test plumbing: the cross-check's position counts, shown at the end of the run.

The cross-check asserts its counts chunk by chunk; the summary line says how many positions were
compared with the reference in this run, and how many were skipped as too large for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_STATS = pytest.StashKey[dict[str, int]]()


@pytest.fixture(scope="session")
def crosscheck_stats(pytestconfig: pytest.Config) -> dict[str, int]:
    """Counts of the cross-check in this session (``compared``, ``skipped``)."""
    return pytestconfig.stash.setdefault(_STATS, {})


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """Report the cross-check's counts, when it ran in this process."""
    stats = config.stash.get(_STATS, None)
    if stats:
        terminalreporter.write_line(
            f"cross-check: {stats.get('compared', 0)} positions compared with the reference, "
            f"{stats.get('skipped', 0)} skipped (table too large for it)"
        )


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """A test client of the web app on a fresh SQLite database, computer players moving at once.
    (The web extra is imported here, not at the top, so the engine's tests need none of it.)"""
    from fastapi.testclient import TestClient

    from cassino.web import create_app

    with TestClient(create_app(database=f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)) as c:
        yield c
