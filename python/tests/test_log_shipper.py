"""The agent's log shipper: a task's output reaches the control plane before its end is said."""

from __future__ import annotations

import threading
import time
import unittest

from cumulus.agent import logs
from cumulus.agent.logs import LogShipper


class Control:
    """Stands in for the control plane's log route: keeps what arrives, slowly, or refuses."""

    def __init__(self, delay=0.0, refuse=False):
        self.delay = delay
        self.refuse = refuse
        self.lines = []
        self.lock = threading.Lock()

    def ship_logs(self, batch):
        time.sleep(self.delay)
        if self.refuse:
            raise ConnectionError("control plane unreachable")
        with self.lock:
            self.lines.extend(line["message"] for line in batch)


class FlushTest(unittest.TestCase):
    def test_flush_returns_once_every_line_so_far_has_arrived(self):
        control = Control(delay=0.05)
        shipper = LogShipper(control)
        for i in range(1_200):  # more than one batch
            shipper.add(f"line {i}", "dask", task_id="t")
        started = time.monotonic()
        self.assertTrue(shipper.flush(timeout=5))
        # Well before the shipper's own once-a-second round would have sent the last batch.
        self.assertLess(time.monotonic() - started, logs.FLUSH_SECONDS + 0.5)
        self.assertEqual(control.lines, [f"line {i}" for i in range(1_200)])
        shipper.close(timeout=1)

    def test_flush_gives_up_after_its_timeout_while_the_control_plane_is_away(self):
        control = Control(refuse=True)
        shipper = LogShipper(control)
        shipper.add("kept for later")
        started = time.monotonic()
        self.assertFalse(shipper.flush(timeout=0.3))
        self.assertLess(time.monotonic() - started, 2)
        # The line is still waiting, and goes once the control plane is back.
        control.refuse = False
        self.assertTrue(shipper.flush(timeout=35))
        self.assertEqual(control.lines, ["kept for later"])
        shipper.close(timeout=1)

    def test_lines_dropped_while_away_do_not_hold_a_flush(self):
        old = logs.MAX_BUFFERED
        logs.MAX_BUFFERED = 10
        try:
            control = Control(refuse=True)
            shipper = LogShipper(control)
            for i in range(25):
                shipper.add(f"line {i}")
            control.refuse = False
            self.assertTrue(shipper.flush(timeout=35))
            self.assertEqual(control.lines[0], "[cumulus-agent] 15 older lines were dropped while the control plane was unreachable")
            self.assertEqual(control.lines[1:], [f"line {i}" for i in range(15, 25)])
            shipper.close(timeout=1)
        finally:
            logs.MAX_BUFFERED = old


if __name__ == "__main__":
    unittest.main()
