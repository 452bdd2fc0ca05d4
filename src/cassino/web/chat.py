"""Chat at the table: preset phrases for everyone seated, free text only between people who chose it.

- **Phrases** (``PHRASES``) travel as ids, so each reader sees them in the page's own language
  (catalogue keys ``chat.phrase.ID``). Anyone seated may send them; spectators see them.
- **Free text** is possible only at a game whose creator chose it (``"chat": "free"``, only where
  another person is invited), and only between the seats that keep it on: a person may turn it off
  for themselves, and then neither sends nor sees it (phrases still show). Spectators never see it.
  A text is 1 to ``MAX_CHAT_TEXT`` characters after trimming, one line with no control character.
  It is stored and sent exactly as written and never interpreted: the page always shows it as text
  (``textContent``), so markup in it is only characters, and the server strips nothing.
- **Limits**: ``CHAT_LIMIT.burst`` messages per seat within ``CHAT_LIMIT.window`` seconds, counted
  in the database (so every server process counts the same), then 429 saying when to try again;
  the last ``HISTORY`` messages of a game are kept, so a reloaded page, or one served by another
  process, shows the same history.

There is no chat in the lobby: every message belongs to a game. Each refusal is a ``ServiceError``
with a ``code`` (``CHAT_ERRORS``) that the page words in its own language.
"""

from __future__ import annotations

import json
import logging
import math
import unicodedata
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from .chat_store import CHAT_NOTE, QUIET_NOTE, ChatLimit, ChatMessage, ChatRateError, ChatStore
from .errors import ServiceError, StoreError
from .model import LiveGame
from .payloads import encode
from .schema import MAX_CHAT_TEXT

log = logging.getLogger("cassino.web")

PHRASES: Final = ("hello", "good_luck", "well_played", "thanks", "one_moment", "oops", "good_game")
"""The preset phrases, by id, in the order the page offers them."""
MODES: Final = ("phrases", "free")
"""What a game's creator may choose: phrases only (the default), or free text too."""
HISTORY: Final = 100
"""Messages kept per game."""
CHAT_LIMIT: Final = ChatLimit(burst=5, window=10.0, keep=HISTORY)
"""Per seat: 5 messages within 10 seconds."""
MAX_TEXT: Final = MAX_CHAT_TEXT
CHAT_ERRORS: Final = (
    "unknown_phrase",
    "bad_message",
    "empty_text",
    "long_text",
    "control_character",
    "free_off",
    "free_quiet",
    "spectator",
    "too_many",
)
"""The ``code`` of each refusal of a chat message (the page's catalogue key ``chat.error.CODE``)."""
MESSAGE_FIELDS: Final = ("phrase", "text")
SETTINGS_FIELDS: Final = ("free_text",)
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
"""Characters that reorder the text around them: a message could make the line it is shown in
read otherwise."""


def _refuse(status: int, code: str, message: str, **extra: Any) -> ServiceError:
    return ServiceError(status, message, code=code, **extra)


def chat_of_request(body: dict[str, Any], people: int) -> str:
    """The chat a create request chooses (``phrases`` by default): ``free`` only where at least
    two people sit, since free text is only between people who chose it."""
    mode = body.get("chat")
    if mode is None:
        return "phrases"
    if mode not in MODES:
        shown = json.dumps(mode)[:40]
        raise ServiceError(400, f"chat must be 'phrases' or 'free' (free text between the people invited), not {shown}")
    if mode == "free" and people < 2:
        raise ServiceError(
            400,
            "chat 'free' is for games between people: free text needs another person's seat, and this game has none",
        )
    return str(mode)


