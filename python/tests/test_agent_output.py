"""What the instance agent reports when its Dask process dies: the reason a user reads."""

from __future__ import annotations

import os
import sys
import tempfile
import unittest

from cumulus.agent.dask_process import DaskProcess, exit_reason

CRASH = """
import sys
print("2026-11-23 01:00:00,000 - distributed.scheduler - INFO - State start", flush=True)
print("Traceback (most recent call last):", flush=True)
print('  File "x.py", line 1, in <module>', flush=True)
print("OSError: [Errno 98] Address already in use", flush=True)
sys.exit(1)
"""


def run(script):
    lines = []
    with tempfile.TemporaryDirectory() as workdir:
        process = DaskProcess("scheduler", [sys.executable, "-c", script], dict(os.environ), workdir, lines.append)
        code = process.popen.wait(30)
        process.reader.join(5)
    return code, process, lines


class CrashReasonTest(unittest.TestCase):
    def test_a_crash_names_the_error_from_the_output(self):
        code, process, lines = run(CRASH)
        self.assertEqual(len(lines), 4)  # every line still shipped as a log
        self.assertEqual(
            exit_reason("dask-scheduler", code, process.tail),
            "dask-scheduler exited with code 1: OSError: [Errno 98] Address already in use",
        )

    def test_a_logged_error_is_named_when_there_is_no_exception(self):
        script = 'print("2026-11-23 - distributed.core - ERROR - TLS handshake failed", flush=True); raise SystemExit(3)'
        code, process, _ = run(script)
        self.assertEqual(
            exit_reason("dask-worker", code, process.tail),
            "dask-worker exited with code 3: 2026-11-23 - distributed.core - ERROR - TLS handshake failed",
        )

    def test_a_quiet_exit_or_a_signal_says_only_that(self):
        code, process, _ = run('print("bye", flush=True)')
        self.assertEqual(exit_reason("dask-worker", code, process.tail), "dask-worker exited with code 0")
        self.assertEqual(exit_reason("dask-worker", -9, process.tail), "dask-worker was killed by signal 9")


if __name__ == "__main__":
    unittest.main()
