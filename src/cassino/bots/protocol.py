"""The bot protocol (docs/bots.md), version 1: the one place its lines are written and read.

A bot is a program that plays through lines of text on its standard input and output, as chess
engines speak UCI, so that it may be written in any language. The engine greets it (``cassino 1``;
it answers ``ready``), then sends each decision as a block of lines ending in ``go``: the rules,
the seat's view as a one-line position and counts, this hand's moves, the legal moves; the bot
answers ``move`` and one of them. Everything sent is built from the seat's ``View`` alone, so no
card of another hand and nothing of the stock's order can reach a bot.

``decision_lines`` writes a decision, ``read_decision`` reads one back (``Decision.view`` gives the
``View`` it was written from: ``cassino.bots.host`` serves any player so), ``read_bot_line`` sorts
a bot's line, and ``answer_code`` reads its move against the view.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from ..cards import DECK_SIZE, card_name, excerpt, parse_card
from ..errors import CassinoError, IllegalMoveError, MoveError
from ..moves import Move, MoveCode, format_code
from ..notation import position_from_line, position_to_line
from ..rules import OPTION_NAMES, Rules
from ..view import View, public_position, view_of
from .errors import ProtocolError

VERSION: Final = 1
"""The protocol's version, sent in the greeting."""

HELLO: Final = f"cassino {VERSION}"
"""The engine's first line to a bot; the bot answers ``ready`` (after any ``id`` lines)."""

READY: Final = "ready"
QUIT: Final = "quit"
GO: Final = "go"
MOVE: Final = "move"

HEADERS: Final = ("game", "seed", "seat", "rules", "position", "sizes", "stock")
"""The lines of a decision that come once each, in this order, before its ``played`` and
``legal`` lines and the closing ``go``."""

_CARD = re.compile(r"[A2-9TJQK][cdhs]")
"""A card as the one-line position writes it."""


def rules_json(rules: Rules) -> str:
    """The ``rules`` line's JSON: the seats and every option's value, so a bot needs no table of
    presets (one object on one line, keys as in docs/notation.md)."""
    data: dict[str, Any] = {"preset": rules.preset, "players": rules.players, "partnerships": rules.partnerships}
    data.update((name, getattr(rules, name)) for name in OPTION_NAMES)
    return json.dumps(data, separators=(",", ":"))


def position_line(view: View) -> str:
    """The view as a one-line position: the seat's own hand and every public field; the other
    hands and the stock are written ``-``, their cards being hidden (``sizes`` and ``stock`` say
    how many there are)."""
    return position_to_line(public_position(view))


def decision_lines(view: View, millis: int, *, game: int = 1, seed: int = 0) -> list[str]:
    """The lines of one decision for the seat of ``view`` (which is to move), ``go`` last: the bot
    has ``millis`` milliseconds from then to answer."""
    lines = [
        f"game {game}",
        f"seed {seed}",
        f"seat {view.seat}",
        f"rules {rules_json(view.rules)}",
        f"position {position_line(view)}",
        "sizes " + "/".join(str(n) for n in view.hand_sizes),
        f"stock {view.stock_size}",
    ]
    lines += [f"played {seat} {format_code(code)}" for seat, code in view.history]
    lines += [f"legal {line}" for line in sorted(format_code(code) for code in view.legal)]
    lines.append(f"{GO} {millis}")
    return lines


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision as a bot reads it: each line's content, parsed."""

    game: int
    seed: int
    seat: int
    rules: Rules
    position: str
    """The one-line position of the seat's view (the other hands and the stock written ``-``)."""
    sizes: tuple[int, ...]
    stock: int
    played: tuple[tuple[int, MoveCode], ...]
    legal: tuple[MoveCode, ...]
    """In the order sent: by canonical line."""
    millis: int

    def view(self) -> View:
        """The ``View`` this decision was written from: the position with the unseen cards dealt
        anyhow to the other hands and the stock (a view holds none of them), read back as the seat
        sees it. Its legal moves are the engine's in its own order when they are those sent (so a
        player served through the protocol chooses exactly as in the same process)."""
        fields = self.position.split()
        if len(fields) != 12:
            raise ProtocolError(f"position must be a one-line position of 12 fields, got {len(fields)}")
        hands = fields[5].split("/")
        if len(hands) != len(self.sizes) or not 0 <= self.seat < len(hands):
            raise ProtocolError(f"position has {len(hands)} hands, sizes {len(self.sizes)}, for seat {self.seat}")
        seen = {parse_card(c) for field in (fields[4], hands[self.seat], fields[7]) for c in _CARD.findall(field)}
        unseen = [card_name(c) for c in range(DECK_SIZE) if c not in seen]
        for seat, size in enumerate(self.sizes):
            if seat != self.seat:
                hands[seat], unseen = "".join(unseen[:size]) or "-", unseen[size:]
        if len(unseen) != self.stock:
            raise ProtocolError(
                f"sizes {'/'.join(map(str, self.sizes))} and stock {self.stock} do not add up to the "
                f"{DECK_SIZE - len(seen)} cards the position does not show"
            )
        fields[5], fields[6] = "/".join(hands), "".join(unseen) or "-"
        try:
            state = position_from_line(" ".join(fields))
            view = view_of(state, self.seat, self.played)
        except CassinoError as exc:
            raise ProtocolError(f"position: {exc}") from None
        if view.hand_sizes != self.sizes:
            raise ProtocolError(f"sizes {'/'.join(map(str, self.sizes))} do not match the position")
        if set(view.legal) != set(self.legal):
            view = replace(view, legal=self.legal)
        return view


