"""Driving ``cassino play`` in tests: its arguments as the command line gives them, and the full
screen run headlessly at 80x24 through a script of pilot steps.

Textual is imported only by ``run`` (and for type checking), so that test modules whose plain-line
tests need no Textual can import this at the top and skip their full-screen tests without it.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from cassino.cli import build_parser
from cassino.cli.play import new_game_from_args

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from cassino.terminal.fullscreen import CassinoApp

SIZE = (80, 24)
"""The terminal every full-screen test runs in: the smallest the game must fit."""

Script = Callable[["Pilot[int]", "CassinoApp"], Awaitable[None]]


def play_args(*argv: str) -> argparse.Namespace:
    """``cassino play`` arguments as the command line would give them."""
    return build_parser().parse_args(["play", *argv])


def run(script: Script, *argv: str) -> CassinoApp:
    """Run the app headlessly at ``SIZE`` (computer players without delay) through ``script``."""
    from cassino.terminal.fullscreen import CassinoApp

    args = play_args(*argv)
    app = CassinoApp(new_game_from_args(args), setup=not args.no_setup, bot_delay=0)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot, app)

    asyncio.run(main())
    return app
