"""Ships output lines to the control plane in batches, from a background thread.

While the control plane cannot be reached, lines wait (the newest MAX_BUFFERED of them: what is
dropped is counted and said) and sending backs off; they are sent once it is back."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from .backoff import Backoff

if TYPE_CHECKING:
    from .control import ControlPlane

BATCH_LINES = 500
FLUSH_SECONDS = 1.0
MAX_BUFFERED = 20_000


class LogShipper:
    def __init__(self, control: ControlPlane) -> None:
        self.control = control
        self.buffer = []
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.closed = False
        self.dropped = 0
        # Lines ever added, and lines gone (sent or dropped): flush() waits for the second to reach the first.
        self.added = 0
        self.gone = 0
        self.progress = threading.Condition(self.lock)
        # Backing off: a full batch does not wake the shipper before its next attempt.
        self.failing = False
        self.thread = threading.Thread(target=self._run, name="cumulus-log-shipper", daemon=True)
        self.thread.start()

    def add(self, message: str, source: str = "system", task_id: str | None = None) -> None:
        line = {"timestamp_ms": int(time.time() * 1000), "source": source, "message": message[:20_000]}
        if task_id is not None:
            line["task_id"] = task_id
        with self.lock:
            self.buffer.append(line)
            self.added += 1
            self._trim()
            if len(self.buffer) >= BATCH_LINES and not self.failing:
                self.wake.set()

    def _trim(self) -> None:
        """Control plane away: keeps the newest MAX_BUFFERED lines (called holding the lock)."""
        extra = len(self.buffer) - MAX_BUFFERED
        if extra > 0:
            lines = sum(1 for line in self.buffer[:extra] if "_note" not in line)
            del self.buffer[:extra]
            self.dropped += lines
            self.gone += lines
            self.progress.notify_all()

    def _take(self) -> list[dict]:
        with self.lock:
            batch, self.buffer = self.buffer[:BATCH_LINES], self.buffer[BATCH_LINES:]
            if self.dropped and batch:
                # Said where the gap is, before the oldest line kept.
                note = f"[cumulus-agent] {self.dropped} older lines were dropped while the control plane was unreachable"
                batch.insert(0, {"timestamp_ms": batch[0]["timestamp_ms"], "source": "system", "message": note,
                                 "_note": True})
                self.dropped = 0
            return batch

    def _sent(self, batch: list[dict]) -> None:
        with self.lock:
            self.gone += sum(1 for line in batch if "_note" not in line)
            self.progress.notify_all()

    def _send(self, batch: list[dict]) -> bool | None:
        try:
            self.control.ship_logs([{k: v for k, v in line.items() if k != "_note"} for line in batch])
            self._sent(batch)
            return True
        except Exception:
            with self.lock:  # try again later, oldest first
                self.buffer[:0] = batch
                self._trim()
            return False

    def _run(self) -> None:
        backoff = Backoff(first=FLUSH_SECONDS, cap=30.0)
        wait = FLUSH_SECONDS
        while not self.closed:
            self.wake.wait(wait)
            self.wake.clear()
            wait = FLUSH_SECONDS
            while True:
                batch = self._take()
                if not batch:
                    backoff.reset()
                    break
                if not self._send(batch):
                    self.failing = True
                    wait = backoff.next()
                    break
                self.failing = False
                backoff.reset()

    def flush(self, timeout: float = 5.0) -> bool | None:
        """Waits (at most timeout seconds) until every line added so far has been sent, so what
        follows (a task's end, say) is heard after its output. True when it was."""
        deadline = time.monotonic() + timeout
        with self.lock:
            target = self.added
            self.wake.set()
            while self.gone < target:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.progress.wait(left)
            return True

    def close(self, timeout: float = 5.0) -> None:
        """Sends what is left (best effort, bounded by timeout)."""
        self.closed = True
        self.wake.set()
        self.thread.join(timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            batch = self._take()
            if not batch or not self._send(batch):
                break
