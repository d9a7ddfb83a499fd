"""Coiled's top-level Python API, called as Coiled's documentation shows (``import cumulus as coiled``),
against a real server and a real cluster."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import cumulus as coiled
from cumulus import functions
from tests.harness import call, client_env, start_as_new_user, wait_until

START = 600


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


def stopped(cluster_id: int) -> None:
    """Stops the cluster whatever a test did, so the server closes with no cluster process left."""
    path = f"{server.url}/api/v2/clusters/account/{workspace}/id/{cluster_id}"
    call(path, "DELETE", token=token, scheme="ApiToken")
    wait_until(lambda: call(path, token=token, scheme="ApiToken")[1]["current_state"]["state"] == "stopped",
               START, "the cluster stopped", 1)


class ClusterFunctionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = coiled.Cluster(name="coiled-api", n_workers=1, wait_for_workers=True, shutdown_on_close=False,
                                     quiet=True, timeout=START)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()
        stopped(cls.cluster.cluster_id)

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


class FunctionDecoratorTest(unittest.TestCase):
    def test_documented_options_map_submit_cluster_and_local(self):
        @coiled.function(cpu=1, memory="2 GiB", n_workers=1, threads_per_worker=2, keepalive="5 minutes",
                         idle_timeout="10 minutes", environ={"COILED_FN": "yes"}, name="coiled-fn",
                         shutdown_on_close=True)
        def inc(x):
            return x + 1, os.environ.get("COILED_FN")

        self.addCleanup(functions.close_all)
        self.assertEqual(inc(1), (2, "yes"))
        cluster = inc.cluster
        self.addCleanup(stopped, cluster.cluster_id)
        # Clients closed before their cluster stops (cleanups run last first).
        self.addCleanup(functions.close_all)
        self.assertEqual(cluster.name, "coiled-fn")
        self.assertEqual([r[0] for r in inc.map([1, 2, 3])], [2, 3, 4])
        self.assertEqual(inc.submit(3).result()[0], 4)
        self.assertEqual(list(inc.client.nthreads().values()), [2])
        limits = inc.client.run(lambda dask_worker: dask_worker.memory_manager.memory_limit)
        self.assertEqual(list(limits.values()), [2 * 2**30])

        local = inc.local
        self.assertEqual(local(5), (6, "yes"))
        self.assertEqual(type(local.cluster).__name__, "LocalCluster")

    def test_options_without_meaning_here_are_refused_by_name(self):
        with self.assertRaisesRegex(ValueError, "disk_size"):
            coiled.function(disk_size=100)(len)
        with self.assertRaisesRegex(ValueError, r"vm_type='m6i.xlarge'.*local=True"):
            coiled.function(local=True, vm_type="m6i.xlarge")(len)

    def test_local_runs_on_this_machine_with_its_threads(self):
        @coiled.function(local=True, n_workers=2, threads_per_worker=1, environ={"COILED_FN": "here"})
        def where(_):
            return os.environ.get("COILED_FN")

        self.addCleanup(functions.close_all)
        self.assertEqual(list(where.map(range(3))), ["here"] * 3)
        self.assertEqual(sorted(where.client.nthreads().values()), [1, 1])


SCRIPT = "import cumulus as coiled; print(coiled.list_core_usage()['account'])"


class CoiledConfigurationTest(unittest.TestCase):
    """A Coiled user's login setup, read by a script run as that user would run it."""

    def run_script(self, coiled_yaml: str | None = None, cumulus_yaml: str | None = None, **env):
        home = tempfile.mkdtemp(prefix="cumulus-home-")
        self.addCleanup(shutil.rmtree, home, True)
        folder = os.path.join(home, ".config", "dask")
        os.makedirs(folder)
        for name, text in (("coiled.yaml", coiled_yaml), ("cumulus.yaml", cumulus_yaml)):
            if text:
                with open(os.path.join(folder, name), "w") as f:
                    f.write(text)
        environment = client_env(server, home, **env)
        if "CUMULUS_SERVER" not in env:
            environment.pop("CUMULUS_SERVER")
        return subprocess.run([sys.executable, "-c", SCRIPT], env=environment, capture_output=True, text=True,
                              timeout=120)

    def test_coiled_yaml_is_read(self):
        done = self.run_script(f"coiled:\n  token: {token}\n  server: {server.url}\n  account: {workspace}\n")
        self.assertEqual((done.returncode, done.stdout.strip()), (0, workspace), done.stderr)

    def test_dask_coiled_variables_are_read(self):
        done = self.run_script(DASK_COILED__TOKEN=token, DASK_COILED__SERVER=server.url, DASK_COILED__ACCOUNT=workspace)
        self.assertEqual((done.returncode, done.stdout.strip()), (0, workspace), done.stderr)
        elsewhere = self.run_script(DASK_COILED__TOKEN=token, DASK_COILED__SERVER=server.url,
                                    DASK_COILED__ACCOUNT="not-my-workspace")
        self.assertNotEqual(elsewhere.returncode, 0)
        self.assertIn("You are not a member of workspace 'not-my-workspace'", elsewhere.stderr)

    def test_cumulus_settings_win_over_coiled_ones(self):
        coiled_yaml = "coiled:\n  token: not-a-valid-token\n  server: http://127.0.0.1:9\n  account: other\n"
        cumulus_yaml = f"cumulus:\n  token: {token}\n  server: {server.url}\n  workspace: {workspace}\n"
        done = self.run_script(coiled_yaml, cumulus_yaml)
        self.assertEqual((done.returncode, done.stdout.strip()), (0, workspace), done.stderr)
        done = self.run_script(coiled_yaml, CUMULUS_SERVER=server.url, CUMULUS_API_TOKEN=token)
        self.assertNotEqual(done.returncode, 0)  # the Coiled account is still read where Cumulus names none
        self.assertIn("'other'", done.stderr)


if __name__ == "__main__":
    unittest.main()
