"""The chat at a web table: the club's rules (``cassino.club.chat``) over the games' store, each
message checked, stored, then delivered to the sockets that may read it here and, through the
store's notifications, in every other server process.

Who may do what is decided here from the seat token, as for moves: a seat sends, a spectator only
reads (phrases, never free text). Every refusal is a ``ServiceError`` with the club's ``code``,
which the page words in its own language: 400 for a message that breaks the rules, 403 for free
text where it is off (or for a spectator), 429 past the limit per seat (with ``Retry-After``), 410
in an abandoned game. A game that is over still takes messages (a last "good game").
"""

from __future__ import annotations

import json
import logging
import weakref
from collections.abc import Callable
from typing import Any

from ..club.chat import (
    CHAT_LIMIT,
    HISTORY,
    MAX_TEXT,
    PHRASES,
    ChatMessage,
    ChatRecords,
    TableChat,
    chat_mode,
    free_text_setting,
    message_of,
)
from ..club.errors import ChatClosedError, ChatError, ChatInputError, ChatRateError
from .errors import ServiceError, StoreError
from .model import LiveGame
from .payloads import encode
from .rows import CHAT_NOTE, QUIET_NOTE

log = logging.getLogger("cassino.web")


def refusal(exc: ChatError) -> ServiceError:
    """A club's refusal as the web answers it: its status by kind, its code and what more it says."""
    if isinstance(exc, ChatRateError):
        headers = {"retry-after": str(exc.retry_after)}
        return ServiceError(429, exc.message, headers=headers, code=exc.code, **exc.extra)
    status = 400 if isinstance(exc, ChatInputError) else 403
    return ServiceError(status, exc.message, code=exc.code, **exc.extra)


def chat_of_request(body: dict[str, Any], people: int) -> str:
    """The chat a create request chooses (``"chat"``: ``phrases`` by default, or ``free``)."""
    try:
        return chat_mode(body.get("chat"), people)
    except ChatError as exc:
        raise ServiceError(400, exc.message) from None


Asker = Callable[[str, str | None], tuple[LiveGame, int | None]]


class Chats:
    """The chat of every game this process holds: sends, reads and settings."""

    def __init__(self, records: ChatRecords, asker: Asker, clock: Callable[[], float]) -> None:
        """``asker(game_id, token)``: the game and the seat a token opens in it (None: a
        spectator); ``clock``: epoch seconds (tests move it)."""
        self.records = records
        self.asker = asker
        self.clock = clock
        self.tables: weakref.WeakKeyDictionary[LiveGame, TableChat] = weakref.WeakKeyDictionary()
        """Each live game's chat settings, read from the store once (and kept in step with the
        other processes' notifications); forgotten with the game."""

    def created(self, live: LiveGame, mode: str) -> None:
        """A new game's chat, stored. Should the store refuse, the game stands with phrases only,
        and its create answer says so."""
        if mode != "phrases":
            try:
                self.records.set_mode(live.id, mode)
            except Exception as exc:
                log.error("game %s: the chat's mode could not be stored: %s", live.id, exc)
                mode = "phrases"
        self.tables[live] = TableChat(mode)

    def table(self, live: LiveGame) -> TableChat:
        """A game's chat settings, read from the store when not known here."""
        known = self.tables.get(live)
        if known is None:
            known = self.tables[live] = self.records.table(live.id)
        return known

    def forget(self) -> None:
        """Changes may have been missed (the listening connection was lost): read each game's again."""
        self.tables.clear()

    # ------------------------------------------------------------------ requests
    def _seat(self, game_id: str, token: str | None, what: str) -> tuple[LiveGame, int]:
        """The game and the asker's seat: 403 for a spectator (naming ``what``), 410 once the game
        is abandoned."""
        live, seat = self.asker(game_id, token)
        if seat is None:
            raise ServiceError(403, f"{what}: spectators only watch (they see the phrases)", code="spectator")
        if live.abandoned:
            raise ServiceError(410, f"game {live.id} is abandoned ({live.abandoned}): start a new one")
        return live, seat

    def send(self, game_id: str, token: str | None, body: dict[str, Any]) -> ChatMessage:
        """A seat's message: checked, stored (within the seat's limit) and delivered."""
        try:
            phrase, text = message_of(body)
            live, seat = self._seat(game_id, token, "chat messages need a seat token")
            self.table(live).may_send(seat, phrase)
            message = self.records.add(live.id, seat, live.seats[seat].name, self.clock(), CHAT_LIMIT, phrase, text)
        except ChatError as exc:
            raise refusal(exc) from None
        except StoreError as exc:
            log.error("%s", exc)
            raise ServiceError(503, "the message could not be saved, so it was not sent: try again") from None
        self.deliver(live, message)
        return message

    def set_free(self, game_id: str, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        """A seat turns free text on or off for itself; its pages get the chat again, as it now
        reads (here at once, even when nothing changed, so that the asking socket has its answer;
        in the other processes when something did). Returns that chat."""
        try:
            on = free_text_setting({k: v for k, v in body.items() if k != "type"})
            live, seat = self._seat(game_id, token, "the chat's settings need a seat token")
            chat = self.table(live)
            if chat.mode != "free":
                raise ChatClosedError("free text is off at this table: its creator chose phrases only", "free_off")
        except ChatError as exc:
            raise refusal(exc) from None
        if chat.free_for(seat) != on:
            try:
                self.records.set_quiet(live.id, seat, not on)
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
        """The chat as ``seat`` (None: a spectator) reads it: the phrases, the longest text, what
        the table allows (``table``), whether free text is on for this reader (``free_text``) and
        the last messages it may read, oldest first."""
        chat = self.table(live)
        return {
            "type": "chat_history",
            "phrases": list(PHRASES),
            "max_text": MAX_TEXT,
            "table": chat.mode,
            "free_text": chat.free_for(seat),
            "messages": [m.to_json() for m in self.records.history(live.id, HISTORY) if chat.shows(seat, m)],
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
        """Another process stored a message or a seat's setting of a game held here (None: not
        held, nothing to do): deliver it, or apply it."""
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
