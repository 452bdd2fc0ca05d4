"""Refusal reasons as data: a code and its parameters, worded in any language from the catalogues.

A reason is structured, a ``Reason`` (a code and its parameters), so that the browser can show it in
the player's language from the catalogues (key ``reason.<code>``); ``REASON_TEXTS`` gathers the one
English wording of every code, registered by ``checks`` beside each rule and by ``explain`` beside
``why_not`` (``words``), which the command line prints through ``Reason.text`` and the English catalogue reads. ``CodedMessage`` is
the base of these reasons and of the teaching library's messages.

This module is never compiled (``cassino.native``): the teaching library subclasses
``CodedMessage`` in plain Python, which a compiled class would not allow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeAlias

from .cards import CARD_NAMES, RANKS, CardMask, cards_of

Param: TypeAlias = "int | Cards | Rank"
"""A reason's parameter: a number, some cards or a rank."""

REASON_TEXTS: dict[str, str] = {}
"""Every reason code with its English template, gathered from the sentences beside the checks of
``checks`` (``words``): the only home of the English wording."""

PLACEHOLDER = re.compile(r"\{(\w+)\}")
_FIELDS: dict[str, frozenset[str]] = {}


def words(**texts: str) -> None:
    """Register the English templates of a rule's reason codes, written beside the rule's check."""
    for code, text in texts.items():
        REASON_TEXTS[code] = text
        _FIELDS[code] = frozenset(PLACEHOLDER.findall(text))


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards as a reason's parameter, by canonical name in ascending card order (one card too)."""

    names: tuple[str, ...]

    @classmethod
    def of(cls, mask: CardMask) -> Cards:
        """The cards of a mask."""
        return cls(tuple(CARD_NAMES[c] for c in cards_of(mask)))

    @classmethod
    def one(cls, card: int) -> Cards:
        """A single card."""
        return cls((CARD_NAMES[card],))


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank as a reason's parameter, by its letter (``T`` is the ten)."""

    letter: str


def param_text(value: Param) -> str:
    """A parameter in English, as the sentences always wrote it."""
    if isinstance(value, Cards):
        return " ".join(value.names)
    if isinstance(value, Rank):
        return value.letter
    return str(value)


def param_json(value: Param) -> Any:
    """A parameter as JSON: an int, ``{"cards": [...]}`` or ``{"rank": "T"}``."""
    if isinstance(value, Cards):
        return {"cards": list(value.names)}
    if isinstance(value, Rank):
        return {"rank": value.letter}
    return value


def param_from_json(value: Any) -> Param:
    """The inverse of ``param_json``; anything else is refused."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, dict) and value.keys() == {"cards"} and isinstance(value["cards"], list):
        names = value["cards"]
        if all(isinstance(n, str) and n in CARD_NAMES for n in names):
            return Cards(tuple(names))
    if isinstance(value, dict) and value.keys() == {"rank"} and value["rank"] in tuple(RANKS):
        return Rank(value["rank"])
    raise ValueError(f"{value!r} is not a reason parameter: an int, {{'cards': [...]}} or {{'rank': 'T'}}")


@dataclass(frozen=True, slots=True)
class CodedMessage:
    """A message as data: a code of a table of English templates and the values of its
    placeholders, checked against the template; the base of the engine's reasons and of the
    teaching library's messages, so that each is worded in any language from the catalogues."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    KIND: ClassVar[str] = "message"
    """What the message is called in errors."""

    @classmethod
    def fields_of(cls, code: str) -> frozenset[str] | None:
        """The placeholders of ``code``'s template, or None for an unknown code."""
        raise NotImplementedError

    def __post_init__(self) -> None:
        fields = self.fields_of(self.code)
        if fields is None:
            raise ValueError(f"unknown {self.KIND} code {self.code!r}")
        names = {name for name, _ in self.params}
        if names != fields or len(names) != len(self.params):
            raise ValueError(f"{self.KIND} {self.code!r} takes {sorted(fields)}, got {[n for n, _ in self.params]}")

    @classmethod
    def of(cls, code: str, **params: Any) -> Self:
        """A message from keyword parameters: ``Reason.of("owner_may_not_trail", value=8, build=...)``."""
        return cls(code, tuple(params.items()))

    @property
    def args(self) -> Mapping[str, Any]:
        """The parameters by name."""
        return dict(self.params)


@dataclass(frozen=True, slots=True)
class Reason(CodedMessage):
    """Why a move is refused: a code of ``REASON_TEXTS`` and the values of its placeholders (``Param``),
    so the page can word it in any language and the command line keeps its English sentence."""

    KIND: ClassVar[str] = "reason"

    @classmethod
    def fields_of(cls, code: str) -> frozenset[str] | None:
        """The placeholders of a reason code's sentence."""
        return _FIELDS.get(code)

    @property
    def text(self) -> str:
        """The English sentence (what the command line and the engine's errors say)."""
        values = dict(self.params)
        return PLACEHOLDER.sub(lambda m: param_text(values[m.group(1)]), REASON_TEXTS[self.code])

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}, "text": ...}``: the page words it from ``code`` and
        ``params``; ``text`` is the English fallback."""
        return {"code": self.code, "params": {k: param_json(v) for k, v in self.params}, "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Reason:
        """A reason read back from ``to_json`` (``text`` is derived, so it is not read)."""
        return cls(str(data["code"]), tuple((str(k), param_from_json(v)) for k, v in data["params"].items()))


__all__ = [
    "PLACEHOLDER",
    "REASON_TEXTS",
    "Cards",
    "CodedMessage",
    "Param",
    "Rank",
    "Reason",
    "param_from_json",
    "param_json",
    "param_text",
    "words",
]
