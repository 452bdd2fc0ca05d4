"""What the tests of accounts, and of what builds on them (ratings, seeks, leaving a game), share:
a password, a cheap Argon2id for speed, the test client's origin, a database of each kind, accounts
made straight in the store, an error answer's status and words, and the first rated game's
Glicko-2 figures worked out apart from the code under test."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from argon2 import PasswordHasher

from cassino.club.accounts import AccountRow
from cassino.web.store import database_url
from web_support import postgres_url

if TYPE_CHECKING:
    import httpx

    from cassino.web.service import GameService

PASSWORD = "correct horse battery"
QUICK = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2id with the least work, so that a test signs up many accounts quickly."""
ORIGIN = "http://testserver"
"""The origin of ``TestClient``'s requests: the page's own."""
SCALE = 173.7178
"""Glicko-2's scale between a rating and its mu."""


def each_database(kind: str, tmp_path: Path) -> str:
    """A fresh database of the kind named (``sqlite`` or ``postgresql``)."""
    return database_url(None, tmp_path) if kind == "sqlite" else database_url(postgres_url())


def stored_accounts(service: GameService, names: list[str]) -> list[str]:
    """Accounts made straight in the store (no password: these never sign in); their ids."""
    ids = []
    for name in names:
        account = AccountRow(f"id-{name.lower()}", name, "", 0.0)
        assert service.store.accounts.add_account(account, name.lower())
        ids.append(account.id)
    return ids


def error(r: httpx.Response) -> tuple[int, str]:
    """An error answer's status and its words."""
    return r.status_code, r.json()["error"]


def first_game(score: float) -> tuple[float, float]:
    """The rating and RD after a first rated game between two new players (1500, RD 350), from the
    Glicko-2 paper's steps: g(phi), E, v, then phi' = 1/sqrt(1/phi^2 + 1/v) (no rating period of
    time passed before it, so step 6 adds nothing) and mu' = phi'^2 g (s - E)."""
    phi = 350 / SCALE
    g = 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)
    e = 1 / (1 + math.exp(-g * 0.0))
    v = 1 / (g**2 * e * (1 - e))
    new_phi = 1 / math.sqrt(1 / phi**2 + 1 / v)
    new_mu = new_phi**2 * g * (score - e)
    return 1500 + SCALE * new_mu, SCALE * new_phi
