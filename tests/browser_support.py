"""Driving the page in a real browser: Debian's Chromium through Playwright (never a downloaded
browser), pages in a chosen language and size, a whole game played through the page's own
controls, the text a page shows, and axe-core's accessibility check."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from web_support import ARTIFACTS, need

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@contextmanager
def chromium() -> Iterator[Any]:
    """A Chromium browser for the test (skipped, or failed in CI, when it is missing)."""
    if not os.access(CHROMIUM, os.X_OK):
        need(f"{CHROMIUM} is missing (scripts/ensure-services.sh installs Debian's chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need("playwright is not installed (pip install -e '.[test]')")
        raise AssertionError("unreachable") from None
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Page:
    """A page with its console watched: every console error and page error is kept.

    The test tools evaluate strings in the page (``wait_for_function``) and add axe's script tag,
    which the page's Content-Security-Policy forbids, so they run with ``bypass_csp``; ``csp=True``
    keeps the policy, to check that the page itself runs under it (no such tools there)."""

    def __init__(
        self, browser: Any, width: int, height: int, lang: str = "en", motion: bool = True, csp: bool = False
    ) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=not csp)
        self.context.add_init_script(  # the page's own choices win once made (a reload keeps them)
            f"if (!localStorage.getItem('cassino.lang')) localStorage.setItem('cassino.lang', '{lang}');"
            f"if (!localStorage.getItem('cassino.motion')) localStorage.setItem('cassino.motion', '{'on' if motion else 'off'}');"
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.width = width
        self.height = height

    def shot(self, name: str, full_page: bool = False) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)

    def state(self) -> str:
        return str(self.page.get_attribute("#turn-banner", "data-state"))

    def close(self) -> None:
        self.context.close()


def wait_turn(page: Any, version: str | None) -> str:
    """Wait until it is this seat's move at a new version, or the count, or the end; say which."""
    page.wait_for_function(
        """(v) => { const b = document.querySelector('#turn-banner'); const s = b.dataset.state;
            if (document.querySelector('#table-view').hidden) return false;
            return (s === 'your-move' && b.dataset.version !== v) || s === 'count' || s === 'over'; }""",
        arg=version,
        timeout=30_000,
    )
    return str(page.get_attribute("#turn-banner", "data-state"))


Turn = Callable[[Any, int], None]
Chosen = Callable[[Any, int], bool]


def play_whole_game(
    p: Page,
    on_turn: Turn | None = None,
    on_count: Callable[[Any, int], None] | None = None,
    on_chosen: Chosen | None = None,
    max_turns: int = 400,
) -> dict[str, int]:
    """Play a game to its end through the page: a playable card, then the first offered move;
    press "next" at each count. Callbacks see the page at each turn (before the card is chosen and
    after, when it may make the move itself), and at each count. Returns how many turns and counts there were."""
    try:
        return _play(p, on_turn, on_count, on_chosen, max_turns)
    except Exception:
        p.shot("failure.png")  # what the page showed when the test gave up
        raise


def _play(
    p: Page, on_turn: Turn | None, on_count: Callable[[Any, int], None] | None, on_chosen: Chosen | None, max_turns: int
) -> dict[str, int]:
    page = p.page
    version: str | None = None
    turns = counts = 0
    while turns < max_turns:
        state = wait_turn(page, version)
        if state in ("count", "over"):  # the count between hands, or the last one: "next" goes on
            page.wait_for_selector("[data-testid=count] [data-item]")
            counts += 1
            if on_count:
                on_count(page, counts)
            page.click("[data-testid=next-hand]")
            if state == "over":
                page.wait_for_selector("[data-testid=count]", state="hidden")
                break
            page.wait_for_function("document.querySelector('#turn-banner').dataset.state !== 'count'", timeout=30_000)
            version = None
            continue
        if on_turn:
            on_turn(page, turns)  # it may take a move back: the version is read after it
        version = page.get_attribute("#turn-banner", "data-version")
        page.click("[data-testid=hand] .card-btn.playable")
        page.wait_for_selector("[data-testid=move-choice]")
        if not (on_chosen and on_chosen(page, turns)):  # True: the callback made the move itself
            page.click("[data-testid=move-choice]")
        turns += 1
    return {"turns": turns, "counts": counts}


def visible_texts(page: Any) -> list[str]:
    """Every piece of text a person meets on the page: visible text nodes, and the labels, titles
    and placeholders of visible elements."""
    texts: list[str] = page.evaluate(
        """() => {
        const out = [];
        const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const t = n.textContent.trim();
            if (t && n.parentElement && shown(n.parentElement) && !n.parentElement.closest('script, #language')) out.push(t);
        }
        for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
            if (!shown(el) || el.closest('#language')) continue;
            for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
        }
        out.push(document.title);
        return out;
    }"""
    )
    return texts


def english_left(texts: list[str], language: str, exempt: set[str]) -> list[str]:
    """The English catalogue's words that a page in another language still shows: each English
    message whose translation differs is cut at its placeholders, and a piece of it found in the
    page (and in no message of that language) is reported. Player names are taken out first."""
    from cassino.web.i18n import catalogue

    english = catalogue("en")
    other = catalogue(language)
    theirs = "\n".join(other.values())
    pieces: set[str] = set()
    for key, text in english.items():
        if other.get(key) == text:
            continue
        for piece in re.split(r"\{\w+\}", text):
            piece = piece.strip(" .,:;()!?…—-–/&")
            if (
                len(piece) >= 4
                and re.search(r"[A-Za-z]{3}", piece)
                and not re.search(rf"\b{re.escape(piece)}\b", theirs)
            ):
                pieces.add(piece)
    found = []
    for text in texts:
        for name in exempt:
            text = text.replace(name, "")
        for piece in pieces:
            if re.search(rf"(?<![A-Za-z]){re.escape(piece)}(?![A-Za-z])", text):
                found.append(f"{piece!r} in {text!r}")
    return found


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    path = os.environ.get("CASSINO_AXE")
    if not path or not os.path.exists(path):
        need("axe-core is missing (scripts/ensure-services.sh fetches it from npm and sets CASSINO_AXE)")
        raise AssertionError("unreachable")
    page.add_script_tag(path=path)
    result = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def inside(box: dict[str, float] | None, width: int, height: int) -> bool:
    """True when an element's bounding box lies wholly inside the viewport."""
    return (
        box is not None
        and box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["width"] <= width + 0.5
        and box["y"] + box["height"] <= height + 0.5
    )
