"""A real browser plays a whole game: Playwright drives Debian's Chromium (/usr/bin/chromium, never a
downloaded browser) through the lobby's variant builder and the table against a computer player,
sees a refusal's reason, rides out the server killed and restarted mid-game (the page reconnects
and nothing is lost), verifies every deal, opens the replay and saves screenshots."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from web_support import ARTIFACTS, Server, need

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """The server (first), and its successors on the same database and port."""
    started = [Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0.0)]
    yield started
    for s in started:
        s.stop()


def test_a_whole_game_in_chromium(servers: list[Server]) -> None:
    server = servers[0]
    if not os.access(CHROMIUM, os.X_OK):
        need(f"{CHROMIUM} is missing (scripts/ensure-services.sh installs Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need("playwright is not installed (pip install -e '.[test]')")
        return
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 1400})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        page.wait_for_selector("#options [name=target]")
        page.select_option("#preset", "classic")
        page.fill("#options [name=target]", "7")
        page.fill("[name=name-0]", "Tester")
        page.select_option("[name=kind-1]", "bot")
        page.select_option("[name=bot-1]", "greedy")
        page.click("#create")
        page.wait_for_function("['your-move', 'over'].includes(document.querySelector('#status').dataset.state)")
        assert "target=7" in page.inner_text("#rules-text")

        page.evaluate("send('trail Zz')")  # a refused move: the server's reason is shown, nothing changes
        page.wait_for_function("document.querySelector('#message').textContent.includes('is not a card')")

        moves = 0
        told = False  # a target clicked before a card: told what to do (at the first turn with a target,
        # since the bot may have swept the table before the first)
        while page.get_attribute("#status", "data-state") != "over":
            if moves == 6 and len(servers) == 1:  # the server dies: the page reconnects to its successor
                seen = page.get_attribute("#status", "data-version")
                server.kill()
                page.wait_for_function("document.querySelector('#conn').textContent.startsWith('disconnected')")
                servers.append(Server(server.database, server.bot_delay, port=server.port))
                page.wait_for_function("document.querySelector('#conn').textContent === 'live'", timeout=20_000)
                assert page.get_attribute("#status", "data-version") == seen
            version = page.get_attribute("#status", "data-version")
            if not told and page.locator("#table .card, #table .build").count():
                page.click("#table .card, #table .build")
                assert page.inner_text("#message") == "Choose a card from your hand first."
                told = True
            if moves == 3:
                page.click("#hint-button")
                page.wait_for_function("document.querySelector('#hint').textContent.startsWith('Hint: ')")
                ARTIFACTS.mkdir(exist_ok=True)
                page.click("#hand .card.playable")
                page.screenshot(path=str(ARTIFACTS / "web-table.png"), full_page=True)
                page.click("#clear-button")
            page.click("#hand .card.playable")
            page.click("#choices button")
            page.wait_for_function(
                f"(s => s.dataset.version !== '{version}' && ['your-move', 'over'].includes(s.dataset.state))"
                "(document.querySelector('#status'))"
            )
            moves += 1
        assert page.is_visible("#over") and "won" in page.inner_text("#over-title")
        hands = page.locator("#fair li").count()
        page.wait_for_function(f"document.querySelectorAll('#fair .verified').length === {hands}")
        assert page.locator("#fair .mismatch").count() == 0 and hands >= 1
        assert page.locator("#breakdown table").count() == hands
        page.click("#replay-button")
        page.wait_for_selector("#replay-frame .card")
        assert "Hand 1 dealt" in page.inner_text("#replay-frame")
        page.click("#replay-next")
        assert "step 2 of" in page.inner_text("#replay-pos")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-game.png"), full_page=True)
        browser.close()
    assert len(servers) == 2
    assert moves >= 24 and told and not errors
    assert (ARTIFACTS / "web-game.png").stat().st_size > 10_000
