"""Moves as sentences, the words people read and type: "take 5♥ 3♣ with 8♠", "build eight: 3♣ on
5♦", "raise your six to nine with 3♣", "trail 2♥", in each language of the move catalogues.

The words are written once per language, in the engine's own gettext catalogue
``locales/LANG/LC_MESSAGES/moves.po``, read here with the standard library (``read_po``: the engine
may not need Babel). The web app serves the same entries to its page (``web.i18n`` merges them into
each language's catalogue), so the page, the terminal and the engine word a move alike.

Reading goes the other way. A sentence leaves things out (the value a capture counts, who owns a
build it names), so it is resolved against the legal moves of the position: the text is read into
its parts (the kind, the played card, the value, the loose cards and the builds it names; cards
as ``5♣``, ``5c`` or ``5C``, ``10`` or ``T``; any order within a list; builds by name or by their
cards), and the legal move with exactly those parts is the one meant. A card or a rank alone names
its only move. ``read_move`` takes the canonical line of docs/notation.md first, as ever.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, TypeAlias

from .cards import RANKS, SUITS, Card, CardMask, card_name, cards_of, excerpt, rank
from .errors import CassinoError, MoveError
from .explain import why_not
from .moves import (
    BUILD,
    CAPTURE,
    MOVE_LINE,
    TRAIL,
    MoveCode,
    check_move_text,
    code_card,
    code_kind,
    code_table,
    code_value,
    format_code,
    parse_code,
)
from .reasons import PLACEHOLDER
from .state import Build, State
from .view import View, public_position, view_of

Position: TypeAlias = State | View
"""What a move is worded in and read against: a hand in play, or one seat's view of it."""
Names: TypeAlias = Callable[[int], str]
"""A seat's name, as the sentences write another seat's build: ``Ana's eight``."""

LOCALES: Final = Path(__file__).parent / "locales"
DOMAIN: Final = "moves"
SUIT_SYMBOLS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_LETTERS: Final = str.maketrans({symbol: letter for letter, symbol in SUIT_SYMBOLS.items()})
SHOWN_MOVES: Final = 10
"""The most moves an error lists (a card may have thousands): the rest are counted."""
KEYS: Final = ("move.trail", "move.capture", "move.build", "move.raise_own", "move.raise_other")
"""The catalogue's sentences, one per kind of move (a raise says whose build it raises)."""


def from_symbols(text: str) -> str:
    """Text with suit symbols turned into the notation's letters (``10♦`` -> ``10d``), so a card
    may be typed the way it is shown."""
    return text.translate(_LETTERS)


def default_name(seat: int) -> str:
    """How another seat is named when the caller gives no names: ``seat 2``."""
    return f"seat {seat}"


# ----------------------------------------------------------------------------- the catalogues


_PO_FIELD = re.compile(r'(msgid|msgstr)\s+"(.*)"')
_PO_MORE = re.compile(r'"(.*)"')
_PO_ESCAPES: Final = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(body: str, where: str) -> str:
    """A gettext string's text, its escapes read."""
    out: list[str] = []
    chars = iter(body)
    for ch in chars:
        if ch == '"':
            raise CassinoError(f'{where}: a quote inside a string must be written \\"')
        if ch == "\\":
            escape = next(chars, "")
            if escape not in _PO_ESCAPES:
                raise CassinoError(f"{where}: unknown escape \\{escape}")
            ch = _PO_ESCAPES[escape]
        out.append(ch)
    return "".join(out)


