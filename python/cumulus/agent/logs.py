"""Ships output lines to the control plane in batches, from a background thread.

While the control plane cannot be reached, lines wait (the newest MAX_BUFFERED of them: what is
dropped is counted and said) and sending backs off; they are sent once it is back."""

import threading
import time

from .backoff import Backoff

BATCH_LINES = 500
FLUSH_SECONDS = 1.0
MAX_BUFFERED = 20_000


class LogShipper:
    def __init__(self, control):
        self.control = control
        self.buffer = []
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.closed = False
        self.dropped = 0
        # Backing off: a full batch does not wake the shipper before its next attempt.
        self.failing = False
        self.thread = threading.Thread(target=self._run, name="cumulus-log-shipper", daemon=True)
        self.thread.start()

    def add(self, message, source="system", task_id=None):
        line = {"timestamp_ms": int(time.time() * 1000), "source": source, "message": message[:20_000]}
        if task_id is not None:
            line["task_id"] = task_id
        with self.lock:
            self.buffer.append(line)
            if len(self.buffer) > MAX_BUFFERED:  # control plane away: keep the newest
                extra = len(self.buffer) - MAX_BUFFERED
                del self.buffer[:extra]
                self.dropped += extra
            if len(self.buffer) >= BATCH_LINES and not self.failing:
                self.wake.set()

    def _take(self):
        with self.lock:
            batch, self.buffer = self.buffer[:BATCH_LINES], self.buffer[BATCH_LINES:]
            if self.dropped and batch:
                # Said where the gap is, before the oldest line kept.
                note = f"[cumulus-agent] {self.dropped} older lines were dropped while the control plane was unreachable"
                batch.insert(0, {"timestamp_ms": batch[0]["timestamp_ms"], "source": "system", "message": note})
                self.dropped = 0
            return batch

    def _send(self, batch):
        try:
            self.control.ship_logs(batch)
            return True
        except Exception:
            with self.lock:  # try again later, oldest first
                self.buffer[:0] = batch
                if len(self.buffer) > MAX_BUFFERED:
                    extra = len(self.buffer) - MAX_BUFFERED
                    del self.buffer[:extra]
                    self.dropped += extra
            return False

    def _run(self):
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

    def close(self, timeout=5.0):
        """Sends what is left (best effort, bounded by timeout)."""
        self.closed = True
        self.wake.set()
        self.thread.join(timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            batch = self._take()
            if not batch or not self._send(batch):
                break
