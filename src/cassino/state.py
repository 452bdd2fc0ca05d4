"""The position of one hand: cards everywhere, whose turn, and play with push/pop.

``State`` is mutable like a chess board: ``push`` applies a move (and whatever follows it: the draw,
the next deal, the end of the hand and its scoring), ``pop`` undoes it exactly. Every field that
changes is an immutable int or tuple, so the undo record is just the old field values.
"""

from __future__ import annotations

import operator
import os
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, NamedTuple, TypeAlias

from . import movegen
from .cards import Card, CardMask, format_cards, is_full_deck, shuffled_deck
from .checks import RuleFlags, build_is_single, flags_of
from .errors import ArgumentError, DeckError, IllegalMoveError, MoveTypeError, NextHandError, SeatError, UndoError
from .moves import BUILD, CAPTURE, TRAIL, Move, MoveCode, check_fields, format_code, parse_code
from .rules import Rules
from .scoring import HandScore, decide_winner, score_hand


class Build(NamedTuple):
    """A build on the table. Still a tuple, so it compares, hashes, sorts and unpacks like one;
    outside the hot loops its fields read by name."""

    cards: CardMask
    """Every card of the build."""
    value: int
    """The declared value: the rank that takes it."""
    owner: int
    """The seat that made or last raised it."""


def new_build(cards: CardMask, value: int, owner: int) -> Build:
    """A ``Build`` made by the tuple constructor itself: a compiled caller would otherwise go
    through the named tuple's ``__new__``, a Python function."""
    return tuple.__new__(Build, (cards, value, owner))


def _any_card(hands: tuple[CardMask, ...]) -> bool:
    """Whether some hand holds a card (``any``, as a loop a compiled caller runs without a call)."""
    for hand in hands:  # noqa: SIM110 (any() with a generator is a call and an object)
        if hand:
            return True
    return False


BuildTuple: TypeAlias = tuple[CardMask, int, int]
"""Anything shaped like a build, (cards, value, owner): what ``State`` accepts and makes ``Build``s of."""


def build_text(build: Build, by: str = "@") -> str:
    """A build as plain text for logs and renders, ``[2c 3d]=5@1``; ``by`` goes before the owner."""
    cards, value, owner = build
    return f"[{format_cards(cards)}]={value}{by}{owner}"


Undo: TypeAlias = tuple[
    tuple[CardMask, ...],
    CardMask,
    tuple[Build, ...],
    tuple[CardMask, ...],
    int,
    tuple[int, ...],
    int,
    tuple[int, ...],
    int,
    int,
    "HandScore | None",
]
"""What ``pop`` restores, the fields ``push`` may change as they were before the move: hands, loose,
builds, captured, stock_pos, sweeps, last_capturer, scores, winner, to_move (the seat that moved),
result. A plain tuple, not a NamedTuple: building one made push/pop 5% slower (perft, alternating runs)."""

UNDO_FIELDS: Final = (
    "hands",
    "loose",
    "builds",
    "captured",
    "stock_pos",
    "sweeps",
    "last_capturer",
    "scores",
    "winner",
    "to_move",
    "result",
)
"""The fields of an ``Undo`` in order (``push`` makes it, ``pop`` unpacks it in this order)."""

CHECK_PUSH: Final = os.environ.get("CASSINO_CHECK_PUSH") == "1"
"""Whether every ``State.push`` checks its move (``CASSINO_CHECK_PUSH=1``): a debug mode, read once."""

_MOVER: Final = 9  # UNDO_FIELDS[9] is "to_move" (a literal, so the type checker knows its type)
"""Where an ``Undo`` holds ``to_move``: the seat that made the move."""


StateFields: TypeAlias = "tuple[Rules, int, int, tuple[CardMask, ...], CardMask, tuple[Build, ...], tuple[Card, ...], int, tuple[CardMask, ...], tuple[int, ...], int, tuple[int, ...], int, HandScore | None]"
"""A position's fields, in the order ``_assembled`` takes them (``State.copy``, pickling)."""

MoveLike: TypeAlias = "Move | MoveCode | str"
"""What ``play``, ``verify`` and ``is_legal`` accept: a ``Move``, its int code or a move line.
They are declared to take any ``object`` and refuse the rest with a ``MoveTypeError`` (a
``MoveError`` and a ``TypeError``) naming its type: a compiled engine checks declared types
itself, with a message of its own."""


