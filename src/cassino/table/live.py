"""One live table: the game and its seats, the phases (play, the count between hands, over), undo,
whose turn it is for a computer player, and what each learner is taught.

Every front end drives this object: the web server (which stores each change and sends it), the
terminal, the research environments. It does no input or output of its own and knows no transport:
a command either changes the table and answers the events it caused (``events``), or raises a
``TableError`` naming why not and changes nothing. Commands a front end must first make durable come
as a pair: ``play`` then, if the store refuses, ``unplay``; ``take_back`` then ``restore``; checks
without change (``verify_play``, ``verify_press``, ``undo_start``) let it refuse before it writes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..cards import FULL_DECK, Card, CardMask
from ..errors import IllegalMoveError, MoveError
from ..game import DeckSource, Game, last_move_index, undo_refusal
from ..moves import CAPTURE, MoveCode, code_cards, code_kind
from ..players.base import close_player, decide
from ..players.errors import PlayerFaultError
from ..rules import Rules
from ..state import State
from ..view import View, spectator_view, view_of
from .errors import BadCommandError, ClosedError, NotNowError, NotSeatedError, TableError
from .events import CountEnded, CountStarted, Dealt, Event, Forfeited, GameOver, HandEnded, Moved, Pressed, TakenBack
from .seats import BOT, HUMAN, KINDS, Seat
from .teaching import Teaching
from .trackers import SideTracker, side_trackers, unseen_by_suit


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A computer player's turn: what it needs to think (its seat, spec, seed and view) and the
    ``epoch`` it was asked at, so that a move thought about a position the table has left is refused."""

    seat: int
    spec: str
    seed: int
    ply: int
    epoch: int
    view: View


@dataclass(frozen=True, slots=True)
class _Before:
    """What ``play`` changes besides the game, kept so that ``unplay`` restores it exactly."""

    ply: int
    deal_ply: int
    counting: bool
    ready: frozenset[int]
    deadline: float | None


def finished_hand(number: int, hand: State) -> HandEnded:
    """A counted hand as its ``HandEnded`` event, with its residue: every card that no capture
    took, read from public play alone (the hands and the stock are empty by then)."""
    assert hand.result is not None, "only a counted hand"
    taken = 0
    for code in hand.move_stack:
        if code_kind(code) == CAPTURE:
            taken |= code_cards(code)
    return HandEnded(number, hand.dealer, hand.result, hand.scores, FULL_DECK & ~taken, hand.last_capturer)


@dataclass(frozen=True, slots=True)
class Frame:
    """One position of a finished game with every hand shown, for its replay: the hand's number,
    the move that led to it (None at a deal), every seat's hand and the public view."""

    hand: int
    move: tuple[int, MoveCode] | None
    hands: tuple[CardMask, ...]
    view: View
    to_move: int | None
    """None once the hand is over."""


def _frame(state: State, hand: int, move: tuple[int, MoveCode] | None) -> Frame:
    return Frame(hand, move, state.hands, spectator_view(state), None if state.hand_over else state.to_move)


def side_name(rules: Rules, names: Sequence[str], side: int) -> str:
    """A side's name from its seats' names: the seat's, or both partners' in partnerships."""
    if rules.partnerships:
        return f"{names[side]} & {names[side + 2]}"
    return names[side]


