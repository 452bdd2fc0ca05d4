"""The page's message catalogues: every language has every key with the same placeholders, every
key the page's code names exists, and the server serves each catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

from fastapi.testclient import TestClient

from cassino.cards import RANKS, SUITS
from cassino.web import create_app
from cassino.web.i18n import LANGUAGES, catalogue, check_catalogues

STATIC = Path(__file__).resolve().parent.parent / "src" / "cassino" / "web" / "static"


def page_keys() -> set[str]:
    """The keys the page's scripts and markup name literally (plural keys with both forms)."""
    keys: set[str] = set()
    for path in STATIC.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'\bt\("([a-z0-9_.]+)"', text))
        for key in re.findall(r'\btn\("([a-z0-9_.]+)"', text):
            keys |= {f"{key}.one", f"{key}.other"}
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys |= set(re.findall(r'data-i18n(?:-label|-title)?="([a-z0-9_.]+)"', html))
    return keys


def test_every_catalogue_matches_english() -> None:
    assert check_catalogues() == []


def test_a_missing_key_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    from cassino.web import i18n

    german = dict(catalogue("de"))
    del german["move.capture"]
    german["move.trail"] = "{karte} ablegen"
    real = i18n.catalogue
    monkeypatch.setattr(i18n, "catalogue", lambda language: german if language == "de" else real(language))
    assert i18n.check_catalogues() == [
        "de: missing key 'move.capture'",
        "de: key 'move.trail' has placeholders ['karte'], English has ['card']",
    ]


def test_the_page_names_only_keys_that_exist() -> None:
    keys = page_keys()
    assert len(keys) > 120
    english = catalogue("en")
    assert sorted(keys - english.keys()) == []


def test_the_words_the_page_builds_keys_for_exist() -> None:
    """Keys the page composes at run time: ranks, suits, build values, wrong-link pages."""
    english = catalogue("en")
    composed = {f"card.rank_name.{r}" for r in RANKS} | {f"card.suit.{s}" for s in SUITS}
    composed |= {f"card.rank.{r}" for r in "AJQK"} | {f"value.{v}" for v in range(2, 15)}
    composed |= {
        f"problem.{k}.{part}"
        for k in ("no_game", "bad_token", "used_invite", "bad_invite")
        for part in ("title", "text")
    }
    assert sorted(composed - english.keys()) == []


def test_catalogues_are_served(tmp_path: Path) -> None:
    app = create_app(database=f"sqlite:///{tmp_path / 'web.sqlite3'}")
    with TestClient(app) as client:
        for language in LANGUAGES:
            r = client.get(f"/api/i18n/{language}")
            assert r.status_code == 200
            body = r.json()
            assert body["language"] == language and body["messages"] == catalogue(language)
        assert client.get("/api/i18n/de").json()["messages"]["move.capture"] == "{items} mit {card} nehmen"
        r = client.get("/api/i18n/fr")
        assert r.status_code == 404
        assert r.json() == {"error": "no catalogue for language 'fr': the languages are en, de, id"}