def read_po(text: str, name: str) -> dict[str, str]:
    """A gettext catalogue's messages, ``msgid`` -> ``msgstr`` (the header left out): the part of
    the format the catalogues use (comments, ``msgid`` and ``msgstr``, strings continued on the
    lines below, the escapes ``\\n \\t \\" \\\\``). Anything else is refused with its line, so a
    catalogue is never read differently here and by gettext tools (a test compares with Babel)."""
    entries: list[list[str | None]] = []
    field = -1  # what a continued string adds to: 0 the msgid, 1 the msgstr, -1 nothing
    for number, raw in enumerate(text.splitlines(), 1):
        line, where = raw.strip(), f"{name}:{number}"
        if not line or line.startswith("#"):
            field = -1
            continue
        m = _PO_FIELD.fullmatch(line)
        if m is not None and m[1] == "msgid":
            entries.append([_unquote(m[2], where), None])
            field = 0
        elif m is not None and field == 0:
            entries[-1][1] = _unquote(m[2], where)
            field = 1
        elif (more := _PO_MORE.fullmatch(line)) is not None and field >= 0:
            entries[-1][field] = f"{entries[-1][field]}{_unquote(more[1], where)}"
        else:
            raise CassinoError(f"{where}: not a line this catalogue reader knows: {excerpt(line)}")
    messages: dict[str, str] = {}
    for key, message in entries:
        assert key is not None
        if message is None:
            raise CassinoError(f"{name}: {key!r} has no msgstr")
        if key in messages:
            raise CassinoError(f"{name}: {key!r} is written twice")
        if key:
            messages[key] = message
    return messages


@cache
def move_languages() -> tuple[str, ...]:
    """The languages moves are worded in: those with a catalogue, English first."""
    found = sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return tuple(sorted(found, key=lambda language: language != "en"))


def po_file(language: str) -> Path:
    """Where a language's move words are."""
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _messages(language: str) -> dict[str, str]:
    if language not in move_languages():
        raise CassinoError(f"no move words in {language!r}: the languages are {', '.join(move_languages())}")
    path = po_file(language)
    return read_po(path.read_text(encoding="utf-8"), str(path))


def move_messages(language: str) -> dict[str, str]:
    """A language's move words, key -> text: the sentences (``move.*``), builds (``build.own``,
    ``build.other``), the list separator, court cards' letters (``card.rank.*``) and build values
    as words (``value.2`` .. ``value.14``)."""
    return dict(_messages(language))


# ----------------------------------------------------------------------------- wording


