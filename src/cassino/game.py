"""A whole game: hands dealt from a seeded shuffle until a side wins, with checked play and undo."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from .cards import Card, shuffled_deck
from .errors import DeckError, GameOverError, IllegalMoveError, SeatError, UndoError
from .moves import Move, MoveCode
from .rules import Rules
from .scoring import HandScore
from .state import MoveLike, State


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A game ended by a seat that could not go on (a program that hung, crashed or answered no
    legal move): its side lost, ``winner`` won, and ``reason`` says why in one line."""

    seat: int
    winner: int
    reason: str


def forfeit_winner(rules: Rules, scores: Sequence[int], seat: int) -> int:
    """The side that wins when ``seat`` forfeits: the other side of two; of three or four, the other
    side with the most points, a tie going to the side that plays first after ``seat``."""
    loser = rules.side_of(seat)
    order = [rules.side_of((seat + k) % rules.players) for k in range(1, rules.players)]
    others = [side for side in dict.fromkeys(order) if side != loser]
    return max(others, key=lambda side: (scores[side], -others.index(side)))


DeckSource: TypeAlias = Callable[[], Sequence[Card]]
"""Where a game's decks come from once the given ones are dealt: called once per new hand."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended (``Game.outcome()``, as python-chess's ``board.outcome()``): one
    value to keep or compare once the game is over, where ``winner`` and ``scores`` go on changing
    with the game, and ``winner`` is -1 until then."""

    winner: int
    """The winning side (a seat, or a team of seats ``s`` with ``rules.side_of(s)`` under partnerships)."""
    scores: tuple[int, ...]
    """The final game points of each side."""
    hands: int
    """How many hands were played."""
    forfeit: Forfeit | None = None
    """Set when the game ended because a seat could not go on (``Game.forfeit``)."""


