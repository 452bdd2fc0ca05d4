"""The teaching library's messages: a code and its parameters, worded in English here once.

A message is structured like the engine's refusal reasons (``checks.Reason``): the page words it
in the player's language from the catalogues (key ``learn.<code>``, the ``learn`` domain), the
terminal prints ``Message.text()``. ``LEARN_TEXTS`` gathers every English template from the
``words`` calls beside the code that sends them; ``cassino.web.i18n`` merges it into the English
catalogue, so the English is written once. Parameters are numbers, cards (``Cards``), ranks
(``Rank``) and other learn messages without parameters (``Word``: a category's name, say), so
that no English word ever travels inside a parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from ..reasons import PLACEHOLDER, Cards, CodedMessage, Rank, param_from_json, param_json, param_text

LEARN_TEXTS: dict[str, str] = {}
"""Every learn message code with its English template: the only home of the English wording."""

PREFIX = "learn."
"""What a code is prefixed with to make its catalogue key."""

_FIELDS: dict[str, frozenset[str]] = {}


def words(group: str, **texts: str) -> None:
    """Register the English templates of the codes ``group.name``, written beside their use."""
    for name, text in texts.items():
        code = f"{group}.{name}"
        if code in LEARN_TEXTS:
            raise ValueError(f"learn message {code!r} is worded twice")
        LEARN_TEXTS[code] = text
        _FIELDS[code] = frozenset(PLACEHOLDER.findall(text))


@dataclass(frozen=True, slots=True)
class Word:
    """Another learn message, without parameters, as a parameter (a category's name): the page
    looks its ``key`` up in the same catalogue, so the word is translated too."""

    code: str

    def __post_init__(self) -> None:
        if _FIELDS.get(self.code) != frozenset():
            raise ValueError(f"{self.code!r} is no learn message without parameters")


Param: TypeAlias = "int | float | Cards | Rank | Word"
"""A learn message's parameter: a number (points may have decimals), cards, a rank or a word."""


def _text_of(value: Param) -> str:
    """A parameter in English: numbers to one decimal at most, the engine's card and rank names."""
    if isinstance(value, Word):
        return LEARN_TEXTS[value.code]
    if isinstance(value, float):
        return f"{value:.1f}"
    return param_text(value)


def _json_of(value: Param) -> Any:
    """A parameter as JSON: ``{"word": key}`` for a word, a float rounded, else as the reasons."""
    if isinstance(value, Word):
        return {"word": PREFIX + value.code}
    if isinstance(value, float):
        return round(value, 1)
    return param_json(value)


def _from_json(value: Any) -> Param:
    """The inverse of ``_json_of``."""
    if isinstance(value, float):
        return value
    if isinstance(value, dict) and value.keys() == {"word"} and str(value["word"]).startswith(PREFIX):
        return Word(str(value["word"])[len(PREFIX) :])
    return param_from_json(value)


def english(code: str, values: Mapping[str, str]) -> str:
    """A template of ``LEARN_TEXTS`` filled with values already in English (what ``Message.text``
    does, and the terminal for the templates whose parts an app words: a move, a message)."""
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], LEARN_TEXTS[code])


@dataclass(frozen=True, slots=True)
class Message(CodedMessage):
    """Something the library tells a player: a code of ``LEARN_TEXTS`` and the values of its
    placeholders (``Param``), so the page can word it in any language and the terminal keeps the
    English."""

    KIND: ClassVar[str] = "learn message"

    @classmethod
    def fields_of(cls, code: str) -> frozenset[str] | None:
        """The placeholders of a learn code's template."""
        return _FIELDS.get(code)

    @property
    def key(self) -> str:
        """The catalogue key: ``learn.<code>``."""
        return PREFIX + self.code

    def text(self) -> str:
        """The English sentence."""
        return english(self.code, {name: _text_of(value) for name, value in self.params})

    def to_json(self) -> dict[str, Any]:
        """``{"key", "code", "params", "text"}``: the page words it from ``key`` and ``params``
        (as it words a reason); ``text`` is the English fallback."""
        params = {k: _json_of(v) for k, v in self.params}
        return {"key": self.key, "code": self.code, "params": params, "text": self.text()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """A message read back from ``to_json`` (``key`` and ``text`` are derived, so not read)."""
        return cls(str(data["code"]), tuple((str(k), _from_json(v)) for k, v in data["params"].items()))
