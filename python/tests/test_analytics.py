"""Analytics of a real cluster: what its scheduler reports, read back through the user calls.

A real server starts a real cluster; a computation and a failing task run on it; the analytics
preload on the scheduler reports them, and the workspace reads computations, summaries,
timeseries, exceptions and the profile through the API.
"""

from __future__ import annotations

import time
import unittest

from distributed import Client

import cumulus
from cumulus import analytics
from tests.harness import CumulusServer, call, instance_processes, start_as_new_user, wait_until

server: CumulusServer
token: str
workspace: str
START = 600  # seconds: a cluster starting on a loaded two-core machine
REPORT = 120  # seconds: the preload reports every few seconds; the machine may be slow


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


def api(path: str, **query):
    qs = "&".join(f"{k}={v}" for k, v in query.items())
    status, answer = call(f"{server.url}/api/v2/analytics/{workspace}{path}" + (f"?{qs}" if qs else ""), token=token, scheme="ApiToken")
    if status >= 400:
        raise AssertionError(f"GET {path} answered {status}: {answer}")
    return answer


def stable(summary: dict) -> list:
    """What later reports do not change: task states move on as the client releases futures."""
    return [(p["prefix"], p["n_tasks"], round(p["compute_seconds"], 6)) for p in summary["task_prefixes"]]


class AnalyticsTest(unittest.TestCase):
    def test_a_computation_is_reported_and_read_back(self):
        cluster = cumulus.Cluster(n_workers=1, wait_for_workers=True, timeout=START, quiet=True)
        self.addCleanup(cluster.close)
        cid = cluster.cluster_id
        with Client(cluster) as client:
            # Functions of the test itself travel by value; workers cannot import this module.
            def slowinc(x):
                time.sleep(0.05)
                return x + 1

            def fails(x):
                raise ZeroDivisionError(f"no {x}")

            futures = client.map(slowinc, range(20))
            self.assertEqual(client.submit(sum, futures).result(), sum(range(1, 21)))
            with self.assertRaises(ZeroDivisionError):
                client.submit(fails, 7).result()

            def finished():
                listed = analytics.list_computations(cluster_id=cid)
                done = [c for c in listed if c["stop"] and "slowinc" in c["task_prefixes"]]
                return done and listed

            computations = wait_until(finished, REPORT, "the work reported as a finished computation")
            scheduler_id = client.scheduler_info()["id"]
            self.assertEqual({c["scheduler_id"] for c in computations}, {scheduler_id})
            work = next(c for c in computations if "slowinc" in c["task_prefixes"])
            self.assertGreaterEqual(work["n_tasks"], 20)
            self.assertGreaterEqual(work["compute_seconds"], 1.0)  # 20 tasks sleeping 0.05 s
            self.assertGreater(work["duration"], 0)
            # Reports keep coming (states change as the client releases its futures): compare ids.
            by_scheduler = analytics.list_computations(scheduler_id=scheduler_id)
            self.assertEqual([c["id"] for c in by_scheduler], [c["id"] for c in computations])
            self.assertEqual([c["id"] for c in api(f"/{scheduler_id}/computations/list", limit=1)], [by_scheduler[0]["id"]])

            exceptions = wait_until(lambda: analytics.list_exceptions(cluster_id=cid), REPORT, "the exception reported")
            self.assertEqual(analytics.list_exceptions(scheduler_id=scheduler_id), exceptions)
            self.assertEqual(analytics.list_exceptions(cluster_id=cid, since=time.time() + 3600), [])
            self.assertEqual(exceptions[0]["task_prefix"], "fails")
            self.assertIn("ZeroDivisionError", exceptions[0]["exception"])
            self.assertIn("no 7", exceptions[0]["exception"])
            self.assertIn("raise ZeroDivisionError", exceptions[0]["traceback"])

        summary = analytics.summary(cid)
        self.assertEqual(summary["scheduler_ids"], [scheduler_id])
        self.assertEqual(summary["n_exceptions"], 1)
        prefixes = {p["prefix"]: p for p in summary["task_prefixes"]}
        self.assertEqual(set(prefixes), {"slowinc", "sum", "fails"})
        self.assertEqual(prefixes["slowinc"]["n_tasks"], 20)
        self.assertGreaterEqual(prefixes["slowinc"]["compute_seconds"], 1.0)
        self.assertAlmostEqual(prefixes["slowinc"]["durations"]["compute"], prefixes["slowinc"]["compute_seconds"], places=6)
        self.assertEqual(prefixes["fails"]["n_tasks"], 1)
        by_scheduler = api(f"/dask/{scheduler_id}/summary", task_prefix_limit=50)
        self.assertEqual(stable(by_scheduler), stable(summary))

        series = api(f"/cluster/{cid}/timeseries", group_by="prefix", duration_type="compute", interval=1)
        slowinc = next(s for s in series["series"] if s["name"] == "slowinc")
        # The seconds reported interval by interval add up to the task groups' totals.
        self.assertAlmostEqual(slowinc["total_seconds"], prefixes["slowinc"]["compute_seconds"], places=3)
        self.assertAlmostEqual(sum(p["seconds"] for p in slowinc["points"]), slowinc["total_seconds"], places=6)
        self.assertTrue(any(s["n_workers"] == 1 for s in series["samples"]))
        self.assertEqual(api(f"/dask/{scheduler_id}/timeseries", interval=1)["series"], series["series"])

        def profiled():
            found = api(f"/cluster/{cid}")
            return found["last_profile"] and found

        overview = wait_until(profiled, REPORT, "a profile")
        self.assertEqual(overview["schedulers"][0]["scheduler_id"], scheduler_id)
        self.assertEqual(overview["last_profile"]["scheduler_id"], scheduler_id)
        self.assertIn("children", overview["last_profile"]["profile"])

        cluster.close()
        wait_until(lambda: not instance_processes(server.data_dir), START, "the cluster's processes gone")
        events = api(f"/{cid}/events/list")
        self.assertIn("register", [e["name"] for e in events])