def forbidden_character(text: str) -> str | None:
    """The first character a chat text may not hold: a control character (line breaks and tabs
    included: a message is one line), a lone surrogate, a line or paragraph separator, or one that
    reorders the text around it. None when there is none."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            return ch
    return None


def message_of_request(body: dict[str, Any]) -> tuple[str | None, str | None]:
    """The phrase id or the free text a message asks to send (exactly one), checked: a known
    phrase; a text of 1 to ``MAX_TEXT`` characters after trimming, with no control character."""
    unknown = sorted(k for k in body if k not in MESSAGE_FIELDS)
    if unknown:
        shown = json.dumps(unknown[0])[:40]
        raise _refuse(400, "bad_message", f"unknown field {shown} for a chat message; the fields are: phrase or text")
    phrase, text = body.get("phrase"), body.get("text")
    if (phrase is None) == (text is None):
        raise _refuse(400, "bad_message", "a chat message has either a phrase (its id) or a text, not both nor neither")
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            shown = json.dumps(phrase)[:40]
            raise _refuse(
                400,
                "unknown_phrase",
                f"unknown phrase {shown}: the phrases are {', '.join(PHRASES)}",
                phrase=phrase if isinstance(phrase, str) and len(phrase) <= 40 else None,
            )
        return phrase, None
    if not isinstance(text, str):
        raise _refuse(400, "bad_message", "text must be a string of 1 to 200 characters")
    trimmed = text.strip()
    if not trimmed:
        raise _refuse(400, "empty_text", f"text is empty: a message has 1 to {MAX_TEXT} characters after trimming")
    if len(trimmed) > MAX_TEXT:
        raise _refuse(
            400, "long_text", f"text is {len(trimmed)} characters long: a message has at most {MAX_TEXT}", max=MAX_TEXT
        )
    bad = forbidden_character(trimmed)
    if bad is not None:
        raise _refuse(
            400,
            "control_character",
            f"text holds the control character U+{ord(bad):04X}: a message is one line of plain text",
        )
    return None, trimmed


def settings_of_request(body: dict[str, Any]) -> bool:
    """Whether a seat asks to keep free text on (``{"free_text": true | false}``)."""
    unknown = sorted(k for k in body if k not in (*SETTINGS_FIELDS, "type"))
    if unknown:
        shown = json.dumps(unknown[0])[:40]
        raise ServiceError(400, f"unknown field {shown} for the chat's settings; the field is free_text")
    value = body.get("free_text")
    if not isinstance(value, bool):
        raise ServiceError(400, "free_text must be true (show and send free text at this table) or false")
    return value


@dataclass
class TableChat:
    """What one game's chat allows: its creator's ``mode`` and the seats that turned free text off."""

    mode: str = "phrases"
    quiet: set[int] = field(default_factory=set)

    def free_for(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) sends and reads free text here."""
        return self.mode == "free" and seat is not None and seat not in self.quiet

    def shows(self, seat: int | None, message: ChatMessage) -> bool:
        """Whether a reader at ``seat`` is sent ``message``: a phrase always, a text when free text is on for it."""
        return message.phrase is not None or self.free_for(seat)


Asker = Callable[[str, str | None], tuple[LiveGame, int | None]]


