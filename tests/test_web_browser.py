"""The table in a real browser: Playwright drives Debian's Chromium (/usr/bin/chromium) through the
lobby and whole games (2 players at desktop size, 4 seats in partnerships, a phone held upright
with the hand, the table and the moves inside the viewport at every turn), the count after each
hand, refusals with their reasons, a server killed and restarted mid-game, the three languages
with no English left, axe-core's accessibility check, deals no server can choose (the page's own
derivation of each deck, its contributions to every hand and its check of each revealed one, a
tampered reveal caught), and screenshots of each for people to see."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")
pytest.importorskip("babel")

import httpx

from account_support import first_game
from browser_support import (
    Page,
    axe_violations,
    chromium,
    english_left,
    inside,
    play_whole_game,
    visible_texts,
    wait_turn,
)
from cassino.cards import CARD_NAMES
from cassino.web import fair
from web_support import ARTIFACTS, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("browser") / "web.sqlite3"
    # Every test here makes its games from one address on one server: more than the limit on new
    # games lets one client make (the limits have tests of their own, in test_web_hardening.py).
    s = Server(f"sqlite:///{db}", bot_delay=0.0, extra=("--no-rate-limits",))
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def new_game(server: Server, body: dict[str, Any]) -> str:
    """A game made through the API; the link that opens its creator's seat."""
    made = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
    mine = next(s for s in made["seats"] if s.get("token"))
    return f"{server.url}/#game={made['game']}&token={mine['token']}"


def open_table_with_a_card_chosen(page: Any, server: Server) -> None:
    """A new game against the computer, at the person's first turn, with a card chosen."""
    body = {"seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Greedy"}]}
    page.goto(new_game(server, body))
    wait_turn(page, None)
    page.click("[data-testid=hand] .card-btn.playable")
    page.wait_for_selector("[data-testid=move-choice]")


def check_count(page: Any) -> None:
    """The count scene lists its items in order, each with who took it, and the 11-point check."""
    items = page.locator("[data-testid=count] [data-item]")
    kinds = [items.nth(i).get_attribute("data-item") for i in range(items.count())]
    assert kinds[:2] == ["cards", "spades"]
    assert "big_casino" in kinds and "little_casino" in kinds and kinds.count("ace") == 4
    # the check is there from the start, turned up after the items (text_content: hidden till then)
    check = page.locator("#count-check").text_content() or ""
    assert re.fullmatch(r"✓ (\d+) points counted: the \1-point check is right\.", check), check


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[Server]:
    """A server whose computer players wait a moment, as people see them play, so motion shows."""
    s = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0.3)
    yield s
    s.stop()


def test_the_page_runs_under_its_content_security_policy(slow_server: Server, browser: Any) -> None:
    """With the policy enforced (self only, no inline script or style, no eval): the lobby, a new
    game against a computer and a few moves by tapping, with no policy violation and no error."""
    p = Page(browser, 1280, 900, csp=True)
    page = p.page
    response = page.goto(slow_server.url + "/")
    assert response is not None and "script-src 'self'" in (response.headers.get("content-security-policy") or "")
    page.wait_for_selector("#presets .preset")
    page.fill("[name=name-0]", "Tester")
    page.click("#create")
    version = None
    for _ in range(3):  # wait_for_selector, not wait_for_function: the policy forbids evaluating strings
        banner = "#turn-banner[data-state=your-move]" + (f":not([data-version='{version}'])" if version else "")
        page.wait_for_selector(banner, timeout=30_000)
        version = page.get_attribute("#turn-banner", "data-version")
        page.locator("[data-testid=hand] .card-btn.playable").first.click()
        page.locator("[data-testid=move-choice]").first.click()
    assert page.inner_text("[data-testid=seat-0] .seat-name") == "You"
    assert p.errors == [], p.errors
    p.close()


def test_two_players_at_desktop_size(slow_server: Server, browser: Any) -> None:
    server = slow_server
    p = Page(browser, 1280, 900)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    assert page.locator("#presets .preset").count() == 4
    page.click("#more-rules summary")
    # an option that changes nothing in classic is shown as such, and turns on with royal
    assert page.locator("[data-option=royal_ace_high].off").count() == 1
    page.check("#opt-royal")
    assert page.locator("[data-option=royal_ace_high].off").count() == 0
    page.uncheck("#opt-royal")
    page.fill("#opt-target", "7")
    page.dispatch_event("#opt-target", "change")
    page.fill("[name=name-0]", "Tester")
    page.select_option("[name=bot-1]", "beginner")
    page.evaluate("window.scrollTo(0, 0)")
    p.shot("web-lobby.png", full_page=True)
    page.click("#create")
    wait_turn(page, None)
    assert "7" in page.inner_text("#rules-text")
    assert page.inner_text("[data-testid=seat-0] .seat-name") == "You"

    captured = {"shot": False, "why": False, "blocked": False, "undo": False}

    def on_turn(page: Any, turn: int) -> None:
        cards = page.locator("[data-testid=hand] [data-card]")
        assert cards.count() >= 1
        for i in range(cards.count()):  # every card is named canonically
            assert len(cards.nth(i).get_attribute("data-card") or "") == 2
        # a loose card or a build (the felt's tracker also shows won aces and casinos by data-card)
        table_items = page.locator("[data-testid=table] .card-btn, [data-testid=table] .build")
        if not captured["why"] and table_items.count():
            table_items.first.click()
            assert page.inner_text("[data-testid=why-not]") == "Choose a card from your hand first."
            captured["why"] = True
        blocked = page.locator("[data-testid=hand] .card-btn.blocked")
        if blocked.count() and not captured["blocked"]:
            blocked.first.click()
            text = page.inner_text("[data-testid=why-not]")
            assert "cannot be played now: " in text, text
            captured["blocked"] = True
        if turn == 1 and not captured["undo"]:  # against the computer: take the last move back
            assert page.is_visible("[data-testid=undo]")
            before = int(page.get_attribute("#turn-banner", "data-version") or 0)
            held = page.locator("[data-testid=hand] [data-card]").count()
            page.click("[data-testid=undo]")
            page.wait_for_function(f"Number(document.querySelector('#turn-banner').dataset.version) < {before}")
            page.wait_for_function("document.querySelector('#turn-banner').dataset.state === 'your-move'")
            assert page.locator("[data-testid=hand] [data-card]").count() == held + 1
            captured["undo"] = True
        if turn == 2:
            page.click("#hint-button")
            page.wait_for_selector("[data-testid=hint-note]:not([hidden])")
            assert page.inner_text("#hint-text")

    def on_chosen(page: Any, turn: int) -> bool:
        choice = page.locator("[data-testid=move-choice]").first
        line = choice.get_attribute("data-move") or ""
        assert line.split(" ")[0] in ("trail", "capture", "build")
        assert choice.inner_text() != line  # words for people, the line for the server
        if turn == 3:
            p.shot("web-table.png")
        capture = page.locator("[data-testid=move-choice][data-move^=capture]")
        if not captured["shot"] and capture.count():
            # Watched from before the click: a loaded machine may answer the click, and fly the
            # cards for their 360 ms, before the test's next command reaches the page.
            page.evaluate(
                "window.flown = false; new MutationObserver((changes, watch) => {"
                " if (document.querySelector('.ghost')) { window.flown = true; watch.disconnect(); } })"
                ".observe(document.body, {childList: true})"
            )
            capture.first.click()
            page.wait_for_function("window.flown", timeout=5_000)  # the taken cards flew to the pile
            if page.locator(".ghost").count():
                page.wait_for_timeout(120)  # halfway to the pile
            p.shot("web-capture.png")
            captured["shot"] = True
            page.wait_for_function("!document.querySelector('.ghost')")
            return True
        return False

    def on_count(page: Any, n: int) -> None:
        check_count(page)
        if n == 1:
            page.wait_for_selector("[data-testid=count][data-state=done]")  # every step turned up in its time
            p.shot("web-count.png")

    played = play_whole_game(p, on_turn=on_turn, on_chosen=on_chosen, on_count=on_count)
    assert played["turns"] >= 12 and played["counts"] >= 1
    assert page.is_visible("#over")
    assert "won" in page.inner_text("#over-title")
    hands = page.locator("#fair li").count()
    page.wait_for_function(f"document.querySelectorAll('#fair .verified').length === {hands}")
    assert page.locator("#fair .mismatch").count() == 0
    page.wait_for_function("!document.querySelector('.ghost')")  # the last cards have reached their pile
    p.shot("web-over.png")
    page.click("#replay-button")  # the replay opens on the table at the first deal
    page.wait_for_selector("[data-testid=replay]", state="visible")
    assert page.inner_text("[data-testid=replay-move]") == "Hand 1 dealt"
    page.click("[data-testid=replay-close]")
    page.wait_for_selector("[data-testid=replay]", state="hidden")
    assert captured["why"] and captured["shot"] and captured["undo"]
    assert not p.errors, p.errors
    p.close()


def test_four_seats_in_partnerships(server: Server, browser: Any) -> None:
    body = {
        "preset": "classic",
        "players": 4,
        "partnerships": True,
        "options": {"target": 5},
        "seats": [
            {"kind": "human", "name": "Tester"},
            {"kind": "bot", "bot": "greedy", "name": "Left"},
            {"kind": "bot", "bot": "heuristic", "name": "Partner"},
            {"kind": "bot", "bot": "greedy", "name": "Right"},
        ],
    }
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    page.goto(new_game(server, body))
    wait_turn(page, None)
    # the partner sits across and is marked as such; the opponents left and right
    assert page.locator("[data-testid=seat-2].seat-across .badge.partner").count() == 1
    assert page.locator("[data-testid=seat-1].seat-left").count() == 1
    assert page.locator("[data-testid=seat-3].seat-right").count() == 1
    assert page.locator(".badge.partner").count() == 1
    assert "You & Partner" in page.inner_text("#scores")

    def on_turn(page: Any, turn: int) -> None:
        if turn == 1:
            p.shot("web-partnership.png")
        for seat in range(4):  # every seat shows its hand size and its pile
            text = page.inner_text(f"[data-testid=seat-{seat}]")
            assert "taken" in text

    def on_count(page: Any, n: int) -> None:
        check_count(page)  # with motion off, the whole count at once
        assert page.get_attribute("[data-testid=count]", "data-state") == "done"
        assert page.locator("[data-testid=count] .pending").count() == 0
        said = f"Hand {n}: You & Partner: "  # the summary screen readers hear, with motion off too
        page.wait_for_function("(s) => document.querySelector('#count-summary').textContent.startsWith(s)", arg=said)
        assert ". Game score: You & Partner " in (page.text_content("#count-summary") or "")

    played = play_whole_game(p, on_turn=on_turn, on_count=on_count)
    assert played["turns"] >= 6
    assert "won" in page.inner_text("#over-title")
    assert not p.errors, p.errors
    p.close()


def test_phone_held_upright(server: Server, browser: Any) -> None:
    body = {"options": {"target": 7}, "seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy"}]}
    p = Page(browser, 390, 844, motion=False)
    page = p.page
    page.goto(new_game(server, body))
    checked = {"turns": 0}

    def on_turn(page: Any, turn: int) -> None:
        for part in ("hand", "table"):
            box = page.locator(f"[data-testid={part}]").bounding_box()
            assert inside(box, 390, 844), f"{part} at {box} is outside the 390x844 viewport"
        if turn == 2:
            p.shot("web-phone.png")

    def on_chosen(page: Any, turn: int) -> bool:
        choices = page.locator("[data-testid=move-choice]")
        card = page.get_attribute("[data-testid=hand] .card-btn.selected", "title")
        for i in range(choices.count()):
            box = choices.nth(i).bounding_box()
            assert inside(box, 390, 844), f"move choice {i} at {box} is outside the viewport"
            # the button shows only the table's part; its label says the whole move, the card with it
            label = choices.nth(i).get_attribute("aria-label")
            assert card and label and card in label, (card, label)
        for part in ("hand", "table"):
            assert inside(page.locator(f"[data-testid={part}]").bounding_box(), 390, 844)
        checked["turns"] += 1
        return False

    played = play_whole_game(p, on_turn=on_turn, on_chosen=on_chosen)
    assert checked["turns"] == played["turns"] >= 12
    assert not p.errors, p.errors
    p.close()


def test_phone_held_sideways(server: Server, browser: Any) -> None:
    body = {"seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy"}]}
    p = Page(browser, 844, 390, motion=False)
    page = p.page
    page.goto(new_game(server, body))
    version = None
    for turn in range(3):
        wait_turn(page, version)
        version = page.get_attribute("#turn-banner", "data-version")
        page.click("[data-testid=hand] .card-btn.playable")
        page.wait_for_selector("[data-testid=move-choice]")
        for part in ("[data-testid=hand]", "[data-testid=table]", "[data-testid=move-choice]"):
            assert inside(page.locator(part).first.bounding_box(), 844, 390), part
        if turn == 2:
            p.shot("web-phone-landscape.png")
            break
        page.click("[data-testid=move-choice]")
    assert not p.errors, p.errors
    p.close()


