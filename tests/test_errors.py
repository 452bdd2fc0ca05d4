"""Every error a ``CassinoError``: the package root's functions and methods, given bad arguments of
the types they declare (ints out of range, strings that say nothing, any object where any is
taken), return or raise a ``CassinoError`` subclass, never a ``TypeError``, ``IndexError`` or
``KeyError`` from deep inside, and never hang; and the refusals that used to leak, one by one.

``test_every_public_callable_is_covered`` holds the table below to ``cassino.__all__``: a new
public function or method fails it until it is tried here or exempted with the reason.
"""

from __future__ import annotations

import ast
import contextlib
import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cassino
from cassino import (
    ArgumentError,
    CardError,
    CardSet,
    CassinoError,
    DeckError,
    Game,
    HandScore,
    IllegalMoveError,
    Move,
    MoveError,
    MoveTypeError,
    NextHandError,
    Rules,
    RulesError,
    SeatError,
    State,
    UndoError,
    View,
    make_rules,
    native,
    view_of,
)
from cassino.cards import FULL_DECK
from cassino.notation import position_to_json
from cassino.rules import OPTION_NAMES
from strategies import positions, random_play, seeded_deck

PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ----------------------------------------------------------------------------- the bad arguments

ints = st.one_of(
    st.integers(-3, 60),
    st.integers(),
    st.integers(-(2**70), -(2**40)),
    st.integers(2**40, 2**70),
    st.sampled_from([-1, 52, 63, 64, 2**52, 2**52 - 1, 2**64, 3 | 5 << 2]),
)
"""Whole numbers: in range, just out of it, negative, and past every field of a move code."""

move_texts = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["trail", "trail 10h", "capture 8c 8: 5d 3h", "build 3h 8: 5s", "capture Qh Q: Qc", ""]),
    st.builds(
        lambda k, r: f"{k} {r}",
        st.sampled_from(["trail", "capture", "build"]),
        st.text("0123456789AKQJTcdhs :,", max_size=20),
    ),
)
"""Text that is a move, nearly one, or nothing of the kind."""

codes = st.one_of(ints, st.integers(0, 2**64))
"""Move codes: any int, so most are no move."""


def anything(state: State | None = None) -> st.SearchStrategy[object]:
    """Any object where a parameter takes any (a move): codes, lines, Moves, and other types."""
    legal = st.sampled_from(state.legal_codes()) if state is not None and state.legal_codes() else codes
    return st.one_of(
        codes,
        move_texts,
        legal,
        legal.map(Move.from_code) if state is not None and state.legal_codes() else st.just(Move.trail(0)),
        st.none(),
        st.booleans(),
        st.floats(allow_nan=True),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        st.just(object()),
    )


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
decks = st.one_of(
    st.lists(st.integers(-2, 60), max_size=60),
    st.permutations(range(52)).map(list),
    st.permutations(range(52)).map(lambda d: [*d[:-1], d[0]]),
    st.lists(st.integers(0, 51), min_size=52, max_size=52),
)
"""Decks: real ones, and lists of cards that are none (short, long, repeated, out of range)."""
depths = st.one_of(st.integers(-(10**6), 2), st.integers(53, 10**30))
"""Perft depths that cost nothing: below 0, the first two, and past any hand's end."""
option_values = st.one_of(json_values, st.sampled_from([True, False, 0, 1, 2, 3, 4, 21, "one", "spade", "count_out"]))
option_names = st.one_of(st.sampled_from([*OPTION_NAMES, "players", "partnerships"]), st.text(max_size=12))


def _finished_hand() -> State:
    game = Game(seed=11)
    while not game.state.hand_over:
        game.state.push(game.state.legal_codes()[0])
    return game.state


FINISHED = _finished_hand()
"""A hand played to its end: its score, and a hand over before the next deal."""


def _finished_game() -> Game:
    game = Game(seed=1)
    while not game.over:
        game.play(game.legal_moves()[0])
    return game


WON = _finished_game()
"""A game played until a side won: the one whose ``outcome()`` is no None."""
RESULT = FINISHED.result
assert RESULT is not None


# ----------------------------------------------------------------------------- the calls

Call = Callable[[st.DrawFn], object]
"""One call of the root's API with drawn arguments: what it returns, or the error it raises."""


def _state(draw: st.DrawFn) -> State:
    return draw(positions())