def _fill(text: str, values: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def rank_text(rank_index: int, language: str = "en") -> str:
    """A rank as people read it: ``10`` for the ten, court cards by the catalogue's letters."""
    letter = RANKS[rank_index]
    return "10" if letter == "T" else _messages(language).get(f"card.rank.{letter}", letter)


def card_text(card: Card, language: str = "en", ascii: bool = False) -> str:
    """A card as people read it: ``10♦``, ``K♠`` (German ``D♠`` for a queen), or with the suit's
    letter when ``ascii`` (``10d``)."""
    suit_letter = card_name(card)[1]
    return rank_text(rank(card), language) + (suit_letter if ascii else SUIT_SYMBOLS[suit_letter])


def value_word(value: int, language: str = "en") -> str:
    """A build value as a word (eight, acht, delapan), or its number where the catalogue has none."""
    return _messages(language).get(f"value.{value}", str(value))


def split_targets(table: CardMask, builds: Iterable[Build]) -> tuple[CardMask, list[Build]]:
    """A move's table cards as its sentence names them: the ``builds`` all of whose cards it takes
    or joins, and the other cards, named one by one."""
    whole = [b for b in builds if not b.cards & ~table]
    loose = table
    for b in whole:
        loose &= ~b.cards
    return loose, whole


@dataclass(frozen=True, slots=True)
class Wording:
    """How moves are worded for one reader: the language, whose builds are "your" builds (``seat``),
    how other seats are named, and whether suits are letters."""

    language: str = "en"
    seat: int = -1
    names: Names = default_name
    ascii: bool = False

    def card(self, card: Card) -> str:
        return card_text(card, self.language, self.ascii)

    def cards(self, mask: CardMask) -> str:
        return " ".join(self.card(c) for c in cards_of(mask))

    def build(self, build: Build) -> str:
        """A build the move uses: ``your eight``, ``Ana's eight``."""
        value = value_word(build.value, self.language)
        if build.owner == self.seat:
            return _fill(_messages(self.language)["build.own"], {"value": value})
        return _fill(_messages(self.language)["build.other"], {"value": value, "name": self.names(build.owner)})

    def named(self, builds: Iterable[Build]) -> list[Build]:
        """The builds a sentence names as builds: those whose words no other build of the table
        shares (two of "your nine" would not say which); the others are named by their cards."""
        builds = list(builds)
        texts = [self.build(b) for b in builds]
        return [b for b, text in zip(builds, texts, strict=True) if texts.count(text) == 1]

    def sentence(self, code: MoveCode, builds: Iterable[Build] = ()) -> str:
        """A move in words, the table's ``builds`` named as builds where their words tell them
        apart (``named``; none given: every card by itself). A raise reads as one ("raise your
        six to nine with 3♣") when the raised build is the only build the move names."""
        texts = _messages(self.language)
        card = self.card(code_card(code))
        kind = code_kind(code)
        if kind == TRAIL:
            return _fill(texts["move.trail"], {"card": card})
        value = code_value(code)
        loose, whole = split_targets(code_table(code), self.named(builds))
        parts = [self.cards(loose)] if loose else []
        items = texts["list.separator"].join(parts + [self.build(b) for b in whole])
        if kind == CAPTURE:
            return _fill(texts["move.capture"], {"items": items, "card": card})
        raised = whole[0] if len(whole) == 1 and whole[0].value != value else None
        if raised is None:
            return _fill(texts["move.build"], {"value": value_word(value, self.language), "card": card, "items": items})
        fill = {
            "from": value_word(raised.value, self.language),
            "to": value_word(value, self.language),
            "cards": " ".join([card, *(self.card(c) for c in cards_of(loose))]),
        }
        if raised.owner == self.seat:
            return _fill(texts["move.raise_own"], fill)
        return _fill(texts["move.raise_other"], {**fill, "name": self.names(raised.owner)})


def reader_seat(position: Position | None) -> int:
    """Whose builds are "your" builds when no seat is given: a view's seat, else the seat to move."""
    if position is None:
        return -1
    return position.seat if isinstance(position, View) else position.to_move


def wording(
    position: Position | None,
    language: str = "en",
    seat: int | None = None,
    names: Names | None = None,
    ascii: bool = False,
) -> Wording:
    """The ``Wording`` of a reader of ``position`` (the checked language, the reader's seat)."""
    _messages(language)
    return Wording(language, reader_seat(position) if seat is None else seat, names or default_name, ascii)


def describe(
    code: MoveCode,
    position: Position | None = None,
    lang: str = "en",
    *,
    seat: int | None = None,
    names: Names | None = None,
    ascii: bool = False,
) -> str:
    """A move in words, as the game prints it (``Move.describe``): worded in ``position``, the one
    the move is made in, its builds are named ("take your eight with 8♠", "raise Ana's six to nine
    with 3♣"); without one every card stands by itself ("take 4♣ 4♦ with 8♠")."""
    builds = () if position is None else position.builds
    return wording(position, lang, seat, names, ascii).sentence(code, builds)


# ----------------------------------------------------------------------------- reading


def _normal(text: str) -> str:
    """Text as sentences are compared: case folded, one kind of apostrophe, ``:`` and ``,`` set
    apart by spaces, single spaces, no full stop at the end."""
    text = text.casefold().replace("’", "'").replace("‘", "'").strip().removesuffix(".")
    text = re.sub(r"\s*([:,])\s*", r" \1 ", text)
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Said:
    """What a sentence names: its kind, the played card (a raise names it among ``cards``), the
    value it states (0: none), the cards it lists and the builds it names, by ``Ref``."""

    kind: int
    card: Card
    value: int
    cards: CardMask
    builds: tuple[Ref, ...] = ()
    raised: Ref | None = None


@dataclass(frozen=True, slots=True)
class Ref:
    """A build a sentence names: the reader's own, or another seat's (by a name), and its value."""

    own: bool
    name: str
    value: int


@dataclass(frozen=True, slots=True)
class Reader:
    """One language's patterns for reading moves back: its card and rank words, its value words
    and a pattern for each sentence and build."""

    language: str
    ranks: dict[str, int]
    values: dict[str, int]
    sentences: tuple[tuple[str, re.Pattern[str]], ...]
    own: re.Pattern[str]
    other: re.Pattern[str]
    separator: str

    def card(self, token: str) -> Card | None:
        """The card a (normalised) word names, or None: a rank of this language or of the
        notation, then a suit by letter or symbol."""
        r = self.ranks.get(token[:-1])
        s = SUITS.find(from_symbols(token[-1:])) if token else -1
        return None if r is None or s < 0 else r * 4 + s

    def played(self, token: str) -> Card:
        """The card a word the sentence's pattern matched as a card names."""
        card = self.card(token)
        assert card is not None, token
        return card

    def value(self, word: str) -> int:
        return self.values[word] if word in self.values else int(word)

    def listed(self, text: str) -> CardMask | None:
        """The cards of a list written with spaces, or None if a word is no card or one repeats."""
        cards = [self.card(w) for w in text.split(" ")]
        mask = 0
        for c in cards:
            if c is None or mask >> c & 1:
                return None
            mask |= 1 << c
        return mask

    def items(self, text: str) -> tuple[CardMask, tuple[Ref, ...]] | None:
        """The loose cards and the builds of a sentence's list (parts between separators: cards,
        then at most one build), or None when a part is neither."""
        mask, refs = 0, []
        for part in text.split(f" {self.separator} ") if self.separator else [text]:
            words = part.split(" ")
            n = 0
            while n < len(words) and self.card(words[n]) is not None:
                n += 1
            if n:
                cards = self.listed(" ".join(words[:n]))
                if cards is None or cards & mask:
                    return None
                mask |= cards
            rest = " ".join(words[n:])
            if rest:
                ref = self.build(rest)
                if ref is None:
                    return None
                refs.append(ref)
        return mask, tuple(refs)

    def build(self, text: str) -> Ref | None:
        """A build named in words: ``your eight``, ``ana's eight``."""
        m = self.own.fullmatch(text)
        if m is not None:
            return Ref(True, "", self.value(m["p_value"]))
        m = self.other.fullmatch(text)
        return None if m is None else Ref(False, m["p_name"], self.value(m["p_value"]))

    def read(self, text: str) -> list[Said]:
        """What a normalised text says, by each sentence of the language it fits."""
        found = []
        for key, pattern in self.sentences:
            m = pattern.fullmatch(text)
            if m is None:
                continue
            groups = m.groupdict()
            if key == "move.trail":
                found.append(Said(TRAIL, self.played(groups["p_card"]), 0, 0))
            elif key in ("move.capture", "move.build"):
                items = self.items(groups["p_items"])
                if items is not None:
                    value = self.value(groups["p_value"]) if key == "move.build" else 0
                    kind = BUILD if key == "move.build" else CAPTURE
                    found.append(Said(kind, self.played(groups["p_card"]), value, *items))
            else:
                cards = self.listed(groups["p_cards"])
                if cards is not None:
                    raised = Ref(key == "move.raise_own", groups.get("p_name") or "", self.value(groups["p_from"]))
                    found.append(Said(BUILD, -1, self.value(groups["p_to"]), cards, raised=raised))
        return found


VALUE_DIGITS: Final = "[0-9]{1,2}"


@cache
def reader(language: str) -> Reader:
    """The patterns that read ``language``'s move words back (built once)."""
    texts = _messages(language)
    ranks = {("10" if letter == "T" else letter).casefold(): r for r, letter in enumerate(RANKS)}
    ranks["t"] = RANKS.index("T")
    for letter in "AJQK":
        ranks[_normal(texts.get(f"card.rank.{letter}", letter))] = RANKS.index(letter)
    values = {_normal(v): int(k.split(".")[1]) for k, v in texts.items() if k.startswith("value.")}
    card = f"(?:{_either(ranks)})[{SUITS}{''.join(SUIT_SYMBOLS.values())}]"
    value = f"(?:{_either(values)}|{VALUE_DIGITS})"
    groups = {"card": card, "cards": f"{card}(?: {card})*", "items": ".+", "name": ".+"}
    groups |= {"value": value, "from": value, "to": value}
    return Reader(
        language,
        ranks,
        values,
        tuple((key, _pattern(texts[key], groups)) for key in KEYS),
        _pattern(texts["build.own"], groups),
        _pattern(texts["build.other"], groups),
        _normal(texts["list.separator"]),
    )


def _either(words: Iterable[str]) -> str:
    """An alternation of words, the longest first (``dua belas`` before ``dua``)."""
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


def _pattern(template: str, groups: dict[str, str]) -> re.Pattern[str]:
    """A catalogue text as a pattern of normalised text: each ``{placeholder}`` a named group."""
    text = _normal(template)
    out, at = [], 0
    for m in PLACEHOLDER.finditer(text):
        out += [re.escape(text[at : m.start()]), f"(?P<p_{m[1]}>{groups[m[1]]})"]
        at = m.end()
    out.append(re.escape(text[at:]))
    return re.compile("".join(out))


@dataclass(frozen=True, slots=True)
class Matching:
    """What a sentence is matched against: the builds, the reader's seat, and the seats' names."""

    builds: tuple[Build, ...]
    seat: int
    names: dict[str, set[int]]

    def owns(self, ref: Ref, build: Build) -> bool:
        """Whether ``ref`` names ``build``: its value, and the reader's own or another's (a name
        that is some seat's must be the owner's; any other name is not checked)."""
        if ref.value != build.value or (build.owner == self.seat) != ref.own:
            return False
        return ref.own or build.owner in self.names.get(ref.name, {build.owner})

    def fits(self, said: Said, code: MoveCode) -> bool:
        """Whether legal move ``code`` is the one ``said`` names."""
        if code_kind(code) != said.kind:
            return False
        card, value, table = code_card(code), code_value(code), code_table(code)
        if said.value and value != said.value:
            return False
        _, whole = split_targets(table, self.builds)
        if said.raised is not None:
            loose = said.cards & ~(1 << card)
            if not said.cards >> card & 1:
                return False
            return any(
                b.value != value and self.owns(said.raised, b) and table == b.cards | loose and not b.cards & loose
                for b in whole
            )
        if card != said.card or said.cards & ~table:
            return False
        rest = table & ~said.cards
        for chosen in itertools.permutations(whole, len(said.builds)):
            if _union(chosen) == rest and all(self.owns(r, b) for r, b in zip(said.builds, chosen, strict=True)):
                return True
        return False


def _union(builds: Iterable[Build]) -> CardMask:
    mask = 0
    for b in builds:
        mask |= b.cards
    return mask


def legal_codes(position: Position) -> list[MoveCode]:
    """The legal moves of the seat to move (a view's own, when it is to move)."""
    return list(position.legal) if isinstance(position, View) else position.legal_codes()


def _hand(position: Position) -> CardMask:
    return position.hand if isinstance(position, View) else position.hands[position.to_move]


def _listing(codes: list[MoveCode], position: Position, words: Wording) -> str:
    """Moves as sentences for an error, ``; `` between them, at most ``SHOWN_MOVES``; two that
    read alike carry their canonical lines."""
    shown = [words.sentence(c, position.builds) for c in codes]
    if len(set(shown)) < len(shown):
        shown = [f"{s} ({format_code(c)})" for s, c in zip(shown, codes, strict=True)]
    more = len(shown) - SHOWN_MOVES
    return "; ".join(shown[:SHOWN_MOVES]) + (f"; … and {more} more" if more > 0 else "")


def _card_detail(card: Card, position: Position, legal: list[MoveCode], words: Wording) -> str:
    """What a card can do here, for a refusal: it is not in the hand, its reason for having no
    move, or its moves."""
    shown = words.card(card)
    if not _hand(position) >> card & 1:
        return f"{shown} is not in your hand"
    mine = sorted((c for c in legal if code_card(c) == card), key=format_code)
    if mine:
        return f"{shown} can: {_listing(mine, position, words)}"
    view = position if isinstance(position, View) else view_of(position, position.to_move)
    return f"{shown} has no legal move: {_why_not_text(view, card)}"


def _why_not_text(view: View, card: Card) -> str:
    """Why a card of the hand has no legal move: the page's reason (``explain.why_not``)."""
    reason = why_not(view).cards.get(card)
    return "it is not your turn" if reason is None else reason.text


NOT_A_MOVE: Final = (
    "write it as the game does (e.g. 'take 5h 3c with 8s', 'build eight: 3c on 5h', 'trail 2h'), "
    "a card or a rank alone when it has one move ('5c', 'K'), or a line of notation "
    "('trail CARD', 'capture CARD VALUE: CARDS' or 'build CARD VALUE: CARDS')"
)


def read_move(
    text: str,
    position: Position,
    *,
    lang: str | None = None,
    seat: int | None = None,
    names: Names | None = None,
    ascii: bool = False,
) -> MoveCode:
    """The legal move a person typed (``Move.parse_words``): a canonical line (an illegal one is
    refused by its rule, IllegalMoveError, as ``State.verify`` does), a sentence of ``lang``
    (any language of the catalogues when None), or a card or a rank alone when it has exactly one
    legal move. MoveError says what was wrong: not a move, no such legal move (and what the card
    can do), or several moves meant (listed as sentences). ``seat`` and ``names`` are as for
    ``describe`` (the reader's builds, other seats' names); ``ascii`` words the listed moves with
    suit letters."""
    check_move_text(text)
    typed = from_symbols(text)
    try:
        code = parse_code(typed)
    except MoveError as exc:
        canonical = exc if MOVE_LINE.match(typed) else None
    else:
        checked = position if isinstance(position, State) else public_position(position)
        checked.verify(code)
        return code
    if lang is not None:
        _messages(lang)
    languages = move_languages() if lang is None else (lang,)
    words = wording(position, lang or "en", seat, names, ascii)
    normal = _normal(text)
    legal = legal_codes(position)
    short = _short_form(normal, languages) if " " not in normal else None
    if short is not None:
        return _one(text, position, legal, short, words)
    table = Matching(position.builds, words.seat, _seat_names(position, words.names))
    read = [(language, said) for language in languages if (said := reader(language).read(normal))]
    if not read:
        raise canonical or MoveError(f"{excerpt(text)} is not a move: {NOT_A_MOVE}")
    found = sorted((c for c in legal if any(table.fits(s, c) for _, said in read for s in said)), key=format_code)
    if len(found) == 1:
        return found[0]
    language, said = read[0]
    words = Wording(language, words.seat, words.names, words.ascii)
    if found:
        raise MoveError(f"{excerpt(text)} could be any of {len(found)} moves: {_listing(found, position, words)}")
    first = said[0]
    cards = [first.card] if first.raised is None else cards_of(first.cards & _hand(position))
    detail = _card_detail(cards[0], position, legal, words) if len(cards) == 1 else "no legal move fits it"
    raise MoveError(f"{excerpt(text)} is not a legal move here: {detail}")


def _seat_names(position: Position, names: Names) -> dict[str, set[int]]:
    """The seats by their normalised names (a name two seats share names either)."""
    out: dict[str, set[int]] = {}
    for seat in range(position.rules.players):
        out.setdefault(_normal(names(seat)), set()).add(seat)
    return out


def _short_form(token: str, languages: Iterable[str]) -> tuple[bool, set[int]] | None:
    """A card alone (True and its card) or a rank alone (False and its ranks, in each language
    that reads it), or None."""
    cards = {c for lang in languages if (c := reader(lang).card(token)) is not None}
    if cards:
        return True, cards
    ranks = {r for lang in languages if (r := reader(lang).ranks.get(token)) is not None}
    return (False, ranks) if ranks else None


def _one(
    text: str, position: Position, legal: list[MoveCode], short: tuple[bool, set[int]], words: Wording
) -> MoveCode:
    """The only legal move of a card or rank alone, or MoveError listing them, or saying why the
    card has none (it is not in the hand, or the rule that stops it)."""
    is_card, which = short
    found = sorted((c for c in legal if (code_card(c) if is_card else rank(code_card(c))) in which), key=format_code)
    if len(found) == 1:
        return found[0]
    if found:
        raise MoveError(f"{excerpt(text)} could be any of {len(found)} moves: {_listing(found, position, words)}")
    if is_card:
        details = [_card_detail(c, position, legal, words) for c in sorted(which)]
    else:
        held = [c for c in cards_of(_hand(position)) if rank(c) in which]
        details = [_card_detail(c, position, legal, words) for c in held]
        if not held:
            details = [f"no {' or '.join(rank_text(r, words.language) for r in sorted(which))} is in your hand"]
    raise MoveError("; ".join(details))


__all__ = [
    "DOMAIN",
    "LOCALES",
    "SUIT_SYMBOLS",
    "Wording",
    "card_text",
    "default_name",
    "describe",
    "from_symbols",
    "move_languages",
    "move_messages",
    "po_file",
    "rank_text",
    "read_move",
    "read_po",
    "split_targets",
    "value_word",
]
