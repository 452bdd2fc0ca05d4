"""Chat at the table: preset phrases for everyone seated, free text only between people who chose it.

- **Phrases** (``PHRASES``) travel as ids, so that each reader sees them in their own language.
  Anyone seated may send them; spectators see them.
- **Free text** is possible only at a game whose creator chose it (``free``, and only where
  another person is invited), and only between the seats that keep it on: a person may turn it
  off for themselves, and then neither sends nor sees it (phrases still show). Spectators never
  see it. A text is 1 to ``MAX_TEXT`` characters after trimming, one line with no control
  character. It is kept and sent exactly as written and never interpreted: a front end shows it
  as text, so markup in it is only characters, and nothing is stripped.
- **Limits**: ``CHAT_LIMIT.burst`` messages per seat within ``CHAT_LIMIT.window`` seconds, counted
  by the store (so every server process counts the same); the last ``HISTORY`` messages of a game
  are kept, so every page of the game shows the same history.
- A message holds its seat, the seat's name, when it was sent and its phrase or text: nothing of
  any hand.

There is no chat outside a game (none in the lobby). Nothing here speaks HTTP or SQL: the storage
is ``ChatRecords``, which a front end implements over its database (``cassino.web.chat_store``),
and every refusal is a ``ChatError`` whose ``code`` a page words in its own language.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from .errors import ChatClosedError, ChatInputError

PHRASES: Final = ("hello", "good_luck", "well_played", "thanks", "one_moment", "oops", "good_game")
"""The preset phrases, by id, in the order a page offers them."""
MODES: Final = ("phrases", "free")
"""What a game's creator may choose: phrases only (the default), or free text too."""
MAX_TEXT: Final = 200
"""The longest free text, in characters after trimming."""
HISTORY: Final = 100
"""Messages kept per game."""
CODES: Final = (
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
"""The ``code`` of every refusal of a chat request (a page's key ``chat.error.CODE``)."""
MESSAGE_FIELDS: Final = ("phrase", "text")
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
"""Characters that reorder the text around them: a message could make the line it is shown in
read otherwise."""


@dataclass(frozen=True, slots=True)
class ChatLimit:
    """Each seat's allowance, ``burst`` messages within ``window`` seconds, and the last ``keep``
    messages of a game kept."""

    burst: int
    window: float
    keep: int


CHAT_LIMIT: Final = ChatLimit(burst=5, window=10.0, keep=HISTORY)
"""Per seat: 5 messages within 10 seconds; 100 kept per game."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message at a table: a phrase's id or a free text (exactly one of them), its seat, the
    seat's name then, and when it was sent (epoch seconds)."""

    id: int
    seat: int
    name: str
    at: float
    phrase: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The message as front ends send it: ``{"type": "chat", "id", "seat", "name", "at",
        "phrase" or "text"}``."""
        out: dict[str, Any] = {"type": "chat", "id": self.id, "seat": self.seat, "name": self.name, "at": self.at}
        if self.phrase is not None:
            out["phrase"] = self.phrase
        else:
            out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ChatMessage:
        """A message as ``to_json`` wrote it (another server process's)."""
        phrase, text = data.get("phrase"), data.get("text")
        return cls(
            int(data["id"]),
            int(data["seat"]),
            str(data["name"]),
            float(data["at"]),
            None if phrase is None else str(phrase),
            None if text is None else str(text),
        )


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

    def may_send(self, seat: int, phrase: str | None) -> None:
        """Refuse free text where it is off for ``seat`` (``ChatClosedError``, saying why)."""
        if phrase is not None or self.free_for(seat):
            return
        if self.mode != "free":
            raise ChatClosedError("free text is off at this table: its creator chose phrases only", "free_off")
        raise ChatClosedError("you turned free text off at this table: turn it on to send one", "free_quiet")


class ChatRecords(Protocol):
    """What the chat needs of storage; every method is one transaction."""

    def set_mode(self, game_id: str, mode: str) -> None:
        """Keep the mode a new game's creator chose (a game without one has phrases only)."""
        ...

    def table(self, game_id: str) -> TableChat:
        """A game's mode and the seats that turned free text off."""
        ...

    def set_quiet(self, game_id: str, seat: int, quiet: bool) -> None:
        """Turn free text off (``quiet``) or on again for a seat."""
        ...

    def add(
        self, game_id: str, seat: int, name: str, at: float, limit: ChatLimit, phrase: str | None, text: str | None
    ) -> ChatMessage:
        """Keep a message unless the seat sent ``limit.burst`` within ``limit.window`` seconds
        before ``at`` (``ChatRateError``), counting what every process stored; keep the game's
        last ``limit.keep``."""
        ...

    def history(self, game_id: str, limit: int) -> list[ChatMessage]:
        """A game's last ``limit`` messages, oldest first."""
        ...


def _shown(value: Any) -> str:
    return json.dumps(value)[:40]


def chat_mode(value: Any, people: int) -> str:
    """The chat a new game's creator chose (None: ``phrases``): ``free`` only where at least two
    people sit, since free text is only between people who chose it."""
    if value is None:
        return "phrases"
    if value not in MODES:
        raise ChatInputError(
            f"chat must be 'phrases' or 'free' (free text between the people invited), not {_shown(value)}",
            "bad_message",
        )
    if value == "free" and people < 2:
        raise ChatInputError(
            "chat 'free' is for games between people: free text needs another person's seat, and this game has none",
            "bad_message",
        )
    return str(value)


def forbidden_character(text: str) -> str | None:
    """The first character a text may not hold: a control character (line breaks and tabs
    included: a message is one line), a lone surrogate, a line or paragraph separator, or one that
    reorders the text around it. None when there is none."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            return ch
    return None


def message_of(body: dict[str, Any]) -> tuple[str | None, str | None]:
    """The phrase id or the free text a message asks to send (exactly one), checked: a known
    phrase; a text of 1 to ``MAX_TEXT`` characters after trimming, with no control character.
    Returns it trimmed.

    >>> message_of({"phrase": "good_luck"}), message_of({"text": "  <b>gg</b> "})
    (('good_luck', None), (None, '<b>gg</b>'))
    >>> message_of({"text": "two\\nlines"})
    Traceback (most recent call last):
    ...
    cassino.club.errors.ChatInputError: text holds the control character U+000A: a message is one line of plain text
    """
    unknown = sorted(k for k in body if k not in MESSAGE_FIELDS)
    if unknown:
        raise ChatInputError(
            f"unknown field {_shown(unknown[0])} for a chat message; the fields are: phrase or text", "bad_message"
        )
    phrase, text = body.get("phrase"), body.get("text")
    if (phrase is None) == (text is None):
        raise ChatInputError(
            "a chat message has either a phrase (its id) or a text, not both nor neither", "bad_message"
        )
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            named = phrase if isinstance(phrase, str) and len(phrase) <= 40 else None
            raise ChatInputError(
                f"unknown phrase {_shown(phrase)}: the phrases are {', '.join(PHRASES)}", "unknown_phrase", phrase=named
            )
        return phrase, None
    if not isinstance(text, str):
        raise ChatInputError(f"text must be a string of 1 to {MAX_TEXT} characters", "bad_message")
    trimmed = text.strip()
    if not trimmed:
        raise ChatInputError(f"text is empty: a message has 1 to {MAX_TEXT} characters after trimming", "empty_text")
    if len(trimmed) > MAX_TEXT:
        raise ChatInputError(
            f"text is {len(trimmed)} characters long: a message has at most {MAX_TEXT}", "long_text", max=MAX_TEXT
        )
    bad = forbidden_character(trimmed)
    if bad is not None:
        raise ChatInputError(
            f"text holds the control character U+{ord(bad):04X}: a message is one line of plain text",
            "control_character",
        )
    return None, trimmed


def free_text_setting(body: dict[str, Any]) -> bool:
    """Whether a seat asks to keep free text on (``{"free_text": true | false}``)."""
    unknown = sorted(k for k in body if k != "free_text")
    if unknown:
        raise ChatInputError(
            f"unknown field {_shown(unknown[0])} for the chat's settings; the field is free_text", "bad_message"
        )
    value = body.get("free_text")
    if not isinstance(value, bool):
        raise ChatInputError("free_text must be true (show and send free text at this table) or false", "bad_message")
    return value
