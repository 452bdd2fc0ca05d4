"""The table the environments share: hands dealt from a seed, one decision at a time, rewards per seat.

Both environments and the benchmark drive this one object, so the rules of play (what ends an
episode, when a hand's points are paid, how a multi-step move is chosen) are written once; the game
itself is played at the one live table every front end drives (``cassino.table.Table``), with an
agent in every seat and no count between hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

import numpy as np

from ..game import Game
from ..moves import MoveCode
from ..rules import Rules, make_rules
from ..state import State
from ..table import HandEnded, Seat
from ..table import Table as LiveTable
from ..view import View, view_of
from .encoding import NUM_ACTIONS, FloatArray, MaskArray, Selection, observe

Episode = Literal["hand", "game"]
EPISODES: tuple[str, ...] = ("hand", "game")


def hand_rewards(rules: Rules, points: tuple[int, ...]) -> list[float]:
    """Each seat's reward for a finished hand: its side's points less the mean of the other sides'
    points (so the rewards of a hand always sum to zero)."""
    sides = rules.sides
    total = sum(points)
    out = []
    for seat in range(rules.players):
        own = points[rules.side_of(seat)]
        out.append(own - (total - own) / (sides - 1))
    return out


class RuleArgs(TypedDict, total=False):
    """The rule set an environment plays, as keywords of its constructor: ``rules`` as given, or a
    ``preset`` (default ``classic``) with ``players`` (2), ``partnerships`` (False) and ``options``
    (any of ``rules.OPTIONS`` by name, checked by ``make_rules``)."""

    rules: Rules | None
    preset: str
    players: int
    partnerships: bool
    options: Mapping[str, Any] | None


RULE_ARGS: tuple[str, ...] = tuple(RuleArgs.__annotations__)


def rules_for(args: RuleArgs) -> Rules:
    """The rule set of an environment's rule keywords; an unknown keyword is a TypeError naming it
    (the keywords travel as ``**rule_args``, so Python itself would not catch a misspelt one)."""
    unknown = sorted(set(args) - set(RULE_ARGS))
    if unknown:
        raise TypeError(f"unexpected keyword {unknown[0]!r}: the rule keywords are {', '.join(RULE_ARGS)}")
    rules = args.get("rules")
    if rules is not None:
        return rules
    return make_rules(
        args.get("preset", "classic"),
        players=args.get("players", 2),
        partnerships=args.get("partnerships", False),
        **dict(args.get("options") or {}),
    )


def check_render_mode(mode: str | None, allowed: Sequence[str]) -> None:
    """Refuse a render mode the environment does not offer, naming the ones it does."""
    if mode is not None and mode not in allowed:
        raise ValueError(f"render_mode must be one of {', '.join(allowed)}, got {mode!r}")


def agents_table(rules: Rules, episode: str, seed: int, dealer: int = 0) -> LiveTable:
    """A live table with an agent in every seat (each driven from outside, as a person's) that
    plays one ``episode``: a hand, or the game."""
    seats = [Seat.person(s, f"agent {s}", "agent") for s in range(rules.players)]
    last = 1 if episode == "hand" else None
    return LiveTable(rules, seats, seed=seed, dealer=dealer, count_between_hands=False, last_hand=last)


class Table:
    """One episode of Casino: a hand (``episode='hand'``) or a whole game to the target (``'game'``)."""

    def __init__(self, rules: Rules, episode: str = "hand") -> None:
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
        self.rules = rules
        self.episode = episode
        self.table = agents_table(rules, episode, 0)
        self.hands_played = 0
        self.over = False
        self._selection: Selection | None = None

    def reset(self, seed: int, dealer: int = 0) -> None:
        """Deal the first hand of a new episode from a seeded shuffle."""
        if not 0 <= dealer < self.rules.players:
            raise ValueError(f"dealer seat {dealer} is out of range for {self.rules.players} players")
        self.table = agents_table(self.rules, self.episode, seed, dealer)
        self.hands_played = 0
        self.over = False
        self._selection = None

    @property
    def game(self) -> Game:
        """The whole game played at the table."""
        return self.table.game

    @property
    def state(self) -> State:
        """The hand in play (the finished one once the episode is over)."""
        return self.table.state

    @property
    def to_move(self) -> int:
        """The seat making the current decision."""
        return self.state.to_move

    def view(self, seat: int) -> View:
        """What ``seat`` may see now."""
        return view_of(self.state, seat)

    @property
    def selection(self) -> Selection:
        """The decision in progress for the seat to move."""
        if self._selection is None:
            self._selection = Selection(self.view(self.state.to_move))
        return self._selection

    def observation(self, seat: int) -> FloatArray:
        """The observation vector of ``seat`` (with the decision in progress when it is to move)."""
        if not self.over and seat == self.state.to_move:
            selection = self.selection
            return observe(selection.view, selection)
        return observe(self.view(seat))

    def mask(self, seat: int) -> MaskArray:
        """The legal actions of ``seat`` (all 0 when it is not its decision)."""
        if self.over or seat != self.state.to_move:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return self.selection.mask()

    def step(self, action: int) -> list[float] | None:
        """Take one action of the seat to move (ActionError when illegal, changing nothing); the
        per-seat rewards when a hand ended, else None."""
        if self.over:
            raise ValueError("the episode is over: reset the table")
        move = self.selection.choose(action)
        if move is None:
            return None
        return self.play(move)

    def play(self, move: MoveCode) -> list[float] | None:
        """Make a whole legal move for the seat to move (the mask's or a bot's: not checked again);
        rewards as ``step``."""
        self._selection = None
        events = self.table.play(self.state.to_move, move, checked=False)
        ended = next((e for e in events if isinstance(e, HandEnded)), None)
        if ended is None:
            return None
        self.hands_played += 1
        self.over = self.table.over
        return hand_rewards(self.rules, ended.result.points)
