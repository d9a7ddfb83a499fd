"""What a cluster start prints: a few lasting lines, and one status line redrawn in place.

On a terminal the status (build state, workers started) is rewritten with ``\\r`` on one line;
elsewhere (a log file, a notebook's captured output) it is not printed at all, so a start reads
as a handful of plain lines. Details (a build's pip output) are printed only when asked for.
"""

from __future__ import annotations

import sys


class Progress:
    def __init__(self, quiet: bool = False, verbose: bool = False, stream=None):
        self.quiet = quiet
        self.verbose = verbose
        self._stream = stream
        self._width = 0

    @property
    def stream(self):
        return self._stream or sys.stdout

    def _tty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def line(self, text: str) -> None:
        """A line that stays."""
        if self.quiet:
            return
        self._clear()
        print(text, file=self.stream, flush=True)

    def status(self, text: str) -> None:
        """Where the start is now: redrawn in place on a terminal, else not printed."""
        if self.quiet or not self._tty():
            return
        text = text.replace("\n", " ")
        self.stream.write("\r" + text + " " * max(0, self._width - len(text)))
        self.stream.flush()
        self._width = len(text)

    def detail(self, text: str) -> None:
        """Output a person reads only when asked to (``verbose=True``)."""
        if self.verbose:
            self.line(text)

    def done(self) -> None:
        """Leaves no half-drawn status line behind."""
        self._clear()

    def _clear(self) -> None:
        if self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