class Game:
    """A game of Casino from a seed: ``game.play(move)`` until ``game.over``.

    Each finished hand stays in ``hands`` (its final ``State`` holds the deck, the moves through
    its undo history, and the score), so a game can be recorded, replayed and undone across hands.

    >>> game = Game(seed=1)
    >>> move = game.legal_moves()[0]
    >>> game.play(str(move))  # a Move, its move line or its int code
    >>> game.state.moves_played, game.undo() == move.code
    (1, True)

    Decks come from ``decks`` first (a record's, a saved game's), then from ``deck_source``, called
    once per hand that needs one: the seeded shuffle by default, or any other dealer (a web
    server's secure shuffle) without overriding anything.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        dealer: int = 0,
        decks: Sequence[Sequence[Card]] | None = None,
        deck_source: DeckSource | None = None,
    ) -> None:
        self.rules = rules or Rules()
        self.seed = seed
        self._rng = random.Random(seed)
        self._deck_source = deck_source
        # Decks to deal before asking the source, next on top: given decks, and decks of hands
        # taken back by ``undo`` (so replaying the same moves deals the same cards again).
        self._upcoming: list[list[Card]] = [list(d) for d in reversed(decks or [])]
        self.decks: list[list[Card]] = []
        self.hands: list[State] = []
        self.forfeited: Forfeit | None = None
        """Set when a seat forfeited (``forfeit``): the game is over though no side reached the target."""
        deck = self._next_deck()
        self._keep(deck, State.new_hand(self.rules, deck, dealer, (0,) * self.rules.sides))

    def _next_deck(self) -> list[Card]:
        """The next deck to deal: a given or taken-back one, else the source's, else a shuffle.
        Whatever the source gives that is not a sequence of cards is a DeckError."""
        if self._upcoming:
            return self._upcoming.pop()
        if self._deck_source is not None:
            deck = self._deck_source()
            try:
                return list(deck)
            except TypeError:
                raise DeckError(f"a deck is a sequence of 52 cards, not {type(deck).__name__}") from None
        return shuffled_deck(self._rng)

    def _keep(self, deck: list[Card], state: State) -> State:
        """Make ``state``, dealt from ``deck``, the hand in play (a deck is kept only once dealt)."""
        self.decks.append(deck)
        self.hands.append(state)
        return state

    @property
    def state(self) -> State:
        """The hand in play (the last finished one once the game is over)."""
        return self.hands[-1]

    @property
    def over(self) -> bool:
        """True once a side has won (or a seat forfeited)."""
        return self.forfeited is not None or self.state.winner >= 0

    @property
    def winner(self) -> int:
        """The winning side, or -1 while the game goes on (``outcome()`` is None until then)."""
        return self.forfeited.winner if self.forfeited is not None else self.state.winner

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on.

        >>> game = Game(seed=1)
        >>> game.outcome() is None
        True
        >>> while not game.over:
        ...     game.play(game.legal_moves()[0])
        >>> game.outcome()
        Outcome(winner=0, scores=(27, 10), hands=3, forfeit=None)
        """
        if not self.over:
            return None
        return Outcome(self.winner, self.scores, len(self.hands), self.forfeited)

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

    def play(self, move: MoveLike) -> None:
        """Check and apply a move (a ``Move``, an int code or a move line); when it ends a hand and
        nobody has won, deal the next hand.

        An illegal move raises IllegalMoveError (an unreadable line MoveError, another type
        TypeError) and changes nothing.
        """
        if self.forfeited is not None:
            raise IllegalMoveError(str(move), f"the game is over: seat {self.forfeited.seat} forfeited it")
        self.state.play(move)
        self._advance()

    def push(self, code: MoveCode) -> None:
        """Apply a move code known to be legal (no check: see ``State.push``), dealing the next
        hand when one ends."""
        self.state.push(code)
        self._advance()

    def next_hand(self) -> State:
        """Deal the next hand once the one in play is over and nobody has won (``play`` and
        ``push`` do it themselves; this is for drivers that push on ``state`` directly). Checked
        before a deck is drawn, so a refused call leaves the decks to come as they were."""
        state = self.state
        state.verify_next_hand()
        deck = self._next_deck()
        return self._keep(deck, state.next_hand(deck))

    def _advance(self) -> None:
        if self.state.can_next_hand():
            self.next_hand()

    def undo(self) -> MoveCode:
        """Take back the last move, across the start of a hand if need be (UndoError before the
        first move of the game)."""
        if self.forfeited is not None:
            raise UndoError(f"seat {self.forfeited.seat} forfeited the game: its moves can no longer be taken back")
        state = self.state
        if state.moves_played == 0:
            if len(self.hands) == 1:
                raise UndoError("no move to take back: the game has had none")
            self.hands.pop()
            self._upcoming.append(self.decks.pop())
            state = self.state
        return state.pop()

    def winner_on_forfeit(self, seat: int) -> int:
        """The side that would win were ``seat`` to forfeit now (``forfeit_winner``): what a front
        end stores before it ends the game. SeatError for a seat the game has not."""
        if not 0 <= seat < self.rules.players:
            raise SeatError(f"seat {seat} is out of range: the seats are 0..{self.rules.players - 1}")
        return forfeit_winner(self.rules, self.scores, seat)

    def forfeit(self, seat: int, reason: str) -> Forfeit:
        """End the game now because ``seat`` cannot go on (its program hung, crashed or answered no
        legal move): its side loses (``forfeit_winner`` says who wins). The moves stay as played."""
        if self.over:
            raise GameOverError("the game is already over: nobody can forfeit it")
        self.forfeited = Forfeit(seat, self.winner_on_forfeit(seat), reason)
        return self.forfeited

    def moves(self) -> list[list[MoveCode]]:
        """The moves of every hand so far, in order."""
        return [list(h.move_stack) for h in self.hands]


def last_move_index(state: State, seat: int) -> int | None:
    """Where ``seat``'s last move of the hand in play stands in its history, or None before it moved."""
    movers = state.movers()
    if seat not in movers:
        return None
    return len(movers) - 1 - movers[::-1].index(seat)


def undo_refusal(
    state: State, seat: int, humans: Sequence[int], deal_start: int, *, over: bool = False, counted: int = 0
) -> str | None:
    """Why ``seat`` may not take back its last move of the hand in play, or None when it may: the
    one undo rule of every app. Nothing is taken back once the game is ``over`` or while hand
    ``counted`` (from 1) is being counted; a move is taken back only against computer players
    (another person has seen it), and not once new cards have come from the stock since it (they
    were seen). ``deal_start`` is how many moves of the hand came before the deal in play."""
    if over:
        return "the game is over: no move can be taken back"
    if counted:
        return f"hand {counted} is over: its moves cannot be taken back"
    others = [s for s in humans if s != seat]
    if others:
        return f"moves are taken back only against computer players: seat {others[0]} is another person's"
    last = last_move_index(state, seat)
    if last is None:
        return "you have made no move in this hand to take back"
    if last < deal_start:
        return "new cards have come from the stock since your last move (they were seen), so it can no longer be taken back"
    return None
