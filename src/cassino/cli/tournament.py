"""``cassino tournament``: its arguments, the players file, and the command from parsed arguments to
printed standings and the arena's report files."""

from __future__ import annotations

import argparse
import math
import secrets
import sys
from pathlib import Path

from ..arena.executors import make_executor
from ..arena.progress import Progress
from ..arena.report import write_outputs
from ..arena.rounds import ARENA, KINDS, MOVE_SECONDS, SWISS, TournamentConfig, run_tournament
from ..arena.schedule import table_size
from ..club.pairing import BYE_PLAYER
from ..errors import CassinoError
from ..players import make_player, player_names
from ..players.base import close_player
from ..rules import RulesError
from .arena import add_run_arguments
from .errors import CliError
from .outputs import writable_folder
from .rules_args import rules_from_args

EPILOG = f"""\
A Swiss plays --rounds rounds: each round pairs entrants of equal or near points, never two who
have met (with 3 or 4 at a table: none who have met where that can be), and gives a bye to a
computer player (--bye, default {BYE_PLAYER}) when the entrants do not fill whole tables: its game
counts for the entrant, and nobody gets a second bye while another has none. An arena re-pairs
entrants of near points as soon as they are free, never in an immediate rematch, until its
simulated clock (--minutes, at --move-seconds a move) or its budget of --games runs out.

Every table of a round plays the same cards (duplicate): the report gives each round's seed and its
commitment (the SHA-256 of the seed's digits, as a server publishes it before the round). A Swiss
looks ahead, so that every round asked for can be paired without a repeat. Standings: match points
(win 1, draw 1/2, loss 0), then Buchholz (the points of the entrants met), then board score (the
points an entrant's side took beyond everyone who held the same cards), then the seeding order,
which is drawn from the seed. The games also go to the arena's report: ratings, a line per player,
and with --out results.json (with the pairings and standings), results.csv and ratings.png.

Players are specs as in cassino arena (greedy, search:worlds=30, the levels beginner ... master,
bot:PATH for a program over the bot protocol, MODULE:CLASS, FILE.py): on the command line, in a
--players-file (one a line; from # to the end of a line is a comment), or both: those on the
command line first.
"""


def add_tournament_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``cassino tournament``."""
    p.description = "Swiss and arena tournaments between players, every table of a round on the same cards."
    p.epilog = EPILOG
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument(
        "entrants",
        nargs="*",
        metavar="PLAYER",
        help=f"player spec: {', '.join(player_names())}; or bot:PATH, MODULE:CLASS or FILE.py[:CLASS]",
    )
    p.add_argument("--players-file", type=Path, default=None, metavar="FILE", help="player specs, one a line")
    p.add_argument("--kind", choices=KINDS, default=SWISS, help="swiss (default) or arena")
    p.add_argument(
        "--rounds", type=int, default=None, metavar="N", help="rounds of a Swiss (default: log2 of the entrants, up)"
    )
    p.add_argument("--minutes", type=float, default=0.0, metavar="M", help="an arena's length on its simulated clock")
    p.add_argument("--games", type=int, default=0, metavar="N", help="an arena's budget of games")
    p.add_argument(
        "--move-seconds",
        type=float,
        default=MOVE_SECONDS,
        metavar="S",
        help=f"simulated seconds a move takes on an arena's clock (default {MOVE_SECONDS:g})",
    )
    p.add_argument(
        "--bye", default=BYE_PLAYER, metavar="PLAYER", help=f"the computer player of a bye (default {BYE_PLAYER})"
    )
    add_run_arguments(p)


def read_players_file(path: Path) -> list[str]:
    """The player specs of a file, one a line (blank lines and ``#`` comments skipped), each checked:
    CliError names the file, and the line of a spec that names no player."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"--players-file {path}: no such file") from None
    except UnicodeDecodeError:
        raise CliError(f"--players-file {path}: not UTF-8 text") from None
    except OSError as exc:
        raise CliError(f"--players-file {path}: cannot read it: {exc.strerror or exc}") from None
    specs = []
    for number, line in enumerate(text.splitlines(), start=1):
        spec = line.split("#", 1)[0].strip()
        if not spec:
            continue
        try:
            close_player(make_player(spec, 0))
        except CassinoError as exc:
            raise CliError(f"{path}:{number}: {exc}") from None
        specs.append(spec)
    if not specs:
        raise CliError(f"--players-file {path}: no players in it (one spec a line)")
    return specs


def run_tournament_command(args: argparse.Namespace) -> None:
    """Check everything, play, print the pairings, standings and report, write the files."""
    specs = list(args.entrants)
    if args.players_file is not None:
        specs += read_players_file(args.players_file)
    try:
        rules = rules_from_args(args)
        if not specs:
            raise CliError("name the players: as arguments, or in a --players-file")
        size = table_size(rules)
        rounds = args.rounds
        if args.kind == SWISS and rounds is None:
            rounds = max(1, math.ceil(math.log2(max(2, len(specs)))))
        elif args.kind == ARENA and rounds is not None:
            raise CliError("--rounds is for a Swiss: an arena runs for --minutes or --games")
        if args.kind == SWISS and (args.minutes or args.games):
            raise CliError("--minutes and --games are for an arena: a Swiss plays --rounds")
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        config = TournamentConfig(
            args.kind,
            tuple(specs),
            rules,
            seed,
            rounds=rounds or 0,
            minutes=args.minutes,
            games=args.games,
            move_seconds=args.move_seconds,
            bye_player=args.bye,
            max_hands=args.max_hands,
        )
        config.check()
        if args.out is not None:  # checked before any game: a whole tournament is not lost at its end
            writable_folder(args.out, "--out")
        executor = make_executor(args.executor or ("ray" if args.address else "process"), args.workers, args.address)
    except (RulesError, RuntimeError) as exc:
        raise CliError(str(exc)) from None
    tables = -(-len(specs) // size)
    total = rounds * tables if args.kind == SWISS and rounds else args.games
    try:
        progress = Progress(total, enabled=not args.quiet and total > 0)
        try:
            result = run_tournament(config, executor, progress.update)
        finally:
            progress.close()
    except KeyboardInterrupt:
        print("cassino tournament: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        executor.close()
    print(result.report())
    if result.stopped:
        print(f"cassino tournament: {result.stopped}", file=sys.stderr)
    if args.out is not None:
        written, note = write_outputs(result.games, args.out)
        print(f"\nwrote {', '.join(str(p) for p in written)}")
        if note:
            print(f"cassino tournament: {note}", file=sys.stderr)
