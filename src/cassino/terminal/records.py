"""The records the terminal keeps of its games: where they go and under what name."""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..game import Game
from ..record import record_of_game, write_record


def default_save_dir() -> Path:
    """Where games are saved: ``$CASSINO_HOME/games``, else ``~/.local/share/cassino/games``."""
    home = os.environ.get("CASSINO_HOME")
    base = Path(home) if home else Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "cassino"
    return base / "games"


def record_text(game: Game, names: Sequence[str], started: _dt.datetime) -> str:
    """A terminal game's record so far."""
    tags = {"Event": "Casual game", "Site": "cassino play", "Date": started.strftime("%Y.%m.%d")}
    return write_record(record_of_game(game, tags, names))


def save_record(text: str, folder: Path, started: _dt.datetime, seed: int, previous: Path | None) -> Path:
    """Write a record into ``folder`` (created if need be), named for when the game started and its
    seed, never over another game's record (``previous``, this game's own, is written again).

    The text goes to a hidden file beside it that then takes the record's name, so a failure (a full
    disk) never leaves half a record, nor spoils the one saved before; OSError says why."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = started.strftime("%Y%m%d-%H%M%S")
    path, n = folder / f"game-{stamp}-{seed}.txt", 2
    while path.exists() and previous != path:
        path, n = folder / f"game-{stamp}-{seed}-{n}.txt", n + 1
    partial = folder / f".{path.name}.part"
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise
    return path


def fallback_dir() -> Path:
    """Where a record goes when its folder refuses it at the end of a game: the temporary folder."""
    return Path(tempfile.gettempdir())
