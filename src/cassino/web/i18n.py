"""Message catalogues of the web app: gettext ``.po`` files read with Babel, one per language and domain.

Every string the page shows is a message here, looked up by a key (the ``msgid``: ``lobby.title``,
``reason.owner_may_not_trail``); the ``msgstr`` is the text with ``{name}`` placeholders. English is
a catalogue like the others, so no text is written twice. Plural forms are two keys, ``KEY.one`` and
``KEY.other`` (a language with no plural, such as Indonesian, gives both the same text); the page
picks one with ``Intl.PluralRules``. Domains split the catalogues by who owns the words: ``page``
(the page itself), ``lobby`` (presets, options, players), ``reasons`` (the engine's reasons for a
refused move), ``count`` (the items of the count after a hand), ``learn`` (the teaching
library's lessons, coach and review), ``account`` (the lobby's account area), ``chat`` (the chat at
the table), ``seeks`` (the lobby's seeks and Play now), ``daily`` (the daily deal) and
``tournaments`` (the lobby's tournaments, a tournament's page, and the end of a table of one hand).
The words of moves (``move.*``, ``build.own``, values as words, court cards' letters) are the
engine's own catalogue, ``cassino/locales/LANG/LC_MESSAGES/moves.po``, merged in here
(``engine_messages``), so the page and the terminal word moves alike.
"""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from ..reasons import PLACEHOLDER
from .errors import CatalogueError as CatalogueError

LOCALES = Path(__file__).parent / "locales"
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "de": "Deutsch", "id": "Bahasa Indonesia"}
"""The page's languages, each named in itself, English first (the reference every other catalogue
must match). The one list of them: the page gets it from ``/api/config``."""
LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_NAMES)
DOMAINS: tuple[str, ...] = (
    "page",
    "lobby",
    "reasons",
    "count",
    "learn",
    "account",
    "chat",
    "seeks",
    "daily",
    "tournaments",
    "offline",
)


def po_path(language: str, domain: str) -> Path:
    """Where the catalogue of one language and domain lives."""
    return LOCALES / language / "LC_MESSAGES" / f"{domain}.po"


@cache
def catalogue(language: str) -> dict[str, str]:
    """Every message of a language, all domains merged: key -> text."""
    if language not in LANGUAGES:
        raise CatalogueError(f"no catalogue for language {language!r}: the languages are {', '.join(LANGUAGES)}")
    out: dict[str, str] = {}
    for domain in DOMAINS:
        path = po_path(language, domain)
        if not path.exists():
            continue
        with path.open("rb") as f:
            po = read_po(f, locale=language, domain=domain)
        for message in po:
            if not message.id:
                continue  # the header
            key = str(message.id)
            if key in out:
                raise CatalogueError(f"{path}: key {key!r} is also in another domain")
            out[key] = str(message.string)
    for owner, worded in (("the engine", engine_messages(language)), ("the learn library", learn_messages(language))):
        for key, text in worded.items():
            if key in out:
                raise CatalogueError(f"key {key!r} is worded by {owner}: it belongs in no {language} catalogue")
            out[key] = text
    return out


def engine_messages(language: str) -> dict[str, str]:
    """The messages the engine words itself, so they are not written twice: the words of moves in
    every language it has them in (``cassino.sentences.move_messages``), and the reasons for a
    refused move, ``reason.<code>`` from ``cassino.explain.REASON_TEXTS`` (English only)."""
    from ..explain import REASON_TEXTS
    from ..sentences import move_languages, move_messages

    out = move_messages(language) if language in move_languages() else {}
    if language == "en":
        out |= {f"reason.{code}": text for code, text in REASON_TEXTS.items()}
    return out


def learn_messages(language: str) -> dict[str, str]:
    """The messages whose English the teaching library words itself, as ``engine_messages``:
    ``learn.<code>`` from ``cassino.learn.LEARN_TEXTS`` (English only)."""
    if language != "en":
        return {}
    from ..learn import LEARN_TEXTS
    from ..learn.messages import PREFIX

    return {PREFIX + code: text for code, text in LEARN_TEXTS.items()}


_FIELDS = string.Formatter()


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message."""
    return {name for _, name, _, _ in _FIELDS.parse(text) if name}


def check_catalogues() -> list[str]:
    """Every way the catalogues disagree with English: missing or extra keys, empty texts,
    different placeholders. Empty when they match."""
    problems: list[str] = []
    english = catalogue("en")
    for language in LANGUAGES:
        messages = catalogue(language)
        for key in sorted(english.keys() - messages.keys()):
            problems.append(f"{language}: missing key {key!r}")
        for key in sorted(messages.keys() - english.keys()):
            problems.append(f"{language}: key {key!r} is not in the English catalogue")
        for key, text in messages.items():
            if not text.strip():
                problems.append(f"{language}: key {key!r} has no text")
            elif key in english and placeholders(text) != placeholders(english[key]):
                problems.append(
                    f"{language}: key {key!r} has placeholders {sorted(placeholders(text))}, "
                    f"English has {sorted(placeholders(english[key]))}"
                )
    return problems


def render(language: str, key: str, params: dict[str, Any] | None = None) -> str:
    """A message with its placeholders filled in (plain ``str`` of each value)."""
    text = catalogue(language)[key]
    values = params or {}
    return PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), text)


@cache
def catalogue_json(language: str) -> str:
    """A language's messages as the JSON text the page loads (built once per process)."""
    return json.dumps({"language": language, "messages": catalogue(language)}, ensure_ascii=False)
