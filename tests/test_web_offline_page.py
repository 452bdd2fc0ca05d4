"""The page that plays offline in a real browser (Debian's Chromium through Playwright), served
both ways, by ``cassino serve`` at /offline/ and as the static site ``cassino site`` writes under
``python -m http.server``: one visit, then the server stopped and the browser offline, and the page
still opens, teaches its first lesson, keeps a game through a reload and plays it to the end by
clicks, offering at each turn exactly the moves ``cassino moves`` gives for the position the page
shows; the finished game's record passes ``cassino record check``; axe at desktop and phone size."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("babel")

import httpx

from browser_support import Page, axe_violations, chromium, inside, play_whole_game, wait_turn
from cli_support import cassino, ok
from web_support import Server, free_port


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@contextlib.contextmanager
def served(source: str, tmp_path: Path) -> Iterator[str]:
    """The offline page's address while it is served: by ``cassino serve`` (at /offline/), or as
    the site ``cassino site`` writes, by ``python -m http.server``; stopped on leaving."""
    if source == "serve":
        server = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}")
        try:
            yield server.url + "/offline/"
        finally:
            server.stop()
        return
    folder = tmp_path / "site"
    ok("site", str(folder))
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise AssertionError("python -m http.server did not start")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def engine_ready(page: Any) -> None:
    """Wait until the page's engine (Pyodide in its worker) has started."""
    page.wait_for_selector("[data-testid=offline-engine][data-state=ready]", timeout=60_000)


def choices_offered(page: Any) -> list[str]:
    """Every move the page offers now: the move choices of each playable card, in turn."""
    offered: list[str] = []
    cards = page.locator("[data-testid=hand] .card-btn.playable")
    for i in range(cards.count()):
        cards.nth(i).click()
        page.wait_for_selector("[data-testid=move-choice]")
        choices = page.locator("[data-testid=move-choice]")
        offered += [str(choices.nth(j).get_attribute("data-move")) for j in range(choices.count())]
    page.keyboard.press("Escape")
    return sorted(offered)


def shown_position(page: Any) -> dict[str, Any]:
    """The position the page shows for the state on screen (written once the engine answers)."""
    page.wait_for_function(
        "document.querySelector('[data-testid=position]').dataset.version === "
        "document.querySelector('#turn-banner').dataset.version",
        timeout=10_000,
    )
    return json.loads(page.text_content("[data-testid=position]") or "")  # type: ignore[no-any-return]


@pytest.mark.parametrize("source", ["serve", "site"])
def test_one_visit_then_offline(source: str, tmp_path: Path, browser: Any) -> None:
    p = Page(browser, 1280, 800)
    page = p.page
    with served(source, tmp_path) as url:
        page.goto(url)
        engine_ready(page)
        # kept for use without a network: the service worker has every file and controls the page
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        # installable as an app: Chromium finds nothing missing (manifest, icons, worker, origin),
        # but that a test's browser context is a private one, where nothing is installed
        cdp = p.context.new_cdp_session(page)
        found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e["errorId"] for e in found] == ["in-incognito"], found
    p.context.set_offline(True)
    page.reload()
    engine_ready(page)
    assert page.is_visible("[data-testid=offline-panel]") and not page.is_visible("[data-testid=account]")
    p.shot(f"offline-lobby-{source}.png")

    # the tutorial's first lesson shows: which one, the deal decides (a hand that can pair is
    # taught pairing first)
    page.click("[data-testid=learn-to-play]")
    page.wait_for_selector("[data-testid=lesson]")
    shown = page.text_content("[data-testid=lesson]") or ""
    assert any(title in shown for title in ("Trailing", "Pairing", "Court cards", "Capturing a sum", "Building")), shown
    page.click(".brand")

    # a whole game against casual (to 1 point: it ends with its first hand), made in the lobby
    page.wait_for_selector("#create")
    page.select_option("[name=bot-1]", "casual")
    page.click("#more-rules summary")
    page.fill("#opt-target", "1")
    page.click("#create")
    checked = {"turns": 0, "reloaded": False}

    def on_turn(page: Any, turn: int) -> None:
        position = shown_position(page)
        if turn == 2 and not checked["reloaded"]:  # a reload, offline: the game comes back as it was
            version = page.get_attribute("#turn-banner", "data-version")
            page.reload()
            assert wait_turn(page, None) == "your-move"
            assert page.get_attribute("#turn-banner", "data-version") == version
            assert shown_position(page) == position
            checked["reloaded"] = True
        expected = sorted(ok("moves", json.dumps(position)).split("\n")[:-1])
        assert choices_offered(page) == expected
        checked["turns"] += 1

    played = play_whole_game(p, on_turn=on_turn)
    assert played["counts"] >= 1 and checked["turns"] == played["turns"] >= 5 and checked["reloaded"]
    page.wait_for_selector("[data-testid=export-record]")
    with page.expect_download() as download:
        page.click("[data-testid=export-record]")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("casino-") and saved.suffix == ".txt"
    check = cassino("record", "check", str(saved))
    assert check.returncode == 0, check.stderr
    p.shot(f"offline-over-{source}.png")
    page.reload()  # the finished game is kept too
    assert wait_turn(page, None) == "over"
    assert page.is_visible("[data-testid=export-record]")
    assert p.errors == [], p.errors
    p.close()


