"""Serve any player spec over the bot protocol: ``python -m cassino.bots.host SPEC``.

It reads the protocol on standard input and answers with the player's moves, so that a Python
player (a built-in one, ``MODULE:CLASS`` or ``FILE.py:CLASS``) can run in a process of its own,
under ``ProgramPlayer``'s limits: ``ProgramPlayer([sys.executable, "-m", "cassino.bots.host",
spec])``. The view it hands the player is the one the engine wrote the decision from, so a player
served here chooses what it would in the engine's process, given the seed the decision carries.

A spec that builds no player exits with status 2 and one line on standard error; a player that
fails to move (``PlayerFaultError``) or input that breaks the protocol exits with status 1 and one line,
which the engine's fault reason then quotes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from ..errors import CassinoError
from ..moves import format_code
from ..players.base import Player, choose_code, close_player, make_player
from .protocol import GO, HELLO, QUIT, read_decision

PROG = "cassino.bots.host"


def serve(spec: str, lines: TextIO, out: TextIO, seed: int | None = None) -> None:
    """Answer the protocol's lines with the moves of the player ``spec``, made afresh for each game
    (a new ``game`` or ``seed`` line) with the decision's seed, or ``seed`` when given; returns at
    ``quit`` or the end of the input. CassinoError for what cannot be answered."""
    player: Player | None = None
    made_for: tuple[int, int] | None = None
    block: list[str] = []
    try:
        for raw in lines:
            line = raw.strip()
            word = line.partition(" ")[0]
            if word == "cassino":
                out.write(f"id name {spec}\nready\n")
                out.flush()
            elif word == QUIT:
                return
            elif word == GO:
                decision = read_decision([*block, line])
                block = []
                key = (decision.game, decision.seed)
                if player is None or key != made_for:
                    if player is not None:
                        close_player(player)
                    player = make_player(spec, decision.seed if seed is None else seed)
                    made_for = key
                code = choose_code(player, decision.view())
                out.write(f"move {format_code(code)}\n")
                out.flush()
            elif line:
                block.append(line)
    finally:
        if player is not None:
            close_player(player)


def main(argv: Sequence[str] | None = None) -> int:
    """Check the spec, then serve it until ``quit``; the exit status says how it ended."""
    parser = argparse.ArgumentParser(
        prog=f"python -m {PROG}",
        description=f"Serve a player over cassino's bot protocol (docs/bots.md): answers {HELLO!r}, then each go.",
    )
    parser.add_argument(
        "spec", metavar="SPEC", help="a player spec: greedy, search:worlds=30, mod:Class, file.py:Class"
    )
    parser.add_argument("--seed", type=int, default=None, help="the players' seed (default: each decision's)")
    args = parser.parse_args(argv)
    try:
        close_player(make_player(args.spec, 0))
    except CassinoError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    try:
        serve(args.spec, sys.stdin, sys.stdout, args.seed)
    except CassinoError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, BrokenPipeError):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
