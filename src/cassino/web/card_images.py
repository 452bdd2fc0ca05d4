"""Card images as SVG, drawn from the card alone: corner indices, pips in the classic layouts,
framed court cards, and a back. Served at ``/cards/NAME.svg`` so the page needs no image files."""

from __future__ import annotations

from functools import lru_cache

from .. import cards
from ..cards import ACE, DIAMONDS, HEARTS, RANKS, Card

_SUIT_PATHS = (
    # clubs: three leaves and a stem (drawn as circles plus a path)
    '<circle cx="5" cy="2.7" r="2.4"/><circle cx="2.5" cy="6.1" r="2.4"/><circle cx="7.5" cy="6.1" r="2.4"/>'
    '<path d="M4.5 5.5 L3.4 10 H6.6 L5.5 5.5Z"/>',
    '<path d="M5 0 L9 5 L5 10 L1 5Z"/>',
    '<path d="M5 9.6 C3.8 8.2 0 5.6 0 3 C0 1.2 1.3 0 2.8 0 C3.8 0 4.6 0.6 5 1.5 C5.4 0.6 6.2 0 7.2 0 '
    'C8.7 0 10 1.2 10 3 C10 5.6 6.2 8.2 5 9.6Z"/>',
    '<path d="M5 0 C3.6 1.8 0 4 0 6.3 C0 7.8 1.2 8.8 2.5 8.8 C3.4 8.8 4.1 8.4 4.5 7.8 L3.8 10 H6.2 '
    'L5.5 7.8 C5.9 8.4 6.6 8.8 7.5 8.8 C8.8 8.8 10 7.8 10 6.3 C10 4 6.4 1.8 5 0Z"/>',
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
_RED, _BLACK = "#c0262d", "#1b1b1b"

_L, _C, _R = 30.0, 50.0, 70.0
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(_C, 30), (_C, 110)],
    3: [(_C, 30), (_C, 70), (_C, 110)],
    4: [(_L, 30), (_R, 30), (_L, 110), (_R, 110)],
}
_PIPS[5] = [*_PIPS[4], (_C, 70)]
_PIPS[6] = [*_PIPS[4], (_L, 70), (_R, 70)]
_PIPS[7] = [*_PIPS[6], (_C, 50)]
_PIPS[8] = [*_PIPS[6], (_C, 50), (_C, 90)]
_NINE_SIDES = [(x, y) for x in (_L, _R) for y in (30, 56.7, 83.3, 110)]
_PIPS[9] = [*_NINE_SIDES, (_C, 70)]
_PIPS[10] = [*_NINE_SIDES, (_C, 43.3), (_C, 96.7)]


def _suit(suit: int, cx: float, cy: float, size: float, flip: bool = False) -> str:
    scale = size / 10
    turn = f" rotate(180 {cx} {cy})" if flip else ""
    return (
        f'<g transform="{turn.strip()} translate({cx - size / 2:.2f} {cy - size / 2:.2f}) scale({scale:.3f})">'
        f"{_SUIT_PATHS[suit]}</g>"
    )


@lru_cache(maxsize=64)
def card_svg(card: Card) -> str:
    """The face of a card, 100 by 140 units."""
    rank, suit = cards.rank(card), cards.suit(card)
    color = _RED if suit in (DIAMONDS, HEARTS) else _BLACK
    label = "10" if RANKS[rank] == "T" else RANKS[rank]
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">',
        f"<title>{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}</title>",
        '<rect x="1" y="1" width="98" height="138" rx="7" fill="#fffdf7" stroke="#555" stroke-width="1.5"/>',
        f'<g fill="{color}" font-family="Georgia, serif" font-weight="bold">',
        f'<text x="9" y="19" font-size="16" text-anchor="middle">{label}</text>',
        _suit(suit, 9, 28, 9),
        f'<g transform="rotate(180 50 70)"><text x="9" y="19" font-size="16" text-anchor="middle">{label}</text>',
        _suit(suit, 9, 28, 9),
        "</g>",
    ]
    pips = rank + 1  # ace 1 .. ten 10
    if rank == ACE:
        parts.append(_suit(suit, 50, 70, 34))
    elif pips in _PIPS:
        parts.extend(_suit(suit, x, y, 16, flip=y > 70) for x, y in _PIPS[pips])
    else:
        parts.append('<rect x="20" y="20" width="60" height="100" rx="4" fill="none" stroke="currentColor"/>')
        parts.append(f'<rect x="21" y="21" width="58" height="98" rx="3" fill="{color}" fill-opacity="0.08"/>')
        parts.append(f'<text x="50" y="70" font-size="40" text-anchor="middle">{RANKS[rank]}</text>')
        parts.append(_suit(suit, 50, 92, 20))
        parts.append(_suit(suit, 50, 38, 12))
    parts.append("</g></svg>")
    return "".join(parts)


def back_svg() -> str:
    """The back of a card: a lattice, the same for every card."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">'
        "<title>card back</title>"
        '<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="10" height="10" fill="#1f4e8c"/><path d="M0 0 H10 M0 0 V10" stroke="#9db8e0" stroke-width="1.2"/>'
        "</pattern></defs>"
        '<rect x="1" y="1" width="98" height="138" rx="7" fill="#fffdf7" stroke="#555" stroke-width="1.5"/>'
        '<rect x="7" y="7" width="86" height="126" rx="4" fill="url(#p)"/></svg>'
    )
