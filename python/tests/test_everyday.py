"""Everyday workflows against a real server and real Dask: hardware choice, ``cumulus run``,
``@cumulus.function`` and notebooks (Jupyter through the server's proxy)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import dask
from distributed import Client

import cumulus
from cumulus import hardware
from cumulus.http import Api, ArgumentError, CumulusError
from tests.harness import CumulusServer, call, client_env, run_cli, start_as_new_user, wait_until

server: CumulusServer
token: str
workspace: str
START = 600


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()
    dask.config.set({"cumulus.cluster-state-check-interval": "1s"})


def tearDownModule():
    try:
        for c in api("/api/v2/clusters/account/%s/?limit=100" % workspace):
            if (c.get("current_state") or {}).get("state") not in ("stopped", "error"):
                call(f"{server.url}/api/v2/clusters/account/{workspace}/id/{c['id']}", "DELETE", token=token,
                     scheme="ApiToken")
        wait_until(lambda: all((c.get("current_state") or {}).get("state") in ("stopped", "error")
                               for c in api("/api/v2/clusters/account/%s/?limit=100" % workspace)),
                   120, "every cluster to stop")
    finally:
        server.close()


def api(path: str, method: str = "GET", body=None):
    status, answer = call(server.url + path, method, body, token=token, scheme="ApiToken")
    if status >= 400:
        raise AssertionError(f"{method} {path} answered {status}: {answer}")
    return answer


def run_cli_importtime(args: list, env: dict, cwd: str) -> subprocess.CompletedProcess:
    """``cumulus ARGS`` with Python's import log on stderr (``-X importtime``)."""
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "cumulus", *args], env=env, capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def running(marker: str) -> bool:
    return subprocess.run(["pgrep", "-f", marker], capture_output=True).returncode == 0


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


