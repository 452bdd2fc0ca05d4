"""Card images: each card cut out of a vendored, freely licensed sheet of card art (SVG-cards 4.0.2,
LGPL-2.1, in ``static/vendor/svg-cards`` with its licence), with the French court artwork.

The sheet holds all 52 faces and a back as groups that share their drawing parts (the card's outline,
the suit signs, the indices, the court figures). A card's image is its group alone with exactly the
parts it uses, so a page (or an ``<img>``, which loads nothing from outside its own file) shows it
at ``/cards/NAME.svg`` without the whole sheet."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

from .. import cards
from ..cards import RANKS, Card

SHEET = Path(__file__).parent / "static" / "vendor" / "svg-cards" / "svg-cards.svg"
WIDTH, HEIGHT = 169.075, 244.640  # a card of the sheet, in its units
SUIT_NAMES = ("club", "diamond", "heart", "spade")  # the sheet's names, in the engine's suit order
_RANK_IDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
BACK_COLOUR = "#1f4e8c"  # the sheet's back is drawn in its fill colour

_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"
_HREF = f"{{{_XLINK}}}href"
_URL = re.compile(r"url\(#([^)]+)\)")
ET.register_namespace("", _SVG)
ET.register_namespace("xlink", _XLINK)


def sheet_id(card: Card) -> str:
    """The sheet's id of a card: ``heart_king``, ``spade_1``."""
    return f"{SUIT_NAMES[cards.suit(card)]}_{_RANK_IDS[cards.rank(card)]}"


@lru_cache(maxsize=1)
def _parts() -> dict[str, ET.Element]:
    """Every element of the sheet with an id (read once)."""
    root = ET.parse(SHEET).getroot()
    return {node.attrib["id"]: node for node in root.iter() if "id" in node.attrib}


def _references(node: ET.Element) -> set[str]:
    found: set[str] = set()
    for part in node.iter():
        href = part.get(_HREF) or part.get("href")
        if href and href.startswith("#"):
            found.add(href[1:])
        for value in part.attrib.values():
            found.update(_URL.findall(value))
    return found


def _cut(group_id: str, title: str, fill: str | None = None) -> str:
    """One group of the sheet as an SVG of its own, with every part it refers to (transitively)."""
    parts = _parts()
    group = parts[group_id]
    needed: list[str] = []
    todo = sorted(_references(group))
    while todo:
        ref = todo.pop()
        if ref not in needed:
            needed.append(ref)
            todo.extend(sorted(_references(parts[ref])))
    defs = "".join(ET.tostring(parts[ref], encoding="unicode") for ref in sorted(needed))
    body = ET.tostring(group, encoding="unicode")
    paint = f' fill="{fill}"' if fill else ""
    return (
        f'<svg xmlns="{_SVG}" xmlns:xlink="{_XLINK}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}"><title>{title}</title><defs>{defs}</defs><g{paint}>{body}</g></svg>'
    )


@lru_cache(maxsize=64)
def card_svg(card: Card) -> str:
    """The face of a card, titled with its name (``Qh``)."""
    name = RANKS[cards.rank(card)] + "cdhs"[cards.suit(card)]
    return _cut(sheet_id(card), name)


@lru_cache(maxsize=1)
def back_svg() -> str:
    """The back of a card, the same for every card."""
    return _cut("back", "card back", BACK_COLOUR)