@pytest.mark.parametrize("language", ["de", "id"])
def test_no_english_left(server: Server, browser: Any, language: str) -> None:
    p = Page(browser, 1280, 900, lang=language, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    page.click("#more-rules summary")
    assert page.get_attribute("html", "lang") == language
    assert page.locator("[data-testid=language]").input_value() == language
    texts = visible_texts(page)
    assert len(texts) > 50  # the whole lobby, every option open
    left = english_left(texts, language, exempt=set())
    assert not left, left
    names = {"Tester", "Greedy"}
    open_table_with_a_card_chosen(page, server)
    blocked = page.locator("[data-testid=hand] .card-btn.blocked")
    if blocked.count():
        blocked.first.click()
    left = english_left(visible_texts(page), language, exempt=names)
    assert not left, left
    p.shot(f"web-table-{language}.png")
    assert not p.errors, p.errors
    p.close()


def test_language_is_chosen_on_the_page_and_remembered(server: Server, browser: Any) -> None:
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    assert page.inner_text("#create") == "Start the game"
    page.select_option("[data-testid=language]", "de")
    page.wait_for_function("document.querySelector('#create').textContent === 'Spiel starten'")
    page.reload()
    page.wait_for_selector("#presets .preset")
    assert page.inner_text("#create") == "Spiel starten"
    p.shot("web-lobby-de.png")
    page.select_option("[data-testid=language]", "id")
    page.wait_for_function("document.querySelector('#create').textContent === 'Mulai bermain'")
    assert not p.errors, p.errors
    p.close()


def test_accessibility_of_lobby_and_table(server: Server, browser: Any) -> None:
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    page.click("#more-rules summary")
    assert axe_violations(page) == []
    open_table_with_a_card_chosen(page, server)
    assert axe_violations(page) == []
    # keyboard play: a card by its number key, then the move by Tab and Enter
    page.keyboard.press("Escape")
    version = page.get_attribute("#turn-banner", "data-version")
    page.locator("[data-testid=hand] .card-btn.playable").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=move-choice]")
    page.locator("[data-testid=move-choice]").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#turn-banner').dataset.version !== '{version}'")
    label = page.locator("[data-testid=hand] [data-card]").first.get_attribute("aria-label") or ""
    assert " of " in label  # "ten of diamonds"
    assert not p.errors, p.errors
    p.close()


def test_wrong_links_get_a_clear_page(server: Server, browser: Any) -> None:
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    page.goto(server.url + "/#game=0123456789abcdef&token=nothing")
    page.wait_for_selector("#problem:not([hidden])")
    assert page.inner_text("#problem-title") == "There is no game here"
    assert page.locator("#problem-watch").is_hidden()
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    link = new_game(server, body)
    game = link.split("game=")[1].split("&")[0]
    page.goto(f"{server.url}/#game={game}&token=wrong")
    page.wait_for_selector("#problem:not([hidden])")
    assert page.inner_text("#problem-title") == "This link opens no seat"
    page.click("#problem-watch")
    page.wait_for_selector("#table-view:not([hidden])")
    page.wait_for_selector("[data-testid=table]")
    assert "watching" in page.inner_text("[data-testid=hand]")
    assert not p.errors, [e for e in p.errors if "403" not in e]
    p.close()


def test_seats_are_remembered_and_invitations_open_once(server: Server, browser: Any) -> None:
    body = {"seats": [{"kind": "human", "name": "Host"}, {"kind": "human", "name": "Guest"}]}
    made = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
    tokens = [s for s in made["seats"] if s.get("token")]
    assert len(tokens) == 1  # the creator holds only their own seat
    invite = next(s for s in made["seats"] if s.get("invite"))
    guest = Page(browser, 1280, 900, motion=False)
    guest.page.goto(server.url + invite["link"])
    guest.page.wait_for_selector("#table-view:not([hidden])")
    guest.page.wait_for_function("location.hash.includes('token=')")
    # the tab is closed; the seat is kept in the browser and listed under "my games"
    guest.page.goto(server.url + "/")
    guest.page.wait_for_selector("#my-games a")
    guest.page.click("#my-games a")
    guest.page.wait_for_selector("[data-testid=hand] [data-card], [data-testid=hand] p")
    assert guest.page.inner_text("[data-testid=seat-1] .seat-name") == "You"
    # the same invitation in another browser: already used
    other = Page(browser, 1280, 900, motion=False)
    other.page.goto(server.url + invite["link"])
    other.page.wait_for_selector("#problem:not([hidden])")
    assert other.page.inner_text("#problem-title") == "This invitation was already used"
    assert not guest.errors, guest.errors
    guest.close()
    other.close()


def test_the_server_restarts_mid_game(tmp_path: Path, browser: Any) -> None:
    first = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0.0)
    servers = [first]
    try:
        p = Page(browser, 1280, 900, motion=False)
        page = p.page
        body = {"seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy"}]}
        page.goto(new_game(first, body))
        version = None
        for _ in range(3):
            wait_turn(page, version)
            version = page.get_attribute("#turn-banner", "data-version")
            page.click("[data-testid=hand] .card-btn.playable")
            page.click("[data-testid=move-choice]")
        wait_turn(page, version)
        seen = page.get_attribute("#turn-banner", "data-version")
        hand = page.locator("[data-testid=hand] [data-card]").count()
        assert p.errors == []
        first.kill()
        page.wait_for_function("document.querySelector('#conn').dataset.state === 'disconnected'")
        servers.append(Server(first.database, first.bot_delay, port=first.port))
        page.wait_for_function("document.querySelector('#conn').dataset.state === 'live'", timeout=20_000)
        # While the server is down, the browser reports the requests it could not make; nothing else
        outage = [e for e in p.errors if "net::ERR_CONNECTION_" not in e]
        assert outage == [], outage
        del p.errors[:]
        assert page.get_attribute("#turn-banner", "data-version") == seen
        assert page.locator("[data-testid=hand] [data-card]").count() == hand
        page.click("[data-testid=hand] .card-btn.playable")
        page.click("[data-testid=move-choice]")
        page.wait_for_function(f"document.querySelector('#turn-banner').dataset.version !== '{seen}'")
        assert p.errors == []
        p.close()
    finally:
        for s in servers:
            s.stop()


def test_a_tutorial_game_teaches(server: Server, browser: Any) -> None:
    """The "Learn to play" button starts the guided game: a lesson card at the first turn (its example with
    the cards on the table), "Got it", then the coach's bubble after a costly move and a hint with
    its reason; the page stays accessible with both on the table."""
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    assert page.locator("#bot-1, [name=bot-1] option").all_inner_texts()[:6] == [
        "Beginner", "Novice", "Casual player", "Club player", "Expert", "Master",
    ]  # fmt: skip
    assert page.input_value("[name=bot-1]") == "casual"
    page.fill("[name=name-0]", "Tester")
    page.click("[data-testid=learn-to-play]")
    wait_turn(page, None)
    lesson = page.locator("[data-testid=lesson]")
    lesson.wait_for(state="visible")
    assert page.inner_text("#lesson-title") and page.inner_text("#lesson-example")
    assert "Beginner" in page.inner_text("[data-testid=seat-1]")
    page.click("[data-testid=lesson-ok]")
    lesson.wait_for(state="hidden")
    coached = {"bubble": False, "hint": False, "shot": False}

    def on_turn(page: Any, turn: int) -> None:
        both = page.is_visible("[data-testid=lesson]") or turn > 12  # for the picture: a lesson and a note
        if both and page.is_visible("[data-testid=coach-note]") and not coached["shot"]:
            p.shot("web-tutorial.png")
            assert axe_violations(page) == []
            coached["shot"] = True
        if page.is_visible("[data-testid=coach-note]"):
            text = page.inner_text("#coach-text")
            # The points it costs, or (the guided coach's own rule, on some deals) why a trail
            # was careless.
            assert text.startswith("Better: ") and ("points more" in text or "capture first" in text), text
            coached["bubble"] = True
            page.click("#coach-close")
        if page.is_visible("[data-testid=lesson]"):
            page.click("[data-testid=lesson-ok]")
        if turn == 1:
            page.click("#hint-button")
            page.wait_for_selector("[data-testid=hint-why]:not([hidden])")
            assert page.inner_text("#hint-text") and page.inner_text("[data-testid=hint-why]")
            coached["hint"] = True

    def on_chosen(page: Any, turn: int) -> bool:
        """Trail until the picture is taken (a missed capture costs, usually), then capture."""
        version = page.get_attribute("#turn-banner", "data-version")
        kind = "capture" if coached["shot"] else "trail"
        choice = page.locator(f"[data-testid=move-choice][data-move^={kind}]")
        (choice.first if choice.count() else page.locator("[data-testid=move-choice]").first).click()
        page.wait_for_function(f"document.querySelector('#turn-banner').dataset.version !== '{version}'")
        if not coached["shot"]:
            # The coach's search runs in a worker thread: its note must be on the page by the next
            # turn or it is missed, and until the picture is taken each later note is wanted too.
            page.wait_for_timeout(1500)
        return True

    version = None
    for turn in range(30):
        state = wait_turn(page, version)
        if state != "your-move" or (coached["bubble"] and coached["hint"] and coached["shot"]):
            break
        on_turn(page, turn)
        version = page.get_attribute("#turn-banner", "data-version")
        page.click("[data-testid=hand] .card-btn.playable")
        page.wait_for_selector("[data-testid=move-choice]")
        on_chosen(page, turn)
    assert coached["bubble"] and coached["hint"] and coached["shot"], coached
    assert not p.errors, p.errors
    p.close()


def test_the_lessons_and_the_review_after_a_game(server: Server, browser: Any) -> None:
    """Every lesson can be read from the settings menu; a finished game is reviewed: the points
    per item, the costliest moves with the better one, strengths and habits; in German too."""
    body = {
        "options": {"target": 1},
        "seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Grabber"}],
    }
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    page.goto(new_game(server, body))
    wait_turn(page, None)
    page.click("#settings-menu summary")
    page.click("[data-testid=lessons-button]")
    page.wait_for_selector("[data-testid=lessons] li[data-lesson=count]")
    assert page.locator("[data-testid=lessons] li").count() == 11
    assert "first to reach 1 points" in page.inner_text("[data-testid=lessons] li[data-lesson=count]")
    p.shot("web-lessons.png")
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=lessons]", state="hidden")

    def on_chosen(page: Any, turn: int) -> bool:
        trail = page.locator("[data-testid=move-choice][data-move^=trail]")
        (trail.first if trail.count() and turn % 2 else page.locator("[data-testid=move-choice]").first).click()
        return True

    play_whole_game(p, on_chosen=on_chosen)
    page.click("[data-testid=review-button]")
    review = page.locator("[data-testid=review]")
    page.wait_for_selector("[data-testid=review] .review-points")
    items = page.locator("[data-testid=review] .review-points tr[data-item]")
    assert [items.nth(i).get_attribute("data-item") for i in range(2)] == ["cards", "spades"]
    text = review.inner_text()
    assert "Where the points went" in text and "moves of yours were weighed" in text
    assert page.locator(".review-costly li").count() >= 1 or "Well played" in text
    page.wait_for_timeout(300)
    p.shot("web-review.png")
    assert axe_violations(page) == []
    page.select_option("[data-testid=language]", "de")
    page.wait_for_function("document.querySelector('#review-title').textContent === 'Dein Spiel im Rückblick'")
    left = english_left(visible_texts(page), "de", exempt={"Tester", "Grabber"})
    assert not left, left
    page.click("#review .scene-close")
    review.wait_for(state="hidden")
    assert not p.errors, p.errors
    p.close()


def test_a_tutorial_on_a_phone(server: Server, browser: Any) -> None:
    p = Page(browser, 390, 844, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=learn-to-play]")
    assert inside(page.locator("[data-testid=learn-to-play]").bounding_box(), 390, 844)
    page.click("[data-testid=learn-to-play]")
    wait_turn(page, None)
    page.locator("[data-testid=lesson]").wait_for(state="visible")
    for part in ("[data-testid=lesson]", "[data-testid=lesson-ok]", "[data-testid=table]"):
        box = page.locator(part).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, part
    p.shot("web-tutorial-phone.png", full_page=True)
    page.click("[data-testid=lesson-ok]")
    page.locator("[data-testid=lesson]").wait_for(state="hidden")
    for part in ("hand", "table"):
        assert inside(page.locator(f"[data-testid={part}]").bounding_box(), 390, 844), part
    assert not p.errors, p.errors
    p.close()


# ------------------------------------------------------------------ deals no server can choose
# The page's half of fair.SCHEME: deal.js derives each deck as fair.py does; the page contributes
# to the first hand when it creates a game and to every next hand before it is dealt, keeps what it
# sent and the commitment it saw, and checks each revealed hand against them.

PROBLEMS = ("seed", "commitment", "contribution", "deck", "unused", "legacy", "scheme")
"""What deal.js's verifyHand reports as failing; each is worded in the catalogues (fair.problem.*)."""


def _hex(rng: random.Random, digits: int = 64) -> str:
    return f"{rng.getrandbits(4 * digits):0{digits}x}"


def _deal_cases() -> list[dict[str, Any]]:
    """Games, hands, seeds and contributions (none, one, several out of seat order), with the deck
    and the commitment fair.py gives for each."""
    rng = random.Random(20240611)
    cases = []
    for i in range(12):
        seats = rng.sample(range(4), [0, 1, 1, 2, 3, 4][i % 6])
        given = {seat: _hex(rng) for seat in seats}
        game, hand, seed = _hex(rng, 16), rng.randint(1, 60), _hex(rng)
        cases.append(
            {
                "game": game,
                "hand": hand,
                "seed": seed,
                "contributions": [{"seat": seat, "value": value} for seat, value in given.items()],
                "deck": fair.deck_text(fair.derive_deck(game, hand, seed, given)),
                "commitment": fair.seed_commitment(seed),
            }
        )
    return cases


def _reveals(case: dict[str, Any]) -> dict[str, Any]:
    """Revealed hands for verifyHand: the true one, tampered ones, and commit-v0 ones."""
    good = {
        "game": case["game"],
        "hand": case["hand"],
        "scheme": fair.SCHEME,
        "commitment": case["commitment"],
        "salt": case["seed"],
        "deck": case["deck"],
        "contributions": case["contributions"],
        "moves": [],
    }
    flipped = [dict(c) for c in case["contributions"]]
    flipped[0]["value"] = ("1" if flipped[0]["value"][0] != "1" else "2") + flipped[0]["value"][1:]
    cards = case["deck"].split(" ")
    swapped = " ".join([cards[1], cards[0], *cards[2:]])
    legacy_deck = fair.parse_deck(case["deck"])
    legacy = {
        **good,
        "scheme": fair.LEGACY,
        "commitment": fair.commitment(case["seed"], legacy_deck),
        "contributions": [],
    }
    return {
        "good": good,
        "flipped": {**good, "contributions": flipped},
        "swapped": {**good, "deck": swapped},
        "other_seed": {**good, "salt": case["seed"][::-1]},
        "upper_seed": {**good, "salt": case["seed"].upper(), "commitment": fair.seed_commitment(case["seed"].upper())},
        "bad_value": {**good, "contributions": [{"seat": 3, "value": "xyz"}]},
        "legacy": legacy,
        "legacy_swapped": {**legacy, "deck": swapped},
        "unknown": {**good, "scheme": "cassino-deal-v9"},
    }


