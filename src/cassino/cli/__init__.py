"""The ``cassino`` command: the engine contract of docs/notation.md (moves, perft, apply) and the apps.

The one package that may import every app: each subcommand turns its arguments into plain values
and hands them to its app, which never reads a command line itself.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from .. import __version__
from ..cards import DECK_SIZE
from ..errors import CassinoError, IllegalMoveError, PositionError
from ..movegen import count_moves, iter_sorted_moves
from ..moves import Move, MoveError
from ..native import describe
from ..notation import ascii_number, dumps_position, excerpt, position_to_line, read_position_text
from ..perft import iter_counts, iter_divide, moves_left, perft
from ..rules import RulesError
from ..state import State
from ..terminal.plain import run_plain
from ..terminal.replay import run_check, run_replay
from .arena import add_arena_arguments, run_arena_command
from .errors import ArenaUsageError, CliError
from .outputs import StatusLine, writable_folder
from .play import add_play_arguments, new_game_from_args, session_from_args, wants_plain
from .rules_args import add_rules_arguments, rules_from_args
from .tournament import add_tournament_arguments, run_tournament_command
from .verify import run_verify

__all__ = ["CliError", "build_parser", "main"]


def _position(text: str) -> State:
    """Read the POSITION argument, turning a bad position into a one-line user error."""
    try:
        return read_position_text(text)
    except PositionError as exc:
        raise CliError(f"bad position: {exc}") from None


BATCH_LINES = 4096
"""Lines written to standard output at a time: few writes, and little held."""


def _write_lines(lines: Iterable[str], batch: int = BATCH_LINES) -> None:
    """Stream lines to standard output: the first at once (a reader sees it whatever the rest
    costs), then ``batch`` lines per write, so that millions of lines never sit in memory."""
    out = sys.stdout
    pending: list[str] = []
    first = True
    for line in lines:
        pending.append(line)
        if first or len(pending) >= batch:
            out.write("\n".join(pending) + "\n")
            out.flush()
            pending.clear()
            first = False
    if pending:
        out.write("\n".join(pending) + "\n")


def cmd_moves(args: argparse.Namespace) -> None:
    """Print the legal moves, one canonical line each, sorted (streamed as they come)."""
    state = _position(args.position)
    _write_lines(line for line, _code in iter_sorted_moves(state))


def _depth(text: str) -> int:
    """The DEPTH argument: ASCII digits only (``int`` would also take ``٣``, ``+3`` or ``3_0``). A
    hand has at most 52 moves and perft is 0 past its end, so a longer number counts as 53: exact,
    and ``int`` is never asked for a number of thousands of digits."""
    negative = text.startswith("-")
    depth = ascii_number(text[1:] if negative else text, huge=DECK_SIZE + 1)
    if depth is None:
        raise CliError(f"depth must be a whole number written with the digits 0-9, got {excerpt(text)}")
    if negative and depth:
        raise CliError(f"depth must be 0 or more, got {excerpt(text, quote=False)}")
    return depth


def cmd_perft(args: argparse.Namespace) -> None:
    """Print the perft count (after the per-move counts with --divide, streamed as they come).

    While a count runs, standard error shows how many first moves are done when it is a terminal
    (and, with --divide, standard output is not: there the lines show it). Ctrl-C stops it at once
    (status 130): the compiled engine lets the interrupt in (``native.checkpoint``)."""
    state = _position(args.position)
    depth = _depth(args.depth)
    status = StatusLine(sys.stderr, enabled=depth > 1 and not (args.divide and sys.stdout.isatty()))
    try:
        if args.divide and depth > 0:
            _perft_divide(state, depth, status)
        else:
            print(_perft_total(state, depth, status))
    finally:
        status.clear()


def _perft_divide(state: State, depth: int, status: StatusLine) -> None:
    """``perft --divide``: a line per first move, in the lines' order, then the total."""
    total = 0
    first = count_moves(state) if status.enabled else 0
    started = time.monotonic()
    status.show(f"perft {depth} --divide: 0 of {first} first moves")

    def rows() -> Iterable[str]:
        nonlocal total
        for done, (line, n) in enumerate(iter_divide(state, depth), 1):
            total += n
            status.show(f"perft {depth} --divide: {done} of {first} first moves, {time.monotonic() - started:.0f} s")
            yield f"{line}: {n}"

    # Deeper than 1, each line costs a search of its own: show each as soon as it is counted.
    _write_lines(rows(), BATCH_LINES if depth == 1 else 1)
    status.clear()
    print(total)


