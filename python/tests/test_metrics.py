"""Metrics of a real cluster: what its agents measure of their machines and what its scheduler
says of Dask, read back through the metrics series call.

A real server starts a real cluster (real agents, real Dask processes) with a stand-in
``nvidia-smi`` first on PATH; a computation runs on it. Each instance's agent samples /proc and
the stand-in every few seconds and sends its samples; the scheduler's analytics preload sends
Dask's gauges and task durations.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

import cloudpickle
from distributed import Client, wait

import cumulus
from tests.harness import CumulusServer, call, start_as_new_user, wait_until

server: CumulusServer
token: str
workspace: str
START = 600  # seconds: a cluster starting on a loaded two-core machine
REPORT = 180  # seconds: samples every 5 s; the machine may be slow

FAKE_NVIDIA_SMI = """#!/bin/sh
# A stand-in for nvidia-smi: two GPUs, 30% and 50% busy, 1 GiB and 3 GiB of 16 GiB used.
case "$*" in
  *--query-gpu=utilization.gpu,memory.used,memory.total*--format=csv,noheader,nounits*)
    echo "30, 1024, 16384"
    echo "50, 3072, 16384" ;;
  *) exit 2 ;;
esac
"""


def setUpModule():
    global server, token, workspace
    bin_dir = tempfile.mkdtemp(prefix="cumulus-fake-gpu-")
    # Instances run as a uid of their own: the stand-in must be theirs to run, as /usr/bin's are.
    os.chmod(bin_dir, 0o755)
    path = os.path.join(bin_dir, "nvidia-smi")
    with open(path, "w") as f:
        f.write(FAKE_NVIDIA_SMI)
    os.chmod(path, 0o755)
    # The server hands its PATH to the instances it starts: their agents find the stand-in first.
    patch = mock.patch.dict(os.environ, {"PATH": bin_dir + os.pathsep + os.environ["PATH"]})
    patch.start()
    unittest.addModuleCleanup(patch.stop)
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


def series(cluster_id: int, query: str) -> list:
    url = f"{server.url}/api/v2/metrics/account/{workspace}/cluster/{cluster_id}?query={query}"
    status, answer = call(url, token=token, scheme="ApiToken")
    if status >= 400:
        raise AssertionError(f"GET {url} answered {status}: {answer}")
    return answer["series"]


def latest(lines: list) -> dict:
    """The last value of each series, by its labels (instance role, direction, state, prefix)."""
    out = {}
    for line in lines:
        if line["values"]:
            m = line["metric"]
            key = m.get("role") or m.get("state") or m.get("prefix") or m["name"]
            if "direction" in m:
                key = f"{key}:{m['direction']}"
            out[key] = line["values"][-1][1]
    return out


class MetricsTest(unittest.TestCase):
    def test_host_and_dask_metrics_of_a_running_cluster_arrive(self):
        cluster = cumulus.Cluster(n_workers=1, wait_for_workers=True, timeout=START, quiet=True)
        self.addCleanup(cluster.close)
        cid = cluster.cluster_id
        with Client(cluster) as client:
            def slowinc(x):
                time.sleep(0.1)
                return x + 1

            futures = client.map(slowinc, range(40))
            self.assertEqual(client.submit(sum, futures).result(), sum(range(1, 41)))

            # Every instance (the scheduler's and the worker's) sends its machine's numbers.
            cpu = wait_until(lambda: (lambda v: v if {"scheduler", "worker"} <= v.keys() else None)(
                latest(series(cid, "cpu"))), REPORT, "CPU samples of both instances")
            for role in ("scheduler", "worker"):
                self.assertTrue(0 <= cpu[role] <= 100, cpu)
            memory = latest(series(cid, "memory"))
            self.assertGreater(memory["worker"], 10 * 1024 * 1024)
            network = latest(series(cid, "network"))
            self.assertIn("worker:receive", network)
            self.assertIn("worker:send", network)
            self.assertIn("worker:read", latest(series(cid, "disk")))

            # The stand-in nvidia-smi: utilisation averaged over its two GPUs, memory summed.
            self.assertEqual(latest(series(cid, "gpu"))["worker"], 40)
            self.assertEqual(latest(series(cid, "gpu_memory"))["worker"], 4096 * 1024 * 1024)

            # Dask's own numbers, from the scheduler.
            def dask_reported():
                seconds = latest(series(cid, "task_seconds"))
                return seconds if seconds.get("slowinc", 0) >= 3.0 else None

            seconds = wait_until(dask_reported, REPORT, "task seconds of slowinc")
            self.assertGreaterEqual(seconds["slowinc"], 3.0)  # 40 tasks sleeping 0.1 s
            tasks = series(cid, "tasks")
            self.assertEqual({line["metric"]["state"] for line in tasks}, {"processing", "waiting", "memory"})
            self.assertTrue(any(v > 0 for line in tasks if line["metric"]["state"] == "memory"
                                for _, v in line["values"]), tasks)
            worker_memory = wait_until(lambda: latest(series(cid, "worker_memory")).get("worker_memory"),
                                       REPORT, "the workers' memory")
            self.assertGreater(worker_memory, 10 * 1024 * 1024)
            self.assertEqual(len(series(cid, "transferred")), 1)


def whose():
    """In a worker: its instance's id and its agent's pid (the root of the instance's processes)."""
    pid = os.getpid()
    while pid > 1:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if b"cumulus.agent" in f.read():
                return int(os.environ["CUMULUS_INSTANCE_ID"]), pid
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
        pid = int(text[text.rindex(")") + 2:].split()[1])
    raise RuntimeError("no cumulus agent above this worker")


def resident(root):
    """Resident bytes of ``root`` and its descendants, as ps sees them (the test runs as root)."""
    rows = [line.split() for line in subprocess.run(
        ["ps", "-e", "-o", "pid=,ppid=,rss="], capture_output=True, text=True, check=True).stdout.splitlines()]
    tree, total = {root}, 0
    for _ in range(len(rows)):  # parents before children, whatever the order ps lists them
        grew = {int(pid) for pid, ppid, _ in rows if int(ppid) in tree} - tree
        if not grew:
            break
        tree |= grew
    for pid, _, rss in rows:
        if int(pid) in tree:
            total += int(rss) * 1024
    return total


def ballast(size):
    return b"\1" * size  # touched: all of it resident


def spin(seconds, until):
    """Busy for ``seconds`` at most, or until the file ``until`` exists: a running task cannot be
    cancelled, and a worker asked to stop waits for it (past the stop's grace, if the server that
    would send SIGKILL has itself been stopped)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not os.path.exists(until):
        for _ in range(100_000):
            pass
    return seconds


class OwnProcessesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # The workers cannot import this module: its functions go to them by value.
        cloudpickle.register_pickle_by_value(sys.modules[__name__])

    def test_two_workers_report_their_own_processes_not_the_hosts(self):
        cluster = cumulus.Cluster(n_workers=2, wait_for_workers=True, timeout=START, quiet=True)
        self.addCleanup(cluster.close)
        cid = cluster.cluster_id
        with Client(cluster) as client:
            client.wait_for_workers(2, timeout=START)
            owners = client.run(whose)  # worker address -> (instance id, agent pid)
            busy, idle = sorted(owners)
            held = client.submit(ballast, 400 * 1024 * 1024, workers=[busy], pure=False)
            wait(held)  # the bytes stay in the busy worker's memory while the future is held
            # The instances run as a uid of their own: the stop file's folder is theirs to read.
            flags = tempfile.mkdtemp(prefix="cumulus-spin-")
            os.chmod(flags, 0o755)
            self.addCleanup(shutil.rmtree, flags, True)
            until = os.path.join(flags, "stop")
            self.addCleanup(lambda: open(until, "w").close())  # runs before cluster.close: LIFO
            spinning = client.submit(spin, 300, until, workers=[busy], pure=False)

            def by_instance(name):
                lines = [s for s in series(cid, name) if s["metric"].get("role") == "worker" and s["values"]]
                return {int(s["metric"]["instance_id"]): s for s in lines}

            def cpu_apart():
                cpu = {i: s["values"][-1][1] for i, s in by_instance("cpu").items()}
                return cpu if len(cpu) == 2 and cpu[busy_id] - cpu[idle_id] >= 10 else None

            busy_id, idle_id = owners[busy][0], owners[idle][0]
            cpu = wait_until(cpu_apart, REPORT, "the spinning worker's CPU above the idle one's")
            self.assertLess(cpu[idle_id], cpu[busy_id], cpu)

            def memory_settled():
                lines = by_instance("memory")
                if len(lines) < 2:
                    return None
                reported = {i: s["values"][-1][1] for i, s in lines.items()}
                own = {i: resident(pid) for i, pid in owners.values()}
                close = all(abs(reported[i] - own[i]) < 0.25 * own[i] + 64 * 1024 * 1024 for i in own)
                return (reported, own, lines) if close else None

            reported, own, lines = wait_until(memory_settled, REPORT, "each worker's memory to be its own")
            # The ballast shows in the worker holding it only: not one host-wide figure twice.
            self.assertGreater(reported[busy_id] - reported[idle_id], 300 * 1024 * 1024, (reported, own))
            for line in lines.values():
                self.assertEqual(line["metric"]["scope"], "processes", line)

            # Network is the machine's: said to be host-wide.
            self.assertEqual({s["metric"]["scope"] for s in by_instance("network").values()}, {"host"})
            spinning.cancel()
            del held


if __name__ == "__main__":
    unittest.main()