class HardwareTest(unittest.TestCase):
    def test_worker_cpu_and_memory_become_threads_and_memory_limit(self):
        threads = min(2, os.cpu_count() or 1)
        with cumulus.Cluster(n_workers=1, worker_cpu=threads, worker_memory="1 GiB", package_sync=False,
                             wait_for_workers=True, timeout=START, quiet=True) as cluster, Client(cluster) as client:
            workers = client.scheduler_info()["workers"].values()
            self.assertEqual([w["nthreads"] for w in workers], [threads])
            self.assertEqual([w["memory_limit"] for w in workers], [2**30])
            usage = api(f"/api/v1/{workspace}/usage/cores/")
            self.assertGreaterEqual(usage["cores_used"], 1 + threads)

    def test_no_client_timeout_reaches_the_scheduler(self):
        cluster = cumulus.Cluster(n_workers=0, no_client_timeout="3s", shutdown_on_close=False, package_sync=False,
                                  timeout=START, quiet=True)
        with Client(cluster):
            pass
        cluster_id = cluster.cluster_id
        cluster.close()
        stopped = wait_until(
            lambda: (lambda d: d if d["current_state"]["state"] in ("stopping", "stopped") else None)(
                api(f"/api/v2/clusters/account/{workspace}/id/{cluster_id}")), 120, "the cluster to stop")
        self.assertIn("no_client_timeout", stopped["current_state"]["reason"] or stopped.get("desired_reason", ""))

    def test_a_script_that_keeps_its_cluster_exits_without_a_traceback(self):
        # Its state checks (here every 10 ms) must not try the thread pool Python shut down at exit.
        import subprocess
        import sys

        home = tempfile.mkdtemp(prefix="cumulus-kept-")
        script = ("import dask, cumulus\n"
                  "dask.config.set({'cumulus.cluster-state-check-interval': '0.01s'})\n"
                  "c = cumulus.Cluster(n_workers=0, quiet=True, shutdown_on_close=False, package_sync=False)\n"
                  "print(c.cluster_id, flush=True)\n")
        done = subprocess.run([sys.executable, "-c", script], env=client_env(server, home, CUMULUS_API_TOKEN=token),
                              cwd=home, capture_output=True, text=True, timeout=START)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        api(f"/api/v2/clusters/account/{workspace}/id/{int(done.stdout.split()[-1])}", "DELETE")

    def test_a_cluster_kept_on_purpose_lives_to_its_idle_timeout(self):
        # Created so: no no-client stop, from the start.
        cluster = cumulus.Cluster(n_workers=0, shutdown_on_close=False, idle_timeout="30 minutes",
                                  package_sync=False, timeout=START, quiet=True)
        cluster_id = cluster.cluster_id
        cluster.close()
        details = api(f"/api/v2/clusters/account/{workspace}/id/{cluster_id}")
        self.assertEqual(details["stop_timers"], [{"timer": "idle_timeout", "seconds": 1800, "at": None}])
        # Made elsewhere (the console: a no-client timer of 2 minutes), then attached to as its
        # "Connect from Python" snippet does: the scheduler drops the timer and the server shows it.
        made = api(f"/api/v2/clusters/account/{workspace}/", "POST", {"name": "console-made", "workers": 0})
        path = f"/api/v2/clusters/account/{workspace}/id/{made['id']}"
        self.assertIn({"timer": "no_client_timeout", "seconds": 120, "at": None}, api(path)["stop_timers"])
        attached = cumulus.Cluster(name=f"{workspace}/console-made", n_workers=0, shutdown_on_close=False, package_sync=False,
                                   timeout=START, quiet=True)
        attached.close()
        timers = wait_until(lambda: (lambda t: t if all(x["timer"] != "no_client_timeout" for x in t) else None)(
            api(path)["stop_timers"]), 30, "the scheduler to report the no-client timer off")
        self.assertEqual([t["timer"] for t in timers], ["idle_timeout"])
        for cid in (cluster_id, made["id"]):
            api(f"/api/v2/clusters/account/{workspace}/id/{cid}", "DELETE")

    def test_what_the_machine_lacks_is_refused_naming_the_argument(self):
        too_many = os.cpu_count() + 1
        with self.assertRaises(ArgumentError) as caught:
            cumulus.Cluster(n_workers=1, worker_cpu=too_many, package_sync=False, quiet=True)
        self.assertIn(f"Cluster(worker_cpu={too_many})", str(caught.exception))
        self.assertIn("a worker can run at most", str(caught.exception))
        with self.assertRaises(ArgumentError) as caught:
            cumulus.Cluster(n_workers=1, worker_vm_types=["m6i.xlarge"], package_sync=False, quiet=True)
        self.assertIn("Cluster(worker_vm_types=['m6i.xlarge'])", str(caught.exception))
        self.assertIn("local backend has no instance type m6i.xlarge", str(caught.exception))
        with self.assertRaises(ArgumentError):
            cumulus.Cluster(worker_memory=16, quiet=True)

    def test_a_cloud_backend_gets_the_cheapest_matching_types(self):
        from cumulus import config

        api_ = Api.for_settings(config.load())
        hw = hardware.check("Cluster", {"worker_cpu": 8, "worker_memory": "32 GiB", "scheduler_cpu": 2,
                                        "spot_policy": "spot_with_fallback", "region": "us-east-2"})
        fields = hardware.fields_for(api_, workspace, hw, backend="vm_aws")
        self.assertEqual(fields["worker_instance_types"][0], "m5.2xlarge")
        self.assertNotIn("c6i.2xlarge", fields["worker_instance_types"])  # 8 cores, 16 GiB
        self.assertEqual(fields["scheduler_instance_types"][:2], ["t3.medium", "t3.large"])
        self.assertEqual(fields["options"], {"spot": True, "spot_on_demand_fallback": True, "region_name": "us-east-2"})
        arm = hardware.fields_for(api_, workspace, hardware.check("Cluster", {"arm": True}), backend="vm_aws")
        self.assertEqual(arm["worker_instance_types"], ["m7g.xlarge", "m6g.xlarge"])
        with self.assertRaises(ArgumentError):
            hardware.fields_for(api_, workspace, hardware.check("Cluster", {"worker_cpu": 4096}), backend="vm_aws")

    def test_a_gcp_workspace_gets_the_nearest_compute_engine_types(self):
        from cumulus import config

        api_ = Api.for_settings(config.load())

        def types(**given) -> list:
            return hardware.fields_for(api_, workspace, hardware.check("Cluster", given),
                                       backend="vm_gcp")["worker_instance_types"]

        # 4 cores and 16 GiB: E2 before N2, and no N1 (15 GiB) nor Arm T2A.
        self.assertEqual(types(worker_cpu=4, worker_memory="16 GiB"), ["e2-standard-4", "n2-standard-4"])
        self.assertEqual(types(worker_cpu=[6, 8])[0], "e2-standard-8")
        self.assertEqual(types(worker_cpu=4, arm=True), ["t2a-standard-4"])
        self.assertEqual(types(arm=True), ["t2a-standard-4"])
        with self.assertRaises(ArgumentError) as caught:
            types(worker_memory="512 GiB")
        self.assertIn("no vm_gcp instance type has 512.0 GiB memory", str(caught.exception))