def _perft_total(state: State, depth: int, status: StatusLine) -> int:
    """The perft count; with a status line, first move by first move, the line saying how far."""
    if not status.enabled or not 1 < depth <= moves_left(state):
        return perft(state, depth)
    first = count_moves(state)
    started = time.monotonic()
    status.show(f"perft {depth}: 0 of {first} first moves")
    total = 0
    for done, count in enumerate(iter_counts(state, depth), 1):
        total += count
        status.show(f"perft {depth}: {done} of {first} first moves, {total} so far, {time.monotonic() - started:.0f} s")
    return total


def cmd_apply(args: argparse.Namespace) -> None:
    """Apply moves in order and print the resulting position as JSON; each move a canonical line,
    a sentence as the game writes it, or a card or rank with one legal move (``Move.parse_words``)."""
    state = _position(args.position)
    for i, text in enumerate(args.moves, 1):
        try:
            code = Move.parse_words(text, state).code
            state.play(code)
        except (MoveError, IllegalMoveError) as exc:
            raise CliError(f"move {i} of {len(args.moves)}: {exc}") from None
    print(position_to_line(state) if args.line else dumps_position(state))


SEED_DIGITS = 40
"""The most digits ``--seed`` takes: more than any seed needs, few enough to refuse a pasted file."""


def _seed(text: str) -> int:
    """The ``--seed`` argument: a whole number in the digits 0-9 (``int`` would take ``٣`` or ``-3``)."""
    if not (text.isascii() and text.isdigit()):
        raise CliError(f"--seed must be a whole number written with the digits 0-9, got {excerpt(text)}")
    if len(text.lstrip("0")) > SEED_DIGITS:
        raise CliError(f"--seed has more than {SEED_DIGITS} digits: {excerpt(text)}")
    return int(text)


def cmd_new(args: argparse.Namespace) -> None:
    """Print a dealt start position; without ``--seed`` a random seed, told on standard error so
    that the deal can be made again."""
    try:
        rules = rules_from_args(args)
    except RulesError as exc:
        raise CliError(str(exc)) from None
    dealer = ascii_number(args.dealer)
    if dealer is None or not 0 <= dealer < rules.players:
        raise CliError(
            f"--dealer must be a seat 0..{rules.players - 1} for {rules.players} players, got {excerpt(args.dealer)}"
        )
    seed = secrets.randbelow(2**32) if args.seed is None else _seed(args.seed)
    state = State.new(rules, seed, dealer)
    print(position_to_line(state) if args.line else dumps_position(state))
    if args.seed is None:
        print(f"cassino new: seed {seed} (--seed {seed} deals this position again)", file=sys.stderr)


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
        raise SystemExit(2)


def cmd_record_check(args: argparse.Namespace) -> None:
    """Validate game records: a report line per record or problem on standard output; a record
    that does not check out is a user error (one line on standard error, status 2)."""
    bad = run_check(args.files)
    if bad:
        raise CliError(f"{bad} of {len(args.files)} records did not check out: see their problems on standard output")


def cmd_verify(args: argparse.Namespace) -> None:
    """Check a finished web game's record file end to end: a line per hand, then the verdict;
    status 1 when something does not verify (a file that is not such a record: status 2)."""
    if not run_verify(args.file, args.mine):
        raise SystemExit(1)


def cmd_arena(args: argparse.Namespace) -> None:
    """Play a match or round robin between computer players and report it."""
    try:
        run_arena_command(args)
    except ArenaUsageError as exc:
        raise CliError(str(exc)) from None


