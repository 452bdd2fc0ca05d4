"""A whole game: hands dealt from a seeded shuffle until a side wins, with checked play and undo."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card
from .moves import Move, MoveCode
from .rules import Rules
from .scoring import HandScore
from .state import State


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A freshly shuffled 52-card deck, top card first."""
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


class Game:
    """A game of Casino from a seed: ``game.play(move)`` until ``game.over``.

    Each finished hand stays in ``hands`` (its final ``State`` holds the deck, the moves through
    its undo history, and the score), so a game can be recorded, replayed and undone across hands.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        dealer: int = 0,
        decks: Sequence[Sequence[Card]] | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.seed = seed
        self._rng = random.Random(seed)
        # Decks to deal before shuffling new ones, next on top: given decks, and decks of hands
        # taken back by ``undo`` (so replaying the same moves deals the same cards again).
        self._upcoming: list[list[Card]] = [list(d) for d in reversed(decks or [])]
        self.decks: list[list[Card]] = []
        self.hands: list[State] = []
        self._start_hand(dealer, (0,) * self.rules.sides)

    def _next_deck(self) -> list[Card]:
        return self._upcoming.pop() if self._upcoming else shuffled_deck(self._rng)

    def _start_hand(self, dealer: int, scores: Sequence[int]) -> None:
        deck = self._next_deck()
        self.decks.append(deck)
        self.hands.append(State.new_hand(self.rules, deck, dealer, scores))

    @property
    def state(self) -> State:
        """The hand in play (the last finished one once the game is over)."""
        return self.hands[-1]

    @property
    def over(self) -> bool:
        """True once a side has won."""
        return self.state.winner >= 0

    @property
    def winner(self) -> int:
        """The winning side, or -1 while the game goes on."""
        return self.state.winner

    @property
    def scores(self) -> tuple[int, ...]:
        """Game points per side so far."""
        return self.state.scores

    @property
    def hand_results(self) -> list[HandScore]:
        """The score of every finished hand, in order."""
        return [h.result for h in self.hands if h.result is not None]

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move, sorted by their canonical lines."""
        return self.state.legal_moves()

    def play(self, move: Move | MoveCode) -> None:
        """Check and apply a move; when it ends a hand and nobody has won, deal the next hand.

        An illegal move raises IllegalMoveError and changes nothing.
        """
        state = self.state
        state.play(move)
        self._advance()

    def push(self, code: MoveCode) -> None:
        """Apply a move code known to be legal (no check), dealing the next hand when one ends."""
        self.state.push(code)
        self._advance()

    def _advance(self) -> None:
        state = self.state
        if state.hand_over and state.winner < 0:
            self._start_hand((state.dealer + 1) % self.rules.players, state.scores)

    def undo(self) -> MoveCode:
        """Take back the last move, across the start of a hand if need be."""
        state = self.state
        if state.moves_played == 0:
            if len(self.hands) == 1:
                raise IndexError("no move to undo")
            self.hands.pop()
            self._upcoming.append(self.decks.pop())
            state = self.state
        return state.pop()

    def moves(self) -> list[list[MoveCode]]:
        """The moves of every hand so far, in order."""
        return [h.history() for h in self.hands]