def _game(draw: st.DrawFn) -> Game:
    rules = draw(st.sampled_from([Rules(), make_rules("royal", players=3), make_rules("draw", players=4)]))
    game = Game(rules, seed=draw(st.integers(0, 2**32)))
    random_play(game.state, random.Random(draw(st.integers(0, 2**32))), draw(st.integers(0, 60)))
    return game


def _times(call: Callable[[], object], n: int) -> list[object]:
    """``call()`` made ``n`` times over (taking back more moves than were made, say)."""
    return [call() for _ in range(n)]


def _move_attribute(name: str) -> Call:
    """Read an attribute of a move made of any code (most are refused at once)."""
    return lambda d: getattr(Move(d(st.integers(0, 2**64))), name)


def _mutated_line(line: str) -> st.SearchStrategy[str]:
    """A one-line position with one of its fields (space-separated) replaced by drawn text."""
    fields = line.split(" ")
    return st.tuples(st.integers(0, len(fields) - 1), st.text(max_size=12)).map(
        lambda pair: " ".join(pair[1] if i == pair[0] else f for i, f in enumerate(fields))
    )


def _drained(items: object) -> object:
    """A few items of an iterator, so that a generator's failures come out too."""
    return list(itertools.islice(items, 50)) if hasattr(items, "__next__") else items


