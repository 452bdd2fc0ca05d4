"""``cassino play``: a whole game in plain text lines against computer players.

Plain lines work in any terminal and with screen readers: the table, builds with value, kind and
owner, your hand and the numbered legal moves are printed each turn; you answer with a number or a
move in notation.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .cards import format_cards
from .errors import IllegalMoveError
from .game import Game
from .moves import MoveError, format_code, parse_code
from .players import make_player, player_names
from .rules import OPTION_NAMES, PRESETS, Rules, RulesError, make_rules
from .state import State
from .view import view_of


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``cassino play``: rules, seats, opponents and seed."""
    p.add_argument("--preset", default="classic", choices=sorted(PRESETS), help="rule preset (default classic)")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="number of players (default 2)")
    p.add_argument("--partnerships", action="store_true", help="4 players in two teams (seats 0+2 and 1+3)")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"set a rule option on top of the preset; options: {', '.join(OPTION_NAMES)}",
    )
    p.add_argument(
        "--opponent", default="random", help=f"computer player for the other seats ({', '.join(player_names())})"
    )
    p.add_argument("--seed", type=int, default=None, help="shuffle seed (random if omitted)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--plain", action="store_true", help="line mode for simple terminals and screen readers")


def parse_option(text: str) -> tuple[str, object]:
    """``name=value`` with value read as a bool, an int or a word."""
    if "=" not in text:
        raise RulesError(f"option {text!r} must be written NAME=VALUE, e.g. sweeps=false")
    name, raw = (s.strip() for s in text.split("=", 1))
    low = raw.lower()
    value: object
    if low in ("true", "yes", "on"):
        value = True
    elif low in ("false", "no", "off"):
        value = False
    elif raw.isdigit():
        value = int(raw)
    else:
        value = raw
    return name, value


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set chosen on the command line."""
    options = dict(parse_option(o) for o in args.option)
    for name, flag in (("preset", "--preset"), ("players", "--players"), ("partnerships", "--partnerships")):
        if name in options:
            raise RulesError(f"{name} is not a rule option: choose it with {flag}")
    rules = make_rules(args.preset, players=args.players, partnerships=args.partnerships, **options)
    if not 0 <= args.seat < rules.players:
        raise RulesError(f"--seat must be a seat 0..{rules.players - 1} for {rules.players} players, got {args.seat}")
    return rules


def describe_table(state: State) -> list[str]:
    """The table as lines: loose cards, then each build with value, kind and owner."""
    lines = [f"  loose: {format_cards(state.loose) or '(none)'}"]
    for mask, value, owner in state.builds:
        single = sum(state.values[c] for c in range(52) if mask >> c & 1) == value
        lines.append(f"  build {value} ({'single' if single else 'multiple'}, seat {owner}): {format_cards(mask)}")
    return lines


def run_plain(args: argparse.Namespace, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Play one game in line mode; returns the winning side."""
    out = out or sys.stdout
    inp = inp or sys.stdin
    try:
        rules = rules_from_args(args)
        bots = {
            s: make_player(args.opponent, None if args.seed is None else args.seed + s)
            for s in range(rules.players)
            if s != args.seat
        }
    except (RulesError, ValueError) as exc:
        print(f"cassino play: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    game = Game(rules, seed=args.seed)
    me = args.seat

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(
        f"Casino: {rules.describe()}. You are seat {me}. Type a move number, a move in notation, h for a hint, q to quit."
    )
    hand_index = -1
    while not game.over:
        state = game.state
        if len(game.hands) - 1 != hand_index:
            hand_index = len(game.hands) - 1
            say(f"\n=== Hand {hand_index + 1}, dealer seat {state.dealer}, scores {list(state.scores)} ===")
        seat = state.to_move
        if seat != me:
            code = bots[seat].choose(view_of(state, seat))
            say(f"seat {seat} plays: {format_code(code)}")
            _push(game, code, say)
            continue
        say(f"\nDeal {state.deal_number()}{' (last deal)' if state.last_deal else ''}. Table:")
        for line in describe_table(state):
            say(line)
        say(f"Your hand: {format_cards(state.hands[me])}")
        moves = state.legal_moves()
        for i, m in enumerate(moves, 1):
            say(f"  {i:2d}. {m}")
        while True:
            print("> ", end="", file=out, flush=True)
            line = inp.readline()
            if not line:
                say("\nEnd of input: game abandoned.")
                return -1
            text = line.strip()
            if text in ("q", "quit"):
                say("Game abandoned.")
                return -1
            if text in ("h", "hint"):
                hint = make_player("greedy", 0).choose(view_of(state, me))
                say(f"hint: {format_code(hint)}")
                continue
            if text.isdigit() and not 1 <= int(text) <= len(moves):
                say(f"not possible: there is no move number {text}; choose 1 to {len(moves)}")
                continue
            try:
                code = moves[int(text) - 1].code if text.isdigit() else parse_code(text)
                state.verify(code)
            except (MoveError, IllegalMoveError) as exc:
                say(f"not possible: {exc}")
                continue
            break
        _push(game, code, say)
    say(f"\nGame over. Final scores {list(game.scores)}; side {game.winner} wins.")
    return game.winner


def _push(game: Game, code: int, say: object) -> None:
    """Play a move and report the end of a hand with its score breakdown."""
    state = game.state
    game.push(code)
    if state.hand_over and state.result is not None:
        result = state.result
        assert callable(say)
        say("Hand over. Score per side:")
        for side in range(state.rules.sides):
            parts = ", ".join(f"{k} {v}" for k, v in result.breakdown(side).items())
            say(f"  side {side}: {parts}; total {result.points[side]}")
        say(f"  (checksum {result.checksum}; scores now {list(state.scores)})")
