"""The chat's part of the store (``cassino.club.chat.ChatRecords``): each game's last messages, the
chat its creator chose and the seats that turned free text off, in the games' database
(``schema``: ``chat_table``, ``chat_settings_table``, ``chat_quiet_table``).

Every change is told to the other server processes as a notification of its game (``notify``): a
message carries itself (``chat <JSON>``), so another process delivers it to its sockets without
reading the database, and a seat's choice of free text is ``chat-quiet <seat> <0|1>``. The limit
on each seat's messages is counted here, in the same transaction that stores a message, so two
processes count the same messages.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from sqlalchemy import Connection, Engine, delete, func, insert, select

from ..club.chat import ChatLimit, ChatMessage, TableChat
from ..club.errors import ChatRateError
from .errors import StoreError
from .rows import CHAT_NOTE, QUIET_NOTE
from .schema import chat_quiet_table, chat_settings_table, chat_table


class ChatStore:
    """The chat's records, over the games' engine; ``notify(conn, game_id, what)`` tells the other
    processes of a change when its transaction commits (nothing on SQLite)."""

    def __init__(self, engine: Engine, notify: Callable[[Connection, str, str], None]) -> None:
        self.engine = engine
        self.notify = notify

    def set_mode(self, game_id: str, mode: str) -> None:
        """The chat a new game's creator chose (``free``; a game without a row has phrases only)."""
        with self.engine.begin() as conn:
            conn.execute(insert(chat_settings_table), {"game_id": game_id, "mode": mode})

    def table(self, game_id: str) -> TableChat:
        """A game's chat mode and the seats that turned free text off."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(chat_settings_table.c.mode).where(chat_settings_table.c.game_id == game_id)
            ).first()
            quiet = conn.execute(select(chat_quiet_table.c.seat).where(chat_quiet_table.c.game_id == game_id))
            return TableChat("phrases" if row is None else str(row.mode), {int(r.seat) for r in quiet})

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
        ``limit.keep``; tell the other processes. StoreError if the database refuses.

        Two processes storing the same seat's messages at the same instant may each count the
        other's as not yet there, and let one message past the limit: a courtesy limit, not a
        lock on the game."""
        try:
            with self.engine.begin() as conn:
                recent = conn.execute(
                    select(func.count(), func.min(chat_table.c.at)).where(
                        chat_table.c.game_id == game_id, chat_table.c.seat == seat, chat_table.c.at > at - limit.window
                    )
                ).one()
                if int(recent[0]) >= limit.burst:
                    raise ChatRateError(float(recent[1]) + limit.window - at, limit.burst, limit.window)
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
        except ChatRateError:
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
