"""``cumulus run --interactive``: this terminal joined to the command's, over the run's Dask client.

The command runs on the run cluster's scheduler instance in a pty of its own (``run_command``'s
remote side); its output comes back as the run's events, like any run's. Here, the keys typed go
to it as they are typed (the local terminal in raw mode, so Ctrl-C and Ctrl-D are the remote
command's), and the window's size follows this one's (SIGWINCH). Input that is not a terminal is
sent as it is read, then an end of file (Ctrl-D).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import threading

EOF_KEY = b"\x04"


def size() -> dict:
    """This terminal's size and type, for the command's pty."""
    columns, rows = shutil.get_terminal_size((80, 24))
    return {"rows": rows, "cols": columns, "term": os.environ.get("TERM") or "xterm"}


@contextlib.contextmanager
def joined(send):
    """While the block runs, what is typed here goes to ``send(data, rows, cols)`` (which answers
    False once the command's terminal has gone); this terminal is in raw mode meanwhile."""
    fd = sys.stdin.fileno()
    is_tty = os.isatty(fd)
    saved = None
    if is_tty:
        import termios
        import tty

        saved = termios.tcgetattr(fd)
        tty.setraw(fd, termios.TCSADRAIN)  # what was typed before stays, to be sent
    resized = threading.Event()
    previous = None
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGWINCH"):
        previous = signal.signal(signal.SIGWINCH, lambda *_: resized.set())
    stop = threading.Event()

    def forward():
        while not stop.is_set():
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                if not is_tty:
                    send(EOF_KEY, None, None)
                return
            if not send(data, None, None):
                return

    def follow_size():
        while not stop.is_set():
            if resized.wait(0.5):
                resized.clear()
                dims = size()
                send(b"", dims["rows"], dims["cols"])

    for target in (forward, follow_size):
        threading.Thread(target=target, name=f"cumulus-run-{target.__name__}", daemon=True).start()
    try:
        yield
    finally:
        stop.set()
        if saved is not None:
            import termios

            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        if previous is not None:
            signal.signal(signal.SIGWINCH, previous)
