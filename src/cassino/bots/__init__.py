"""Players that are programs of their own, in any language: the bot protocol (docs/bots.md), like
UCI for chess engines, a line protocol over standard input and output.

``protocol`` writes and reads its lines, ``ProgramPlayer`` runs a program as a player (spec
``bot:PATH``), and ``python -m cassino.bots.host SPEC`` serves any player spec over the protocol.
This package is part of the players' layer: it imports the engine and ``players.errors`` alone.
"""

from __future__ import annotations

from .errors import ProtocolError
from .program import ProgramPlayer
from .protocol import Decision, decision_lines, read_decision

__all__ = ["Decision", "ProgramPlayer", "ProtocolError", "decision_lines", "read_decision"]
