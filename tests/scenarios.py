"""Game situations that tests of the front ends need, found by searching seeds so that they do not
depend on how the computer players choose."""

from __future__ import annotations

from cassino.cards import cards_of
from cassino.moves import BUILD, MoveCode, format_code
from cassino.rules import make_rules
from cassino.state import State
from cassino.terminal.session import Session


def stuck_after_first_build(seat: int) -> tuple[int, MoveCode, State, int]:
    """A seed where ``seat`` makes its first possible build, still owns a build at its next turn in
    the same hand, and holds a card with no legal move: (seed, the build, that position, the card)."""
    rules = make_rules("classic")
    for seed in range(500):
        session = Session(rules, seed=seed, humans=(seat,), opponent="random")
        while not session.human_to_move():
            session.step_bot()
        builds = sorted((c for c in session.state.legal_codes() if c & 3 == BUILD), key=format_code)
        if not builds:
            continue
        session.play(builds[0])
        while not session.human_to_move():
            session.step_bot()
        state = session.state
        if len(session.game.hands) > 1 or all(owner != seat for _, _, owner in state.builds):
            continue
        legal = state.legal_codes()
        for card in cards_of(state.hands[seat]):
            if not any((m >> 2) & 63 == card for m in legal):
                return seed, builds[0], state, card
    raise AssertionError("no seed gives a card without a legal move")
