"""A ladder of named levels of computer player, from ``beginner`` to ``master``.

People lose to a program that plays well and then throws a card away at random, and they learn
nothing from it. The lower levels here instead make the mistakes people make: they miss a sum on
the table, build without asking what the build leaves exposed, forget which cards were played,
and trail a valuable card. ``FalliblePlayer`` makes the first and the third on top of any player
by narrowing what it sees (the legal moves it notices, the cards it remembers); the others are the
heuristic's own settings. The upper levels are the heuristic and search players as they are.

Each level is a player spec (``LEVELS``), registered by its name, so ``make_player("club")`` and
``cassino arena novice casual`` work like any other player; a level's settings may be overridden
(``club:forget=0.8``). Every level is deterministic given its seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..cards import RANK_MASKS, CardMask, cards_of
from ..moves import CAPTURE, HIGHEST_VALUE, MoveCode, code_kind, code_table, code_value
from ..state import Build
from ..view import View
from .base import Player, choose_code, make_player, parse_spec, register, split_spec
from .errors import PlayerSpecError
from .evaluate import table_after
from .heuristic import rate_moves


def spec_of(name: str, settings: dict[str, Any]) -> str:
    """The spec ``name:key=value,...`` that ``parse_spec`` reads back as ``name`` and ``settings``."""
    if not settings:
        return name
    return name + ":" + ",".join(f"{key}={value}" for key, value in settings.items())


def uses_sum(code: MoveCode, builds: tuple[Build, ...]) -> bool:
    """True when a capture takes a group of two or more loose cards adding up to its value: the
    part of a capture a careless eye misses (a paired card, a court pairing or a build is seen)."""
    value = code_value(code)
    if code_kind(code) != CAPTURE or not value:
        return False
    loose = code_table(code)
    for build in builds:
        if build.cards & loose:
            loose &= ~build.cards
    # Under royal ace high (14) no loose card pairs: a loose ace counts 1, so it is part of a sum.
    pairs = RANK_MASKS[value - 1] if value < HIGHEST_VALUE else 0
    return bool(loose & ~pairs)


def sweeps(view: View, code: MoveCode) -> bool:
    """True when a capture clears the table: nobody misses a sweep."""
    if code_kind(code) != CAPTURE:
        return False
    loose, builds = table_after(code, int(view.loose), view.builds, view.seat)
    return not loose and not builds


class FalliblePlayer:
    """Another player (``base`` with its own settings) that sees less than its seat's view.

    ``miss``: the chance, each turn, that it overlooks every capture using a sum of two or more
    loose cards (it still sees a paired card, a build of its card's value and any sweep).
    ``forget``: the chance, each turn, that it has forgotten each captured card; a forgotten card
    counts as unseen (as if still in the stock), and the hand's history goes with it, so card
    counting and the exact endgame (which needs every hidden card placed) give way to guesses.
    The base player is handed that narrower view and chooses among the moves left in it."""

    name = "fallible"

    def __init__(
        self, seed: int | None = None, base: str = "greedy", miss: float = 0.0, forget: float = 0.0, **settings: Any
    ) -> None:
        if ":" in str(base) or str(base) == self.name:
            raise PlayerSpecError(f"base must be another player's name, got {base!r}; give its settings alongside")
        self.base: Player = make_player(spec_of(str(base), settings), seed)
        self.miss = float(miss)
        self.forget = float(forget)
        # Its own stream: the slips do not shift the base player's tie-breaks.
        self.rng = random.Random(None if seed is None else f"slips {seed}")

    def choose(self, view: View) -> MoveCode:
        """The base player's choice on the view as this player sees it. An exact solver weighs every
        move of the position it rebuilds: should it pick one this player overlooked, the player
        plays the heuristic's best of those it saw instead."""
        seen = self.seen(view)
        code = choose_code(self.base, seen, check=False)
        if code not in seen.legal:
            code = max(rate_moves(seen), key=lambda rated: rated[0])[1]
        return code

    def seen(self, view: View) -> View:
        """The view less what slips past this turn: overlooked captures and forgotten cards."""
        legal = view.legal
        if self.miss and self.rng.random() < self.miss:
            noticed = tuple(c for c in legal if not uses_sum(c, view.builds) or sweeps(view, c))
            legal = noticed or legal
        forgotten: CardMask = 0
        if self.forget:
            for pile in view.captured:
                for card in cards_of(int(pile)):  # an int: a CardSet's operators are Python calls
                    if self.rng.random() < self.forget:
                        forgotten |= 1 << card
        if not forgotten:
            return view if legal is view.legal else replace(view, legal=legal)
        return replace(
            view,
            legal=legal,
            captured=tuple(pile & ~forgotten for pile in view.captured),
            stock_size=view.stock_size + forgotten.bit_count(),
            history=(),
        )


@dataclass(frozen=True, slots=True)
class Level:
    """A named level: what a person is told about it, and the player spec it stands for."""

    name: str
    description: str
    spec: str

    def delegate(self, written: Mapping[str, str]) -> tuple[str, dict[str, str]]:
        """The player of the level's spec and its settings with ``written`` on top: whose settings
        the level takes."""
        name, own = split_spec(self.spec)
        return name, {**own, **written}

    def make(self, seed: int | None = None, **settings: Any) -> Player:
        """The level's player; ``settings`` override those of its spec."""
        name, own = parse_spec(self.spec)
        player = make_player(spec_of(name, {**own, **settings}), seed)
        player.name = self.name
        return player


LEVELS: tuple[Level, ...] = (
    Level(
        "beginner",
        "takes what it sees at once; misses half the sums on the table, builds whenever it can, trails any card",
        "fallible:base=greedy,miss=0.5",
    ),
    Level(
        "novice",
        "takes the most it sees at once; now and then misses a sum, builds whenever it can, trails any card",
        "fallible:base=greedy,miss=0.15",
    ),
    Level(
        "casual",
        "thinks a move ahead but forgets the played cards, builds and trails without asking what it "
        "leaves exposed, trails valuable cards and misses some sums",
        "fallible:base=heuristic,miss=0.2,forget=1,risk=0,trail=0,endgame=0",
    ),
    Level(
        "club",
        "weighs every move and what it leaves; loses track of some played cards and misses the odd sum",
        "fallible:base=heuristic,miss=0.1,forget=0.5,endgame=0",
    ),
    Level(
        "expert",
        "weighs every move, counts every card and plays the last deal exactly",
        "heuristic",
    ),
    Level(
        "master",
        "reads the opponents' play, looks several moves ahead over the hands they may hold",
        # Balanced worlds, the candidates racing: the strength of the search as it was within
        # noise in 0.19 of its time (docs/players.md, Speed).
        "search:balance=1,worlds=40,race=2,race_after=8",
    ),
)
"""The ladder, weakest first."""


def level_names() -> list[str]:
    """The levels' names, weakest first."""
    return [level.name for level in LEVELS]


FALLIBLE_SETTINGS: dict[str, type[str] | type[float]] = {"base": str, "miss": float, "forget": float}
"""``fallible``'s own settings; the others are its base player's."""


def _fallible_base(written: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """``fallible``'s base player and the settings handed to it."""
    return written.get("base", "greedy"), {k: v for k, v in written.items() if k not in FALLIBLE_SETTINGS}


register("fallible", FalliblePlayer, FALLIBLE_SETTINGS, delegate=_fallible_base)
for _level in LEVELS:
    register(_level.name, _level.make, {}, delegate=_level.delegate)
