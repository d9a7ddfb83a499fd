"""Ships output lines to the control plane in batches, from a background thread."""

import threading
import time

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
        self.thread = threading.Thread(target=self._run, name="cumulus-log-shipper", daemon=True)
        self.thread.start()

    def add(self, message, source="system", task_id=None):
        line = {"timestamp_ms": int(time.time() * 1000), "source": source, "message": message[:20_000]}
        if task_id is not None:
            line["task_id"] = task_id
        with self.lock:
            self.buffer.append(line)
            if len(self.buffer) > MAX_BUFFERED:  # control plane away: keep the newest
                del self.buffer[: len(self.buffer) - MAX_BUFFERED]
            if len(self.buffer) >= BATCH_LINES:
                self.wake.set()

    def _take(self):
        with self.lock:
            batch, self.buffer = self.buffer[:BATCH_LINES], self.buffer[BATCH_LINES:]
            return batch

    def _send(self, batch):
        try:
            self.control.ship_logs(batch)
            return True
        except Exception:
            with self.lock:  # try again later, oldest first
                self.buffer[:0] = batch
            return False

    def _run(self):
        while not self.closed:
            self.wake.wait(FLUSH_SECONDS)
            self.wake.clear()
            while True:
                batch = self._take()
                if not batch or not self._send(batch):
                    break

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