class Table:
    """A game at a table. ``count_between_hands``: after a hand, play waits until every person has
    pressed next (the web's count scene); off, the next hand is played at once (the terminal shows
    its own summary). ``next_after``: seconds the count lasts at most (0: until everyone pressed)."""

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[Seat],
        *,
        seed: int | None = None,
        dealer: int = 0,
        decks: Sequence[Sequence[Card]] | None = None,
        deck_source: DeckSource | None = None,
        count_between_hands: bool = True,
        next_after: float = 0,
        last_hand: int | None = None,
        coach_seed: Callable[[int], int] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """The game is dealt as ``Game`` deals it: from ``decks`` first, then ``deck_source``, else
        a shuffle of ``seed``, the first hand by ``dealer``. ``last_hand``: the table is over once
        that hand is counted, and no deck is drawn after it (a research episode of one hand);
        None: hands are dealt until a side wins."""
        if [s.seat for s in seats] != list(range(rules.players)):
            raise BadCommandError(f"a table of {rules.players} players needs seats 0 to {rules.players - 1}, in order")
        if any(s.kind not in KINDS for s in seats):
            raise BadCommandError(f"a seat's kind is one of {', '.join(KINDS)}")
        game = Game(rules, seed=seed, dealer=dealer, decks=decks, deck_source=deck_source)
        self.game = game
        self.seats = list(seats)
        self.count_between_hands = count_between_hands
        self.next_after = next_after
        self.last_hand = last_hand
        self.clock = clock
        self.ply = 0
        """Moves made in the game: its version, which a move may name to be sure of its position."""
        self.deal_ply = 0
        """The ply at which the cards now in play were dealt or drawn: no move before it may be
        taken back, since the cards dealt after it have been seen."""
        self.epoch = 0
        """Bumped at every change: unlike ``ply`` it never comes back to an earlier value, so a
        computer player can tell that the position it thought about is gone."""
        self.counting = False
        """True during the count between hands: the next hand is dealt but not yet played."""
        self.ready: set[int] = set()
        """The people's seats that pressed next in this count."""
        self.deadline: float | None = None
        """When this count ends by itself (epoch seconds), if it has a timer."""
        self.abandoned = ""
        """Why the table is closed ("" while it is open): shown as it was left, never played on."""
        self.teaching = Teaching(self, coach_seed or (lambda seat: seat))
        self._before: _Before | None = None

    # ------------------------------------------------------------------ what is happening
    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.game.rules

    @property
    def state(self) -> State:
        """The hand in play (the last one once the game is over)."""
        return self.game.state

    @property
    def over(self) -> bool:
        """True when a side has won, or the table's last hand is counted."""
        game = self.game
        return game.over or (self.last_hand is not None and len(game.hands) >= self.last_hand and game.state.hand_over)

    @property
    def phase(self) -> str:
        """``over``, ``count`` (between hands) or ``play``."""
        return "over" if self.over else "count" if self.counting else "play"

    @property
    def hand_number(self) -> int:
        """The number of the hand in play (or the last one), from 1."""
        return len(self.game.hands)

    @property
    def humans(self) -> list[int]:
        """The seats of people (held or not)."""
        return [s.seat for s in self.seats if s.kind == HUMAN]

    @property
    def waiting_for(self) -> list[int]:
        """The people's seats still to press next in this count."""
        return [s for s in self.humans if s not in self.ready] if self.counting else []

    def view(self, seat: int) -> View:
        """What ``seat`` may see now."""
        return view_of(self.game.state, seat)

    @property
    def finished(self) -> list[HandEnded]:
        """Every counted hand, in order."""
        return [finished_hand(n, h) for n, h in enumerate(self.game.hands, 1) if h.result is not None]

    @property
    def names(self) -> list[str]:
        """The seats' names, in seat order."""
        return [s.name for s in self.seats]

    def side_name(self, side: int) -> str:
        """A side's name from its seats' names (``side_name``)."""
        return side_name(self.rules, self.names, side)

    def trackers(self) -> tuple[SideTracker, ...]:
        """Every side's tracker of the hand in play (``trackers.side_trackers``): cards, spades,
        aces, casinos and sweeps, public, so read from what a spectator sees."""
        return side_trackers(spectator_view(self.game.state))

    def side_tracker(self, seat: int) -> tuple[int, int]:
        """Cards and spades captured so far this hand by ``seat``'s side (from ``trackers``)."""
        mine = self.trackers()[self.rules.side_of(seat)]
        return mine.cards, mine.spades

    def unseen(self, seat: int) -> tuple[CardMask, ...]:
        """The cards ``seat`` has not seen yet, one mask per suit (``trackers.unseen_by_suit``)."""
        return unseen_by_suit(self.view(seat))

    def frames(self) -> list[Frame]:
        """Every position of the game with all hands shown, for the replay: only once it is over,
        since it reveals every hand."""
        if not self.over:
            raise NotNowError("the replay shows every hand: it is made when the game is over")
        again = Game(self.rules, decks=self.game.decks)
        frames = []
        for number, done in enumerate(self.game.hands, 1):
            frames.append(_frame(again.hands[number - 1], number, None))
            for seat, code in done.history:
                again.play(code)
                frames.append(_frame(again.hands[number - 1], number, (seat, code)))
        return frames

    def count_reason(self) -> str:
        """Why nothing may be played during the count, naming who is awaited."""
        who = ", ".join(str(s) for s in self.waiting_for)
        timer = " or its timer runs out" if self.deadline is not None else ""
        return (
            f"hand {self.hand_number - 1} is over: hand {self.hand_number} starts when every person at the "
            f"table has pressed next{timer} (waiting for seat {who})"
        )

    def check_open(self) -> None:
        """Refuse any command once the table is closed."""
        if self.abandoned:
            raise ClosedError(f"the game is abandoned ({self.abandoned}): start a new one")

    # ------------------------------------------------------------------ playing
    def verify_play(self, seat: int, version: int | None = None) -> None:
        """Raise why ``seat`` may not move now (the move itself is checked by the engine in ``play``)."""
        self.check_open()
        if version is not None and version != self.ply:
            raise NotNowError(f"the game has moved on: it is at version {self.ply}, your move was for {version}")
        if self.over:
            raise NotNowError("the game is over: no move is left to play")
        if self.counting:
            raise NotNowError(self.count_reason())
        to_move = self.game.state.to_move
        if to_move != seat:
            raise NotNowError(f"it is seat {to_move}'s turn, not seat {seat}'s")

    def play(self, seat: int, code: MoveCode, *, version: int | None = None, checked: bool = True) -> list[Event]:
        """``seat``'s move: checked (``verify_play``, then the engine: IllegalMoveError names the
        rule), made, and answered with what followed: new cards, the end of a hand, the count, the
        game's end. ``checked=False`` trusts that the move is legal and in turn (a research
        environment's masked action). Nothing changes when it is refused."""
        if checked:
            self.verify_play(seat, version)
        game = self.game
        hands, stock = len(game.hands), game.state.stock_pos
        self._before = _Before(self.ply, self.deal_ply, self.counting, frozenset(self.ready), self.deadline)
        self._move(code, checked)
        self.ply += 1
        self.epoch += 1
        events: list[Event] = [Moved(seat, code, self.ply - 1)]
        new_hand = len(game.hands) > hands
        if new_hand or game.state.stock_pos != stock:
            self.deal_ply = self.ply
            events.append(Dealt(len(game.hands), new_hand))
        if new_hand or game.state.hand_over:
            events.insert(1, finished_hand(hands, game.hands[hands - 1]))
        if new_hand and self.count_between_hands and self.humans:
            self.counting = True
            self.ready = set()
            self.deadline = self.clock() + self.next_after if self.next_after else None
            events.append(CountStarted(len(game.hands), self.deadline))
        if self.over:
            events.append(GameOver(game.winner, game.scores))
        return events

    def _move(self, code: MoveCode, checked: bool = True) -> None:
        """Make a move on the hand in play and deal the next hand when one follows (none after
        ``last_hand``): checked (``State.play``) or, for a move known legal, not (``State.push``)."""
        state = self.game.state
        if checked:
            state.play(code)
        else:
            state.push(code)
        if state.can_next_hand() and (self.last_hand is None or len(self.game.hands) < self.last_hand):
            self.game.next_hand()

    def unplay(self) -> None:
        """Take back the move ``play`` just made, and all that followed from it, exactly: for a
        front end whose store refused to keep it."""
        before, self._before = self._before, None
        if before is None or before.ply != self.ply - 1:
            raise RuntimeError("unplay follows the play it takes back, and nothing else")
        self.game.undo()
        self.ply, self.deal_ply, self.counting = before.ply, before.deal_ply, before.counting
        self.ready, self.deadline = set(before.ready), before.deadline
        self.epoch += 1

    def replay(self, moves: Iterable[tuple[int, MoveCode]]) -> None:
        """Play a stored game's moves (seat, code) in order, with no phase: a stored count is
        resumed after (``resume_count``). BadCommandError names a move out of turn."""
        for seat, code in moves:
            if self.game.state.to_move != seat:
                raise BadCommandError(f"stored move {self.ply} is by seat {seat}, out of turn")
            stock, hands = self.game.state.stock_pos, len(self.game.hands)
            self._move(code)
            self.ply += 1
            if len(self.game.hands) > hands or self.game.state.stock_pos != stock:
                self.deal_ply = self.ply
        self.epoch += 1

    def resume_count(self, ready: Iterable[int], deadline: float | None) -> None:
        """After ``replay``: a hand dealt but not yet begun (after the first) is in its count again,
        with the presses of next stored; a count everyone pressed is over."""
        state = self.game.state
        if (
            not self.count_between_hands
            or self.over
            or len(self.game.hands) < 2
            or state.moves_played
            or not self.humans
        ):
            return
        self.ready = set(ready) & set(self.humans)
        self.counting = self.ready != set(self.humans)
        if self.counting and self.next_after:
            self.deadline = deadline or self.clock() + self.next_after

    # ------------------------------------------------------------------ the count
    def verify_press(self, seat: int) -> bool:
        """Raise why ``seat`` may not press next now; False when it already has (nothing to do)."""
        self.check_open()
        if self.seats[seat].kind != HUMAN:
            raise NotSeatedError(f"seat {seat} is a computer player's: only a person at the table presses next")
        if self.over:
            raise NotNowError("the game is over: there is no next hand")
        if not self.counting:
            raise NotNowError(f"hand {self.hand_number} is in play: next is pressed when a hand is over")
        return seat not in self.ready

    def press_next(self, seat: int) -> list[Event]:
        """A person is ready for the next hand; the last one to press starts it. No events when the
        seat had already pressed."""
        if not self.verify_press(seat):
            return []
        self.ready.add(seat)
        self.epoch += 1
        events: list[Event] = [Pressed(seat)]
        if not self.waiting_for:
            events += self.end_count()
        return events

    def count_due(self) -> bool:
        """True when the count's timer has run out (the front end then ends it: ``end_count``)."""
        return self.counting and not self.abandoned and self.deadline is not None and self.clock() >= self.deadline

    def end_count(self) -> list[Event]:
        """End the count: the next hand is played from now."""
        if not self.counting:
            return []
        self.counting = False
        self.ready = set()
        self.deadline = None
        self.epoch += 1
        return [CountEnded(self.hand_number)]

    # ------------------------------------------------------------------ taking back
    def undo_start(self, seat: int) -> int:
        """The ply of ``seat``'s last move when it may be taken back now (``game.undo_refusal``:
        only against computer players, within the cards in play); NotNowError naming why not."""
        self.check_open()
        state = self.game.state
        hand_start = self.ply - state.moves_played
        counted = self.hand_number - 1 if self.counting else 0
        refusal = undo_refusal(state, seat, self.humans, self.deal_ply - hand_start, over=self.over, counted=counted)
        if refusal is not None:
            raise NotNowError(refusal)
        last = last_move_index(state, seat)
        assert last is not None  # undo_refusal said it moved
        return hand_start + last

    def can_undo(self, seat: int) -> bool:
        """True when ``seat`` may take back its last move now."""
        try:
            self.undo_start(seat)
        except TableError:
            return False
        return True

    def take_back(self, seat: int) -> TakenBack:
        """Take back ``seat``'s last move and every computer player's move after it."""
        keep = self.undo_start(seat)
        moves = self.game.state.history[keep - self.ply :]  # the hand's last ply - keep moves
        for _ in moves:
            self.game.undo()
        self.ply = keep
        self.epoch += 1
        return TakenBack(tuple(moves), keep)

    def restore(self, taken: TakenBack) -> None:
        """Play again the moves ``take_back`` took back: for a front end whose store refused it."""
        for _seat, code in taken.moves:
            self._move(code, checked=False)
        self.ply += len(taken.moves)
        self.epoch += 1

    # ------------------------------------------------------------------ computer players
    def bot_turn(self) -> BotTurn | None:
        """The computer player's turn, when one is to move and may (not in the count, not after
        the game, not at a closed table); None otherwise."""
        if self.over or self.counting or self.abandoned:
            return None
        state = self.game.state
        seat = self.seats[state.to_move]
        if seat.kind != BOT:
            return None
        return BotTurn(seat.seat, seat.bot, seat.seed, self.ply, self.epoch, view_of(state, seat.seat))

    def bot_move(self, turn: BotTurn) -> MoveCode:
        """The move of the computer player of ``turn``, thought here (``players.decide``: it sees
        its seat's view only): for front ends that think in the same thread."""
        player = self.seats[turn.seat].player
        if player is None:
            raise RuntimeError(f"seat {turn.seat} has no computer player")
        return decide(player, self.game.state)

    def play_bot(self, turn: BotTurn, code: MoveCode) -> list[Event]:
        """Play a computer player's move thought for ``turn``; NotNowError when the table has changed
        since (a move, an undo, a count): it is then asked to think again."""
        if turn.epoch != self.epoch:
            raise NotNowError("the position changed while the computer player thought")
        try:
            return self.play(turn.seat, code)
        except IllegalMoveError as exc:
            return self.forfeit(turn.seat, f"it answered an illegal move: {exc.reason}")
        except MoveError as exc:
            return self.forfeit(turn.seat, f"it answered no move: {exc}")

    def step_bot(self) -> list[Event]:
        """Let the computer player to move make its move here and now; no events when none is to
        move. A player that cannot give a legal move (``PlayerFaultError``) forfeits the game."""
        turn = self.bot_turn()
        if turn is None:
            return []
        try:
            code = self.bot_move(turn)
        except PlayerFaultError as fault:
            return self.forfeit(turn.seat, fault.reason)
        return self.play_bot(turn, code)

    def forfeit(self, seat: int, reason: str) -> list[Event]:
        """``seat`` cannot go on (its program hung, crashed or answered no legal move): its side
        loses the game now (``Game.forfeit`` names the winner), whatever phase the table is in."""
        self.check_open()
        if self.over:
            raise NotNowError("the game is over: nobody can forfeit it")
        done = self.game.forfeit(seat, reason)
        self.counting, self.ready, self.deadline = False, set(), None
        self.epoch += 1
        return [Forfeited(seat, reason), GameOver(done.winner, self.game.scores)]

    def close_players(self) -> None:
        """Release what the computer players hold (a bot program's process): for a front end whose
        game is over or left. A player asked again later starts afresh."""
        for seat in self.seats:
            if seat.player is not None:
                close_player(seat.player)

    # ------------------------------------------------------------------ copies of the same game
    def adopt(self, fresh: Table) -> None:
        """Take the position of ``fresh`` (the same game rebuilt from a store), keeping this table's
        learners, which the front end's watchers and tasks hold on to."""
        self.game, self.seats = fresh.game, fresh.seats
        self.ply, self.deal_ply = fresh.ply, fresh.deal_ply
        self.counting, self.ready, self.deadline = fresh.counting, fresh.ready, fresh.deadline
        self.abandoned, self.next_after = fresh.abandoned, fresh.next_after
        self.epoch = max(self.epoch, fresh.epoch) + 1
        self._before = None


__all__ = ["BotTurn", "Frame", "Table", "finished_hand", "side_name"]
