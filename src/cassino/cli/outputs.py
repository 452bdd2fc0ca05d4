"""What the command line writes besides standard output: a line of progress on standard error while
a long count runs."""

from __future__ import annotations

import shutil
import time
from typing import TextIO


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
        self.stream.write("\r" + text[:width] + "\x1b[K")
        self.stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Take the line away, leaving the cursor where it began."""
        if self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False