def cmd_tournament(args: argparse.Namespace) -> None:
    """Play a Swiss or arena tournament between players and report it."""
    run_tournament_command(args)


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
    if args.bot_workers is not None and not 0 <= args.bot_workers <= 64:
        raise CliError(f"--bot-workers must be 0 to 64 (0: think in threads), got {args.bot_workers}")
    if args.expire_after is not None and args.expire_after <= 0:
        raise CliError(f"--expire-after must be more than 0 seconds, got {args.expire_after:g}")
    if args.grace is not None and not 0 <= args.grace <= 86400:
        raise CliError(f"--grace must be 0 to 86400 seconds, got {args.grace:g}")
    if not abs(args.clock_offset) <= 10 * 365 * 86400:
        raise CliError(f"--clock-offset must be within ten years of now, got {args.clock_offset:g} seconds")
    if args.database is None:  # SQLite in a folder: checked now, not when the first game is stored
        from ..web.store import default_data_dir

        if args.data_dir is not None:
            writable_folder(args.data_dir, "--data-dir")
        else:
            writable_folder(default_data_dir(), "the data folder (--data-dir)")
    extra: dict[str, Any] = {"rate_limits": not args.no_rate_limits}
    if args.bot_workers is not None:
        extra["bot_workers"] = args.bot_workers
    if args.expire_after is not None:
        extra["expire_after"] = args.expire_after
    if args.grace is not None:
        extra["grace"] = args.grace
    if args.clock_offset:
        extra["clock_offset"] = args.clock_offset
    if args.allow_bots is not None:
        extra["programs"] = _programs(args)
    run_server(args.host, args.port, args.database, args.data_dir, args.bot_delay, args.durable, **extra)


def cmd_site(args: argparse.Namespace) -> None:
    """Write the page that plays offline as a static site."""
    try:
        from ..web.site import write_site  # only here: the catalogues need the web extra
    except ImportError as exc:
        raise CliError(f"the offline site needs the web extra: pip install 'cassino[web]' ({exc})") from None
    folder: Path = args.folder
    if folder.exists() and not folder.is_dir():
        raise CliError(f"{folder} is a file, not a folder: name a folder to write the site into")
    try:
        written = write_site(folder)
    except OSError as exc:
        raise CliError(f"cannot write the site into {folder}: {exc.strerror or exc}") from None
    print(f"cassino: wrote {written} files into {folder}: serve that folder with any static web server")


def _programs(args: argparse.Namespace) -> Any:
    """The folder of bot programs ``--allow-bots`` names, with their limits, checked before the
    server starts (a ``web.programs.Programs``)."""
    from ..web.programs import Programs

    folder: Path = args.allow_bots
    if not folder.is_dir():
        raise CliError(f"--allow-bots must name a folder of bot programs, and {folder} is none")
    if not args.bot_time > 0:
        raise CliError(f"--bot-time must be more than 0 seconds, got {args.bot_time:g}")
    if args.bot_memory < 16:
        raise CliError(f"--bot-memory must be at least 16 MiB, got {args.bot_memory}")
    return Programs(folder.resolve(), seconds=args.bot_time, memory=args.bot_memory)


