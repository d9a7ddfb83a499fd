"""A control plane that goes away under a running client: the client's own calls (``scale``,
``close``, the CLI) say so in one line within 10 s, whether the server hangs or is gone, and
``Client(cluster)`` goes on computing on the scheduler, which needs no control plane."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from tests.harness import CumulusServer, client_env, instance_processes, run_cli, wait_until

START = 600  # seconds: a cluster starting on a loaded two-core machine
FAST = 10  # seconds: the longest a call may take to say the server is away

# Run as a user runs it: phases are driven by the test through stdin, each result is one line.
SCRIPT = r"""
import sys, time
from distributed import Client
import cumulus

cluster = cumulus.Cluster(n_workers=1, wait_for_workers=True, package_sync=False, quiet=True, timeout=600)
client = Client(cluster)
print("READY", cluster.name, client.submit(lambda x: x + 1, 1).result(), flush=True)

def scale_and_compute():
    began = time.monotonic()
    try:
        cluster.scale(2)
        print("SCALED", flush=True)
    except Exception as err:
        print("SCALE", f"{time.monotonic() - began:.1f}", type(err).__name__, str(err), flush=True)
    print("COMPUTED", client.submit(sum, [1, 2, 3]).result(), flush=True)

sys.stdin.readline()  # the server hangs
scale_and_compute()
sys.stdin.readline()  # the server is gone
scale_and_compute()
began = time.monotonic()
client.close()
cluster.close()
print("CLOSED", f"{time.monotonic() - began:.1f}", flush=True)
"""


class OutageTest(unittest.TestCase):
    def setUp(self):
        self.server = CumulusServer().start()
        self.addCleanup(self.server.close)
        token = self.server.api_token(self.server.register())
        self.home = tempfile.mkdtemp(prefix="cumulus-outage-home-")
        self.env = client_env(self.server, self.home, CUMULUS_API_TOKEN=token)

    def cli_fails_fast(self, expected: str) -> None:
        began = time.monotonic()
        done = run_cli(["cluster", "list"], self.env, timeout=60)
        took = time.monotonic() - began
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertLess(took, FAST, done.stderr)
        self.assertEqual(done.stderr.strip().splitlines(), [f"Error: Cannot reach the Cumulus server at {self.server.url}: {expected}"])

    def read(self, proc: subprocess.Popen, prefix: str) -> list:
        line = proc.stdout.readline()
        self.assertTrue(line.startswith(prefix), f"expected {prefix}, got {line!r}; stderr: {proc.stderr.read() if proc.poll() is not None else ''}")
        return line.split(" ", 3)

    def test_a_hung_or_gone_server_is_said_in_one_line_and_the_cluster_keeps_computing(self):
        proc = subprocess.Popen([sys.executable, "-c", SCRIPT], env=self.env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        _, name, answer = self.read(proc, "READY")[:3]
        self.assertEqual(answer.strip(), "2")

        # Hung: it accepts connections and never answers.
        os.kill(self.server.process.pid, signal.SIGSTOP)
        try:
            self.cli_fails_fast("no answer within 6 s")
            proc.stdin.write("\n")
            proc.stdin.flush()
            _, took, kind, message = self.read(proc, "SCALE")
            self.assertLess(float(took), FAST)
            self.assertEqual((kind, message.strip()), ("ServerUnreachable", f"Cannot reach the Cumulus server at {self.server.url}: no answer within 6 s"))
            self.assertEqual(self.read(proc, "COMPUTED")[1].strip(), "6")
        finally:
            os.kill(self.server.process.pid, signal.SIGCONT)

        # Gone: nothing listens any more.
        self.server.kill()
        self.cli_fails_fast("connection refused (is the server running?)")
        proc.stdin.write("\n")
        proc.stdin.flush()
        _, took, kind, message = self.read(proc, "SCALE")
        self.assertLess(float(took), 2)
        self.assertEqual(kind, "ServerUnreachable")
        self.assertEqual(self.read(proc, "COMPUTED")[1].strip(), "6")
        self.assertLess(float(self.read(proc, "CLOSED")[1]), FAST)
        self.assertEqual(proc.wait(60), 0)
        warning = [line for line in proc.stderr.read().splitlines() if "was not stopped" in line]
        self.assertEqual(warning, [
            f"Cluster {name} was not stopped: Cannot reach the Cumulus server at {self.server.url}: connection refused "
            f"(is the server running?). Stop it with `cumulus cluster stop {name}` once the server answers "
            "(its idle timeout also stops it)."
        ])

        # What the warning says works once the server is back; the cluster ran on meanwhile.
        self.assertTrue(instance_processes(self.server.data_dir))
        self.server.start()
        done = run_cli(["cluster", "stop", name], self.env)
        self.assertEqual(done.returncode, 0, done.stderr)
        wait_until(lambda: not instance_processes(self.server.data_dir), START, "the cluster's processes gone")