CALLS: dict[str, Call] = {
    # functions
    "card_name": lambda d: cassino.card_name(d(ints)),
    "parse_card": lambda d: cassino.parse_card(
        d(st.one_of(st.text(max_size=6), st.sampled_from(["10d", "Ts", "1", "Zz"])))
    ),
    "CardSet": lambda d: (
        d(anything())
        in CardSet(
            d(st.one_of(ints, json_values, move_texts, st.lists(st.one_of(ints, st.text(max_size=3)), max_size=5)))
        )
    ),
    "CardSet.names": lambda d: CardSet(d(st.integers(0, FULL_DECK))).names(),
    "make_rules": lambda d: make_rules(
        d(st.one_of(st.sampled_from(list(cassino.PRESETS)), st.text(max_size=8))),
        **d(st.dictionaries(option_names, option_values, max_size=3)),
    ),
    "perft": lambda d: cassino.perft(_state(d), d(depths)),
    "position_from_json": lambda d: cassino.position_from_json(
        d(st.one_of(json_values, st.builds(lambda s: position_to_json(s), positions()).flatmap(_mutated)))
    ),
    "position_to_json": lambda d: cassino.position_to_json(_state(d)),
    "position_to_line": lambda d: cassino.position_to_line(_state(d)),
    "position_from_line": lambda d: cassino.position_from_line(
        d(st.one_of(st.text(max_size=40), st.builds(cassino.position_to_line, positions()).flatmap(_mutated_line)))
    ),
    "view_of": lambda d: view_of(
        _state(d), d(ints), d(st.none() | st.lists(st.tuples(ints, ints), max_size=3).map(tuple))
    ),
    # Game
    "Game": lambda d: Game(
        d(st.none() | st.just(Rules())), d(st.none() | ints), d(ints), d(st.none() | st.lists(decks, max_size=2))
    ),
    "Game.deck_source": lambda d: Game(Rules(), 1, 0, None, lambda: d(st.one_of(decks, st.just(None), st.just(5)))),
    "Game.play": lambda d: (g := _game(d)).play(d(anything(g.state))),
    "Game.undo": lambda d: _times(_game(d).undo, d(st.integers(1, 80))),
    "Game.next_hand": lambda d: _game(d).next_hand(),
    "Game.legal_moves": lambda d: _game(d).legal_moves(),
    "Game.moves": lambda d: _game(d).moves(),
    "Game.state": lambda d: _game(d).state,
    "Game.over": lambda d: _game(d).over,
    "Game.winner": lambda d: _game(d).winner,
    "Game.scores": lambda d: _game(d).scores,
    "Game.hand_results": lambda d: _game(d).hand_results,
    "Game.forfeit": lambda d: _game(d).forfeit(d(ints), d(st.text(max_size=20))),
    "Game.winner_on_forfeit": lambda d: _game(d).winner_on_forfeit(d(ints)),
    "Game.outcome": lambda d: (WON if d(st.booleans()) else _game(d)).outcome(),
    # State
    "State.new_hand": lambda d: State.new_hand(
        d(st.sampled_from([Rules(), make_rules(players=4, partnerships=True)])),
        d(decks),
        d(ints),
        d(st.none() | st.lists(ints, max_size=5)),
    ),
    "State.next_hand": lambda d: d(st.sampled_from([FINISHED, Game(seed=2).state])).copy().next_hand(d(decks)),
    "State.verify_next_hand": lambda d: _state(d).verify_next_hand(),
    "State.can_next_hand": lambda d: _state(d).can_next_hand(),
    "State.is_legal": lambda d: (s := _state(d)).is_legal(d(anything(s))),
    "State.verify": lambda d: (s := _state(d)).verify(d(anything(s))),
    "State.play": lambda d: (s := _state(d)).play(d(anything(s))),
    "State.pop": lambda d: _times(_state(d).pop, d(st.integers(1, 60))),
    "State.copy": lambda d: _state(d).copy(),
    "State.new": lambda d: State.new(
        d(st.sampled_from([Rules(), make_rules("royal", players=3)])), d(ints), d(st.integers(-3, 5))
    ),
    "State.root": lambda d: _state(d).root(),
    "State.history": lambda d: _state(d).history,
    "State.movers": lambda d: _state(d).movers(),
    "State.deal_number": lambda d: _state(d).deal_number(),
    "State.legal_codes": lambda d: _state(d).legal_codes(),
    "State.iter_legal_codes": lambda d: _drained(_state(d).iter_legal_codes()),
    "State.count_legal": lambda d: _state(d).count_legal(),
    "State.legal_moves": lambda d: _state(d).legal_moves(),
    "State.key": lambda d: _state(d).key(),
    "State.remaining_stock": lambda d: _state(d).remaining_stock,
    "State.last_deal": lambda d: _state(d).last_deal,
    "State.next_dealer": lambda d: _state(d).next_dealer,
    "State.hand_over": lambda d: _state(d).hand_over,
    "State.game_over": lambda d: _state(d).game_over,
    "State.table_mask": lambda d: _state(d).table_mask,
    "State.moves_played": lambda d: _state(d).moves_played,
    # Move
    "Move": lambda d: str(Move(d(codes))),
    "Move.from_code": lambda d: str(Move.from_code(d(codes))),
    "Move.parse": lambda d: str(Move.parse(d(move_texts))),
    "Move.parse_words": lambda d: str(
        Move.parse_words(
            d(st.one_of(move_texts, st.text(max_size=30))),
            _state(d),
            lang=d(st.sampled_from([None, "en", "de", "id", "xx"])),
        )
    ),
    "Move.describe": lambda d: Move(d(codes)).describe(
        d(st.one_of(st.none(), positions())), d(st.sampled_from(["en", "de", "id", "xx", ""]))
    ),
    "Move.trail": lambda d: str(Move.trail(d(ints))),
    "Move.capture": lambda d: str(Move.capture(d(ints), d(ints), d(ints))),
    "Move.build": lambda d: str(Move.build(d(ints), d(ints), d(ints))),
    **{
        f"Move.{name}": _move_attribute(name)
        for name in ("kind", "kind_code", "card", "card_name", "value", "table", "table_cards", "table_names")
    },
    # Rules
    "Rules": lambda d: Rules(
        **d(
            st.dictionaries(
                st.sampled_from([*OPTION_NAMES, "players", "partnerships", "preset"]), option_values, max_size=3
            )
        )
    ),
    "Rules.replace": lambda d: Rules().replace(**d(st.dictionaries(option_names, option_values, max_size=3))),
    "Rules.from_json": lambda d: Rules.from_json(
        d(st.one_of(json_values, st.dictionaries(option_names, option_values, max_size=3)))
    ),
    "Rules.to_json": lambda d: _state(d).rules.to_json(),
    "Rules.describe": lambda d: _state(d).rules.describe(),
    "Rules.side_of": lambda d: _state(d).rules.side_of(d(ints)),
    "Rules.sides": lambda d: _state(d).rules.sides,
    "Rules.values": lambda d: _state(d).rules.values,
    "Rules.max_build": lambda d: _state(d).rules.max_build,
    "Rules.deals_per_hand": lambda d: _state(d).rules.deals_per_hand,
    # View, HandScore
    "View.legal_moves": lambda d: view_of(s := _state(d), s.to_move).legal_moves(),
    "View.unseen": lambda d: view_of(s := _state(d), d(st.integers(0, s.players - 1))).unseen,
    "HandScore.breakdown": lambda d: RESULT.breakdown(d(ints)),
    "HandScore.checksum": lambda d: RESULT.checksum,
}
"""Each public function and method of the package root, by name, called with drawn arguments."""

