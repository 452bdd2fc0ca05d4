"""The examples in the engine's docstrings run as written, so the documented API cannot drift from it.

A fixed list of engine modules rather than pytest's ``--doctest-modules``: that would import every
module of the package, and the apps' modules need extras (Textual, FastAPI, Ray, ...) that a plain
install lacks. The summary line of the run gives each module's count of examples.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES: tuple[str, ...] = (
    "cassino.cards",
    "cassino.cardset",
    "cassino.moves",
    "cassino.rules",
    "cassino.game",
    "cassino.notation",
    "cassino.club.ratings",
    "cassino.club.chat",
    "cassino.club.seeks",
    "cassino.club.duplicate",
    "cassino.club.standings",
    "cassino.club.pairing",
)
"""The engine modules whose public API is shown by example in its docstrings."""

NO_EXAMPLES_YET: frozenset[str] = frozenset()
"""Modules still without examples: skipped. Once a module has some, it must leave this set, so that
losing them all later fails instead of skipping."""


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_pass(name: str, doctest_counts: dict[str, int]) -> None:
    """Every example of the module gives the output written under it (``...`` elides a part)."""
    module = importlib.import_module(name)
    if not (module.__file__ or "").endswith(".py"):
        pytest.skip(f"{name} is compiled (doctest sees no Python functions): its examples run on the pure engine")
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    doctest_counts[name] = attempted
    assert failed == 0, f"{name}: {failed} of {attempted} examples failed (see the captured output for which)"
    if name in NO_EXAMPLES_YET:
        assert not attempted, f"{name} has {attempted} examples now: take it out of NO_EXAMPLES_YET"
        pytest.skip(f"{name} has no docstring examples yet")
    assert attempted > 0, f"{name} lost its docstring examples"
