"""The engine's errors: each is a ValueError whose message says what was wrong and why."""

from __future__ import annotations


class IllegalMoveError(ValueError):
    """A move that the rules forbid in this position; the message names the move and the rule."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason


class PositionError(ValueError):
    """A position (JSON) that is malformed or not a consistent Casino position."""