class BatchHardwareTest(unittest.TestCase):
    def test_batch_run_sizes_its_workers(self):
        threads = min(2, os.cpu_count() or 1)
        with tempfile.TemporaryDirectory() as home:
            env = client_env(server, home, CUMULUS_API_TOKEN=token)
            done = run_cli(["batch", "run", "--cpu", str(threads), "--memory", "1 GiB", "--wait", "--",
                            "echo sized"], env, timeout=START)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            bad = run_cli(["batch", "run", "--vm-type", "m6i.xlarge", "--", "echo no"], env, timeout=START)
            self.assertEqual(bad.returncode, 1)
            self.assertIn("local backend has no instance type m6i.xlarge", bad.stderr)
        import re

        job_id = re.search(r"Submitted batch job (\d+)", done.stdout).group(1)
        job = api(f"/api/v2/jobs/{job_id}")
        specs = api(f"/api/v2/instance_specs/account/{workspace}/?limit=500")["items"]
        worker = [s for s in specs if s["cluster_id"] == job["cluster_id"] and s["role"] == "worker"][0]
        self.assertEqual((worker["dask_threads"], worker["memory_mib"]), (threads, 1024))


class RunTest(unittest.TestCase):
    def test_a_command_runs_with_the_directory_its_output_streams_and_its_code_passes_through(self):
        with tempfile.TemporaryDirectory() as here:
            with open(os.path.join(here, "job.py"), "w") as f:
                f.write("import sys, time\n"
                        "print('from stdout', open('data.txt').read().strip(), flush=True)\n"
                        "print('from stderr', file=sys.stderr, flush=True)\n"
                        "from distributed import Client\n"
                        "print('connected to', Client(timeout=60).scheduler_info()['type'])\n"
                        "sys.exit(3)\n")
            with open(os.path.join(here, "data.txt"), "w") as f:
                f.write("forty-two\n")
            out, err = io.StringIO(), io.StringIO()
            result = cumulus.run(["python", "job.py"], directory=here, stdout=out, stderr=err, quiet=True)
        self.assertEqual(result.code, 3)
        self.assertIn("from stdout forty-two", out.getvalue())
        self.assertIn("connected to Scheduler", out.getvalue())
        self.assertIn("from stderr", err.getvalue())
        self.assertNotIn("from stderr", out.getvalue())
        self.assertEqual(result.stdout, out.getvalue())

    def test_the_cli_exits_with_the_code_and_a_named_cluster_is_reused(self):
        with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as here:
            env = client_env(server, home, CUMULUS_API_TOKEN=token)
            with open(os.path.join(here, "note.txt"), "w") as f:
                f.write("sent along\n")
            first = run_cli(["run", "--name", "reused-run", "--", "bash", "-c",
                             "cat note.txt; echo oops >&2; exit 7"], env, timeout=START, cwd=here)
            self.assertEqual(first.returncode, 7, first.stderr)
            self.assertIn("sent along", first.stdout)
            self.assertIn("oops", first.stderr)
            self.assertNotIn("oops", first.stdout)
            began = time.monotonic()
            second = run_cli(["run", "--name", "reused-run", "--no-files", "--", "echo again"], env,
                             timeout=START, cwd=here)
            self.assertEqual(second.returncode, 0, second.stderr)
            self.assertEqual(second.stdout.strip(), "again")
            self.assertLess(time.monotonic() - began, 60)
            # On the running cluster, the command goes without Dask's client (run_reuse.py): the CLI
            # imports nothing of distributed, and the output, the streams and the code are as before.
            third = run_cli_importtime(["run", "--name", "reused-run", "--", "bash", "-c",
                                        "cat note.txt; echo err3 >&2; exit 5"], env, cwd=here)
            self.assertEqual(third.returncode, 5, third.stderr)
            self.assertEqual(third.stdout, "sent along\n")
            self.assertIn("err3", third.stderr)
            self.assertIn("Using the running cluster reused-run", third.stderr)
            self.assertIn("cumulus run: the command exited with code 5", third.stderr)
            imported = [line.rsplit("|", 1)[-1].strip() for line in third.stderr.splitlines() if "import time:" in line]
            self.assertIn("cumulus.run_reuse", imported)
            self.assertNotIn("distributed", imported)
            # A run whose caller goes away (Ctrl-C, or killed) stops its command on the cluster.
            # (The marker is made by bash on the cluster: the caller's own command line does not hold it.)
            marker = f"cumulus-run-stops-{os.getpid()}"
            caller = subprocess.Popen([sys.executable, "-m", "cumulus", "run", "--name", "reused-run", "--no-files",
                                       "--", f"echo started; exec -a cumulus-run-stops-$(({os.getpid()}+0)) sleep 600"],
                                      env=env, cwd=here,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.assertEqual(caller.stdout.readline().strip(), "started")
            self.assertTrue(running(marker), "the command runs")
            caller.send_signal(signal.SIGINT)
            caller.wait(30)
            wait_until(lambda: not running(marker), 30, "the interrupted command to stop")
        clusters = [c for c in api(f"/api/v2/clusters/account/{workspace}/?limit=100") if c["name"] == "reused-run"]
        self.assertEqual(len(clusters), 1, "the later runs reuse the first's cluster")
        self.assertEqual(clusters[0]["tags"].get("cumulus-cluster-type"), "run")
        self.assertNotIn(clusters[0]["current_state"]["state"], ("stopping", "stopped"))
        logs = api(f"/api/v2/clusters/account/{workspace}/id/{clusters[0]['id']}/better-logs")
        self.assertTrue(any("sent along" in e["message"] for e in logs), "the output is kept in the cluster's logs")


@cumulus.function(n_workers=2, worker_cpu=1, package_sync=False, idle_timeout="10 minutes")
def square(x):
    if x == 13:
        raise ValueError(f"unlucky {x}")
    return x * x


class FunctionTest(unittest.TestCase):
    def test_calls_maps_and_futures_on_a_reused_cluster(self):
        self.assertEqual(square(3), 9)
        began = time.monotonic()
        self.assertEqual(square(4), 16)
        self.assertLess(time.monotonic() - began, 2.0, "a later call on the running cluster is quick")
        results = square.map(range(12))
        self.assertTrue(hasattr(results, "__next__"), "map answers an iterator")
        self.assertEqual(list(results), [x * x for x in range(12)])
        self.assertEqual(list(square.map(iter([5, 1, 7]))), [25, 1, 49])
        future = square.submit(6)
        self.assertEqual(type(future).__name__, "Future")
        self.assertEqual(future.result(), 36)
        cluster = api(f"/api/v2/clusters/account/{workspace}/id/{square.cluster.cluster_id}")
        self.assertEqual(cluster["tags"].get("cumulus-cluster-type"), "function")

    def test_an_exception_is_raised_at_the_caller_with_its_remote_traceback(self):
        import traceback

        try:
            list(square.map([1, 13, 2]))
        except ValueError as err:  # not assertRaises: it drops the traceback this test reads
            self.assertEqual(str(err), "unlucky 13")
            frames = "".join(traceback.format_exception(type(err), err, err.__traceback__))
        else:
            self.fail("the remote ValueError was not raised")
        self.assertRegex(frames, r"line \d+, in square\n\s+raise ValueError")

    def test_another_process_reuses_the_cluster(self):
        square(1)
        import subprocess
        import sys

        script = ("import time, tests.test_everyday as t; began = time.monotonic(); r = t.square(9); "
                  "print(r, t.square.cluster.cluster_id, round(time.monotonic() - began, 2))")
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        result, cluster_id, seconds = done.stdout.split()
        self.assertEqual((int(result), int(cluster_id)), (81, square.cluster.cluster_id))
        print(f"\nanother process's first call on the running function cluster: {seconds} s", file=sys.stderr)


class NotebookTest(unittest.TestCase):
    """Jupyter served through the proxy, a kernel computing on the cluster, --sync both ways."""

    def test_jupyter_through_the_proxy_with_a_kernel_computing_on_the_cluster(self):
        import json
        import urllib.parse
        import urllib.request

        from cumulus import notebooks

        with tempfile.TemporaryDirectory() as here:
            with open(os.path.join(here, "data.csv"), "w") as f:
                f.write("a,b\n1,2\n")
            notebook = notebooks.start("nb-test", n_workers=1, sync=here, say=lambda _m: None, quiet=True,
                                       timeout=START)
            parsed = urllib.parse.urlsplit(notebook.url)
            self.assertRegex(parsed.path, rf"^/dashboard/{notebook.cluster_id}/jupyter/(lab|tree)$")
            self.assertIn("token=", parsed.query)
            base = notebook.url.split("/jupyter/")[0] + "/jupyter/"
            pass_ = dict(urllib.parse.parse_qsl(parsed.query))["token"]

            # The link is at the cluster's own origin (cluster-<id>.localhost on this server):
            # a browser takes any *.localhost for this machine; this resolver does not, so the
            # request goes to the server's address with the link's Host, as the browser's would.
            host = urllib.parse.urlsplit(base).netloc
            at_server = base.replace(host, urllib.parse.urlsplit(server.url).netloc, 1)

            def get(path, with_pass=True, cookie=None):
                url = at_server + path + (("&" if "?" in path else "?") + "token=" + pass_ if with_pass else "")
                headers = {"Host": host, **({"Cookie": cookie} if cookie else {})}
                req = urllib.request.Request(url, headers=headers)
                try:
                    with urllib.request.urlopen(req, timeout=60) as res:
                        return res.status, res.read(), res.headers
                except urllib.error.HTTPError as e:
                    return e.code, e.read(), e.headers

            import urllib.error

            status, page, _ = get(parsed.path.rsplit("/", 1)[1])
            self.assertEqual(status, 200)
            self.assertIn(b"jupyter", page.lower())
            self.assertEqual(get("api/status", with_pass=False)[0], 403, "without a pass, refused")
            self.assertEqual(get("api/status?token=1.9999999999.forged", with_pass=False)[0], 403)
            status, body, _ = get("api/contents/data.csv?content=1")
            self.assertEqual(status, 200)
            self.assertEqual(json.loads(body)["content"], "a,b\n1,2\n", "--sync sent the directory")

            # A kernel, through the proxy (HTTP, then its WebSocket), computes on the cluster.
            kernel = self.start_kernel(at_server, host, pass_)
            output = self.execute(at_server, host, pass_, kernel, "from distributed import Client\n"
                                  "c = Client()\nc.wait_for_workers(1)\n"
                                  "print('total', c.submit(sum, [1, 2, 3, 4]).result(), len(c.scheduler_info()['workers']))")
            self.assertIn("total 10 1", output)

            with tempfile.TemporaryDirectory() as home:
                listed = run_cli(["notebook", "list"], client_env(server, home, CUMULUS_API_TOKEN=token))
            self.assertEqual(listed.returncode, 0, listed.stderr)
            self.assertRegex(listed.stdout, rf"nb-test +ready +http://\S+/dashboard/{notebook.cluster_id}/jupyter/")

            # Changed on the notebook, brought back at stop.
            self.execute(at_server, host, pass_, kernel, "open('data.csv', 'a').write('3,4\\n'); open('new.txt', 'w').write('hi')")
            changed = notebooks.stop("nb-test", say=lambda _m: None)
            self.assertEqual(sorted(changed), ["data.csv", "new.txt"])
            with open(os.path.join(here, "data.csv")) as f:
                self.assertEqual(f.read(), "a,b\n1,2\n3,4\n")
        listed = api(f"/api/v2/clusters/paginate-notebook?account={workspace}")
        self.assertIn(notebook.cluster_id, [c["id"] for c in listed["items"]])

    def start_kernel(self, base, host, pass_):
        import json
        import urllib.request

        req = urllib.request.Request(base + "api/kernels?token=" + pass_, data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "Host": host})
        with urllib.request.urlopen(req, timeout=120) as res:
            return json.loads(res.read())["id"]

    def execute(self, base, host, pass_, kernel_id, code):
        import asyncio
        import json

        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        url = base.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels?token={pass_}"

        async def run():
            ws = await websocket_connect(HTTPRequest(url, headers={"Host": host}))
            msg_id = uuid_hex()
            ws.write_message(json.dumps({
                "header": {"msg_id": msg_id, "username": "test", "session": uuid_hex(), "msg_type": "execute_request",
                           "version": "5.3"},
                "parent_header": {}, "metadata": {}, "channel": "shell",
                "content": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True},
            }))
            out = []
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                raw = await asyncio.wait_for(ws.read_message(), 300)
                if raw is None:
                    break
                msg = json.loads(raw)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = msg["header"]["msg_type"]
                if kind == "stream":
                    out.append(msg["content"]["text"])
                elif kind == "error":
                    out.append("\n".join(msg["content"]["traceback"]))
                elif kind == "status" and msg["content"]["execution_state"] == "idle":
                    break
            ws.close()
            return "".join(out)

        return asyncio.run(run())


def uuid_hex():
    import uuid

    return uuid.uuid4().hex
