"""The ``cassino`` command: the engine contract of docs/notation.md (moves, perft, apply) and the apps.

The one package that may import every app: each subcommand turns its arguments into plain values
and hands them to its app, which never reads a command line itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import CliError, IllegalMoveError, PositionError
from ..moves import MoveError, format_code, parse_code
from ..notation import dumps_position, read_position_text
from ..perft import divide, perft
from ..rules import RulesError
from ..state import State
from ..terminal.plain import run_plain
from ..terminal.replay import run_check, run_replay
from .arena import ArenaUsageError, add_arena_arguments, run_arena_command
from .play import add_play_arguments, new_game_from_args, session_from_args, wants_plain

__all__ = ["CliError", "build_parser", "main"]


def _position(text: str) -> State:
    """Read the POSITION argument, turning a bad position into a one-line user error."""
    try:
        return read_position_text(text)
    except PositionError as exc:
        raise CliError(f"bad position: {exc}") from None


def cmd_moves(args: argparse.Namespace) -> None:
    """Print the legal moves, one canonical line each, sorted."""
    state = _position(args.position)
    lines = sorted(format_code(c) for c in state.legal_codes())
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")


def cmd_perft(args: argparse.Namespace) -> None:
    """Print the perft count (after the per-move counts with --divide)."""
    state = _position(args.position)
    if args.depth < 0:
        raise CliError(f"depth must be 0 or more, got {args.depth}")
    if args.divide and args.depth > 0:
        rows = divide(state, args.depth)
        for line, n in rows:
            print(f"{line}: {n}")
        print(sum(n for _, n in rows))
    else:
        print(perft(state, args.depth))


def cmd_apply(args: argparse.Namespace) -> None:
    """Apply moves in order and print the resulting position as JSON."""
    state = _position(args.position)
    for i, text in enumerate(args.moves, 1):
        try:
            code = parse_code(text)
            state.play(code)
        except (MoveError, IllegalMoveError) as exc:
            raise CliError(f"move {i} of {len(args.moves)}: {exc}") from None
    print(dumps_position(state))


def cmd_play(args: argparse.Namespace) -> None:
    """Play a game in the terminal: full screen, or plain lines with --plain, off a terminal, or
    without Textual."""
    if not wants_plain(args, sys.stdin.isatty(), sys.stdout.isatty()):
        try:
            new_game = new_game_from_args(args)
        except (RulesError, ValueError) as exc:
            raise CliError(str(exc)) from None
        try:
            from ..terminal.fullscreen import run_fullscreen  # only here: it needs Textual
        except ImportError:
            print(
                "The full-screen game needs Textual (pip install 'cassino[tui]'); using plain lines.", file=sys.stderr
            )
        else:
            run_fullscreen(new_game, setup=not args.no_setup, ascii=args.ascii)
            return
    try:
        session = session_from_args(args)
    except (RulesError, ValueError) as exc:
        # The line mode exits here itself (SystemExit), as it always has, rather than through main.
        print(f"cassino play: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        run_plain(session, ascii=args.ascii)
    except KeyboardInterrupt:
        print("\nGame abandoned.", file=sys.stderr)
        raise SystemExit(130) from None


def cmd_replay(args: argparse.Namespace) -> None:
    """Step through a recorded game (forward, back, to a hand) or, with --no-pause or off a
    terminal, print it whole."""
    pause = not args.no_pause and sys.stdin.isatty()
    try:
        failed = run_replay(args.file, pause, ascii=args.ascii)
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    if failed:
        raise SystemExit(1)


def cmd_record_check(args: argparse.Namespace) -> None:
    """Validate game records."""
    if run_check(args.files):
        raise SystemExit(1)


def cmd_arena(args: argparse.Namespace) -> None:
    """Play a match or round robin between computer players and report it."""
    try:
        run_arena_command(args)
    except ArenaUsageError as exc:
        raise CliError(str(exc)) from None


def cmd_serve(args: argparse.Namespace) -> None:
    """Serve the game in the browser."""
    try:
        from ..web import run_server  # only here: it needs the web extra
    except ImportError as exc:
        raise CliError(f"the web app needs its extra: pip install 'cassino[web]' ({exc})") from None
    if not 0 < args.port < 65536:
        raise CliError(f"--port must be 1..65535, got {args.port}")
    if args.bot_delay < 0:
        raise CliError(f"--bot-delay must be 0 or more seconds, got {args.bot_delay}")
    run_server(args.host, args.port, args.database, args.data_dir, args.bot_delay, args.durable)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``cassino`` command."""
    parser = argparse.ArgumentParser(prog="cassino", description="Casino (Cassino), the card game: engine and apps.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("moves", help="list the legal moves of a position")
    p.add_argument("position", help="position JSON text, a file holding it, or - for standard input")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("perft", help="count move sequences of a given depth")
    p.add_argument("position", help="position JSON text, a file holding it, or - for standard input")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="also print the count under each legal move")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("apply", help="apply moves and print the resulting position")
    p.add_argument("position", help="position JSON text, a file holding it, or - for standard input")
    p.add_argument("moves", nargs="+", metavar="MOVE")
    p.set_defaults(func=cmd_apply)

    p = sub.add_parser("play", help="play a game in the terminal")
    add_play_arguments(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help="step through a recorded game with every hand revealed")
    p.add_argument("file", type=Path, help="a game record")
    p.add_argument(
        "--no-pause",
        action="store_true",
        help="print the whole game at once; otherwise answer after each step: Enter or n the next move, "
        "b back one, N the start of hand N, N.M hand N after move M, ? help, q stop",
    )
    p.add_argument("--ascii", action="store_true", help="suits as letters (10d, As) instead of suit symbols")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("record", help="game records")
    rsub = p.add_subparsers(dest="record_command", required=True, metavar="ACTION")
    r = rsub.add_parser("check", help="validate records move by move")
    r.add_argument("files", type=Path, nargs="+", metavar="FILE")
    r.set_defaults(func=cmd_record_check)

    p = sub.add_parser("arena", help="matches and round-robin tournaments between computer players")
    add_arena_arguments(p)
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("serve", help="play in the browser: the multiplayer web app")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--database", default=None, help="database URL, e.g. postgresql://user@host/db (default SQLite)")
    p.add_argument("--data-dir", type=Path, default=None, help="folder of the default SQLite database")
    p.add_argument("--bot-delay", type=float, default=0.5, help="seconds a computer player waits before moving")
    p.add_argument(
        "--durable", action="store_true", help="every move waits for the disk (survives a power cut; slower)"
    )
    p.set_defaults(func=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; user errors print one clear line and exit with status 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except CliError as exc:
        print(f"cassino {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return 0
