"""``cassino play --plain``: a whole game in plain text lines, for simple terminals and screen readers.

Each turn prints the table (builds with value, kind and owner), your hand, the scores and deal, the
other players' last moves and the numbered legal moves; you answer with a number or a move in
notation. ``h`` gives a hint, ``t`` the trackers of your side's cards and spades, ``q`` quits.
The game's record is saved at the end (and when you quit).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from .cards import format_cards
from .cli_rules import add_rules_arguments
from .cli_rules import rules_from_args as rules_of_args
from .errors import IllegalMoveError
from .explain import explain_card
from .moves import MoveError, format_code, parse_code
from .players import player_names
from .rules import Rules, RulesError
from .session import FinishedHand, Session, default_save_dir
from .state import State


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``cassino play``: rules, seats, opponents, seed and where records go."""
    add_rules_arguments(p)
    p.add_argument(
        "--opponent", default="heuristic", help=f"computer player for the other seats ({', '.join(player_names())})"
    )
    p.add_argument("--seed", type=int, default=None, help="shuffle seed (random if omitted)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument(
        "--save-dir", type=Path, default=None, help=f"where game records are saved (default {default_save_dir()})"
    )
    p.add_argument("--no-save", action="store_true", help="do not save the game record")
    p.add_argument("--plain", action="store_true", help="line mode for simple terminals and screen readers")
    p.add_argument("--no-setup", action="store_true", help="full screen: start at once, skipping the variant builder")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set chosen on the command line, with the seat checked against it."""
    rules = rules_of_args(args)
    if not 0 <= args.seat < rules.players:
        raise RulesError(f"--seat must be a seat 0..{rules.players - 1} for {rules.players} players, got {args.seat}")
    return rules


def session_from_args(args: argparse.Namespace) -> Session:
    """The game session the command line asks for (errors as RulesError or ValueError)."""
    rules = rules_from_args(args)
    save_dir = None if args.no_save else (args.save_dir or default_save_dir())
    return Session(rules, seed=args.seed, humans=(args.seat,), opponent=args.opponent, save_dir=save_dir)


def describe_table(state: State) -> list[str]:
    """The table as lines: loose cards, then each build with value, kind and owner."""
    lines = [f"  loose: {format_cards(state.loose) or '(none)'}"]
    for mask, value, owner in state.builds:
        single = sum(state.values[c] for c in range(52) if mask >> c & 1) == value
        lines.append(
            f"  build {value} ({'single' if single else 'multiple'}, owner seat {owner}): {format_cards(mask)}"
        )
    return lines


def hand_summary(session: Session, done: FinishedHand) -> list[str]:
    """The score breakdown of a finished hand, one line per side, then the checksum."""
    rules = session.rules
    lines = [f"Hand {done.number} over. Score per side:"]
    for side in range(rules.sides):
        parts = ", ".join(f"{k} {v}" for k, v in done.result.breakdown(side).items())
        lines.append(f"  {session.side_name(side)}: {parts}; hand {done.result.points[side]}, game {done.scores[side]}")
    sweeps = sum(1 for i in done.result.items if i.category == "sweeps")
    lines.append(f"  checksum: {done.result.checksum} points without sweeps, {sweeps} scored sweep(s)")
    return lines


def game_summary(session: Session) -> list[str]:
    """The end of the game: final scores, the winner, hands played, where the record went."""
    game = session.game
    lines = [f"Game over after {len(game.hands)} hand(s)."]
    for side in range(session.rules.sides):
        lines.append(f"  {session.side_name(side)}: {game.scores[side]}")
    lines.append(f"Winner: {session.side_name(game.winner)}.")
    if session.saved_path is not None:
        lines.append(f"Record saved to {session.saved_path} (replay it with: cassino replay {session.saved_path})")
    return lines


def run_plain(args: argparse.Namespace, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Play one game in line mode; returns the winning side, or -1 when abandoned."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    try:
        session = session_from_args(args)
    except (RulesError, ValueError) as exc:
        print(f"cassino play: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    me = args.seat

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
