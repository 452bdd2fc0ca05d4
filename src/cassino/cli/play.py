"""``cassino play``'s arguments, turned into the plain values the terminal game starts from."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from ..learn import TUTORIAL_RULES
from ..players import LEVELS, make_player, player_names
from ..players.base import close_player
from ..rules import Rules, RulesError, make_rules
from ..terminal.newgame import DEFAULT_OPPONENT, NewGame
from ..terminal.records import default_save_dir
from ..terminal.session import Session
from .outputs import writable_folder
from .rules_args import add_rules_arguments
from .rules_args import rules_from_args as rules_of_args


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``cassino play``: rules, seats, opponents, seed, teaching and where records go."""
    add_rules_arguments(p)
    levels = ", ".join(level.name for level in LEVELS)
    others = ", ".join(name for name in player_names() if name not in {level.name for level in LEVELS})
    p.add_argument(
        "--opponent",
        default=None,
        help=f"computer player for the other seats: a level, gentlest first ({levels}; default {DEFAULT_OPPONENT}), "
        f"or any player spec ({others}, e.g. search:worlds=100; bot:PATH, a program speaking the bot protocol of "
        "docs/bots.md; MODULE:CLASS or FILE.py[:CLASS], a Python class)",
    )
    p.add_argument(
        "--tutorial",
        action="store_true",
        help="a guided first game: the classic game for two against the gentlest level, each lesson told "
        "when its idea first comes up, and the coach",
    )
    p.add_argument(
        "--coach", action="store_true", help="after each of your moves, say when another was clearly better, and why"
    )
    p.add_argument("--seed", type=int, default=None, help="shuffle seed (random if omitted)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument(
        "--save-dir", type=Path, default=None, help=f"where game records are saved (default {default_save_dir()})"
    )
    p.add_argument("--no-save", action="store_true", help="do not save the game record")
    screen = p.add_mutually_exclusive_group()
    screen.add_argument(
        "--plain",
        action="store_true",
        help="plain lines for simple terminals and screen readers (the default when input or output is not a terminal)",
    )
    screen.add_argument("--fullscreen", action="store_true", help="the full screen even when not on a terminal")
    p.add_argument("--ascii", action="store_true", help="suits as letters (10d, As) instead of suit symbols")
    p.add_argument("--no-setup", action="store_true", help="full screen: start at once, skipping the variant builder")


def wants_plain(args: argparse.Namespace, stdin_tty: bool, stdout_tty: bool) -> bool:
    """Plain lines when asked for, or when not both ends are a terminal (a pipe or a script must
    never start the full screen and hang), unless the full screen is asked for."""
    if args.plain or args.fullscreen:
        return bool(args.plain)
    return not (stdin_tty and stdout_tty)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set chosen on the command line, with the seat checked against it."""
    rules = rules_of_args(args)
    if not 0 <= args.seat < rules.players:
        raise RulesError(f"--seat must be a seat 0..{rules.players - 1} for {rules.players} players, got {args.seat}")
    return rules


def new_game_from_args(args: argparse.Namespace) -> NewGame:
    """The game the command line asks for (RulesError says what is wrong with its rules or seat,
    PlayerSpecError with an opponent, CliError with the save folder, which is checked now rather
    than when the game ends). The tutorial is the library's first game: rule options may go on top
    of it (a lower target, say), but not another preset or table."""
    rules = rules_from_args(args)
    if args.no_save:
        save_dir = None
    elif args.save_dir is not None:
        save_dir = writable_folder(args.save_dir, "--save-dir")
    else:
        save_dir = writable_folder(default_save_dir(), "the save folder (--save-dir; or --no-save)")
    if args.tutorial:
        if make_rules(args.preset, players=args.players, partnerships=args.partnerships) != TUTORIAL_RULES:
            raise RulesError("the tutorial is the classic game for two: only rule options (-o) change it")
        game = NewGame.guided(rules, seat=args.seat, seed=args.seed, save_dir=save_dir)
    else:
        game = NewGame(rules, seat=args.seat, seed=args.seed, save_dir=save_dir, coach=args.coach)
    if args.opponent is not None:
        close_player(make_player(args.opponent, 0))  # PlayerSpecError now, not when the game starts
        game = dataclasses.replace(game, opponent=args.opponent)
    return game


def session_from_args(args: argparse.Namespace) -> Session:
    """The game session the command line asks for (errors as RulesError or ValueError)."""
    return new_game_from_args(args).session()
