"""The chat's part of the store: each game's last messages, the chat its creator chose and the seats
that turned free text off, in the games' database (``schema``: ``chat_table``,
``chat_settings_table``, ``chat_quiet_table``).

Every change is told to the other server processes as a notification of its game (``notify``): a
message carries itself (``chat <JSON>``), so another process delivers it to its sockets without
reading the database, and a seat's choice of free text is ``chat-quiet <seat> <0|1>``. The limit
on each seat's messages is counted here, in the same transaction that stores a message, so two
processes count the same messages.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select

from .errors import StoreError
from .schema import chat_quiet_table, chat_settings_table, chat_table

CHAT_NOTE = "chat "
"""How a message's notification begins (the message's JSON follows)."""
QUIET_NOTE = "chat-quiet "
"""How a seat's choice of free text is told (``chat-quiet <seat> <0|1>``, 1: turned off)."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message at a table: a preset phrase's id or a free text (exactly one of them), its seat,
    the seat's name then and when it was sent (epoch seconds). Nothing else: no message says
    anything of a hand."""

    id: int
    seat: int
    name: str
    at: float
    phrase: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The message as the sockets and the API send it."""
        out: dict[str, Any] = {"type": "chat", "id": self.id, "seat": self.seat, "name": self.name, "at": self.at}
        if self.phrase is not None:
            out["phrase"] = self.phrase
        else:
            out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChatMessage:
        """A message as ``to_json`` wrote it (another process's notification)."""
        phrase, text = data.get("phrase"), data.get("text")
        return cls(
            int(data["id"]),
            int(data["seat"]),
            str(data["name"]),
            float(data["at"]),
            None if phrase is None else str(phrase),
            None if text is None else str(text),
        )


class ChatRateError(StoreError):
    """A seat sent its allowance of messages within the window: nothing was stored."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"too many chat messages: the next is taken in {wait:.1f} s")
        self.wait = wait
        """Seconds until the oldest message of the window leaves it."""


@dataclass(frozen=True, slots=True)
class ChatLimit:
    """What ``ChatStore.add`` enforces: ``burst`` messages per seat within ``window`` seconds, and
    the last ``keep`` messages of a game kept."""

    burst: int
    window: float
    keep: int


class ChatStore:
    """The chat's rows, over the games' engine; ``notify(conn, game_id, what)`` tells the other
    processes of a change when its transaction commits (nothing on SQLite)."""

    def __init__(self, engine: Engine, notify: Callable[[Connection, str, str], None]) -> None:
        self.engine = engine
        self.notify = notify

    def set_mode(self, game_id: str, mode: str) -> None:
        """The chat a new game's creator chose (``free``; a game without a row has phrases only)."""
        with self.engine.begin() as conn:
            conn.execute(insert(chat_settings_table), {"game_id": game_id, "mode": mode})

    def table(self, game_id: str) -> tuple[str, set[int]]:
        """A game's chat mode and the seats that turned free text off."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(chat_settings_table.c.mode).where(chat_settings_table.c.game_id == game_id)
            ).first()
            quiet = conn.execute(select(chat_quiet_table.c.seat).where(chat_quiet_table.c.game_id == game_id))
            return ("phrases" if row is None else str(row.mode)), {int(r.seat) for r in quiet}

    def set_quiet(self, game_id: str, seat: int, quiet: bool) -> None:
        """Turn free text off (``quiet``) or on again for a seat; the other processes are told."""
        try:
            with self.engine.begin() as conn:
                where = (chat_quiet_table.c.game_id == game_id, chat_quiet_table.c.seat == seat)
                conn.execute(delete(chat_quiet_table).where(*where))
                if quiet:
                    conn.execute(insert(chat_quiet_table), {"game_id": game_id, "seat": seat})
                self.notify(conn, game_id, f"{QUIET_NOTE}{seat} {int(quiet)}")
        except Exception as exc:
            raise StoreError(f"game {game_id}: the database refused seat {seat}'s chat setting: {exc}") from exc

    def add(
        self, game_id: str, seat: int, name: str, at: float, limit: ChatLimit, phrase: str | None, text: str | None
    ) -> ChatMessage:
        """Store a message, unless the seat sent ``limit.burst`` within the last ``limit.window``
        seconds (``ChatRateError``, saying when the next is taken); keep the game's last
        ``limit.keep``; tell the other processes. StoreError if the database refuses."""
        try:
            with self.engine.begin() as conn:
                recent = conn.execute(
                    select(func.count(), func.min(chat_table.c.at)).where(
                        chat_table.c.game_id == game_id, chat_table.c.seat == seat, chat_table.c.at > at - limit.window
                    )
                ).one()
                if int(recent[0]) >= limit.burst:
                    raise ChatRateError(max(0.0, float(recent[1]) + limit.window - at))
                values = {"game_id": game_id, "seat": seat, "name": name, "at": at, "phrase": phrase, "text": text}
                key = conn.execute(insert(chat_table), values).inserted_primary_key
                assert key is not None
                message = ChatMessage(int(key[0]), seat, name, at, phrase, text)
                oldest_kept = conn.execute(
                    select(chat_table.c.id)
                    .where(chat_table.c.game_id == game_id)
                    .order_by(chat_table.c.id.desc())
                    .offset(limit.keep - 1)
                    .limit(1)
                ).scalar()
                if oldest_kept is not None:
                    conn.execute(
                        delete(chat_table).where(chat_table.c.game_id == game_id, chat_table.c.id < oldest_kept)
                    )
                self.notify(conn, game_id, CHAT_NOTE + json.dumps(message.to_json(), separators=(",", ":")))
            return message
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"game {game_id}: the database refused seat {seat}'s chat message: {exc}") from exc

    def history(self, game_id: str, limit: int) -> list[ChatMessage]:
        """A game's last ``limit`` messages, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_table).where(chat_table.c.game_id == game_id).order_by(chat_table.c.id.desc()).limit(limit)
            ).all()
        return [ChatMessage(r.id, r.seat, r.name, r.at, r.phrase, r.text) for r in reversed(rows)]
