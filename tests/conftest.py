"""Shared test plumbing: the cross-check's position counts, shown at the end of the run.

The cross-check asserts its counts chunk by chunk; the summary line says how many positions were
compared with the reference in this run, and how many were skipped as too large for it.
"""

from __future__ import annotations

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
