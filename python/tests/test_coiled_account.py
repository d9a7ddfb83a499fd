"""Coiled's remaining top-level functions, called as Coiled documents them (``import cumulus as
coiled``) against a real server: user information, billing activity, local versions, diagnostics,
performance reports and backend options. Each works here or raises one error naming it."""

from __future__ import annotations

import os
import tempfile
import unittest

import cumulus as coiled
from tests.harness import start_as_new_user

# Every top-level name of Coiled's Python API reference (docs.coiled.io, "API").
COILED_API_REFERENCE = (
    "Cluster", "cluster_logs", "create_software_environment", "delete_cluster", "delete_software_environment",
    "diagnostics", "get_billing_activity", "get_software_info", "list_clusters", "list_core_usage",
    "list_gpu_types", "list_instance_types", "BackendOptions", "AWSOptions", "GCPOptions", "list_local_versions",
    "list_performance_reports", "list_software_environments", "list_user_information", "performance_report",
    "set_backend_options", "function", "run", "batch",
)


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


class CoiledAccountFunctionsTest(unittest.TestCase):
    def test_every_name_of_the_reference_is_there(self):
        missing = [name for name in COILED_API_REFERENCE if not hasattr(coiled, name)]
        self.assertEqual(missing, [])
        for name in ("run", "status", "wait", "list", "logs"):
            self.assertTrue(callable(getattr(coiled.batch, name)), name)

    def test_user_information_is_the_signed_in_user(self):
        me = coiled.list_user_information()
        self.assertEqual(me["default_account"]["slug"], workspace)
        self.assertTrue(me["username"].startswith("py"))

    def test_billing_activity_is_a_page_of_the_workspace_events(self):
        page = coiled.get_billing_activity(account=workspace, start_time="2020-01-01T00:00:00+00:00", kind="limits")
        self.assertEqual(set(page), {"count", "next", "previous", "results"})
        self.assertEqual(page["count"], len(page["results"]))
        with self.assertRaisesRegex(Exception, r"get_billing_activity\(start_time='yesterday'\)"):
            coiled.get_billing_activity(start_time="yesterday")

    def test_local_versions_and_diagnostics(self):
        versions = coiled.list_local_versions()
        import dask

        self.assertEqual(versions["dask"].split("+")[0], dask.__version__.split("+")[0])
        self.assertEqual(versions["cumulus"], coiled.__version__)
        found = coiled.diagnostics()
        self.assertEqual((found["workspace"], found["server"]), (workspace, server.url))
        self.assertEqual(found["health_check"]["status"], "ok")
        self.assertEqual(found["local_versions"]["python"], versions["python"])

    def test_performance_report_writes_dasks_report_here(self):
        import importlib.util

        from distributed import Client, LocalCluster

        if importlib.util.find_spec("bokeh") is None:  # Dask's report needs it: said in one line, before the block
            with self.assertRaisesRegex(Exception, r"^performance_report: .*bokeh, which is not installed"):
                with coiled.performance_report():
                    self.fail("the block ran without a report to write")
            return
        with LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster, Client(cluster) as client:
            path = os.path.join(tempfile.mkdtemp(), "report.html")
            with coiled.performance_report(filename=path) as report:
                client.submit(sum, [1, 2]).result()
        self.assertEqual(report.url, f"file://{path}")
        with open(path) as f:
            self.assertIn("Dask Performance Report", f.read())

    def test_what_has_no_meaning_here_raises_one_error_naming_it(self):
        with self.assertRaisesRegex(NotImplementedError, r"^list_performance_reports: "):
            coiled.list_performance_reports()
        with self.assertRaisesRegex(NotImplementedError, r"^set_backend_options: .*cumulus setup"):
            coiled.set_backend_options(aws_region="us-east-2")
        options: coiled.AWSOptions = {"region_name": "us-east-2", "keypair_name": "mine"}
        self.assertEqual(options["region_name"], "us-east-2")


if __name__ == "__main__":
    unittest.main()