VERIFY_ALL = """async ({ cases, reveals, mine }) => {
    const D = window.cassinoDeal;
    const out = [];
    for (const c of cases) out.push({ deck: await D.deriveDeck(c.game, c.hand, c.seed, c.contributions),
        commitment: await D.commitmentOf(c.seed) });
    const checks = {};
    for (const [name, r] of Object.entries(reveals)) checks[name] = await D.verifyHand(r.game, r, r.commitment, null);
    checks.mine_used = await D.verifyHand(reveals.good.game, reveals.good, reveals.good.commitment, mine);
    checks.mine_missing = await D.verifyHand(reveals.good.game, reveals.good, reveals.good.commitment, { ...mine, value: "0".repeat(64) });
    checks.published_other = await D.verifyHand(reveals.good.game, reveals.good, "0".repeat(64), null);
    const fresh = [D.newContribution(), D.newContribution()];
    return { out, checks, fresh, subtle: Boolean(window.crypto && window.crypto.subtle) };
}"""


@pytest.mark.parametrize("subtle", [True, False], ids=["crypto.subtle", "sha256.js"])
def test_the_page_derives_each_deck_as_the_server_does(server: Server, browser: Any, subtle: bool) -> None:
    """deal.js on its own in Chromium: the deck and the commitment of a dozen seeds and sets of
    contributions are exactly fair.py's, with the browser's SHA-256 and with sha256.js's (as a page
    served without a secure context has it); verifyHand passes the true reveal and names what fails
    in each tampered one; a contribution is 64 fresh lower-case hex digits."""
    cases = _deal_cases()
    p = Page(browser, 800, 600, motion=False)
    page = p.page
    if not subtle:
        page.add_init_script("Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined });")
    page.goto(server.url + "/")
    page.wait_for_function("window.cassinoDeal && document.querySelector('#presets .preset')")
    two = next(c for c in cases if len(c["contributions"]) >= 2)
    mine = dict(two["contributions"][0])
    got = page.evaluate(VERIFY_ALL, {"cases": cases, "reveals": _reveals(two), "mine": mine})
    assert got["subtle"] is subtle
    for case, derived in zip(cases, got["out"], strict=True):
        assert derived == {"deck": case["deck"], "commitment": case["commitment"]}, case
    checks = got["checks"]
    expected = {
        "good": None, "flipped": "deck", "swapped": "deck", "other_seed": "commitment", "upper_seed": "seed",
        "bad_value": "contribution", "legacy": None, "legacy_swapped": "legacy", "unknown": "scheme",
        "mine_used": None, "mine_missing": "unused", "published_other": "commitment",
    }  # fmt: skip
    assert {name: check["problem"] for name, check in checks.items()} == expected
    assert all(
        check["ok"] is (problem is None) for check, problem in zip(checks.values(), expected.values(), strict=True)
    )
    assert checks["mine_used"]["mineUsed"] is True and checks["good"]["derived"] == two["deck"]
    assert checks["bad_value"]["seat"] == 3
    assert set(expected.values()) - {None} == set(PROBLEMS)
    fresh = got["fresh"]
    assert all(fair.is_value(v) for v in fresh) and fresh[0] != fresh[1]
    assert not p.errors, p.errors
    p.close()


def test_every_problem_of_a_deal_is_worded() -> None:
    from cassino.web.i18n import LANGUAGES, catalogue

    for language in LANGUAGES:
        words = catalogue(language)
        assert [k for k in (f"fair.problem.{p}" for p in PROBLEMS) if k not in words] == [], language


def _derived(game: str, reveal: dict[str, Any]) -> bool:
    """Whether a revealed hand's deck is the one fair.py derives from its seed and contributions."""
    given = {c["seat"]: c["value"] for c in reveal["contributions"]}
    return bool(reveal["deck"] == fair.deck_text(fair.derive_deck(game, reveal["hand"], reveal["salt"], given)))


def _stored(page: Any, game: str, hand: int) -> dict[str, Any] | None:
    """What the page keeps of a game's hand: the commitment it saw before, its contribution and seat."""
    text = page.evaluate("(key) => localStorage.getItem(key)", f"cassino.deal.{game}.{hand}")
    return None if text is None else dict(json.loads(text))


def _state_of(server: Server, game: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/games/{game}", headers={"x-cassino-token": token}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _until(check: Any, what: str, seconds: float = 10.0) -> Any:
    """Poll check() until it gives something true; fail, naming what, after ``seconds``."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.1)


def _play_hand(page: Any) -> str:
    """Play through the page until the hand is over: its count, or the end of the game."""
    version = None
    while True:
        state = wait_turn(page, version)
        if state in ("count", "over"):
            return state
        version = page.get_attribute("#turn-banner", "data-version")
        page.click("[data-testid=hand] .card-btn.playable")
        page.wait_for_selector("[data-testid=move-choice]")
        page.click("[data-testid=move-choice]")


def _next_hand(page: Any) -> None:
    page.wait_for_selector("[data-testid=count] [data-item]")
    page.click("[data-testid=next-hand]")
    page.wait_for_function("document.querySelector('#turn-banner').dataset.state !== 'count'", timeout=30_000)


@pytest.fixture(scope="module")
def fair_game(server: Server, browser: Any) -> Iterator[dict[str, Any]]:
    """A game made in the lobby against a computer player (to 99 points, so it goes on), with two
    hands played through the page; what the page sent and kept, and the server's reveals."""
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    page.click("#more-rules summary")
    page.fill("#opt-target", "99")
    page.dispatch_event("#opt-target", "change")
    page.fill("[name=name-0]", "Tester")
    with (
        page.expect_response(lambda r: r.url.endswith("/api/deals")) as ticket_response,
        page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as create_request,
    ):
        page.click("#create")
    ticket = ticket_response.value.json()
    created = json.loads(create_request.value.post_data or "{}")
    wait_turn(page, None)
    hash_ = page.evaluate("location.hash")
    game = hash_.split("game=")[1].split("&")[0]
    token = hash_.split("token=")[1].split("&")[0]
    out: dict[str, Any] = {"p": p, "game": game, "token": token, "ticket": ticket, "created": created}
    out["kept_1"] = _stored(page, game, 1)
    # the page contributes to hand 2 while hand 1 is in play, as soon as it sees the commitment
    out["before_2"] = _until(
        lambda: (s := _state_of(server, game, token))["next_deal"]["contributed"] == [0] and s,
        "seat 0 contributes to hand 2",
    )
    out["kept_2"] = _stored(page, game, 2)
    assert _play_hand(page) == "count"
    out["after_1"] = _until(
        lambda: (s := _state_of(server, game, token))["next_deal"]["contributed"] == [0] and s,
        "seat 0 contributes to hand 3 during the count",
    )
    out["kept_3"] = _stored(page, game, 3)
    out["reveal_1"] = httpx.get(f"{server.url}/api/games/{game}/hands/1", timeout=10).json()
    _next_hand(page)
    assert _play_hand(page) == "count"
    out["reveal_2"] = httpx.get(f"{server.url}/api/games/{game}/hands/2", timeout=10).json()
    _next_hand(page)
    wait_turn(page, None)
    yield out
    p.close()


def test_the_page_contributes_to_every_deal_and_verifies_it(fair_game: dict[str, Any], server: Server) -> None:
    """From the lobby: the create request carries a deal (the ticket's id and the page's own
    contribution), and hand 1's reveal holds that contribution for seat 0 under the commitment the
    ticket published; the page contributes to hand 2 before it is dealt (the server lists seat 0,
    and hand 2's deck is derived with the page's value) and to each hand after; it keeps the
    commitment it saw before contributing; and it shows each hand verified, its contribution marked."""
    g = fair_game
    p, game = g["p"], g["game"]
    page = p.page
    ticket, deal = g["ticket"], g["created"]["deal"]
    assert deal["id"] == ticket["deal"] and fair.is_value(deal["contribution"])
    assert g["kept_1"]["value"] == deal["contribution"] and g["kept_1"]["commitment"] == ticket["commitment"]
    assert g["kept_1"]["seat"] == 0
    r1 = g["reveal_1"]
    assert r1["scheme"] == fair.SCHEME and r1["contributions"] == [{"seat": 0, "value": deal["contribution"]}]
    assert fair.seed_commitment(r1["salt"]) == ticket["commitment"] == r1["commitment"]
    assert _derived(game, r1)
    # hand 2: the page's value sent while hand 1 was played, under the commitment published then
    before = g["before_2"]["next_deal"]
    assert before["hand"] == 2 and g["kept_2"]["commitment"] == before["commitment"]
    assert fair.is_value(g["kept_2"]["value"]) and g["kept_2"]["value"] != deal["contribution"]
    r2 = g["reveal_2"]
    assert r2["contributions"] == [{"seat": 0, "value": g["kept_2"]["value"]}]
    assert fair.seed_commitment(r2["salt"]) == before["commitment"] and _derived(game, r2)
    assert (
        g["after_1"]["next_deal"]["hand"] == 3 and g["kept_3"]["commitment"] == g["after_1"]["next_deal"]["commitment"]
    )
    # and on to hand 4, dealt after the one in play now
    state = _until(
        lambda: (s := _state_of(server, game, g["token"]))["next_deal"]["contributed"] == [0] and s,
        "seat 0 contributes to hand 4",
    )
    kept_4 = _stored(page, game, 4)
    assert (
        state["next_deal"]["hand"] == 4
        and kept_4 is not None
        and kept_4["commitment"] == state["next_deal"]["commitment"]
    )

    # against the computer the panels are one line, which opens them
    fold = page.locator("[data-testid=fair-fold]")
    assert fold.get_attribute("open") is None and not page.is_visible("[data-testid=fair]")
    fold.locator("> summary").click()
    page.wait_for_selector("[data-testid=fair]", state="visible")
    for hand in (1, 2):
        item = page.locator(f"#fair li[data-hand='{hand}'][data-result]")
        item.wait_for()
        assert item.get_attribute("data-result") == "verified"
        assert "verified, with your contribution" in item.inner_text()
        assert "Dealt from the server's seed and your contribution." in item.inner_text()
        item.locator("summary").click()
        mine = item.locator(".fair-given.mine")
        assert mine.count() == 1 and "your contribution" in mine.inner_text()
        assert g[f"kept_{hand}"]["value"] in mine.inner_text()
        reveal = g[f"reveal_{hand}"]
        facts = item.locator(".fair-facts").inner_text()
        assert reveal["salt"] in facts and reveal["commitment"] in facts
    assert "in play" in page.inner_text("#fair li[data-hand='3']")
    assert "your contribution is in" in page.inner_text("#fair li[data-next]")
    assert page.locator("#fair .mismatch").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    panel = page.locator("[data-testid=fair]")
    page.wait_for_timeout(100)
    panel.screenshot(path=str(ARTIFACTS / "web-fair.png"))
    # a redraw (the next move) keeps the details a person opened
    version = page.get_attribute("#turn-banner", "data-version")
    page.click("[data-testid=hand] .card-btn.playable")
    page.click("[data-testid=move-choice]")
    page.wait_for_function(f"document.querySelector('#turn-banner').dataset.version !== '{version}'")
    assert page.locator("#fair li[data-hand='1'] details[open]").count() == 1
    page.set_viewport_size({"width": 390, "height": 844})
    panel.scroll_into_view_if_needed()
    box = panel.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    panel.screenshot(path=str(ARTIFACTS / "web-fair-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    # in German, with no English left in the panel (the computer player's name was given in English)
    bot = page.inner_text("[data-testid=seat-1] .seat-name")
    page.select_option("[data-testid=language]", "de")
    page.wait_for_function(
        "document.querySelector('#fair li[data-hand=\"1\"] .verified')?.textContent.includes('geprüft')"
    )
    left = english_left(visible_texts(page), "de", exempt={"Tester", bot})
    assert not left, left
    panel.screenshot(path=str(ARTIFACTS / "web-fair-de.png"))
    page.select_option("[data-testid=language]", "en")
    page.wait_for_function(
        "document.querySelector('#fair li[data-hand=\"1\"] .verified')?.textContent.includes('verified')"
    )
    assert not p.errors, p.errors


def _tamper(change: Any) -> Any:
    """A route handler answering a reveal with the server's own, changed by ``change``."""

    def handle(route: Any) -> None:
        body = route.fetch().json()
        change(body)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    return handle


def test_a_tampered_reveal_is_caught(fair_game: dict[str, Any], server: Server) -> None:
    """The reveals of hands 1 and 2 altered on their way to the page: one hex digit of a
    contribution (the deck no longer follows), a seed other than the one committed, and a deck
    derived without the page's contribution (your contribution was not used); each is shown as not
    verified, saying what fails, and the true reveal verifies again."""
    g = fair_game
    game = g["game"]
    page = g["p"].context.new_page()  # the same browser: what the page kept of each hand is there
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    def flip(body: dict[str, Any]) -> None:
        value = body["contributions"][0]["value"]
        body["contributions"][0]["value"] = ("0" if value[-1] != "0" else "1").join([value[:-1], ""])

    def other_seed(body: dict[str, Any]) -> None:
        body["salt"] = fair.new_seed()

    def without_mine(body: dict[str, Any]) -> None:
        body["contributions"] = []
        body["deck"] = fair.deck_text(fair.derive_deck(game, body["hand"], body["salt"], {}))

    url = f"{server.url}/#game={game}&token={g['token']}"
    for hand, change, result, text in (
        (1, flip, "deck", "NOT VERIFIED: the deck is not the one the seed and the contributions give"),
        (2, other_seed, "commitment", "NOT VERIFIED: the seed does not match the fingerprint published before the hand"),
        (1, without_mine, "unused", "NOT VERIFIED: your contribution was not used"),
    ):  # fmt: skip
        pattern = f"**/api/games/{game}/hands/{hand}"
        page.route(pattern, _tamper(change))
        page.goto("about:blank")
        page.goto(url)
        item = page.locator(f"#fair li[data-hand='{hand}'][data-result]")
        item.wait_for()  # shown: a deal that fails its check opens the folded panels
        assert item.get_attribute("data-result") == result
        assert text in item.inner_text()
        assert item.locator(".mismatch").count() == 1
        if result == "unused":
            item.locator("summary").click()
            assert g["kept_1"]["value"] in item.locator(".fair-given.missing").inner_text()
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator("[data-testid=fair]").screenshot(path=str(ARTIFACTS / "web-fair-tampered.png"))
        other = page.locator(f"#fair li[data-hand='{3 - hand}'][data-result]")
        other.wait_for()
        assert other.get_attribute("data-result") == "verified"  # only the altered hand fails
        page.unroute(pattern)
    page.goto("about:blank")
    page.goto(url)
    page.locator("#fair li[data-hand='1'][data-result=verified]").wait_for(state="attached")
    # every deal verified: against the computer the panels stay folded into their line
    assert page.get_attribute("[data-testid=fair-fold]", "open") is None
    assert not errors, errors
    page.close()


def test_a_contribution_that_did_not_arrive_is_sent_again(server: Server, browser: Any) -> None:
    """The page's contribution to hand 2 lost on its way (the socket drops it): the page has kept
    it, and the page opened again sends the same value, which the server takes."""
    body = {"seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Greedy"}]}
    link = new_game(server, body)
    game, token = link.split("game=")[1].split("&")[0], link.split("token=")[1]
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    dropped: list[dict[str, Any]] = []

    def through(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: Any) -> None:
            parsed = json.loads(message) if isinstance(message, str) else {}
            if parsed.get("type") == "contribute":
                dropped.append(parsed)
            else:
                to_server.send(message)

        ws.on_message(from_page)

    page.route_web_socket("**/ws*", through)
    page.goto(link)
    wait_turn(page, None)
    _until(lambda: dropped, "the page sends a contribution to hand 2")
    kept = _stored(page, game, 2)
    assert kept is not None and dropped[0] == {"type": "contribute", "hand": 2, "value": kept["value"]}
    assert _state_of(server, game, token)["next_deal"]["contributed"] == []
    page.close()
    again = p.context.new_page()  # the same browser, the socket left alone
    again.goto(link)
    wait_turn(again, None)
    _until(lambda: _state_of(server, game, token)["next_deal"]["contributed"] == [0], "the contribution sent again")
    assert _stored(again, game, 2) == kept
    assert not p.errors, p.errors
    p.close()


def _tracker(page: Any) -> list[dict[str, Any]]:
    """The tracker as the page shows it: each side's numbers and the aces and casinos it won."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => [...document.querySelectorAll('[data-testid=tracker] [data-side]')].map((s) => ({
            side: Number(s.dataset.side), cards: Number(s.dataset.cards), spades: Number(s.dataset.spades),
            sweeps: Number(s.dataset.sweeps), won: [...s.querySelectorAll('[data-card]')].map((c) => c.dataset.card) }))"""
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_tracker_counts_what_each_side_took(server: Server, browser: Any, width: int, height: int) -> None:
    """At every turn of a hand the tracker's numbers are those of each side's piles in the API's
    state, and its aces and casinos are the ones in them."""
    body = {"players": 4, "partnerships": True, "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "casual"}] * 3}
    made = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
    token = made["seats"][0]["token"]
    p = Page(browser, width, height)
    page = p.page
    page.goto(f"{server.url}/#game={made['game']}&token={token}")
    version, checked, taken = None, 0, 0
    while wait_turn(page, version) == "your-move":
        version = page.get_attribute("#turn-banner", "data-version")
        api = _state_of(server, made["game"], token)
        for side in _tracker(page):
            piles = [c for seat, pile in enumerate(api["captured"]) if seat % 2 == side["side"] for c in pile]
            assert side["cards"] == len(piles) and side["spades"] == sum(c[1] == "s" for c in piles), (side, piles)
            assert side["sweeps"] == sum(s % 2 == side["side"] for s in api["sweeps"])
            assert sorted(side["won"]) == sorted(c for c in piles if c[0] == "A" or c in ("Td", "2s"))
            taken += side["cards"]
        assert page.locator("[data-testid=tracker]").is_visible()
        checked += 1
        if checked == 8:
            page.wait_for_timeout(500)  # the last move's cards come to rest
            page.screenshot(path=str(ARTIFACTS / f"web-tracker-{width}.png"))
        page.click("[data-testid=hand] .card-btn.playable")
        page.wait_for_selector("[data-testid=move-choice]")
        page.click("[data-testid=move-choice]")
    assert checked >= 10 and taken > 0
    p.close()


def test_switching_language_redraws_the_last_move_and_the_lobby(server: Server, browser: Any) -> None:
    """The line that announces the last move and the lobby's games to watch are drawn again in the
    language chosen, with no English word left (and a new table opens at its top)."""
    watched = {"seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], "listed": True}
    assert httpx.post(server.url + "/api/games", json=watched, timeout=10).status_code == 201
    p = Page(browser, 1280, 800, lang="en", motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#recent li a")
    for language in ("de", "id"):
        page.select_option("[data-testid=language]", language)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)
        recent = page.locator("#recent").inner_text()
        assert recent and not english_left([recent], language, exempt=set()), recent
    page.select_option("[data-testid=language]", "en")
    page.evaluate("window.scrollTo(0, 400)")
    body = {"seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Greedy"}]}
    page.goto(new_game(server, body))
    wait_turn(page, None)
    assert page.evaluate("window.scrollY") == 0
    version = page.get_attribute("#turn-banner", "data-version")
    page.click("[data-testid=hand] .card-btn.playable")
    page.click("[data-testid=move-choice]")
    assert wait_turn(page, version) == "your-move"  # the computer player answered
    line = page.locator("[data-testid=last-move]")
    assert line.inner_text().startswith("Greedy: ")  # the computer player led
    for language in ("de", "id"):
        page.select_option("[data-testid=language]", language)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)
        said = line.inner_text()
        assert said.startswith("Greedy: ") and not english_left([said], language, exempt={"Greedy"}), said
    assert not p.errors, p.errors
    p.close()