EXEMPT = {
    "State": "the engine's own constructor, unchecked on the path of every search (documented): a "
    "position from outside is read by position_from_json, which the table tries",
    "State.push": "unchecked by design, the fast path (documented; play checks, and "
    "CASSINO_CHECK_PUSH=1 makes push check: test_a_debug_mode_checks_every_push)",
    "Game.push": "State.push for a game: unchecked by design, as State.push",
    "View": "a record made by view_of (tried above), holding what it is given",
    "HandScore": "a record made by the count, holding what it is given",
    "Forfeit": "a record made by Game.forfeit (tried above), holding what it is given",
    "Outcome": "a record made by Game.outcome (tried above), holding what it is given",
    "Build": "a named tuple: a plain value, whatever it holds",
}
"""Public callables not tried with bad arguments, and why."""


@st.composite
def _mutated(draw: st.DrawFn, position: dict[str, Any]) -> object:
    """A real position's JSON with one field given another value."""
    key = draw(st.sampled_from(sorted(position)))
    return {**position, key: draw(json_values)}


def _slots(cls: type) -> set[str]:
    """A class's ``__slots__`` (its fields), read from its source: a compiled class keeps none."""
    if hasattr(cls, "__slots__"):
        return set(cls.__slots__)
    tree = ast.parse(native.source_of(cls.__module__.removeprefix("cassino.")).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and any(getattr(t, "id", "") == "__slots__" for t in stmt.targets):
                    return set(ast.literal_eval(stmt.value))
    return set()


def _public_callables() -> set[str]:
    """Every public function of the root, and every public method, property and class method of
    its classes (not their fields, nor the errors), by name."""
    names: set[str] = set()
    for name in cassino.__all__:
        value = getattr(cassino, name)
        if not callable(value) or value is int or (isinstance(value, type) and issubclass(value, BaseException)):
            continue  # COMPILED, PRESETS, the aliases Card and CardMask, the errors
        names.add(name)
        if isinstance(value, type):
            fields = {*getattr(value, "__dataclass_fields__", ()), *_slots(value)}
            fields |= set(getattr(value, "_fields", ())) if issubclass(value, tuple) else set()
            names |= {f"{name}.{attr}" for attr in vars(value) if not attr.startswith("_") and attr not in fields}
    return names


def test_every_public_callable_is_covered() -> None:
    """The table tries every public callable of ``cassino.__all__``, or says why not."""
    public = _public_callables()
    assert not set(CALLS) & set(EXEMPT)
    assert public - set(CALLS) - set(EXEMPT) == set()
    assert set(CALLS) - public == {"Game.deck_source"}  # Game's deck_source argument, tried apart


@pytest.mark.parametrize("name", sorted(CALLS))
@PROPERTY
@given(data=st.data())
def test_the_root_raises_only_cassino_errors(name: str, data: st.DataObject) -> None:
    """Each call returns, or raises a ``CassinoError``: whatever else it raised fails the test."""
    with contextlib.suppress(CassinoError):
        _drained(CALLS[name](data.draw))


# ----------------------------------------------------------------------------- what used to leak


def test_undo_with_nothing_to_take_back() -> None:
    """``Game.undo`` raised IndexError, ``State.pop`` IndexError: now UndoError, saying why."""
    with pytest.raises(UndoError, match=r"^no move to take back: the game has had none$"):
        Game(seed=1).undo()
    with pytest.raises(UndoError, match=r"^no move to take back: none was pushed on this position$"):
        Game(seed=1).state.pop()


def test_a_seat_out_of_range_names_the_seats() -> None:
    state = Game(make_rules(players=3), seed=1).state
    for seat in (-1, 3, 10**20):
        with pytest.raises(SeatError, match=r"the seats are 0\.\.2 for 3 players"):
            view_of(state, seat)
    with pytest.raises(SeatError, match=r"^dealer seat 5 is out of range: the seats are 0\.\.1 for 2 players$"):
        Game(dealer=5)


def test_decks_and_scores_that_are_none() -> None:
    """A deck that is not the 52 cards, or scores not one per side, used to fail mid-hand."""
    for deck in ([1, 2, 3], [*range(51), 0], [*range(51), 52], ["a", 1]):
        with pytest.raises(DeckError, match=r"^a deck must hold each of the 52 cards \(0\.\.51\) exactly once$"):
            State.new_hand(Rules(), deck)  # type: ignore[arg-type]
    with pytest.raises(DeckError, match="not int"):
        Game(deck_source=lambda: 5)  # type: ignore[arg-type, return-value]
    with pytest.raises(ArgumentError, match=r"^scores must hold one number per side \(2\), got 3$"):
        State.new_hand(Rules(), seeded_deck(1), 0, (0, 0, 0))


def test_the_next_hand_before_this_one_is_over() -> None:
    with pytest.raises(NextHandError, match="the hand is not over"):
        Game(seed=1).next_hand()


def test_moves_that_are_none() -> None:
    """``Move(-1)`` used to make a move whose ``table_cards`` never returned, ``Move.trail(100)``
    another move than asked; a wrong type given as a move was a plain TypeError."""
    with pytest.raises(MoveError, match="names no kind, card or table cards"):
        Move(-1)
    with pytest.raises(MoveError, match=r"^card 100 is out of range: cards are 0\.\.51$"):
        Move.trail(100)
    with pytest.raises(MoveError, match=r"^value 16 is out of range"):
        Move.capture(3, 16, 1 << 5)
    with pytest.raises(MoveTypeError, match=r"not float$") as info:
        Game(seed=1).play(2.5)  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError) and isinstance(info.value, MoveError)
    with pytest.raises(CardError, match=r"^card 52 is out of range: cards are 0\.\.51$"):
        cassino.card_name(52)
    with pytest.raises(CardError, match="card -1 is out of range"):
        cassino.card_name(-1)


