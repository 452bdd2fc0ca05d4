"""A progress bar on standard error: tqdm when installed, a plain one otherwise, none when quiet."""

from __future__ import annotations

import importlib
import sys
import time
from typing import Any, TextIO


class Progress:
    """Counts finished games; draws only to a terminal, so logs and pipes stay clean."""

    def __init__(self, total: int, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.done = 0
        self.enabled = enabled and self.stream.isatty()
        self._bar: Any = None
        self._last = 0.0
        if self.enabled:
            try:
                tqdm = importlib.import_module("tqdm")
            except ImportError:
                pass
            else:
                self._bar = tqdm.tqdm(total=total, unit="game", file=self.stream, dynamic_ncols=True)

    def update(self, n: int) -> None:
        """``n`` more games finished."""
        self.done += n
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.update(n)
            return
        now = time.monotonic()
        if now - self._last >= 0.1 or self.done == self.total:
            self._last = now
            width = 30
            filled = width * self.done // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games")
            self.stream.flush()

    def close(self) -> None:
        """Finish the bar's line."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.close()
        else:
            self.stream.write("\n")
            self.stream.flush()
