"""Coiled's top-level Python API, called as Coiled's documentation shows (``import cumulus as coiled``),
against a real server and a real cluster."""

from __future__ import annotations

import unittest

import cumulus as coiled
from tests.harness import call, start_as_new_user, wait_until

START = 600


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


class ClusterFunctionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = coiled.Cluster(name="coiled-api", n_workers=1, wait_for_workers=True, shutdown_on_close=False,
                                     quiet=True, timeout=START)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()
        # Stopped whatever the tests did, so the server closes with no cluster process left.
        path = f"{server.url}/api/v2/clusters/account/{workspace}/id/{cls.cluster.cluster_id}"
        call(path, "DELETE", token=token, scheme="ApiToken")
        wait_until(lambda: call(path, token=token, scheme="ApiToken")[1]["current_state"]["state"] == "stopped",
                   START, "the cluster stopped", 1)

    def test_a_list_clusters_is_keyed_by_name(self):
        clusters = coiled.list_clusters()
        self.assertIsInstance(clusters, dict)
        self.assertEqual(clusters["coiled-api"]["id"], self.cluster.cluster_id)
        self.assertEqual(coiled.list_clusters(workspace=workspace, just_mine=True)["coiled-api"]["name"], "coiled-api")

    def test_b_cluster_logs_has_the_scheduler_and_each_worker(self):
        def scheduler_logged():
            found = coiled.cluster_logs(self.cluster.cluster_id)
            return "Scheduler at" in "\n".join(found.values()) and found

        found = wait_until(scheduler_logged, 120, "the scheduler's log", 2)
        self.assertEqual(len(found), 2, list(found))
        only_workers = coiled.cluster_logs(self.cluster.cluster_id, account=workspace, scheduler=False)
        self.assertEqual(len(only_workers), 1, list(only_workers))
        self.assertNotIn("Scheduler at", "\n".join(only_workers.values()))

    def test_c_core_usage_counts_the_running_cluster(self):
        usage = coiled.list_core_usage()
        self.assertEqual(usage["account"], workspace)
        self.assertGreater(usage["cores_used"], 0)

    def test_d_delete_cluster_by_name_stops_it(self):
        coiled.delete_cluster(name="coiled-api", reason="done with it")
        wait_until(lambda: coiled.list_clusters()["coiled-api"]["current_state"]["state"] in ("stopping", "stopped"),
                   120, "the cluster stopping", 1)
        with self.assertRaisesRegex(Exception, "no cluster named 'no-such-cluster'"):
            coiled.delete_cluster(name="no-such-cluster")


class SoftwareFunctionsTest(unittest.TestCase):
    def test_create_list_inspect_and_delete_an_environment(self):
        coiled.create_software_environment(name="coiled-pip", pip=["toolz"], log_output=None)
        listed = coiled.list_software_environments()
        self.assertIn("coiled-pip", listed)
        info = coiled.get_software_info("coiled-pip")
        self.assertEqual(info["name"], "coiled-pip")
        self.assertEqual(info["latest_spec"]["latest_build"]["state"], "built")
        coiled.delete_software_environment("coiled-pip")
        self.assertNotIn("coiled-pip", coiled.list_software_environments(account=workspace))

    def test_an_option_without_meaning_here_is_refused_by_name(self):
        with self.assertRaisesRegex(ValueError, r"post_build"):
            coiled.create_software_environment(name="coiled-post", pip=["toolz"], post_build=["echo hi"])
        self.assertNotIn("coiled-post", coiled.list_software_environments())


class MachineFunctionsTest(unittest.TestCase):
    def test_instance_types_filtered_as_documented(self):
        four = coiled.list_instance_types(backend="aws", cores=4)
        self.assertIn("m6i.xlarge", four)
        self.assertEqual({t["cores"] for t in four.values()}, {4})
        self.assertEqual(four["m6i.xlarge"]["memory"], 16 * 1024)
        big = coiled.list_instance_types(backend="aws", min_cores=8, memory=["32GiB", None])
        self.assertTrue(big)
        self.assertTrue(all(t["cores"] >= 8 and t["memory"] >= 32 * 1024 for t in big.values()))

    def test_gpu_types_name_the_catalogue_gpus(self):
        gpus = coiled.list_gpu_types()
        self.assertEqual(gpus["nvidia-tesla-t4"], "NVIDIA Tesla T4")
        with_gpu = coiled.list_instance_types(backend="aws", min_gpus=1)
        self.assertTrue(with_gpu)
        self.assertTrue(all(t["gpus"] >= 1 and t["gpu_name"] in gpus for t in with_gpu.values()))


if __name__ == "__main__":
    unittest.main()
