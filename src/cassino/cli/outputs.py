"""What the command line writes besides standard output: the folders it is given, checked before
any work starts, and a line of progress on standard error while a long count runs."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import TextIO

from .errors import CliError


def writable_folder(path: Path, what: str) -> Path:
    """``path`` as a folder this command can write in, created if need be: checked before the work
    starts (a game, an arena), so that nothing is lost at its end. CliError names the folder, as
    ``what`` (the option) calls it, and why not: a file there, no way to create it, no right to
    write in it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CliError(f"{what} {path}: not a folder (a file has that name)") from None
    except OSError as exc:
        raise CliError(f"{what} {path}: cannot create the folder: {exc.strerror or exc}") from None
    if not path.is_dir():
        raise CliError(f"{what} {path}: not a folder")
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise CliError(f"{what} {path}: cannot write in the folder: {exc.strerror or exc}") from None
    return path


class StatusLine:
    """One line of progress on standard error, rewritten in place at most ten times a second, and
    only when standard error is a terminal: pipes and logs never see it, so no output changes."""

    def __init__(self, stream: TextIO, enabled: bool = True, every: float = 0.1) -> None:
        self.stream = stream
        self.enabled = enabled and stream.isatty()
        self.every = every
        self._last = 0.0
        self._shown = False

    def show(self, text: str) -> None:
        """Show ``text`` in place of the line before, unless one was shown a moment ago."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.every:
            return
        self._last = now
        width = shutil.get_terminal_size().columns - 1
        self._shown = True  # first: Ctrl-C may come in the middle of the write, and clear must follow
        self.stream.write("\r" + text[:width] + "\x1b[K")
        self.stream.flush()

    def clear(self) -> None:
        """Take the line away, leaving the cursor where it began."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
