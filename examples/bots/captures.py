#!/usr/bin/env python3
"""A bot for cassino's bot protocol (docs/bots.md) in plain Python, standard library only.

It takes the capture worth most (every card counts, the cards that score more: aces, the casinos,
spades), and when it has none it trails its least valuable card; it builds only when it must. It
reads the engine's lines one at a time and answers each ``go`` with ``move`` and its choice.
"""

from __future__ import annotations

import sys


def worth(card: str) -> int:
    """What a card brings to the count, roughly: one for the card, more for what scores."""
    value = 1
    if card[0] == "A":
        value += 3
    if card == "Td":
        value += 4  # Big Casino
    if card == "2s":
        value += 3  # Little Casino
    if card[1] == "s":
        value += 1  # spades
    return value


def cards_of(move: str) -> tuple[str, list[str]]:
    """The card played and the table cards of a move line: 'capture 8c 8: 3h 5d' -> ('8c', ['3h', '5d'])."""
    head, _, table = move.partition(":")
    return head.split()[1], table.split()


def choose(legal: list[str]) -> str:
    """The capture worth most, else the trail of the least valuable card, else the first move."""
    captures = [m for m in legal if m.startswith("capture ")]
    if captures:
        return max(captures, key=lambda m: sum(worth(c) for c in [cards_of(m)[0], *cards_of(m)[1]]))
    trails = [m for m in legal if m.startswith("trail ")]
    if trails:
        return min(trails, key=lambda m: worth(cards_of(m)[0]))
    return legal[0]


def main() -> None:
    """Answer the greeting, gather each decision's legal moves, answer its go."""
    legal: list[str] = []
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        if word == "cassino":
            print("id name captures.py")
            print("ready", flush=True)
        elif word == "legal":
            legal.append(rest)
        elif word == "go":
            print("move", choose(legal), flush=True)
            legal = []
        elif word == "quit":
            return


if __name__ == "__main__":
    main()