def test_the_served_page_runs_under_its_policy(tmp_path: Path, browser: Any) -> None:
    """At /offline/, with the server's content security policy enforced (its own files only, and
    WebAssembly compiled), the engine starts and a game opens with no violation and no error."""
    p = Page(browser, 1280, 800, csp=True)
    with served("serve", tmp_path) as url:
        p.page.goto(url)
        deadline = time.monotonic() + 60
        while p.page.get_attribute("[data-testid=offline-engine]", "data-state") != "ready":
            assert time.monotonic() < deadline, p.errors
            time.sleep(0.2)
        p.page.click("[data-testid=learn-to-play]")
        p.page.wait_for_selector("[data-testid=hand] .card-btn.playable", timeout=30_000)
    assert p.errors == [], p.errors
    p.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_accessibility_offline(width: int, height: int, tmp_path: Path, browser: Any) -> None:
    """axe finds nothing serious on the offline lobby and table; the table fits the screen."""
    p = Page(browser, width, height)
    page = p.page
    with served("site", tmp_path) as url:
        page.goto(url)
        engine_ready(page)
        assert axe_violations(page) == []
        page.click("[data-testid=learn-to-play]")
        assert wait_turn(page, None) == "your-move"
        assert axe_violations(page) == []
        assert inside(page.locator("[data-testid=hand]").bounding_box(), width, height)
        p.shot(f"offline-table-{width}.png")
    assert p.errors == [], p.errors
    p.close()


def test_a_new_version_is_taken_up(tmp_path: Path, browser: Any) -> None:
    """A site served anew with a changed file (a new version: its service worker differs) is
    kept in the background; the page says so, and on the person's word it takes it up."""
    p = Page(browser, 1280, 800)
    page = p.page
    with served("site", tmp_path) as url:
        page.goto(url)
        engine_ready(page)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        folder = tmp_path / "site"
        worker = (folder / "sw.js").read_text()
        version = json.loads((folder / "site.json").read_text())["version"]
        (folder / "sw.js").write_text(worker.replace(f'"{version}"', '"0123456789abcdef"'))
        (folder / "static" / "style.css").write_text((folder / "static" / "style.css").read_text() + "\n/* v2 */\n")
        page.reload()
        page.wait_for_selector("#offline-update", timeout=60_000)
        assert "new version" in (page.text_content("#offline-update") or "")
        with page.expect_navigation():
            page.click("#offline-reload")
        engine_ready(page)
        css = page.evaluate("fetch('static/style.css').then((r) => r.text())")
        assert css.endswith("/* v2 */\n")
        assert page.evaluate("caches.keys()") == ["cassino-offline-0123456789abcdef"]
    assert p.errors == [], p.errors
    p.close()
