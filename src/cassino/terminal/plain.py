"""``cassino play --plain``: a whole game in plain text lines, for simple terminals and screen readers.

Each turn prints the table (builds with value, kind and owner), your hand, the scores and deal, the
other players' last moves and the numbered legal moves; you answer with a number or a move in
notation. ``h`` gives a hint, ``t`` the trackers of your side's cards and spades, ``q`` quits.
The game's record is saved at the end (and when you quit).
"""

from __future__ import annotations

import sys
from typing import TextIO

from ..cards import format_cards
from ..errors import IllegalMoveError
from ..explain import explain_card
from ..moves import MoveError, format_code, parse_code
from .session import Session
from .table_text import describe_table, game_summary, hand_summary


def run_plain(session: Session, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Play one game in line mode, the person in the session's first human seat; returns the
    winning side, or -1 when abandoned."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    me = session.humans[0]

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(f"Casino: {session.rules.describe()}. Seed {session.seed}. You are seat {me}.")
    say("Answer with a move number or a move in notation; h: hint, t: trackers, q: quit.")
    shown_hands = 0
    hand_number = 0
    while not session.over:
        if len(session.game.hands) != hand_number:
            hand_number = len(session.game.hands)
            state = session.state
            say(f"\n=== Hand {hand_number}, dealer seat {state.dealer}, scores {list(state.scores)} ===")
        if not session.human_to_move():
            step = session.step_bot()
            assert step is not None
            say(f"seat {step[0]} ({session.names[step[0]]}) plays: {format_code(step[1])}")
        else:
            code = _ask(session, me, say, out, inp)
            if code is None:
                if session.save_dir is not None:
                    say(f"Game abandoned; record saved to {session.save()}.")
                else:
                    say("Game abandoned.")
                return -1
            session.play(code)
        while shown_hands < len(session.finished):
            for line in hand_summary(session, session.finished[shown_hands]):
                say(line)
            shown_hands += 1
    for line in game_summary(session):
        say(line)
    return session.game.winner


def _ask(session: Session, me: int, say: object, out: TextIO, inp: TextIO) -> int | None:
    """Show the position to the person to move and read a legal move (None: quit)."""
    assert callable(say)
    state = session.state
    say(f"\nDeal {state.deal_number()}{' (last deal)' if state.last_deal else ''}. Table:")
    for line in describe_table(state):
        say(line)
    for seat in range(session.rules.players):
        if seat != me:
            last = session.last_moves.get(seat, "-")
            say(f"  seat {seat} ({session.names[seat]}): {state.hands[seat].bit_count()} cards; last move: {last}")
    say(f"Scores: {list(state.scores)}. Your hand: {format_cards(state.hands[me])}")
    moves = state.legal_moves()
    for i, m in enumerate(moves, 1):
        say(f"  {i:2d}. {m}")
    while True:
        print("> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if text in ("q", "quit"):
            return None
        if text in ("h", "hint"):
            say(f"hint: {format_code(session.hint())}")
            continue
        if text in ("t", "trackers"):
            cards, spades = session.side_tracker(me)
            say(f"your side has taken {cards} cards and {spades} spades this hand")
            continue
        if text.isdigit() and not 1 <= int(text) <= len(moves):
            say(f"not possible: there is no move number {text}; choose 1 to {len(moves)}")
            continue
        if len(text) in (2, 3) and not text.isdigit():
            # A card alone: list what it can do, or say why it can do nothing.
            reply = explain_card(state, text)
            if reply is not None:
                say(reply)
                continue
        try:
            code = moves[int(text) - 1].code if text.isdigit() else parse_code(text)
            state.verify(code)
        except (MoveError, IllegalMoveError) as exc:
            say(f"not possible: {exc}")
            continue
        return code