def test_the_host_sees_the_guest_come_and_go(server: Server, browser: Any) -> None:
    """A person's seat is `waiting` until its invitation is opened, `online` while its page is
    open, then `away`; the host's table says so, and says who it waits for."""
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
    made = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
    host = Page(browser, 1280, 800, motion=False)
    host.page.goto(f"{server.url}/#game={made['game']}&token={made['seats'][0]['token']}")
    host.page.wait_for_selector("[data-testid=seat-1][data-presence=waiting]")
    assert "Ben has not opened the invitation yet" in host.page.locator("#prompt").inner_text()  # Ben leads
    guest = Page(browser, 390, 844, motion=False)
    guest.page.goto(server.url + made["seats"][1]["link"])
    guest.page.wait_for_selector("#turn-banner[data-state=your-move]")
    host.page.wait_for_selector("[data-testid=seat-1][data-presence=online]")
    assert "Ben is thinking" in host.page.locator("#prompt").inner_text()
    assert guest.page.get_attribute("[data-testid=seat-0]", "data-presence") == "online"
    guest.close()
    host.page.wait_for_selector("[data-testid=seat-1][data-presence=away]")
    assert "Ben has left the table for now" in host.page.locator("#prompt").inner_text()
    assert not host.errors and not guest.errors, (host.errors, guest.errors)
    host.close()


def test_a_move_in_three_keys(server: Server, browser: Any) -> None:
    """A digit picks the card, a digit the move, Enter plays it; a card's first move is ready for
    Enter at once. Each move below is made with at most three key presses and nothing else."""
    body = {"seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Greedy"}]}
    p = Page(browser, 1280, 800, motion=False)
    page = p.page
    page.goto(new_game(server, body))
    version = None
    for turn in range(6):
        assert wait_turn(page, version) == "your-move"
        version = page.get_attribute("#turn-banner", "data-version")
        key = page.get_attribute("[data-testid=hand] .card-btn.playable", "data-key")
        presses = [str(key)]
        page.keyboard.press(str(key))
        count = page.locator("[data-testid=move-choice]").count()
        assert count >= 1
        if turn % 2 and count > 1:
            presses.append(str(count))  # the last of its moves
            page.keyboard.press(str(count))
        focused = page.evaluate("document.activeElement.dataset.move")
        presses.append("Enter")
        page.keyboard.press("Enter")
        assert len(presses) <= 3
        page.wait_for_function("(v) => document.querySelector('#turn-banner').dataset.version !== v", arg=version)
        moves = _state_of(server, *_game_and_token(page))["moves"]
        assert focused in [m["move"] for m in moves if m["seat"] == 0], (focused, moves)
    assert page.locator("[data-testid=key-guide]").is_visible()
    assert not p.errors, p.errors
    p.close()


def test_the_keys_go_on_when_the_table_is_drawn_again(server: Server, browser: Any) -> None:
    """The same position drawn again (here because the other person came to the table) keeps the
    move the keys chose focused: Enter still plays it."""
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
    made = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
    guest = Page(browser, 1280, 800, motion=False)
    page = guest.page
    page.goto(server.url + made["seats"][1]["link"])
    assert wait_turn(page, None) == "your-move"  # Ben leads
    version = page.get_attribute("#turn-banner", "data-version")
    page.keyboard.press(str(page.get_attribute("[data-testid=hand] .card-btn.playable", "data-key")))
    focused = page.evaluate("document.activeElement.dataset.move")
    assert focused
    host = Page(browser, 1280, 800, motion=False)
    host.page.goto(f"{server.url}/#game={made['game']}&token={made['seats'][0]['token']}")
    page.wait_for_selector("[data-testid=seat-0][data-presence=online]")  # drawn again, at the same version
    assert page.get_attribute("#turn-banner", "data-version") == version
    assert page.evaluate("document.activeElement.dataset.move") == focused
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => document.querySelector('#turn-banner').dataset.version !== v", arg=version)
    game, token = _game_and_token(page)
    assert [m["move"] for m in _state_of(server, game, token)["moves"]] == [focused]
    assert not guest.errors and not host.errors, (guest.errors, host.errors)
    host.close()
    guest.close()


def _game_and_token(page: Any) -> tuple[str, str]:
    """The game and the seat token of the page's link."""
    fragment = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))
    return fragment["game"], fragment["token"]


# ------------------------------------------------------------------ everything on the first screen
FIRST_SCREEN = ("[data-testid=hand]", "[data-testid=table] .table-cards")
NOTES = ("[data-testid=lesson]", "[data-testid=hint-note]", "[data-testid=coach-note]")