def move_code(move: object) -> MoveCode:
    """The int code of a move given as a ``Move``, an int (numpy's too) or a canonical move line
    (read leniently, MoveError when unreadable); anything else is a MoveTypeError naming its type,
    rather than a failure deep in the bit arithmetic."""
    if type(move) is int:
        return move
    if isinstance(move, Move):
        return move.code
    if isinstance(move, str):
        return parse_code(move)
    if not isinstance(move, bool):
        try:
            return operator.index(move)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise MoveTypeError(f"a move is a Move, an int code or a move line (str), not {type(move).__name__}")


def eldest_seat(players: int, dealer: int) -> int:
    """The eldest, the seat after the dealer: dealt to first, first to play in every deal, and the
    next hand's dealer (docs/rules.md section 2)."""
    return (dealer + 1) % players


def deal_order(players: int, dealer: int, first: bool) -> list[int]:
    """Who receives each two-card packet of one round: seats from the eldest to the dealer, with
    the table (-1) just before the dealer on the first deal of a hand (docs/rules.md section 3)."""
    seats = [(dealer + i) % players for i in range(1, players)]
    if first:
        seats.append(-1)
    seats.append(dealer)
    return seats


class State:
    """One hand of Casino in progress (or finished), with undo.

    The constructor takes its fields as they are, unchecked: it is the engine's own way in, on the
    path of every search. A position from outside is read, and checked, by
    ``notation.position_from_json``; a new hand is dealt by ``new_hand``."""

    __slots__ = (
        "_stack",
        "ace_high",
        "backtracked",
        "builds",
        "captured",
        "dealer",
        "flags",
        "hands",
        "last_capturer",
        "loose",
        "move_stack",
        "players",
        "result",
        "rules",
        "scores",
        "stock",
        "stock_pos",
        "sweeps",
        "to_move",
        "values",
        "winner",
    )

    def __init__(
        self,
        rules: Rules,
        *,
        dealer: int,
        to_move: int,
        hands: Sequence[CardMask],
        loose: CardMask,
        builds: Iterable[BuildTuple],
        stock: Sequence[Card],
        captured: Sequence[CardMask],
        sweeps: Sequence[int] = (),
        last_capturer: int = -1,
        scores: Sequence[int] | None = None,
        winner: int = -1,
        result: HandScore | None = None,
    ) -> None:
        self.rules = rules
        self.flags: RuleFlags = flags_of(rules)
        self.values = rules.values
        self.ace_high = rules.royal and rules.royal_ace_high
        self.players = rules.players
        self.dealer = dealer
        self.to_move = to_move
        self.hands: tuple[CardMask, ...] = tuple(hands)
        self.loose = loose
        self.builds: tuple[Build, ...] = sorted_builds(Build._make(b) for b in builds)
        self.stock: tuple[Card, ...] = tuple(stock)
        self.stock_pos = 0
        self.captured: tuple[CardMask, ...] = tuple(captured)
        self.sweeps: tuple[int, ...] = tuple(sweeps)
        self.last_capturer = last_capturer
        self.scores: tuple[int, ...] = tuple(scores) if scores is not None else (0,) * rules.sides
        self.winner = winner
        self.result = result
        self.move_stack: list[MoveCode] = []
        """The codes of the moves pushed on this object and not popped, oldest first."""
        self._stack: list[Undo] = []
        self.backtracked = False
        """Whether a move was ever taken back on this object: a search's sign, whose positions
        share their tables, so the generator keeps each table's answers only then (``table_sets``);
        a game played forward meets a new table at almost every move."""

    # ----------------------------------------------------------------- construction
    @classmethod
    def new_hand(
        cls, rules: Rules, deck: Sequence[Card], dealer: int = 0, scores: Sequence[int] | None = None
    ) -> State:
        """The position after the first deal of a hand from a shuffled deck (top card first);
        ``scores``, the game points of each side so far (none: 0 each).

        A deck that is not the 52 cards once each is a DeckError, a dealer the game has not a
        SeatError, scores not one per side an ArgumentError: each would fail later, mid-hand."""
        if not is_full_deck(deck):
            raise DeckError("a deck must hold each of the 52 cards (0..51) exactly once")
        n = rules.players
        if not 0 <= dealer < n:
            raise SeatError(f"dealer seat {dealer} is out of range: the seats are 0..{n - 1} for {n} players")
        if scores is not None and len(scores) != rules.sides:
            raise ArgumentError(f"scores must hold one number per side ({rules.sides}), got {len(scores)}")
        hands = [0] * n
        table = 0
        pos = 0
        for _ in range(2):
            for who in deal_order(n, dealer, True):
                packet = (1 << deck[pos]) | (1 << deck[pos + 1])
                pos += 2
                if who < 0:
                    table |= packet
                else:
                    hands[who] |= packet
        state = cls(
            rules,
            dealer=dealer,
            to_move=eldest_seat(n, dealer),
            hands=hands,
            loose=table,
            builds=(),
            stock=deck[pos:],
            captured=[0] * n,
            scores=scores,
        )
        return state

    @classmethod
    def new(cls, rules: Rules, seed: int | None, dealer: int = 0) -> State:
        """The first deal of a hand from the shuffle of ``seed``: the very deal ``Game(rules,
        seed=seed, dealer=dealer)`` starts with, so a start position is named by its seed alone
        (None: a fresh shuffle, as a ``Game`` without a seed)."""
        return cls.new_hand(rules, shuffled_deck(random.Random(seed)), dealer)

    def next_hand(self, deck: Sequence[Card]) -> State:
        """The first deal of the hand after this finished one, from ``deck``: the deal moves one
        seat clockwise and the scores carry over (the one home of that step, for ``Game``, the
        environments and anything else that plays on from hand to hand)."""
        self.verify_next_hand()
        return State.new_hand(self.rules, deck, self.next_dealer, self.scores)

    def can_next_hand(self) -> bool:
        """True when a next hand follows this one: it is over and nobody has won the game."""
        return self.hand_over and self.winner < 0

    def verify_next_hand(self) -> None:
        """Raise NextHandError saying why no next hand follows this one; do nothing if one does."""
        if not self.hand_over:
            raise NextHandError("the hand is not over: the next hand starts once every card is played")
        if self.winner >= 0:
            raise NextHandError(f"the game is over: side {self.winner} has won")

    def copy(self) -> State:
        """An independent copy of the position (without the undo history)."""
        return _assembled(*self._fields())

    def _fields(self) -> StateFields:
        """The position's fields, in ``_assembled``'s order."""
        return (
            self.rules,
            self.dealer,
            self.to_move,
            self.hands,
            self.loose,
            self.builds,
            self.stock,
            self.stock_pos,
            self.captured,
            self.sweeps,
            self.last_capturer,
            self.scores,
            self.winner,
            self.result,
        )

    def _clone(self) -> State:
        """A copy with its undo history (the records are tuples of immutable values, shared)."""
        other = self.copy()
        other.move_stack = list(self.move_stack)
        other._stack = list(self._stack)
        return other

    def __copy__(self) -> State:
        return self._clone()

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        """Every field is immutable (ints, tuples, the rules), so a copy with its own history is deep."""
        return self._clone()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as its fields and history, rebuilt by ``_unpickle_state``: a compiled ``State``
        has no ``__dict__`` to pickle."""
        return (_unpickle_state, (self._fields(), tuple(self.move_stack), tuple(self._stack)))

    def root(self) -> State:
        """A copy of the position before the first move pushed on this object (without history):
        the start of the hand for a ``new_hand`` state, however many moves were played since."""
        other = self.copy()
        if self._stack:
            # The oldest undo record holds the fields as they were before any push: pop restores them.
            other.move_stack = self.move_stack[:1]
            other._stack = self._stack[:1]
            other.pop()
            other.backtracked = False
        return other

    # ----------------------------------------------------------------- queries
    @property
    def remaining_stock(self) -> tuple[Card, ...]:
        """The undealt cards, next to be dealt first."""
        return self.stock[self.stock_pos :]

    @property
    def last_deal(self) -> bool:
        """True on the final deal of the hand: the stock is empty."""
        return self.stock_pos >= len(self.stock)

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand: the deal moves one seat clockwise (docs/rules.md section 2)."""
        return eldest_seat(self.players, self.dealer)

    @property
    def hand_over(self) -> bool:
        """True when every hand and the stock are empty: no move is left in this hand."""
        return not _any_card(self.hands) and self.last_deal

    @property
    def game_over(self) -> bool:
        """True when the game has a winner."""
        return self.winner >= 0

    @property
    def table_mask(self) -> CardMask:
        """Every card on the table, loose or in builds."""
        m = self.loose
        for cards, _value, _owner in self.builds:
            m |= cards
        return m

    @property
    def moves_played(self) -> int:
        """How many moves were pushed (and not popped) on this object."""
        return len(self.move_stack)

    @property
    def history(self) -> tuple[tuple[int, MoveCode], ...]:
        """The moves pushed on this object (and not popped) as (seat, code), oldest first: the
        hand's public history, the same as ``View.history``. The codes alone are ``move_stack``."""
        return tuple(zip(self.movers(), self.move_stack, strict=True))

    def movers(self) -> list[int]:
        """The seat that made each move of ``move_stack``, oldest first."""
        return [undo[_MOVER] for undo in self._stack]

    def deal_number(self) -> int:
        """Which deal of the hand is in play, from 1 (always 1 under ``draw``)."""
        if self.rules.draw:
            return 1
        per_deal = 4 * self.players
        return self.rules.deals_per_hand - len(self.remaining_stock) // per_deal

    def legal_codes(self) -> list[MoveCode]:
        """The legal moves as int codes (the fast path)."""
        return movegen.generate(self)

    def iter_legal_codes(self) -> Iterator[MoveCode]:
        """The legal moves one at a time, with bounded memory however many there are."""
        return movegen.iter_moves(self)

    def count_legal(self) -> int:
        """How many legal moves there are, counted without making them."""
        return movegen.count_moves(self)

    def legal_moves(self) -> list[Move]:
        """The legal moves, sorted by their canonical lines."""
        return [Move(c) for c in sorted(movegen.generate(self), key=format_code)]

    def is_legal(self, move: object) -> bool:
        """True when the move is legal here (a move line is read first: MoveError if unreadable).

        Only the moves of the played card are made, so one check stays cheap however many moves
        the table allows."""
        return movegen.is_legal(self, move_code(move))

    def verify(self, move: object) -> None:
        """Raise IllegalMoveError naming the move and the rule that forbids it; do nothing if legal
        (MoveError for a code whose fields name nothing, which has no line to give)."""
        code = move_code(move)
        if movegen.is_legal(self, code):
            return
        check_fields(code)
        from .explain import explain_illegal

        raise IllegalMoveError(format_code(code), explain_illegal(self, code))

    def play(self, move: object) -> None:
        """Check a move (a ``Move``, an int code or a move line) and apply it; an illegal move
        raises and changes nothing."""
        code = move_code(move)
        self.verify(code)
        self.push(code)

    # ----------------------------------------------------------------- play
    def push(self, code: MoveCode) -> None:
        """Apply a move code, then draw, deal or end the hand: unchecked, the fast path of search
        and perft, so an illegal code corrupts the position (a card appears in a hand, say). ``play``
        checks first; ``CASSINO_CHECK_PUSH=1`` in the environment makes every push check as ``play``
        does (IllegalMoveError, nothing changed), to find the bad push of code built on it.

        (A ``check`` argument would cost every call from Python 7%: an optional argument takes
        compiled code off its fastest way of reading arguments.)"""
        if CHECK_PUSH:
            self.verify(code)
        self.move_stack.append(code)
        self._stack.append(
            (
                self.hands,
                self.loose,
                self.builds,
                self.captured,
                self.stock_pos,
                self.sweeps,
                self.last_capturer,
                self.scores,
                self.winner,
                self.to_move,
                self.result,
            )
        )
        seat = self.to_move
        # The hot path: the code decoded by bit operations (not moves.code_kind etc.), builds by index.
        kind = code & 3
        card_bit = 1 << ((code >> 2) & 63)
        hands = list(self.hands)
        hands[seat] ^= card_bit
        if kind == TRAIL:
            self.loose |= card_bit
        else:
            taken = code >> 12
            self.loose &= ~taken
            builds = self.builds
            if builds and any(b[0] & taken for b in builds):
                builds = tuple(b for b in builds if not b[0] & taken)
            if kind == CAPTURE:
                captured = list(self.captured)
                captured[seat] |= taken | card_bit
                self.captured = tuple(captured)
                self.last_capturer = seat
                self.builds = builds
                if not self.loose and not builds:
                    self.sweeps = (*self.sweeps, seat)
            else:
                self.builds = _with_build(builds, new_build(taken | card_bit, (code >> 8) & 15, seat))
        stock = self.stock
        pos = self.stock_pos
        if self.flags.draw and pos < len(stock):
            hands[seat] |= 1 << stock[pos]
            self.stock_pos = pos + 1
        n = self.players
        after = tuple(hands)
        if _any_card(after):
            self.hands = after
            nxt = (seat + 1) % n
            while not hands[nxt]:
                nxt = (nxt + 1) % n
            self.to_move = nxt
        elif self.stock_pos < len(stock):
            self._deal_round(hands)
        else:
            self.hands = after
            self._end_hand()

    def pop(self) -> MoveCode:
        """Undo the last pushed move exactly and return its code (UndoError when none is left)."""
        if not self._stack:
            raise UndoError("no move to take back: none was pushed on this position")
        self.backtracked = True
        (
            self.hands,
            self.loose,
            self.builds,
            self.captured,
            self.stock_pos,
            self.sweeps,
            self.last_capturer,
            self.scores,
            self.winner,
            self.to_move,
            self.result,
        ) = self._stack.pop()
        return self.move_stack.pop()

    def _deal_round(self, hands: list[CardMask]) -> None:
        """A later deal: four cards each, two at a time, eldest first and dealer last."""
        stock = self.stock
        pos = self.stock_pos
        order = deal_order(self.players, self.dealer, False)
        for _ in range(2):
            for who in order:
                for _card in range(2):
                    if pos < len(stock):
                        hands[who] |= 1 << stock[pos]
                        pos += 1
        self.stock_pos = pos
        self.hands = tuple(hands)
        self.to_move = eldest_seat(self.players, self.dealer)

    def _end_hand(self) -> None:
        """The residue to the last capturer, the hand scored, the game decided if it is."""
        if self.last_capturer >= 0:
            residue = self.table_mask
            if residue:
                captured = list(self.captured)
                captured[self.last_capturer] |= residue
                self.captured = tuple(captured)
                self.loose = 0
                self.builds = ()
        result = score_hand(self.rules, self.captured, self.sweeps)
        self.result = result
        before = self.scores
        self.scores = tuple(s + p for s, p in zip(before, result.points, strict=True))
        self.winner = decide_winner(self.rules, before, result)
        self.to_move = eldest_seat(self.players, self.dealer)

    # ----------------------------------------------------------------- comparison
    def key(self) -> tuple[object, ...]:
        """Everything that defines the position (not the undo history): for equality, and as a
        hashable key (a ``State`` is mutable, so it has no hash of its own)."""
        return (
            self.rules,
            self.dealer,
            self.to_move,
            self.hands,
            self.loose,
            self.builds,
            self.remaining_stock,
            self.captured,
            self.sweeps,
            self.last_capturer,
            self.scores,
            self.winner,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __repr__(self) -> str:
        table = format_cards(self.loose)
        builds = ", ".join(build_text(b) for b in self.builds)
        hands = " | ".join(format_cards(h) for h in self.hands)
        return f"<State to_move={self.to_move} table=({table}; {builds}) hands=({hands}) stock={len(self.remaining_stock)}>"


def sorted_builds(builds: Iterable[Build]) -> tuple[Build, ...]:
    """Builds in canonical order: by their lowest card."""
    return tuple(sorted(builds, key=_lowest_card))


def _with_build(builds: tuple[Build, ...], new: Build) -> tuple[Build, ...]:
    """``builds`` (in canonical order) with ``new`` in its place: ``sorted_builds`` for one more."""
    low = _lowest_card(new)
    i = 0
    while i < len(builds) and _lowest_card(builds[i]) < low:
        i += 1
    return (*builds[:i], new, *builds[i:])


def _lowest_card(build: Build) -> CardMask:
    """The bit of a build's lowest card: its place in the canonical order."""
    cards, _value, _owner = build
    return cards & -cards


__all__ = [
    "BUILD",
    "CAPTURE",
    "TRAIL",
    "Build",
    "BuildTuple",
    "MoveLike",
    "State",
    "Undo",
    "build_is_single",
    "build_text",
    "deal_order",
    "eldest_seat",
    "move_code",
    "sorted_builds",
]


def _assembled(
    rules: Rules,
    dealer: int,
    to_move: int,
    hands: tuple[CardMask, ...],
    loose: CardMask,
    builds: tuple[Build, ...],
    stock: tuple[Card, ...],
    stock_pos: int,
    captured: tuple[CardMask, ...],
    sweeps: tuple[int, ...],
    last_capturer: int,
    scores: tuple[int, ...],
    winner: int,
    result: HandScore | None,
) -> State:
    """A ``State`` of these fields, without history: through the constructor (a compiled ``State``
    has no other way in), whose conversions are free here: the tuples pass through ``tuple``
    unchanged, and the builds (already sorted) are set afterwards."""
    state = State(
        rules,
        dealer=dealer,
        to_move=to_move,
        hands=hands,
        loose=loose,
        builds=(),
        stock=stock,
        captured=captured,
        sweeps=sweeps,
        last_capturer=last_capturer,
        scores=scores,
        winner=winner,
        result=result,
    )
    state.builds, state.stock_pos = builds, stock_pos
    return state


def _unpickle_state(fields: StateFields, move_stack: tuple[MoveCode, ...], stack: tuple[Undo, ...]) -> State:
    """A pickled ``State`` again (``State.__reduce__``)."""
    state = _assembled(*fields)
    state.move_stack, state._stack = list(move_stack), list(stack)
    return state
