"""The bot programs a server lets people seat (``cassino serve --allow-bots DIR``): each file of
that one folder, named ``bot:FILE`` at a table, run in a process of its own for each move.

A program speaks the bot protocol (docs/bots.md) in any language: an executable file of the folder
is run as it is; a Python file that is not executable is a player class (or factory), served over
the protocol by ``python -m cassino.bots.host``, so it too runs in its own process. Either way the
process is given the seat's view alone, the server's limits (seconds a move, CPU seconds, memory),
a bare environment and the folder as its working directory, and is killed when it overruns; a
program that hangs, crashes or answers no legal move forfeits its game, and no other game waits
for it. Nothing outside the folder can be named, and without ``--allow-bots`` nothing is run.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ..bots import ProgramPlayer
from ..moves import MoveCode
from ..players.base import choose_code
from ..view import View
from .errors import ServiceError

PREFIX = "bot:"
"""How a seat names a program of the folder: ``bot:FILE``."""
_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")
MOVE_SECONDS = 2.0
MEMORY_MIB = 512


@dataclass(frozen=True, slots=True)
class Programs:
    """The folder of allowed bot programs and the limits each runs under: ``seconds`` of wall clock
    a move (it is killed after), ``memory`` MiB of address space; its CPU time is capped at the
    move's seconds and a start-up allowance."""

    folder: Path
    seconds: float = MOVE_SECONDS
    memory: int = MEMORY_MIB

    def names(self) -> list[str]:
        """The seat names of the programs there are now (``bot:FILE``), in order."""
        try:
            entries = sorted(self.folder.iterdir())
        except OSError:
            return []
        return [f"{PREFIX}{p.name}" for p in entries if _FILE.fullmatch(p.name) and _runnable(p)]

    def command(self, spec: str) -> list[str]:
        """The command that runs the program ``bot:FILE``; ServiceError (400) naming the programs
        there are when the folder has no such program."""
        name = spec.removeprefix(PREFIX)
        path = self.folder / name
        if not spec.startswith(PREFIX) or not _FILE.fullmatch(name) or not _runnable(path):
            there = ", ".join(self.names()) or "none"
            raise ServiceError(400, f"no bot program {spec!r} on this server; its bot programs are: {there}")
        if os.access(path, os.X_OK):
            return [str(path.resolve())]
        return [sys.executable, "-m", "cassino.bots.host", str(path.resolve())]

    def player(self, spec: str, seed: int) -> ProgramPlayer:
        """The seat's player: the program under this server's limits, started when first asked."""
        return ProgramPlayer(
            self.command(spec),
            name=spec,
            seed=seed,
            time=self.seconds,
            memory=self.memory,
            cpu=self.seconds + 10,
            cwd=str(self.folder),
            env=_bare_environment(),
        )


def _runnable(path: Path) -> bool:
    """A plain file that is executable, or a Python file (served by the host)."""
    return path.is_file() and (os.access(path, os.X_OK) or path.suffix == ".py")


def _bare_environment() -> dict[str, str]:
    """What a program's process inherits: the search path and the language, and where Python finds
    this package when it runs from its source; nothing else of the server's (no database URL, no
    secret)."""
    keep = ("PATH", "LANG", "LC_ALL", "PYTHONPATH", "CASSINO_PURE")
    return {k: v for k, v in os.environ.items() if k in keep}


def think_program(programs: Programs, spec: str, seed: int, view: View) -> MoveCode:
    """A bot program's move for ``view`` (runs in a worker): a process for this move alone, stopped
    after it; ``PlayerFaultError`` when it hangs, crashes or answers no legal move."""
    with programs.player(spec, seed) as player:
        return choose_code(player, view)