def _on_first_screen(p: Page, parts: list[str], where: str) -> None:
    """Each part (every element it matches, when shown) lies inside the viewport, the page unscrolled."""
    page = p.page
    assert page.evaluate("window.scrollY") == 0, f"{where}: the page was scrolled"
    for part in parts:
        for i in range(page.locator(part).count()):
            node = page.locator(part).nth(i)
            if node.is_visible() and not inside(node.bounding_box(), p.width, p.height):
                p.shot(f"first-screen-{p.width}-failure.png")
                raise AssertionError(f"{where}: {part} #{i} lies at {node.bounding_box()}")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_whole_hand_on_the_first_screen(server: Server, browser: Any, width: int, height: int) -> None:
    """The tutorial's first hand, a hint asked at every turn: the hand, the table, the move choices
    and each note (lesson, hint, coach) lie inside the viewport at every turn, without scrolling."""
    p = Page(browser, width, height, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.click("[data-testid=learn-to-play]")
    version: str | None = None
    turns = hints = 0
    seen: set[str] = set()
    while (state := wait_turn(page, version)) == "your-move":
        page.wait_for_timeout(150)  # a lesson or the coach's note arrives just after the state
        _on_first_screen(p, [*FIRST_SCREEN, *NOTES], f"turn {turns}")
        seen.update(n for n in NOTES if page.is_visible(n))
        if page.is_visible("[data-testid=lesson]"):
            page.click("[data-testid=lesson-ok]")
        page.click("#hint-button")
        page.wait_for_selector("[data-testid=hint-note]:not([hidden])")
        _on_first_screen(p, [*FIRST_SCREEN, *NOTES], f"turn {turns}, the hint")
        seen.add(NOTES[1])
        hints += 1
        if turns == 2:
            p.shot(f"first-screen-{width}.png")
        version = page.get_attribute("#turn-banner", "data-version")
        page.locator("[data-testid=hand] .card-btn.playable").first.click()
        page.wait_for_selector("[data-testid=move-choice]")
        _on_first_screen(p, [*FIRST_SCREEN, *NOTES, "[data-testid=move-choice]"], f"turn {turns}, the choices")
        page.locator("[data-testid=move-choice]").first.click()
        turns += 1
    assert state == "count" and turns == 24 and hints == 24, (state, turns)
    assert {NOTES[0], NOTES[1]} <= seen, seen
    assert not p.errors, p.errors
    p.close()


def test_four_players_three_computer_players_three_names(server: Server, browser: Any) -> None:
    """A 4-player partnership game made in the lobby with its seats as they come: the three computer
    players have three distinct names (none a level's or a seat's), each on its own face, at 1280x800."""
    p = Page(browser, 1280, 800, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.click("label[for=players-4]")
    page.check("#partnerships")
    page.click("#create")
    wait_turn(page, None)
    names = [page.inner_text(f"[data-testid=seat-{s}] .seat-name") for s in (1, 2, 3)]
    assert len(set(names)) == 3 and page.inner_text("[data-testid=seat-0] .seat-name") == "You", names
    assert not any(re.search(r"player|seat|\d", n, re.IGNORECASE) for n in names), names
    faces = [page.get_attribute(f"[data-testid=seat-{s}] .face", "class") for s in (1, 2, 3)]
    assert [page.inner_text(f"[data-testid=seat-{s}] .face") for s in (1, 2, 3)] == [n[0] for n in names]
    assert all(f and "face-" in f for f in faces)
    partner = page.inner_text("[data-testid=seat-2]")
    assert names[1] in page.inner_text("#scores") and "partner" in partner
    p.shot("table-4-players.png")
    assert not p.errors, p.errors
    p.close()


# ------------------------------------------------------------------ the replay on the table, and sounds
def _moment(server: Server, game: str, ply: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The position just before the game's move ``ply`` and just after it (the table's cards and
    every seat's hand, as sorted names), and that move: rebuilt here from the record's revealed
    decks and moves through the engine, not from the replay's frames."""
    from cassino.cards import card_name, cards_of, parse_card
    from cassino.game import Game
    from cassino.moves import parse_code
    from cassino.rules import Rules

    record = httpx.get(f"{server.url}/api/games/{game}/record", timeout=10).json()
    rules = httpx.get(f"{server.url}/api/games/{game}", timeout=10).json()["rules"]
    again = Game(Rules.from_json(rules), decks=[[parse_card(w) for w in h["deck"].split()] for h in record["hands"]])

    def names(mask: int) -> list[str]:
        return sorted(card_name(c) for c in cards_of(mask))

    def seen(number: int) -> dict[str, Any]:
        s = again.hands[number - 1]
        table = names(s.loose) + [c for b in s.builds for c in names(b.cards)]
        return {"table": sorted(table), "hands": [names(h) for h in s.hands]}

    made = 0
    for number, hand in enumerate(record["hands"], 1):
        for move in hand["moves"]:
            before = seen(number)
            again.play(parse_code(move["move"]))
            if made == ply:
                return before, seen(number), {**move, "hand": number}
            made += 1
    raise AssertionError(f"the game has no move {ply}")


def _replay_shows(page: Any, seats: int) -> dict[str, Any]:
    """The position the replay draws: the felt's cards and each seat's hand shown face up."""
    shown = page.evaluate(
        """(seats) => ({
            table: [...document.querySelectorAll('#table-cards [data-card]')].map((n) => n.dataset.card).sort(),
            hands: [...Array(seats).keys()].map((s) =>
                [...document.querySelectorAll(`[data-replay-hand="${s}"] [data-card]`)].map((n) => n.dataset.card).sort()),
        })""",
        seats,
    )
    return dict(shown)


def _width(page: Any, selector: str) -> float:
    """The narrowest of the elements a selector finds, in CSS pixels (0 when there is none)."""
    widths = page.evaluate(
        "(s) => [...document.querySelectorAll(s)].map((n) => n.getBoundingClientRect().width)", selector
    )
    return float(min(widths, default=0.0))


def test_a_review_move_opens_the_replay_on_the_table(server: Server, browser: Any) -> None:
    """After a game, a costly move of the review opens the replay on the main table just before it:
    the felt's cards and every hand face up are the position the record gives for that move, with
    the move marked; a step forward shows the position after it, a step back the one before, at
    the table's full card size on a desktop and on a phone; the replay closes back to the game."""
    body = {
        "options": {"target": 1},
        "seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Grabber"}],
    }
    p = Page(browser, 1280, 800, motion=False)
    page = p.page
    page.goto(new_game(server, body))
    game, _ = _game_and_token(page)
    live: dict[str, float] = {}

    def on_turn(page: Any, turn: int) -> None:
        live["hand"] = _width(page, "#hand img.card")
        if page.locator("#table-cards img.card").count():
            live["table"] = _width(page, "#table-cards img.card")

    def on_chosen(page: Any, turn: int) -> bool:  # a trail whenever there is one: moves worth reviewing
        trail = page.locator("[data-testid=move-choice][data-move^=trail]")
        (trail.first if trail.count() else page.locator("[data-testid=move-choice]").first).click()
        return True

    play_whole_game(p, on_turn=on_turn, on_chosen=on_chosen)
    assert live["hand"] > 0 and live["table"] > 0
    page.click("[data-testid=review-button]")
    page.wait_for_selector("[data-testid=review-move]")
    move = page.locator("[data-testid=review-move]").first
    ply = int(move.get_attribute("data-ply") or "")
    before, after, played = _moment(server, game, ply)
    total = httpx.get(f"{server.url}/api/games/{game}", timeout=10).json()["version"]
    move.click()
    page.wait_for_selector("[data-testid=review]", state="hidden")
    page.wait_for_selector("[data-testid=replay]", state="visible")
    assert page.evaluate("document.activeElement.id") == "replay-next"

    def check_before() -> None:
        assert _replay_shows(page, 2) == before
        assert page.inner_text("[data-testid=replay-position]") == f"Move {ply} of {total}, hand {played['hand']}"
        name = "You" if played["seat"] == 0 else "Grabber"
        assert page.inner_text("[data-testid=replay-next-move]").startswith(f"Next, {name}: ")
        card = played["move"].split(" ")[1]  # the card played is marked in its seat's hand
        assert page.locator(f"[data-replay-hand='{played['seat']}'] .replay-mark[data-card='{card}']").count() == 1

    check_before()
    assert page.is_visible("[data-testid=replay-note]")  # the coach's note on the move, as in the review
    assert page.locator("#table-cards button, #hand button").count() == 0  # nothing to play in a replay
    if before["table"]:
        assert _width(page, "#table-cards img.card") >= live["table"]
    if before["hands"][1]:
        assert _width(page, ".replay-hand img.card") >= live["table"]  # the other hand face up, full size
    assert _width(page, "#hand img.card") >= live["hand"]
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "(n) => !document.querySelector('[data-testid=replay-position]').textContent.startsWith(`Move ${n} `)", arg=ply
    )
    assert _replay_shows(page, 2) == after
    assert page.inner_text("[data-testid=replay-position]").startswith(f"Move {ply + 1} of {total}")
    page.click("[data-testid=replay-prev]")
    check_before()
    p.shot("replay-desktop.png")
    assert axe_violations(page) == []

    page.select_option("[data-testid=language]", "de")
    page.wait_for_function("document.querySelector('[data-testid=replay-position]').textContent.startsWith('Zug ')")
    left = english_left(visible_texts(page), "de", exempt={"Tester", "Grabber"})
    assert not left, left
    assert _replay_shows(page, 2) == before
    page.select_option("[data-testid=language]", "en")
    page.wait_for_function("document.querySelector('[data-testid=replay-position]').textContent.startsWith('Move ')")

    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("document.getElementById('board').scrollIntoView()")
    check_before()
    phone_card = float(
        page.evaluate("parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--card-w'))")
    )
    assert 0 < phone_card < live["table"]  # the table's card size on a phone
    if before["table"]:
        assert _width(page, "#table-cards img.card") >= phone_card
    if before["hands"][1]:
        assert _width(page, ".replay-hand img.card") >= phone_card
    for part in ("[data-testid=table]", "[data-testid=replay-next]", "[data-testid=replay-close]"):
        assert inside(page.locator(part).bounding_box(), 390, 844), part
    p.shot("replay-phone.png")
    page.click("[data-testid=replay-next]")
    assert _replay_shows(page, 2) == after
    page.keyboard.press("ArrowLeft")
    check_before()

    page.click("[data-testid=replay-close]")
    page.wait_for_selector("[data-testid=replay]", state="hidden")
    assert page.locator("[data-replay-hand]").count() == 0
    assert page.is_visible("#over")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#replay-button")  # the whole game from its first deal, on the same table
    page.wait_for_function("document.querySelector('[data-testid=replay-move]').textContent === 'Hand 1 dealt'")
    first, _, _ = _moment(server, game, 0)
    assert _replay_shows(page, 2) == first
    p.shot("replay-start.png")
    assert page.inner_text("[data-testid=replay-position]") == f"Move 0 of {total}, hand 1"
    page.keyboard.press("End")
    assert page.inner_text("[data-testid=replay-position]").startswith(f"Move {total} of {total}")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=replay]", state="hidden")
    assert not p.errors, p.errors
    p.close()


def test_another_game_opened_while_a_count_turns_up(server: Server, browser: Any) -> None:
    """A count's timers stop with it: a link to another game (here one that does not exist, so no
    state of it ever comes) opened the moment a count appears, before its summary is spoken, shows
    that game's problem, and nothing of the count runs on against it."""
    link = new_game(server, {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "casual"}]})
    p = Page(browser, 1280, 800, motion=True)
    page = p.page
    page.goto(link)
    version = None
    while wait_turn(page, version) == "your-move":
        version = page.get_attribute("#turn-banner", "data-version")
        page.click("[data-testid=hand] .card-btn.playable")
        page.click("[data-testid=move-choice]")
    page.evaluate("location.reload()")
    page.wait_for_function(  # in the page, in the frame the count appears in: long before its 150 ms summary
        """() => { if (document.querySelector('#count').hidden) return false;
            location.hash = 'game=nosuchgame&token=nosuchtoken'; return true; }""",
        polling="raf",
    )
    page.wait_for_selector("#problem:not([hidden])")
    page.wait_for_timeout(1200)
    assert page.locator("#count").is_hidden() and page.text_content("#count-summary") == ""
    assert not p.errors, p.errors
    p.close()


def test_the_cards_not_seen_yet_for_a_learner(server: Server, browser: Any) -> None:
    """Turned on in the menu, the list of cards not seen yet is, at every turn, every card but the
    seat's hand, the table's and the piles' in the API's state; a game between people with help off
    offers no such list."""
    link = new_game(server, {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "casual"}]})
    p = Page(browser, 1280, 800, motion=False)
    page = p.page
    page.goto(link)
    wait_turn(page, None)
    assert not page.is_visible("[data-testid=unseen]")
    page.click("#settings-menu summary")
    page.check("[data-testid=set-unseen]")
    page.click("#settings-menu summary")
    game, token = link.split("game=")[1].split("&token=")
    version, checked = None, 0
    while wait_turn(page, version) == "your-move":
        version = page.get_attribute("#turn-banner", "data-version")
        api = _state_of(server, game, token)
        seen = {*api["hand"], *api["table"]["loose"], *(c for b in api["table"]["builds"] for c in b["cards"])}
        seen |= {c for pile in api["captured"] for c in pile}
        cards = page.locator("[data-testid=unseen] [data-card]")
        shown = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
        assert sorted(shown) == sorted(set(CARD_NAMES) - seen) and len(shown) == len(set(shown)), checked
        checked += 1
        page.click("[data-testid=hand] .card-btn.playable")
        page.click("[data-testid=move-choice]")
    assert checked == 24
    page.reload()  # the choice is kept for this game
    wait_turn(page, None)
    assert page.is_checked("[data-testid=set-unseen]")
    # between two people, hints off: nothing to turn on
    made = httpx.post(
        server.url + "/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}, timeout=10
    ).json()
    page.goto(f"{server.url}/#game={made['game']}&token={made['seats'][0]['token']}")
    page.wait_for_selector("[data-testid=help-off]:not([hidden])")
    assert not page.is_visible("[data-testid=unseen]") and page.locator("#set-unseen-row[hidden]").count() == 1
    assert not p.errors, p.errors
    p.close()