def read_decision(lines: Iterable[str]) -> Decision:
    """A decision from its lines (up to and including ``go``); unknown lines are skipped, so that a
    later version may add some. ProtocolError names a missing or malformed line."""
    heads: dict[str, str] = {}
    played: list[tuple[int, MoveCode]] = []
    legal: list[MoveCode] = []
    millis: int | None = None
    for raw in lines:
        word, _, rest = raw.strip().partition(" ")
        rest = rest.strip()
        if word in HEADERS:
            heads[word] = rest
        elif word == "played":
            seat, _, line = rest.partition(" ")
            played.append((_number(seat, "played"), _move(line, "played")))
        elif word == "legal":
            legal.append(_move(rest, "legal"))
        elif word == GO:
            millis = _number(rest, GO)
    missing = [h for h in HEADERS if h not in heads] + ([GO] if millis is None else [])
    if missing:
        raise ProtocolError(f"a decision needs the lines {', '.join(missing)}")
    assert millis is not None
    try:
        rules = Rules.from_json(json.loads(heads["rules"]))
    except (ValueError, TypeError) as exc:
        raise ProtocolError(f"rules must be the JSON of a rule set: {exc}") from None
    return Decision(
        game=_number(heads["game"], "game"),
        seed=_number(heads["seed"], "seed"),
        seat=_number(heads["seat"], "seat"),
        rules=rules,
        position=heads["position"],
        sizes=tuple(_number(n, "sizes") for n in heads["sizes"].split("/")),
        stock=_number(heads["stock"], "stock"),
        played=tuple(played),
        legal=tuple(legal),
        millis=millis,
    )


def _number(text: str, line: str) -> int:
    """A whole number of a line, in the digits 0-9."""
    if not (text.isascii() and text.isdigit()) or len(text) > 30:
        raise ProtocolError(f"{line} needs a whole number written with the digits 0-9, got {excerpt(text)}")
    return int(text)


def _move(text: str, line: str) -> MoveCode:
    """A move of a ``played`` or ``legal`` line, in canonical notation."""
    try:
        return Move.parse(text).code
    except MoveError as exc:
        raise ProtocolError(f"{line}: {exc}") from None


@dataclass(frozen=True, slots=True)
class BotLine:
    """A line from a bot, sorted: ``kind`` is ``move`` (``text`` the move), ``ready``, ``id``
    (``text`` what follows), ``skip`` (empty or ``info``: read and passed over) or ``other``."""

    kind: str
    text: str


def read_bot_line(line: str) -> BotLine:
    """What a bot's line says (spaces around it and around its first word do not matter)."""
    word, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if word == MOVE:
        return BotLine(MOVE, rest)
    if word in ("", "info"):
        return BotLine("skip", rest)
    if word == READY and not rest:
        return BotLine(READY, "")
    if word == "id":
        return BotLine("id", rest)
    return BotLine("other", line.strip())


def answer_code(text: str, view: View) -> MoveCode:
    """The legal move a bot's ``move`` line names: a canonical line, or what the game says (a
    sentence, a card or rank alone with one move: ``Move.parse_words``). MoveError when it names
    no move, IllegalMoveError (its ``reason`` the rule) when the move is not legal here."""
    try:
        code = Move.parse(text).code
    except MoveError:
        code = -1
    if code in view.legal:
        return code
    code = Move.parse_words(text, view, ascii=True).code
    if code not in view.legal:
        raise IllegalMoveError(format_code(code), "it is not one of the legal moves sent")
    return code


__all__ = [
    "GO",
    "HEADERS",
    "HELLO",
    "MOVE",
    "QUIT",
    "READY",
    "VERSION",
    "BotLine",
    "Decision",
    "answer_code",
    "decision_lines",
    "position_line",
    "read_bot_line",
    "read_decision",
    "rules_json",
]