class Chats:
    """The chat of every game this process holds: sends, reads and settings, each checked, stored
    and then delivered to the sockets that may read it here (and, through the store's
    notifications, in every other process)."""

    def __init__(self, store: ChatStore, asker: Asker, clock: Callable[[], float]) -> None:
        """``asker(game_id, token)``: the game and the seat a token opens in it (None: a
        spectator); ``clock``: epoch seconds (tests move it)."""
        self.store = store
        self.asker = asker
        self.clock = clock
        self.tables: weakref.WeakKeyDictionary[LiveGame, TableChat] = weakref.WeakKeyDictionary()
        """Each live game's chat settings, read from the store once (and kept in step with the
        other processes' notifications); forgotten with the game."""

    def created(self, live: LiveGame, mode: str) -> None:
        """A new game's chat, stored (a game without a row has phrases only)."""
        if mode != "phrases":
            try:
                self.store.set_mode(live.id, mode)
            except Exception as exc:  # the game stands, with phrases only: its create answer says so
                log.error("game %s: the chat's mode could not be stored: %s", live.id, exc)
                mode = "phrases"
        self.tables[live] = TableChat(mode)

    def table(self, live: LiveGame) -> TableChat:
        """A game's chat settings, read from the store when not known here."""
        known = self.tables.get(live)
        if known is None:
            mode, quiet = self.store.table(live.id)
            known = self.tables[live] = TableChat(mode, quiet)
        return known

    def forget(self) -> None:
        """Changes may have been missed (the listening connection was lost): read each game's again."""
        self.tables.clear()

    # ------------------------------------------------------------------ requests
    def _seat(self, game_id: str, token: str | None, what: str) -> tuple[LiveGame, int]:
        """The game and the asker's seat: 403 for a spectator (naming ``what``), 410 once the game
        is abandoned. A game that is over still takes messages (a last "good game")."""
        live, seat = self.asker(game_id, token)
        if seat is None:
            raise _refuse(403, "spectator", f"{what}: spectators only watch (they see the phrases)")
        if live.abandoned:
            raise ServiceError(410, f"game {live.id} is abandoned ({live.abandoned}): start a new one")
        return live, seat

    def send(self, game_id: str, token: str | None, body: dict[str, Any]) -> ChatMessage:
        """A seat's message: checked, stored (within the seat's limit) and delivered."""
        phrase, text = message_of_request(body)
        live, seat = self._seat(game_id, token, "chat messages need a seat token")
        chat = self.table(live)
        if text is not None and not chat.free_for(seat):
            if chat.mode != "free":
                raise _refuse(403, "free_off", "free text is off at this table: its creator chose phrases only")
            raise _refuse(403, "free_quiet", "you turned free text off at this table: turn it on to send one")
        try:
            message = self.store.add(live.id, seat, live.seats[seat].name, self.clock(), CHAT_LIMIT, phrase, text)
        except ChatRateError as exc:
            wait = max(1, math.ceil(exc.wait))
            raise _refuse(
                429,
                "too_many",
                f"too many chat messages: at most {CHAT_LIMIT.burst} in {CHAT_LIMIT.window:g} s from a seat; "
                f"try again in {wait} s",
                headers={"retry-after": str(wait)},
                retry_after=wait,
            ) from None
        except StoreError as exc:
            log.error("%s", exc)
            raise ServiceError(503, "the message could not be saved, so it was not sent: try again") from None
        self.deliver(live, message)
        return message

    def set_free(self, game_id: str, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        """A seat turns free text on or off for itself; its pages get the chat again, as it now
        reads (here at once, even when nothing changed, so that the asking socket has its answer;
        in the other processes when something did). Returns that history."""
        on = settings_of_request(body)
        live, seat = self._seat(game_id, token, "the chat's settings need a seat token")
        chat = self.table(live)
        if chat.mode != "free":
            raise _refuse(409, "free_off", "free text is off at this table: its creator chose phrases only")
        if chat.free_for(seat) != on:
            try:
                self.store.set_quiet(live.id, seat, not on)
            except StoreError as exc:
                log.error("%s", exc)
                raise ServiceError(503, "the setting could not be saved: try again") from None
            if on:
                chat.quiet.discard(seat)
            else:
                chat.quiet.add(seat)
        self.resend(live, seat)
        return self.history(live, seat)

    def history(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The chat as ``seat`` (None: a spectator) reads it: what the table allows, whether free
        text is on for this reader, and the last messages it may read, oldest first."""
        chat = self.table(live)
        messages = [m.to_json() for m in self.store.history(live.id, HISTORY) if chat.shows(seat, m)]
        return {
            "type": "chat_history",
            "phrases": list(PHRASES),
            "max_text": MAX_TEXT,
            "table": chat.mode,
            "free_text": chat.free_for(seat),
            "messages": messages,
        }

    # ------------------------------------------------------------------ delivery
    def deliver(self, live: LiveGame, message: ChatMessage) -> None:
        """Queue a message to every socket of this process whose reader may read it."""
        if not live.subscribers:
            return
        chat = self.table(live)
        text = encode(message.to_json())
        for sub in live.subscribers:
            if chat.shows(sub.seat, message):
                sub.queue.put_nowait(text)

    def resend(self, live: LiveGame, seat: int) -> None:
        """Send a seat's sockets here the chat again (its setting changed)."""
        subs = [s for s in live.subscribers if s.seat == seat]
        if subs:
            text = encode(self.history(live, seat))
            for sub in subs:
                sub.queue.put_nowait(text)

    def heard(self, live: LiveGame | None, what: str) -> None:
        """Another process stored a message or a seat's setting of a game held here (None: not held,
        nothing to do): deliver it, or apply it."""
        if live is None:
            return
        try:
            if what.startswith(CHAT_NOTE):
                self.deliver(live, ChatMessage.from_json(json.loads(what[len(CHAT_NOTE) :])))
            elif what.startswith(QUIET_NOTE):
                seat_text, quiet = what[len(QUIET_NOTE) :].split(" ")
                seat = int(seat_text)
                chat = self.table(live)
                if quiet == "0":
                    chat.quiet.discard(seat)
                else:
                    chat.quiet.add(seat)
                self.resend(live, seat)
        except Exception:
            log.exception("game %s: another process's chat change could not be read", live.id)
            self.tables.pop(live, None)
