"""Real clusters through the product: ``cumulus.Cluster`` and the CLI against a real server.

Every cluster here is real Dask (scheduler and workers started by the server's local backend as
separate processes); the tests kill those processes, and the server itself, and check what the
client and the server make of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import dask
import dask.array as da
from distributed import Client

import cumulus
from cumulus.http import CumulusError
from tests.harness import (
    PYTHON_DIR, CumulusServer, call, client_env, instance_processes, run_cli, start_as_new_user, wait_until,
)

server: CumulusServer
token: str
workspace: str
START = 600  # seconds: a cluster starting on a loaded two-core machine


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()
    dask.config.set({"cumulus.cluster-state-check-interval": "1s"})


def tearDownModule():
    try:
        stop_all_clusters()
    finally:
        server.close()


def api(path: str, method: str = "GET", body=None):
    status, answer = call(server.url + path, method, body, token=token, scheme="ApiToken")
    if status >= 400:
        raise AssertionError(f"{method} {path} answered {status}: {answer}")
    return answer


def details(cluster_id: int) -> dict:
    return api(f"/api/v2/clusters/account/{workspace}/id/{cluster_id}")


def cluster_state(cluster_id: int) -> str:
    return details(cluster_id)["current_state"]["state"]


def started_workers(cluster_id: int) -> list:
    return [w["name"] for w in details(cluster_id)["workers"] if w["current_state"]["state"] == "started"]


def stop_all_clusters() -> None:
    for c in api(f"/api/v2/clusters/account/{workspace}/?limit=500"):
        if c["current_state"]["state"] not in ("stopped", "error"):
            api(f"/api/v2/clusters/account/{workspace}/id/{c['id']}?reason=tests+done", "DELETE")
    wait_until(
        lambda: all(c["current_state"]["state"] in ("stopped", "error") for c in api(f"/api/v2/clusters/account/{workspace}/?limit=500")),
        START,
        "every cluster stopped",
        1,
    )


def quietly(**kwargs) -> cumulus.Cluster:
    """A cluster that prints nothing, to keep the test output readable."""
    return cumulus.Cluster(timeout=START, quiet=True, **kwargs)


def no_clusters_running() -> None:
    """Each test starts from a server with no live instance, so process counts are its own."""
    stop_all_clusters()
    wait_until(lambda: not instance_processes(server.data_dir), START, "no instance processes")


def read_until(fd: int, process: subprocess.Popen, pattern, timeout: float) -> bytes:
    """What ``process`` prints on its terminal ``fd`` until ``pattern`` shows, or (None) until it ends."""
    seen = b""
    deadline = time.monotonic() + timeout
    while not (pattern and pattern.search(seen)):
        if time.monotonic() > deadline:
            raise AssertionError(f"{pattern or 'the end'} not seen in {timeout} s; printed: {seen!r}")
        chunk = b""
        if select.select([fd], [], [], 0.5)[0]:
            with contextlib.suppress(OSError):  # EIO: the process closed its terminal
                chunk = os.read(fd, 4096)
        seen += chunk
        if not chunk and process.poll() is not None:
            if pattern:
                raise AssertionError(f"the process ended before {pattern} showed; printed: {seen!r}")
            break
    return seen


class ClusterTest(unittest.TestCase):
    def setUp(self):
        no_clusters_running()

    def test_compute_scale_adapt_and_close(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cluster = cumulus.Cluster(n_workers=2, wait_for_workers=True, timeout=START)
        self.addCleanup(cluster.close)
        printed = out.getvalue()
        self.assertIn(f"Creating cluster {cluster.name} in workspace {workspace} with 2 workers", printed)
        self.assertIn("is ready: scheduler at tls://", printed)
        self.assertTrue(cluster.scheduler_address.startswith("tls://"))

        with Client(cluster) as client:
            x = da.ones((2000, 2000), chunks=(500, 500))
            self.assertEqual(x.sum().compute(), 4_000_000)
            self.assertEqual(len(client.scheduler_info()["workers"]), 2)
            self.assertEqual(cluster_state(cluster.cluster_id), "ready")
            # Dask's worker names are the server's, so adaptive scaling can match them.
            self.assertEqual(cluster.observed, set(started_workers(cluster.cluster_id)))

            cluster.scale(3)
            cluster.wait_for_workers(3, timeout=START)
            self.assertEqual(len(cluster.plan), 3)
            wait_until(lambda: len(started_workers(cluster.cluster_id)) == 3, START, "3 started workers")

            cluster.scale(1)
            wait_until(lambda: len(client.scheduler_info()["workers"]) == 1, START, "1 worker on the scheduler")
            wait_until(lambda: len(started_workers(cluster.cluster_id)) == 1, START, "1 started worker")
            wait_until(lambda: cluster_state(cluster.cluster_id) == "ready", START, "ready with 1 worker")
            self.assertEqual(client.submit(sum, [1, 2, 3]).result(), 6)

            adaptive = cluster.adapt(minimum=1, maximum=2, interval="500ms", wait_count=2, target_duration="1s")
            futures = client.map(lambda i: time.sleep(1) or i, range(60))
            wait_until(lambda: len(cluster.plan) == 2, START, "adapt to ask for a second worker")
            self.assertEqual(sum(client.gather(futures)), sum(range(60)))
            del futures
            wait_until(lambda: len(cluster.plan) == 1, START, "adapt to give the second worker back")
            adaptive.stop()

            logs = cluster.get_logs()
            self.assertIn("Cluster", logs)
            scheduler = details(cluster.cluster_id)["scheduler"]["name"]
            self.assertIn(scheduler, logs)

        cluster_id = cluster.cluster_id
        cluster.close()
        wait_until(lambda: cluster_state(cluster_id) == "stopped", START, "the closed cluster to stop")
        self.assertEqual(cluster.status.name, "closed")

    def test_workers_run_the_worker_class_asked(self):
        # A worker class of the user's own, importable on the cluster (here through PYTHONPATH).
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder, True)
        os.chmod(folder, 0o755)  # the cluster runs as a user of its own
        with open(os.path.join(folder, "marked_worker.py"), "w") as f:
            f.write("from distributed import Worker\n\nclass MarkedWorker(Worker):\n    pass\n")
        os.chmod(os.path.join(folder, "marked_worker.py"), 0o644)
        cluster = quietly(n_workers=1, wait_for_workers=True, worker_class="marked_worker.MarkedWorker",
                          environ={"PYTHONPATH": folder})
        self.addCleanup(cluster.close)
        with Client(cluster) as client:
            kinds = client.run(lambda dask_worker: type(dask_worker).__name__)
        self.assertEqual(list(kinds.values()), ["MarkedWorker"])
        # A class that is not an import path is refused by name before anything starts.
        with self.assertRaises(CumulusError) as refused:
            quietly(n_workers=0, worker_class="not a class")
        self.assertIn("worker_class", str(refused.exception))

    def test_idle_timeout_stops_the_cluster(self):
        cluster = quietly(n_workers=1, idle_timeout="10s")
        self.addCleanup(cluster.close)
        wait_until(lambda: cluster.status.name == "closed", START, "the client to see the idle cluster stop")
        record = details(cluster.cluster_id)["current_state"]
        self.assertIn(record["state"], ("stopping", "stopped"))
        self.assertIn("idle", record["reason"].lower())
        wait_until(lambda: cluster_state(cluster.cluster_id) == "stopped", START, "stopped")

    def test_a_killed_worker_is_reported_and_replaced(self):
        cluster = quietly(n_workers=1, wait_for_workers=True)
        self.addCleanup(cluster.close)
        with Client(cluster) as client:
            (victim_address, victim_pid), = client.run(os.getpid).items()
            victim_name = client.scheduler_info()["workers"][victim_address]["name"]
            os.kill(victim_pid, signal.SIGKILL)

            def replaced():
                workers = details(cluster.cluster_id)["workers"]
                return any(w["name"] != victim_name and w["current_state"]["state"] == "started" for w in workers)

            wait_until(replaced, START, "a new worker to start")
            records = api(f"/api/v2/clusters/account/{workspace}/id/{cluster.cluster_id}/states")
            errors = [r for r in records.get("worker", []) if r["stateful_object"]["name"] == victim_name and r["state"] == "error"]
            self.assertTrue(errors, records.get("worker"))
            self.assertTrue(errors[0]["reason"], errors[0])
            client.wait_for_workers(1, timeout=START)
            self.assertNotIn(victim_name, {w["name"] for w in client.scheduler_info()["workers"].values()})
            self.assertEqual(client.submit(lambda: 42).result(), 42)

    def test_a_killed_scheduler_turns_the_cluster_to_error(self):
        cluster = quietly(n_workers=1)
        self.addCleanup(cluster.close)
        with Client(cluster) as client:
            pid = client.run_on_scheduler(os.getpid)
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: cluster_state(cluster.cluster_id) == "error", START, "the cluster in error")
        self.assertTrue(details(cluster.cluster_id)["current_state"]["reason"])
        wait_until(lambda: cluster.status.name == "closed", START, "the client to notice")
        wait_until(lambda: not instance_processes(server.data_dir), START, "its processes gone")

    def test_server_killed_while_a_cluster_starts(self):
        result: dict = {}

        def start():
            try:
                result["cluster"] = quietly(n_workers=2, wait_for_workers=True)
            except BaseException as err:  # noqa: BLE001 - reported by the test thread
                result["error"] = err

        thread = threading.Thread(target=start)
        thread.start()
        # Kill the server once it has launched something but before the cluster is whole.
        wait_until(lambda: instance_processes(server.data_dir), START, "instances to be launched", 0.2)
        starting = max(api(f"/api/v2/clusters/account/{workspace}/"), key=lambda c: c["id"])
        server.kill()
        before = instance_processes(server.data_dir)
        self.assertNotEqual(starting["current_state"]["state"], "ready")
        server.start()
        thread.join(START)
        self.assertFalse(thread.is_alive(), "the Cluster constructor did not return")
        if "error" in result:
            raise result["error"]
        cluster = result["cluster"]
        self.addCleanup(cluster.close)

        with Client(cluster) as client:
            self.assertEqual(client.submit(lambda: 7).result(), 7)
            self.assertEqual(len(client.scheduler_info()["workers"]), 2)
        wait_until(lambda: cluster_state(cluster.cluster_id) == "ready", START, "ready after the restart")
        live = instance_processes(server.data_dir)
        # One instance per process of the cluster: the scheduler and two workers, none doubled.
        self.assertEqual(len(live), 3, (before, live))
        # What ran through the outage was adopted, not replaced: same instances, same processes.
        self.assertLessEqual(set(before), set(live), (before, live))
        for instance, pids in before.items():
            self.assertTrue(set(pids) & set(live[instance]), (before, live))
        cluster_id = cluster.cluster_id
        cluster.close()
        wait_until(lambda: not instance_processes(server.data_dir), START, "no orphan processes")

    def test_asynchronous_use(self):
        async def main():
            async with cumulus.Cluster(n_workers=1, asynchronous=True, quiet=True, timeout=START) as cluster:
                async with Client(cluster, asynchronous=True) as client:
                    self.assertEqual(await client.submit(lambda: 5), 5)
                    await cluster.scale(2)
                    await cluster.wait_for_workers(2, timeout=START)
                return cluster.cluster_id

        cluster_id = asyncio.run(main())
        wait_until(lambda: cluster_state(cluster_id) == "stopped", START, "stopped after the async block")

    def test_interrupted_start_and_forgotten_close_stop_the_cluster(self):
        env = {**os.environ, "PYTHONPATH": PYTHON_DIR}
        # On a terminal, as a person pressing Ctrl-C sees it: interrupted once the status line shows
        # the created cluster starting (a start that got to ready first would test nothing).
        # Ctrl-C interrupts it as at a terminal even when this suite runs as a background job (which
        # a shell starts with SIGINT ignored, and children inherit that).
        terminal, child_end = pty.openpty()
        starting = subprocess.Popen([sys.executable, "-c", "import cumulus; cumulus.Cluster(n_workers=1)"], env=env,
                                    stdout=child_end, stderr=subprocess.DEVNULL,
                                    preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # fmt: skip
        os.close(child_end)
        printed = read_until(terminal, starting, re.compile(rb"\[\s*\d+s\] "), START)
        starting.send_signal(signal.SIGINT)
        printed += read_until(terminal, starting, None, START)
        os.close(terminal)
        starting.wait(START)
        interrupted = max(api(f"/api/v2/clusters/account/{workspace}/"), key=lambda c: c["id"])
        shown = printed.decode(errors="replace")
        self.assertIn(interrupted["current_state"]["state"], ("stopping", "stopped"), shown)
        self.assertEqual(interrupted["current_state"]["reason"], "Interrupted while the cluster was starting", shown)
        no_clusters_running()

        script = "import cumulus; print(cumulus.Cluster(n_workers=1, quiet=True).cluster_id)"
        forgot = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=START)
        self.assertEqual(forgot.returncode, 0, forgot.stderr)
        wait_until(lambda: cluster_state(int(forgot.stdout)) == "stopped", START, "stopped when the script ended")

    def test_server_errors_are_shown_as_their_message(self):
        # The server's limit, in its words, under the client's own parameter name.
        with self.assertRaises(CumulusError) as caught:
            quietly(n_workers=5000, package_sync=False)
        self.assertEqual(
            str(caught.exception), "The server refused Cluster(n_workers=5000): Ensure this value is less than or equal to 1000."
        )
        # A name the server would refuse is refused before any call.
        with self.assertRaises(CumulusError) as caught:
            quietly(name="not a valid name!", n_workers=1)
        self.assertIn("Cluster(name='not a valid name!'): name must be letters, digits", str(caught.exception))


class CliTest(unittest.TestCase):
    def setUp(self):
        no_clusters_running()

    def test_list_logs_and_stop(self):
        home = tempfile.mkdtemp(prefix="cumulus-home-")
        self.addCleanup(shutil.rmtree, home, True)
        env = client_env(server, home, CUMULUS_API_TOKEN=token)
        cluster = quietly(n_workers=1, shutdown_on_close=False)
        self.addCleanup(cluster.close)

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            again = cumulus.Cluster(name=cluster.name, shutdown_on_close=False, timeout=START)
        again.close()
        self.assertEqual(again.cluster_id, cluster.cluster_id)
        self.assertEqual(out.getvalue().splitlines()[0], f"Using the running cluster {cluster.name} ({cluster.cluster_id}) in workspace {workspace}.")
        self.assertNotIn("pending", out.getvalue())

        listed = run_cli(["cluster", "list"], env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertRegex(listed.stdout, rf"{cluster.cluster_id}\s+{cluster.name}\s+ready\s+1/1\s+\d{{4}}-")

        def scheduler_lines():
            out = run_cli(["cluster", "logs", cluster.name], env)
            self.assertEqual(out.returncode, 0, out.stderr)
            return "Scheduler at" in out.stdout and out.stdout

        logs = wait_until(scheduler_lines, START, "the scheduler's log lines", 2)
        self.assertRegex(logs, r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+")

        stopped = run_cli(["cluster", "stop", cluster.name], env)
        self.assertEqual(stopped.returncode, 0, stopped.stderr)
        self.assertIn(f"Stopping cluster {cluster.name}", stopped.stdout)
        wait_until(lambda: cluster_state(cluster.cluster_id) == "stopped", START, "stopped")
        missing = run_cli(["cluster", "stop", cluster.name], env)
        self.assertEqual(missing.returncode, 1)
        self.assertIn(f"No running cluster named '{cluster.name}'", missing.stderr)
        # The logs of a stopped cluster stay readable by its name.
        after = run_cli(["cluster", "logs", cluster.name, "--filter", "Scheduler at:", "--no-system"], env)
        self.assertEqual(after.returncode, 0, after.stderr)
        self.assertEqual(len(after.stdout.splitlines()), 1, after.stdout)
