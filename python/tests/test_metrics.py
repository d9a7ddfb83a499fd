"""Metrics of a real cluster: what its agents measure of their machines and what its scheduler
says of Dask, read back through the metrics series call.

A real server starts a real cluster (real agents, real Dask processes) with a stand-in
``nvidia-smi`` first on PATH; a computation runs on it. Each instance's agent samples /proc and
the stand-in every few seconds and sends its samples; the scheduler's analytics preload sends
Dask's gauges and task durations.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
import unittest
from unittest import mock

from distributed import Client

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


if __name__ == "__main__":
    unittest.main()