def test_rules_replace_names_an_unknown_option() -> None:
    with pytest.raises(RulesError, match=r"^unknown rule option 'bogus': known options are royal, "):
        Rules().replace(bogus=1)


def test_perft_refuses_a_negative_depth() -> None:
    with pytest.raises(ArgumentError, match=r"^depth must be 0 or more, got -1$"):
        cassino.perft(Game(seed=1).state, -1)


@pytest.mark.parametrize("on", [False, True])
def test_a_debug_mode_checks_every_push(on: bool) -> None:
    """``State.push`` stays unchecked (an illegal code corrupts the position: a seat held 5
    cards after ``push(123456789)``); ``CASSINO_CHECK_PUSH=1`` makes every push check, in the
    compiled engine as in the source."""
    code = (
        "import cassino\n"
        "s = cassino.Game(seed=1).state\n"
        "hand = s.hands[s.to_move]\n"
        "not_held = next(c for c in range(52) if not hand >> c & 1)\n"
        "for code in (123456789, cassino.Move.trail(not_held).code):\n"
        "    before = s.key()\n"
        "    try:\n"
        "        s.push(code)\n"
        "    except cassino.CassinoError as exc:\n"
        "        print('refused', type(exc).__name__, s.key() == before, exc)\n"
        "    else:\n"
        "        print('pushed', sorted(h.bit_count() for h in s.hands))\n"
        "        s.pop()\n"
    )
    env = {**os.environ, "CASSINO_CHECK_PUSH": "1" if on else ""}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    if on:
        assert done.stdout.splitlines() == [
            "refused IllegalMoveError True illegal move 'capture 2d 13: Ah As 2c 2d 2s 3c 3h 4c 4d 4h': "
            "2d is not in the hand of seat 1, the player to move",
            "refused IllegalMoveError True illegal move 'trail Ac': Ac is not in the hand of seat 1, the player to move",
        ]
    else:
        assert done.stdout.splitlines() == ["pushed [4, 5]", "pushed [4, 5]"]  # a card appears in a hand


def test_a_player_returning_no_move_is_both_errors() -> None:
    from cassino.players import decide
    from cassino.players.errors import PlayerChoiceError

    class Wrong:
        name = "wrong"

        def choose(self, view: View) -> str:
            return "trail 7d"

    with pytest.raises(PlayerChoiceError) as info:
        decide(Wrong(), Game(seed=1).state)  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError) and isinstance(info.value, CassinoError)


def test_position_errors_still_read_as_json() -> None:
    """The property above also reads positions: a sanity check that the strategy makes real ones."""
    state = Game(seed=4).state
    text = json.dumps(position_to_json(state))
    assert cassino.position_from_json(json.loads(text)) == state
    assert isinstance(RESULT, HandScore) and isinstance(IllegalMoveError("x", "y"), CassinoError)