def _sounds_of(move: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The sounds a move calls for, from the API's states before and after it: a capture (and a
    sweep, when the mover's count of sweeps grew) or a card played."""
    if not move["move"].startswith("capture"):
        return ["card"]
    swept = after["sweeps"].count(move["seat"]) > before["sweeps"].count(move["seat"])
    return ["capture", "sweep"] if swept else ["capture"]


def test_sound_is_off_at_first_and_then_plays_each_move(server: Server, browser: Any) -> None:
    """The settings menu has one Sound switch, off at first: a move makes no sound. Turned on, it is
    kept across a reload, and each new state plays its move's sounds, then the reader's turn, as the
    in-page log (#sound-log) names them and the API's moves and sweeps say they should be."""
    body = {"seats": [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Greedy"}]}
    p = Page(browser, 1280, 800, motion=False)
    page = p.page
    page.goto(new_game(server, body))
    game, token = _game_and_token(page)
    version = None
    assert wait_turn(page, version) == "your-move"
    page.click("#settings-menu summary")
    assert page.inner_text("label:has([data-testid=set-sound])").strip() == "Sound"
    assert not page.is_checked("[data-testid=set-sound]")
    assert page.evaluate("localStorage.getItem('cassino.sound')") is None
    page.click("#settings-menu summary")

    def play_one(prefer: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Play a move of the kind preferred where there is one; the API's states before and after
        the computer player's answer."""
        before = _state_of(server, game, token)
        chosen = next((m for m in before["legal"] if m["kind"] == prefer), before["legal"][0])
        version = page.get_attribute("#turn-banner", "data-version")
        page.click(f"[data-testid=hand] [data-card='{chosen['card']}']")
        page.click(f"[data-testid=move-choice][data-move='{chosen['move']}']")
        assert wait_turn(page, version) == "your-move"
        return before, _state_of(server, game, token)

    play_one("trail")
    assert page.locator("#sound-log li").count() == 0  # off: nothing played
    page.click("#settings-menu summary")
    page.check("[data-testid=set-sound]")
    page.click("#settings-menu summary")
    assert page.evaluate("localStorage.getItem('cassino.sound')") == "on"
    heard: list[str] = []
    while len(heard) < 6 or not any(h.startswith("capture") for h in heard):  # three moves, and a capture heard
        assert len(heard) < 24, heard
        before, after = play_one("capture" if len(heard) % 4 == 0 else "trail")
        mine, theirs = after["moves"][len(before["moves"]) :]
        heard += [" ".join(_sounds_of(mine, before, after)), " ".join([*_sounds_of(theirs, before, after), "turn"])]
        page.wait_for_function("(n) => document.querySelectorAll('#sound-log li').length === n", arg=len(heard))
        assert page.locator("#sound-log li").all_text_contents() == heard
    assert page.get_attribute("#sound-log", "data-last-sound") == heard[-1]
    page.reload()
    assert wait_turn(page, None) == "your-move"
    page.click("#settings-menu summary")
    assert page.is_checked("[data-testid=set-sound]")  # kept
    assert page.locator("#sound-log li").all_text_contents() == ["turn"]  # the table opens at the reader's turn
    assert not p.errors, p.errors
    p.close()


def _count_scene(page: Any) -> dict[str, Any]:
    """The count scene as the page shows it: where it sits, its state, its steps and its numbers."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => {
        const box = document.querySelector('[data-testid=count]');
        const rect = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        return {
            role: box.getAttribute('role'), modal: box.getAttribute('aria-modal'), position: getComputedStyle(box).position,
            inBoard: !!box.closest('#board'), box: rect(box), felt: rect(document.querySelector('#felt')),
            state: box.dataset.state, pending: box.querySelectorAll('.pending').length,
            cards: [...box.querySelectorAll('[data-item=ace], [data-item=big_casino], [data-item=little_casino]')].map((n) => ({
                item: n.dataset.item, card: n.dataset.card, side: Number(n.dataset.side),
                src: n.querySelector('img').getAttribute('src') })),
            items: [...box.querySelectorAll('[data-item]')].map((n) => [n.dataset.item, Number(n.dataset.side), Number(n.dataset.points)]),
            residue: [...box.querySelectorAll('[data-step=residue] [data-card]')].map((n) => n.dataset.card),
            residueText: box.querySelector('[data-step=residue]')?.innerText || null,
            tallies: [...box.querySelectorAll('[data-tally]')].map((n) => n.textContent),
            bars: [...box.querySelectorAll('.count-side')].map((n) => [Number(n.dataset.from), Number(n.dataset.to)]),
            check: box.querySelector('#count-check').innerText,
        };
    }"""
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_count_is_a_scene_on_the_table(server: Server, browser: Any, width: int, height: int) -> None:
    """A hand played through the page ends in the count in the felt's place, not a dialog over the
    table: its steps turned up one by one, then at once on one key (desktop) or one tap (phone),
    every ace and casino of the API's count as its card, the last cards going to the last
    capturer, the check, each side's tally and score bar, and one summary for screen readers."""
    phone = width < 760
    target = 1 if phone else 99  # the phone's game may end with this hand: the count says so
    seats = [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy", "name": "Greedy"}]
    names = ["You", "Greedy"]  # as the page names the sides to seat 0
    body = {"options": {"target": target}, "seats": seats}
    made = httpx.post(server.url + "/api/games", json=body, timeout=10).json()
    game, token = made["game"], made["seats"][0]["token"]
    p = Page(browser, width, height)
    page = p.page
    page.goto(f"{server.url}/#game={game}&token={token}")
    banner = _play_hand(page)
    api = _state_of(server, game, token)
    hand = api["finished"][-1]
    assert banner == ("over" if api["status"] == "over" else "count")
    # turned up one by one: some steps are up while others are still to come
    page.wait_for_function(
        """() => { const box = document.querySelector('[data-testid=count]');
            return box.dataset.state === 'playing' && box.querySelector('.count-item:not(.pending)')
                && box.querySelector('.count-item.pending'); }"""
    )
    scene = _count_scene(page)
    assert (scene["role"], scene["modal"], scene["position"], scene["inBoard"]) == (None, None, "relative", True)
    left, top, right, bottom = scene["box"]
    f_left, f_top, f_right, f_bottom = scene["felt"]
    assert f_left <= left and f_top <= top and right <= f_right and bottom <= f_bottom, (scene["box"], scene["felt"])
    if phone:
        page.click("[data-testid=count] .count-head h2")  # one tap on the scene
    else:
        page.focus("#settings-menu summary")  # Space belongs to the control that has the focus
        page.keyboard.press("Space")
        assert page.evaluate("document.querySelector('#settings-menu').open")
        assert page.get_attribute("[data-testid=count]", "data-state") == "playing"
        page.keyboard.press("Space")
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("Space")
    scene = _count_scene(page)
    assert (scene["state"], scene["pending"]) == ("done", 0)
    cards = ("ace", "big_casino", "little_casino")
    won = [(i["item"], i["card"], i["side"]) for i in hand["count"] if i["item"] in cards]
    assert [(c["item"], c["card"], c["side"]) for c in scene["cards"]] == won
    assert [c["src"] for c in scene["cards"]] == [f"/cards/{card}.svg" for _, card, _ in won]
    assert scene["items"] == [[i["item"], i["side"], i["points"]] for i in hand["count"]]
    residue = hand["residue"]
    assert scene["residue"] == residue["cards"]
    if residue["cards"] and residue["seat"] is not None:
        n = len(residue["cards"])
        said = "The last card on the table" if n == 1 else f"The last {n} cards on the table"
        assert scene["residueText"].startswith(f"{said}, to the last to capture: {names[residue['seat']]}")
    assert scene["tallies"] == [f"+{n}" for n in hand["points"]]
    assert scene["bars"] == [[s - n, s] for s, n in zip(hand["scores"], hand["points"], strict=True)]
    assert hand["scores"] == api["scores"]
    assert scene["check"] == f"✓ {hand['checksum']} points counted: the {hand['expected']}-point check is right."
    points = ", ".join(
        f"{name}: {n} point{'' if n == 1 else 's'}" for name, n in zip(names, hand["points"], strict=True)
    )
    scores = ", ".join(f"{name} {n}" for name, n in zip(names, hand["scores"], strict=True))
    summary = f"Hand {hand['hand']}: {points}. Game score: {scores}."
    page.wait_for_function("(s) => document.querySelector('#count-summary').textContent === s", arg=summary)
    assert page.get_attribute("#count-summary", "aria-live") == "polite"
    assert inside(page.locator("[data-testid=count]").bounding_box(), width, height)
    if not phone:  # the whole table fits: nothing was scrolled to see the count
        assert page.evaluate("window.scrollY") == 0
    page.wait_for_function("!document.querySelector('.ghost')")
    p.shot(f"count-scene-{'phone' if phone else 'desktop'}.png")
    # no backdrop: the seat across is not covered
    assert page.evaluate(
        """() => { const seat = document.querySelector('[data-testid=seat-1]'); seat.scrollIntoView({ block: 'center' });
            const r = seat.getBoundingClientRect();
            return !!document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('[data-testid=seat-1]'); }"""
    )
    assert axe_violations(page) == []
    # the next hand, or the result once the game is over
    button = page.locator("[data-testid=next-hand]")
    assert button.inner_text() == ("See the result" if api["status"] == "over" else "Next hand")
    # drawn again in another language, whole at once and with no English left
    language = "id" if phone else "de"
    page.select_option("[data-testid=language]", language)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=language)
    assert _count_scene(page)["state"] == "done"
    assert page.locator("[data-testid=count] [data-item]").count() == len(hand["count"])
    left = english_left(visible_texts(page), language, exempt={"Tester", "Greedy"})
    assert not left, left
    button.click()
    page.wait_for_selector("[data-testid=count]", state="hidden")
    if api["status"] == "over":
        assert page.is_visible("#over")
    else:
        page.wait_for_function("document.querySelector('#turn-banner').dataset.state !== 'count'")
        assert page.is_visible("[data-testid=table]")
    assert not p.errors, p.errors


# ---------------------------------------------------------------------- accounts (the lobby's account area)
def test_an_account_from_the_lobby(server: Server, browser: Any) -> None:
    """Create an account through the lobby's form (the seat this browser holds goes with it), see
    the name, start a game signed in (the page's writes carry the session's CSRF token and its
    origin), sign out, meet a wrong password in words, sign in again, and stay signed in on reload."""
    p = Page(browser, 1280, 900, motion=False)
    page = p.page
    link = new_game(server, {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    held = link.split("game=")[1].split("&")[0]
    page.goto(link)  # the page now holds this seat
    page.wait_for_function("location.hash.includes('token=') && !!localStorage.getItem('cassino.seats')")
    page.goto(server.url + "/#")
    page.wait_for_selector("#presets .preset")
    assert page.is_visible("[data-testid=account-sign-in]") and page.is_hidden("[data-testid=account-who]")
    page.click("[data-testid=account-sign-up]")
    assert page.inner_text("[data-testid=account-submit]") == "Create the account"
    assert axe_violations(page) == []  # the form open: labels, roles, contrast
    p.shot("web-account-form.png")
    page.get_by_label("Name", exact=True).fill("Lobby_Ann")
    page.get_by_label("Password", exact=True).fill("a lobby password")
    page.click("[data-testid=account-submit]")
    page.wait_for_selector("[data-testid=account-who]:visible")
    assert page.inner_text("[data-testid=account-who]") == "Signed in as Lobby_Ann"
    assert page.inner_text("#account-claimed") == "1 seat of this browser is now kept with your account."
    holders = httpx.get(f"{server.url}/api/users/lobby_ann", timeout=10).json()
    assert holders["name"] == "Lobby_Ann"
    cookies = {c["name"]: c for c in p.context.cookies()}
    session = cookies["cassino_session"]
    assert session["httpOnly"] and session["sameSite"] == "Lax" and session["path"] == "/"
    assert "cassino_session" not in page.evaluate("document.cookie")  # no script reads the session
    assert held  # the seat's game, brought along (its holder is checked by the API tests)
    # signed in, a game started from the lobby: both writes (the deal, the game) pass the guard
    page.click("#create")
    page.wait_for_selector("#table-view:not([hidden])")
    page.wait_for_function("location.hash.includes('token=')")
    page.goto(server.url + "/#")
    page.wait_for_selector("[data-testid=account-who]:visible")
    page.click("[data-testid=account-sign-out]")
    page.wait_for_selector("[data-testid=account-sign-in]:visible")
    assert page.is_hidden("[data-testid=account-who]")
    assert "cassino_session" not in {c["name"] for c in p.context.cookies()}
    page.click("[data-testid=account-sign-in]")
    assert page.inner_text("[data-testid=account-submit]") == "Sign in"
    page.get_by_label("Name", exact=True).fill("lobby_ann")
    page.get_by_label("Password", exact=True).fill("not the password")
    page.click("[data-testid=account-submit]")
    page.wait_for_function("document.querySelector('[data-testid=account-error]').textContent !== ''")
    assert page.inner_text("[data-testid=account-error]") == "Wrong name or password."
    page.get_by_label("Password", exact=True).fill("a lobby password")
    page.click("[data-testid=account-submit]")
    page.wait_for_selector("[data-testid=account-who]:visible")
    assert page.inner_text("[data-testid=account-who]") == "Signed in as Lobby_Ann"
    page.reload()
    page.wait_for_selector("[data-testid=account-who]:visible")
    assert page.inner_text("[data-testid=account-who]") == "Signed in as Lobby_Ann"
    p.shot("web-account.png")
    assert not [e for e in p.errors if "401" not in e], p.errors  # the wrong password's 401 only
    p.close()


# ---------------------------------------------------------------------- the lobby's seeks and Play now (seeks.js)
def sign_up_in_the_lobby(p: Page, server: Server, name: str) -> None:
    """A new account through the lobby's form; the seeks panel then offers Play now."""
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    assert page.is_visible("#seeks-out") and page.is_hidden("[data-testid=play-now]")  # signed out: an invitation
    page.click("[data-testid=account-sign-up]")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill("a seek's password")
    page.click("[data-testid=account-submit]")
    page.wait_for_selector("[data-testid=play-now]:visible")


def on_the_table(p: Page) -> str:
    """Wait until the page has opened a table with its seat's token; the game's id."""
    p.page.wait_for_selector("#table-view:not([hidden])", timeout=10_000)
    p.page.wait_for_function("location.hash.includes('token=')")
    return str(p.page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')"))


def play_between(pages: list[Page], max_moves: int = 600) -> None:
    """Play a game to its end through two people's pages: whoever is to move plays its first
    playable card's first move; at each count both press Next."""
    moves = 0
    while moves < max_moves:
        states = [p.state() for p in pages]
        if all(s == "over" for s in states) and all(p.page.is_hidden("[data-testid=count]") for p in pages):
            return
        acted = False
        for p in pages:
            page = p.page
            state = p.state()
            if state in ("count", "over") and page.is_visible("[data-testid=next-hand]"):
                if page.is_enabled("[data-testid=next-hand]"):
                    page.click("[data-testid=next-hand]")
                    acted = True
            elif state == "your-move":
                version = page.get_attribute("#turn-banner", "data-version")
                page.click("[data-testid=hand] .card-btn.playable")
                page.wait_for_selector("[data-testid=move-choice]")
                page.click("[data-testid=move-choice]")
                page.wait_for_function(
                    "(v) => document.querySelector('#turn-banner').dataset.version !== v", arg=version, timeout=30_000
                )
                moves += 1
                acted = True
        if not acted:
            pages[0].page.wait_for_timeout(100)
    raise AssertionError(f"the game did not end in {max_moves} moves")


def test_two_people_meet_through_a_seek_and_play_it_out(server: Server, browser: Any) -> None:
    """Two browsers sign up; A posts a rated classic seek for two; B sees it within 2 s without
    reloading and joins; both land on the same table (A at seat 0, B at seat 1), play it to the end
    through the page, and the game is rated in its pool."""
    a, b = Page(browser, 1280, 900, motion=False), Page(browser, 1280, 900, motion=False)
    sign_up_in_the_lobby(a, server, "Seek_Ann")
    sign_up_in_the_lobby(b, server, "Seek_Bob")
    b.page.wait_for_selector("[data-testid=seek-list] li.about")  # the list is there: nobody seeks yet
    a.page.click("#seek-post summary")
    a.page.select_option("[data-testid=seek-preset]", "classic")
    a.page.select_option("[data-testid=seek-players]", "2")
    assert a.page.is_checked("[data-testid=seek-rated]")
    a.page.click("[data-testid=seek-submit]")
    posted = b.page.wait_for_selector("[data-testid=seek]", timeout=2_000)  # no reload: the lobby's socket
    assert posted is not None
    seek = posted.get_attribute("data-seek")
    assert b.page.inner_text(f"[data-seek='{seek}'] .seek-text").startswith(
        "Classic · 2 players · rated · by Seek_Ann (1500"
    )
    a.page.wait_for_selector(f"[data-seek='{seek}']")
    assert a.page.inner_text(f"[data-seek='{seek}'] button") == "Cancel"  # one's own seek
    both_online = """() => {
      const names = [...document.querySelectorAll('[data-testid=online-name]')].map((a) => a.textContent);
      return names.includes('Seek_Ann') && names.includes('Seek_Bob');
    }"""
    for p in (a, b):
        p.page.wait_for_function(both_online, timeout=5_000)  # who else is in the lobby
    assert a.page.get_attribute("[data-testid=online-name]:text('Seek_Bob')", "href") == "/@/Seek_Bob"
    assert axe_violations(b.page) == []  # the panel signed in, a seek listed
    b.shot("web-seeks.png")
    b.page.click(f"[data-seek='{seek}'] button")
    game = on_the_table(b)
    assert on_the_table(a) == game
    for p, seat in ((a, 0), (b, 1)):
        p.page.wait_for_selector(f"[data-testid=seat-{seat}] .seat-name")
        assert p.page.inner_text(f"[data-testid=seat-{seat}] .seat-name") == "You"
        held = p.page.evaluate("JSON.parse(localStorage.getItem('cassino.seats'))")
        assert held[game]["seat"] == seat  # kept as a held seat: "My games" lists it
    assert a.page.inner_text("[data-testid=seat-1] .seat-name") == "Seek_Bob"
    play_between([a, b])
    assert a.page.is_visible("#over") and b.page.is_visible("#over")
    record = httpx.get(f"{server.url}/api/games/{game}/record", timeout=10)
    assert record.status_code == 200  # over: the record is published
    # both profiles list the game, and each new rating is the one Glicko-2 gives, worked out here
    scores = {}
    for name in ("Seek_Ann", "Seek_Bob"):
        profile = httpx.get(f"{server.url}/api/users/{name}", timeout=10).json()
        played = [g for g in profile["games"] if g["game"] == game]
        assert len(played) == 1 and played[0]["rated"] is True, profile["games"]
        score = {"win": 1.0, "loss": 0.0, "draw": 0.5}[played[0]["result"]]
        rating, rd = first_game(score)
        pool = profile["ratings"]["classic-2"]
        assert pool["games"] == 1 and pool["provisional"] is True
        assert abs(pool["rating"] - rating) < 0.01 and abs(pool["rd"] - rd) < 0.01, (name, pool, rating, rd)
        scores[name] = score
    assert scores["Seek_Ann"] + scores["Seek_Bob"] == 1.0
    a.page.goto(f"{server.url}/@/Seek_Ann")
    a.page.wait_for_selector("[data-testid=profile-replay]")
    assert f"{round(first_game(scores['Seek_Ann'])[0])}?" in a.page.inner_text("[data-testid=profile-rating]")
    # A's page closes: B sees A away within 10 s
    a.page.goto(f"{server.url}/#game={game}")  # watching, not seated: A's seat has no page open now
    a.close()
    b.page.wait_for_selector("[data-testid=seat-0][data-presence=away]", timeout=10_000)
    assert not a.errors and not b.errors, (a.errors, b.errors)
    b.close()


def test_play_now_seats_two_people_and_offers_a_computer_player(server: Server, browser: Any) -> None:
    """Two people press Play now for the same variant within 5 s: one table. A third waits alone
    and, after the wait chosen, plays the computer player of their level instead."""
    a, b, c = (Page(browser, 1280, 900, motion=False) for _ in range(3))
    for p, name in ((a, "Now_Ann"), (b, "Now_Bob"), (c, "Now_Cleo")):
        sign_up_in_the_lobby(p, server, name)
    a.page.click("#preset-spade")
    a.page.click("[data-testid=play-now]")
    a.page.wait_for_selector("[data-testid=play-now-waiting]:visible")
    assert a.page.inner_text("#play-now-status").startswith("Looking for a person to play…")
    assert axe_violations(a.page) == []
    b.page.click("#preset-spade")
    b.page.click("[data-testid=play-now]")
    game = on_the_table(b)
    assert on_the_table(a) == game
    assert a.page.inner_text("[data-testid=seat-0] .seat-name") == "You"
    assert b.page.inner_text("[data-testid=seat-1] .seat-name") == "You"
    # alone: the offer comes after the wait chosen (10 s), and plays the level of a 1500 rating
    c.page.select_option("[data-testid=play-now-wait]", "10")
    c.page.click("[data-testid=play-now]")
    c.page.wait_for_selector("[data-testid=play-now-waiting]:visible")
    assert c.page.is_hidden("[data-testid=play-now-bot]")
    c.page.wait_for_selector("[data-testid=play-now-bot]:visible", timeout=15_000)
    assert (
        c.page.inner_text("[data-testid=play-now-bot]")
        == "Play a computer player of your level instead (Casual player)"
    )
    c.page.click("[data-testid=play-now-bot]")
    alone = on_the_table(c)
    state = httpx.get(f"{server.url}/api/games/{alone}", timeout=10).json()
    assert [s["kind"] for s in state["seats"]] == ["human", "bot"] and state["seats"][1]["bot"] == "casual"
    assert httpx.get(f"{server.url}/api/seeks", timeout=10).json()["seeks"] == []
    for p in (a, b, c):
        assert not p.errors, p.errors
        p.close()


def test_a_rated_game_left_is_claimed_after_the_grace(tmp_path: Path, browser: Any) -> None:
    """Two accounts at a rated table made from a seek with a move clock (a server with a 2-second
    grace): the clock shows on the seat to move; A's page closes, B sees A away within 10 s, then
    the claim line and its button; B claims, the game is over with A's forfeit, and both profiles
    show it. Axe-clean with the claim on screen."""
    s = Server(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0.0, extra=("--no-rate-limits", "--grace", "2"))
    try:
        a, b = Page(browser, 1280, 800, motion=False), Page(browser, 1280, 800, motion=False)
        sign_up_in_the_lobby(a, s, "Leave_Ann")
        sign_up_in_the_lobby(b, s, "Leave_Bob")
        a.page.click("#seek-post summary")
        a.page.select_option("[data-testid=seek-clock]", "120")
        a.page.click("[data-testid=seek-submit]")
        posted = b.page.wait_for_selector("[data-testid=seek]", timeout=5_000)
        assert posted is not None
        seek = posted.get_attribute("data-seek")
        assert " · 120 s a move · " in b.page.inner_text(f"[data-seek='{seek}'] .seek-text")
        b.page.click(f"[data-seek='{seek}'] button")
        game = on_the_table(b)
        assert on_the_table(a) == game
        clock = b.page.wait_for_selector(
            "[data-testid=seat-0] [data-testid=clock], [data-testid=seat-1] [data-testid=clock]"
        )
        assert clock is not None and float(clock.get_attribute("data-deadline") or 0) > time.time() + 60
        assert clock.inner_text().startswith(("1:", "2:"))
        a.close()
        b.page.wait_for_selector("[data-testid=seat-0][data-presence=away]", timeout=10_000)
        b.page.wait_for_selector("[data-testid=claim-button]:visible", timeout=10_000)
        assert b.page.inner_text("[data-testid=claim-text]") == (
            "Leave_Ann left the table and has not come back: you may claim the game, or wait"
        )
        assert b.page.is_visible("[data-testid=claim-wait]")
        assert axe_violations(b.page) == []
        b.page.click("[data-testid=claim-wait]")
        assert (
            b.page.inner_text("[data-testid=claim-text]")
            == "You are waiting for Leave_Ann: you may still claim the game"
        )
        b.page.click("[data-testid=claim-button]")
        b.page.wait_for_selector("#over-forfeit:visible", timeout=10_000)
        assert b.page.inner_text("#over-forfeit") == (
            "Leave_Ann forfeited the game: left the table and did not come back in time"
        )
        for name, result in (("Leave_Ann", "loss"), ("Leave_Bob", "win")):
            [played] = httpx.get(f"{s.url}/api/users/{name}", timeout=10).json()["games"]
            assert (played["game"], played["result"], played["forfeit"], played["rated"]) == (game, result, 0, True)
        b.page.goto(f"{s.url}/@/Leave_Bob")
        b.page.wait_for_selector("[data-testid=profile-replay]")
        assert "an opponent forfeited" in b.page.inner_text("#profile-games")
        assert not b.errors, b.errors
        b.close()
    finally:
        s.stop()


@pytest.mark.parametrize("language", ["de", "id"])
def test_the_seeks_panel_has_no_english_left(server: Server, browser: Any, language: str) -> None:
    p = Page(browser, 1280, 900, lang=language, motion=False)
    page = p.page
    page.goto(server.url + "/")
    page.wait_for_selector("#presets .preset")
    page.click("[data-testid=account-sign-up]")
    page.fill("[data-testid=account-name-input]", f"Words_{language}")
    page.fill("[data-testid=account-password-input]", "a seek's password")
    page.click("[data-testid=account-submit]")
    page.wait_for_selector("[data-testid=play-now]:visible")
    page.click("#seek-post summary")
    page.click("[data-testid=seek-submit]")
    page.wait_for_selector("[data-testid=seek]")
    page.click("[data-testid=play-now]")
    page.wait_for_selector("[data-testid=play-now-waiting]:visible")
    left = english_left(visible_texts(page), language, exempt={f"Words_{language}"})
    assert not left, left
    assert not p.errors, p.errors
    p.close()


# ---------------------------------------------------------------------- the daily deal (daily.js)
def _guest_attempt(url: str, deal: str, choose: Any) -> int:
    """A guest's attempt at a deal through the API, its moves chosen by ``choose(state)``: its score."""
    made = httpx.post(f"{url}/api/daily/{deal}/play", headers={"origin": url}, timeout=10).json()
    headers = {"origin": url, "x-cassino-token": made["token"]}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        s = httpx.get(f"{url}/api/games/{made['game']}", headers=headers, timeout=10).json()
        if s["status"] == "over":
            return int(s["scores"][0] - s["scores"][1])
        if s["phase"] == "play" and s["to_move"] == 0 and s["legal"]:
            body = {"move": choose(s), "version": s["version"]}
            httpx.post(f"{url}/api/games/{made['game']}/moves", json=body, headers=headers, timeout=10)
        else:
            time.sleep(0.05)
    raise AssertionError("the attempt did not end")


def test_the_daily_deal_on_a_phone_and_its_reveal_the_next_day(tmp_path: Path, browser: Any) -> None:
    """A guest on a phone plays the daily deal from the lobby by taps to the end of its hand and
    sees, where the table was, its score, its rank and percentile among the attempts (two others
    made over the API), how master did from the same seat and the spread of scores; the lobby then
    says it was played. The same server a day ahead (``--clock-offset 86400``, the same database
    and address, so the same browser storage): the deal's leaderboard highlights the guest's row,
    offers the best score's replay, which opens on the table, and shows the reveal verified by the
    page itself (the seed's SHA-256 is the commitment seen before play, and it gives the deck); the
    guest's own table then verifies its hand too and offers its replay. German words on a desktop."""
    database = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    server = Server(database, extra=("--no-rate-limits",))
    port = server.port
    p = Page(browser, 390, 844, motion=False)
    page = p.page
    try:
        deal = httpx.get(f"{server.url}/api/daily", timeout=10).json()["deals"][0]
        others = [
            _guest_attempt(server.url, deal["id"], lambda s: s["legal"][0]["move"]),
            _guest_attempt(server.url, deal["id"], lambda s: s["legal"][-1]["move"]),
        ]
        page.goto(server.url + "/")
        item = page.locator(f"[data-testid=daily-deal][data-deal='{deal['id']}']")
        item.wait_for()
        assert "Classic · 2 players" in item.inner_text() and "against Master" in item.inner_text()
        item.locator("summary").click()  # the commitment, shortened, opens whole
        assert item.locator("[data-testid=daily-commitment]").inner_text() == deal["commitment"]
        page.evaluate("document.querySelector('[data-testid=daily]').scrollIntoView()")
        p.shot("web-daily-lobby-phone.png")
        item.locator("[data-testid=daily-play]").click()
        played = play_whole_game(p)
        assert played["counts"] == 1  # one hand
        result = page.locator("[data-testid=daily-result]")
        result.wait_for()
        page.wait_for_function("document.querySelector('[data-testid=daily-rank]').textContent.startsWith('Rank')")
        game = str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')"))
        token = str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('token')"))
        state = httpx.get(f"{server.url}/api/games/{game}", headers={"x-cassino-token": token}, timeout=10).json()
        assert state["winner"] == -1 and state["daily"] == {"deal": deal["id"], "sealed": True}
        mine = state["scores"][0] - state["scores"][1]
        scores = [*others, mine]
        below = sum(1 for s in others if s < mine)
        rank = 1 + sum(1 for s in scores if s > mine)
        percentile = round(100 * below / 2, 1)
        signed = f"+{mine}" if mine > 0 else f"−{-mine}" if mine < 0 else "±0"
        assert page.inner_text("[data-testid=daily-score]") == f"Your score: {signed}"
        shown = f"{percentile:g}"
        assert page.inner_text("[data-testid=daily-rank]") == (
            f"Rank {rank} of 3 · better than {shown}% of the other attempts"
        )
        board = httpx.get(
            f"{server.url}/api/daily/{deal['id']}/leaderboard?game={game}",
            headers={"x-cassino-token": token},
            timeout=10,
        ).json()
        assert board["you"] == {"score": mine, "rank": rank, "percentile": percentile}
        master = board["master"]
        assert page.inner_text("[data-testid=daily-master]").startswith(
            f"Master from your seat: {'+' if master > 0 else '−' if master < 0 else '±'}{abs(master)}"
        )
        bars = page.locator("[data-testid=daily-result] .daily-bar:not(.none)")
        assert sorted(int(bars.nth(i).get_attribute("data-score") or "") for i in range(bars.count())) == sorted(
            set(scores)
        )
        assert page.locator("[data-testid=daily-result] .daily-bar.mine").get_attribute("data-score") == str(mine)
        banner = page.inner_text("#turn-banner")
        assert (
            banner == f"Daily deal: {signed}" and page.inner_text("#over-title") == f"Daily deal over: score {signed}"
        )
        assert page.is_hidden("#replay-button")  # sealed until the day is over
        assert inside(result.bounding_box(), 390, 844)  # where the table was, on the first screen
        assert axe_violations(page) == []
        p.shot("web-daily-result-phone.png")
        page.click("[data-testid=daily-result-board]")
        page.locator("[data-testid=daily-board-mine]").wait_for()
        assert page.is_visible("[data-testid=daily-board-sealed]") and page.is_hidden("[data-testid=daily-best-replay]")
        page.goto(server.url + "/")
        played_line = page.locator(f"[data-testid=daily-deal][data-deal='{deal['id']}'] [data-testid=daily-played]")
        played_line.wait_for()
        assert played_line.inner_text() == f"Played: score {signed}, rank {rank} of 3"
        assert page.locator(f"[data-deal='{deal['id']}'] [data-testid=daily-play]").count() == 0
    finally:
        server.stop()

    # the next day, at the same address: the day is over
    ahead = Server(database, port=port, extra=("--no-rate-limits", "--clock-offset", "86400"))
    try:
        page.goto(f"{ahead.url}/daily/{deal['id']}")
        verified = page.locator("[data-testid=daily-verified][data-result=verified]")
        verified.wait_for(timeout=30_000)
        assert verified.inner_text().startswith("✓ Verified here")
        seed = page.inner_text("#daily-board-seed")
        assert (
            hashlib.sha256(seed.encode()).hexdigest()
            == page.inner_text("#daily-board-commitment")
            == deal["commitment"]
        )
        assert page.locator("[data-testid=daily-board-mine] td").last.inner_text() == signed
        best = httpx.get(f"{ahead.url}/api/daily/{deal['id']}/leaderboard", timeout=10).json()["best"]
        assert best["score"] == max(scores)
        link = page.locator("[data-testid=daily-best-replay]")
        assert (
            link.inner_text()
            == f"Replay the best score: {'+' if best['score'] > 0 else '−' if best['score'] < 0 else '±'}{abs(best['score'])} by guest"
        )
        assert axe_violations(page) == []
        p.shot("web-daily-reveal-phone.png", full_page=True)
        link.click()
        page.wait_for_selector("[data-testid=replay]:visible", timeout=30_000)
        assert page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')") == best["game"]
        page.click("[data-testid=replay-last]")
        page.wait_for_function("document.querySelector('[data-testid=replay-position]').textContent.includes('48')")
        p.shot("web-daily-best-replay-phone.png")
        # the guest's own table now checks its hand too: the deck from the deal's id, its commitment as seen before play
        page.goto(f"{ahead.url}/#game={game}&token={token}")
        page.wait_for_function("document.querySelector('[data-testid=seat-0] .seat-name')?.textContent === 'You'")
        verified_hand = "#fair .fair-hand[data-hand='1'][data-result=verified]"
        page.locator(verified_hand).wait_for(state="attached", timeout=30_000)
        assert page.is_visible("#replay-button")  # the record is public now
        assert not p.errors, p.errors
        desk = Page(browser, 1280, 800, lang="de", motion=False)
        desk.page.goto(f"{ahead.url}/daily/{deal['id']}")
        desk.page.locator("[data-testid=daily-verified][data-result=verified]").wait_for(timeout=30_000)
        left = english_left(visible_texts(desk.page), "de", exempt=set())
        assert not left, left
        desk.shot("web-daily-reveal-desktop-de.png", full_page=True)
        desk.page.goto(f"{ahead.url}/")  # the next day's deals, in the lobby
        desk.page.locator("[data-testid=daily-play]").first.wait_for()
        left = english_left(visible_texts(desk.page), "de", exempt=set())
        assert not left, left
        desk.shot("web-daily-lobby-desktop-de.png")
        assert not desk.errors, desk.errors
        desk.close()
    finally:
        ahead.stop()
        p.close()


# ---------------------------------------------------------------------- tournaments (tournaments.js)
def _standing(page: Any, name: str) -> dict[str, str]:
    """A row of the tournament page's standings, by the entrant's name: its cells by column."""
    row = page.locator(f"[data-testid=tournament-standings] tr[data-name='{name}']")
    cells = {col: row.locator(f"[data-col={col}]").inner_text() for col in ("points", "buchholz", "board", "games")}
    return {"rank": row.locator("td").first.inner_text(), **cells}


def _table_points(table: dict[str, Any], name: str) -> str:
    """The match points a finished table gives an entrant, as the English page writes them."""
    side = table["seats"].index(name)
    return "1" if table["winner"] == side else "0.5" if table["winner"] == -1 else "0"


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_swiss_from_the_lobby(server: Server, browser: Any, width: int, height: int) -> None:
    """A person signs up in the lobby and creates a Swiss of 3 rounds there with three computer
    entrants (4 entrants, 2 tables a round), joins and starts it on its page, plays their round-1
    table through the page by clicks, and comes back to the tournament from the over panel (which
    claims no winner of the game, only the hand's points). Someone not signed in, left on the
    tournament's page, sees the standings take the result without a reload. Then the other two rounds: the
    tournament is over, with the final standings and every deal's seed checked against its
    commitment in the page. Axe-clean at each step; screenshots of the panel, the page and the
    standings."""
    size = "phone" if width < 600 else "desktop"
    name = f"Swiss_{size}"
    p = Page(browser, width, height, motion=False)
    page = p.page
    sign_up_in_the_lobby(p, server, name)
    page.click("[data-testid=tournament-new]")
    assert page.locator("[data-testid=tournament-rounds]").input_value() == "3"
    for level in ("casual", "novice", "beginner"):
        page.select_option(f"[data-testid=tournament-bots-{level}]", "1")
    page.locator("#tournaments").scroll_into_view_if_needed()
    assert axe_violations(page) == []  # the panel signed in, the form open
    page.locator("#tournaments").screenshot(path=str(ARTIFACTS / f"web-tournaments-panel-{size}.png"))
    page.click("[data-testid=tournament-create]")
    page.wait_for_url(re.compile(r"/tournament/[0-9a-f]+$"))
    tid = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("[data-testid=tournament-join]:visible")
    assert page.inner_text("[data-testid=tournament-title]") == "Swiss · Classic"
    assert page.inner_text("[data-testid=tournament-settings]") == "2 players · 3 rounds · casual"
    assert page.inner_text("[data-testid=tournament-status]").lower() == "open for entries"
    entrants = page.locator("[data-testid=tournament-entrants] li")
    assert [entrants.nth(i).inner_text() for i in range(entrants.count())] == [
        "Beginner (computer)", "Novice (computer)", "Casual player (computer)",
    ]  # fmt: skip
    page.click("[data-testid=tournament-join]")
    page.wait_for_selector("[data-testid=tournament-join]", state="hidden")
    assert page.locator("[data-testid=tournament-entrants] li").count() == 4
    assert page.inner_text("[data-testid=tournament-note]").startswith(f"You are in, as {name}.")
    page.click("[data-testid=tournament-start]")
    page.wait_for_selector("[data-testid=tournament-play-table]")
    assert page.inner_text("[data-testid=tournament-status]") == "Round 1 of 3"
    view = httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=10).json()
    first = [t for t in view["pairings"] if t["round"] == 1]
    assert len(first) == 2 and len({t["deal"] for t in first}) == 1  # two tables, one deal
    assert page.locator("[data-testid=tournament-pairings] [data-round='1'] li").count() == 2
    assert axe_violations(page) == []
    p.shot(f"web-tournament-{size}.png", full_page=True)
    # someone else (not signed in) stays on the tournament's page: it follows the round without a
    # reload (a browser of its own: a second tab would hide the player's, whose timers then slow)
    spectator = Page(browser, width, height, motion=False)
    watcher = spectator.page
    watcher.goto(f"{server.url}/tournament/{tid}")
    watcher.wait_for_selector(f"[data-testid=tournament-standings] tr[data-name='{name}']")
    assert _standing(watcher, name)["games"] == "0"

    for round_number in (1, 2, 3):
        page.wait_for_selector("[data-testid=tournament-play-table]", timeout=30_000)
        game = page.get_attribute("[data-testid=tournament-play-table]", "data-game")
        page.click("[data-testid=tournament-play-table]")
        assert on_the_table(p) == game
        state = _state_of(server, game, page.evaluate("new URLSearchParams(location.hash.slice(1)).get('token')"))
        assert state["tournament"] == {"id": tid, "sealed": True} and state["help"] is False
        play_whole_game(p)  # one hand, by clicks: a card, then its first move
        page.wait_for_selector("#over:visible")
        table = next(
            t
            for t in httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=10).json()["pairings"]
            if t["game"] == game
        )
        assert table["scores"] is not None
        mine = table["seats"].index(name)
        title = page.inner_text("#over-title")
        assert title.startswith(f"Hand over: You {table['scores'][mine]} · ") and " won" not in title, title
        assert " won" not in page.inner_text("#turn-banner")
        assert page.is_hidden("#replay-button")  # the deck is sealed while the tournament runs
        if round_number == 1:
            assert axe_violations(page) == []
            p.shot(f"web-tournament-table-over-{size}.png")
            points = _table_points(table, name)
            watcher.wait_for_function(
                "(n) => document.querySelector(`[data-testid=tournament-standings] tr[data-name='${n}'] [data-col=games]`)?.textContent === '1'",
                arg=name,
                timeout=10_000,
            )
            assert _standing(watcher, name)["points"] == points
        page.click("[data-testid=over-tournament]")
        page.wait_for_url(f"{server.url}/tournament/{tid}")
        page.wait_for_selector(f"[data-testid=tournament-pairings] [data-game='{game}'][data-done=yes]")
        if round_number == 1:
            assert _standing(page, name)["games"] == "1" and _standing(page, name)["points"] == points
            p.shot(f"web-tournament-standings-{size}.png", full_page=True)

    page.wait_for_selector("[data-testid=tournament-status][data-status=over]", timeout=30_000)
    page.wait_for_selector("#tournament-deals [data-result]:not([data-result=sealed])")
    assert page.inner_text("[data-testid=tournament-status]") == "Over"
    assert page.inner_text("#tournament-standings-title") == "Final standings"
    deals = page.locator("#tournament-deals [data-deal]")
    assert deals.count() == 3
    assert [deals.nth(i).get_attribute("data-result") for i in range(3)] == ["verified"] * 3
    view = httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=10).json()
    assert view["status"] == "over" and all(
        hashlib.sha256(d["seed"].encode()).hexdigest() == d["commitment"] for d in view["deals"]
    )
    assert [
        page.locator("[data-testid=tournament-standings] tbody tr").nth(i).get_attribute("data-name") for i in range(4)
    ] == [s["name"] for s in view["standings"]]
    assert page.locator("[data-testid=tournament-replay]").count() == 6  # every table's replay, now unsealed
    assert axe_violations(page) == []
    p.shot(f"web-tournament-over-{size}.png", full_page=True)
    # the lobby lists it, over, with a link to its page
    page.goto(server.url + "/")
    link = page.wait_for_selector(f"[data-tournament='{tid}'] [data-testid=tournament-link]")
    assert link is not None and link.get_attribute("href") == f"/tournament/{tid}"
    assert " · 4 entrants · over · " in page.inner_text(f"[data-tournament='{tid}']")
    assert not p.errors and not spectator.errors, (p.errors, spectator.errors)
    spectator.close()
    p.close()


def _organiser(server: Server, name: str) -> dict[str, str]:
    """A new account's headers for the API: its session cookie, CSRF token and the page's origin."""
    r = httpx.post(
        f"{server.url}/api/accounts",
        json={"name": name, "password": "an organiser's password"},
        headers={"origin": server.url},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return {
        "origin": server.url,
        "x-csrf-token": r.json()["csrf"],
        "cookie": f"cassino_session={r.cookies['cassino_session']}",
    }


@pytest.mark.parametrize("language", ["de", "id"])
def test_a_tournament_page_has_no_english_left(server: Server, browser: Any, language: str) -> None:
    """A tournament of computer players, made and started over the API, played out; another left
    open: their pages (standings, pairings, the seeds checked; Join's invitation to sign in) and
    the lobby's list, in German and Indonesian, with no English left and axe-clean."""
    headers = _organiser(server, f"Org_{language}")
    made = {}
    for state in ("over", "open"):
        body = {"kind": "swiss", "preset": "royal", "players": 2, "rounds": 2, "bots": ["novice", "casual", "club"]}
        r = httpx.post(f"{server.url}/api/tournaments", json=body, headers=headers, timeout=10)
        assert r.status_code == 201, r.text
        made[state] = r.json()["id"]
    assert (
        httpx.post(f"{server.url}/api/tournaments/{made['over']}/start", headers=headers, timeout=10).status_code == 200
    )
    _until(
        lambda: httpx.get(f"{server.url}/api/tournaments/{made['over']}", timeout=10).json()["status"] == "over",
        "the tournament's end",
        60,
    )
    p = Page(browser, 390, 844, lang=language, motion=False)
    page = p.page
    page.goto(f"{server.url}/tournament/{made['over']}")
    page.wait_for_selector("#tournament-deals [data-result=verified]")
    left = english_left(visible_texts(page), language, exempt=set())
    assert not left, left
    assert axe_violations(page) == []
    p.shot(f"web-tournament-over-{language}.png", full_page=True)
    page.goto(f"{server.url}/tournament/{made['open']}")
    page.wait_for_selector("#tournament-sign-in:visible")
    left = english_left(visible_texts(page), language, exempt=set())
    assert not left, left
    page.goto(server.url + "/")
    page.wait_for_selector(f"[data-tournament='{made['open']}']")
    left = english_left(visible_texts(page), language, exempt=set())
    assert not left, left
    assert not p.errors, p.errors
    p.close()