class _Parser(argparse.ArgumentParser):
    """argparse with the one-line errors of every other user error (status 2): ``cassino perft:
    the following arguments are required: depth (see cassino perft --help)``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


POSITION_HELP = "position JSON text, a one-line position, a file holding either, or - for standard input"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``cassino`` command."""
    parser = _Parser(prog="cassino", description="Casino (Cassino), the card game: engine and apps.")
    parser.add_argument(
        "--version",
        action="version",
        version=f"cassino {__version__} ({describe()})",
        help="the version and engine build",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("new", help="deal a start position from a seeded shuffle")
    add_rules_arguments(p)
    p.add_argument(
        "--seed", default=None, help="shuffle seed, digits 0-9 (random, and told on standard error, if omitted)"
    )
    p.add_argument("--dealer", default="0", help="the dealer's seat (default 0)")
    p.add_argument("--line", action="store_true", help="print the one-line position instead of JSON")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("moves", help="list the legal moves of a position")
    p.add_argument("position", help=POSITION_HELP)
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("perft", help="count move sequences of a given depth")
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument("depth", help="moves per sequence: 0 or more, in the digits 0-9")
    p.add_argument("--divide", action="store_true", help="also print the count under each legal move")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("apply", help="apply moves and print the resulting position")
    p.add_argument("position", help=POSITION_HELP)
    p.add_argument(
        "moves",
        nargs="+",
        metavar="MOVE",
        help="a canonical line, a sentence as the game writes it, or a card or rank alone",
    )
    p.add_argument("--line", action="store_true", help="print the one-line position instead of JSON")
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

    p = sub.add_parser("verify", help="check a finished web game's deals, moves and scores end to end")
    p.add_argument("file", metavar="FILE", help="the JSON of GET /api/games/ID/record, or - for standard input")
    p.add_argument(
        "--mine",
        action="append",
        default=[],
        metavar="HAND:SEAT:VALUE",
        help="check that the contribution you sent for a hand and seat (64 hex digits) is the one used (repeatable)",
    )
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("arena", help="matches and round-robin tournaments between computer players")
    add_arena_arguments(p)
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser("tournament", help="Swiss and arena tournaments, every table of a round on the same cards")
    add_tournament_arguments(p)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("serve", help="play in the browser: the multiplayer web app")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--database", default=None, help="database URL, e.g. postgresql://user@host/db (default SQLite)")
    p.add_argument("--data-dir", type=Path, default=None, help="folder of the default SQLite database")
    p.add_argument("--bot-delay", type=float, default=0.5, help="seconds a computer player waits before moving")
    p.add_argument(
        "--durable", action="store_true", help="every move waits for the disk (survives a power cut; slower)"
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="worker processes the computer players and the coach think in (default: the cores but one, at most 4)",
    )
    p.add_argument(
        "--expire-after",
        type=float,
        default=None,
        metavar="SECONDS",
        help="abandon a game nobody has moved in for this long (default 259200: 3 days)",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long one who left a rated game has to come back before the others may claim it (default 180)",
    )
    p.add_argument(
        "--clock-offset",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="behave as if this much time had passed (for tests and outside checks: the daily deal's day, "
        "its reveal, every deadline)",
    )
    p.add_argument(
        "--allow-bots",
        type=Path,
        default=None,
        metavar="DIR",
        help="let a game's creator seat the bot programs of this folder (bot:FILE; docs/bots.md), each run "
        "in a process of its own under --bot-time and --bot-memory",
    )
    p.add_argument(
        "--bot-time", type=float, default=2.0, metavar="SECONDS", help="wall clock a bot program has for a move (2)"
    )
    p.add_argument(
        "--bot-memory", type=int, default=512, metavar="MIB", help="memory a bot program may use, in MiB (512)"
    )
    p.add_argument(
        "--no-rate-limits",
        action="store_true",
        help="let each client create games and move without limit (load tests from one address only)",
    )
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("site", help="write the page that plays offline (the engine in the page) as a static site")
    p.add_argument("folder", type=Path, metavar="DIR", help="folder to write it into (made if need be)")
    p.set_defaults(func=cmd_site)
    return parser


def _quiet_stdout() -> None:
    """After a closed pipe (``cassino moves ... | head -1``), send what is left to /dev/null, so
    that the flush at exit does not print a traceback-like warning."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind standard output (tests): nothing to flush
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; user errors print one clear line and exit with status 2.

    Beyond ``CliError``: any error of the package that reaches here is the input's fault too, and
    input nested too deeply or too large to read is refused in the same way, never a traceback."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except CassinoError as exc:  # CliError, and any other error an app lets through
        message = str(exc)
    except RecursionError:
        message = "the input is nested too deeply to read"
    except MemoryError:
        message = "the input is too large to read into memory"
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    else:
        return 0
    command = " ".join(filter(None, (args.command, getattr(args, "record_command", None))))
    print(f"cassino {command}: {message}", file=sys.stderr)
    return 2
