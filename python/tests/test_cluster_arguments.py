"""Every argument of Coiled's ``Cluster`` (its API reference's signature) is either honoured by
``cumulus.Cluster`` (a test named here shows it) or refused with an error naming it and why; none
is accepted and ignored. The arguments and methods new here are proved against a real server."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import unittest

import dask
import dask.config

import cumulus as coiled
from cumulus import cluster_arguments
from cumulus.http import ArgumentError
from tests.harness import start_as_new_user

# Coiled's Cluster(...) as its API reference lists it, in its order.
COILED_SIGNATURE = (
    "name", "software", "container", "ignore_container_entrypoint", "n_workers", "worker_class", "worker_options",
    "worker_vm_types", "worker_cpu", "worker_memory", "worker_disk_size", "worker_disk_throughput",
    "worker_disk_config", "worker_gpu", "worker_gpu_type", "scheduler_options", "scheduler_vm_types",
    "scheduler_cpu", "scheduler_memory", "scheduler_disk_size", "scheduler_disk_config", "scheduler_gpu",
    "asynchronous", "cloud", "account", "workspace", "shutdown_on_close", "idle_timeout", "cluster_timeout",
    "no_client_timeout", "use_scheduler_public_ip", "use_dashboard_https", "dashboard_custom_subdomain",
    "credentials", "credentials_duration_seconds", "timeout", "environ", "tags", "send_dask_config",
    "unset_single_threading_variables", "backend_options", "show_widget", "custom_widget", "configure_logging",
    "wait_for_workers", "package_sync", "package_sync_strict", "package_sync_conda_extras", "package_sync_ignore",
    "package_sync_only", "package_sync_fail_on", "package_sync_use_uv_installer", "private_to_creator",
    "use_best_zone", "allow_cross_zone", "compute_purchase_option", "spot_policy", "extra_worker_on_scheduler",
    "_n_worker_specs_per_host", "scheduler_port", "allow_ingress_from", "allow_ssh_from", "allow_ssh",
    "allow_spark", "open_extra_ports", "jupyter", "mount_bucket", "region", "arm", "batch_job_ids",
    "batch_job_container", "scheduler_sidecars", "worker_sidecars", "pause_on_exit", "filestores_to_attach",
    "host_setup_script",
)
HERE = "tests.test_cluster_arguments.CoiledArgumentsOnAServerTest"
# Honoured: the test that shows it.
HONOURED = {
    "name": "tests.test_cluster.ClusterTest.test_compute_scale_adapt_and_close",
    "software": "tests.test_software.PackageSyncTest.test_a_local_package_becomes_a_wheel_the_workers_import",
    "n_workers": f"{HERE}.test_coiled_names_dask_config_and_an_adaptive_range",
    "worker_class": "tests.test_cluster.ClusterTest.test_workers_run_the_worker_class_asked",
    "worker_options": "tests.test_coiled_api.FunctionDecoratorTest.test_documented_options_map_submit_cluster_and_local",
    "worker_vm_types": "tests.test_everyday.HardwareTest.test_a_cloud_backend_gets_the_cheapest_matching_types",
    "worker_cpu": "tests.test_everyday.HardwareTest.test_worker_cpu_and_memory_become_threads_and_memory_limit",
    "worker_memory": "tests.test_everyday.HardwareTest.test_worker_cpu_and_memory_become_threads_and_memory_limit",
    "worker_gpu": "tests.test_everyday.HardwareTest.test_a_cloud_backend_gets_the_cheapest_matching_types",
    "worker_gpu_type": "tests.test_hardware_fields.SizedBackendsTest.test_a_gpu_type_is_sent_and_chooses_the_types",
    "scheduler_options": "tests.test_everyday.HardwareTest.test_no_client_timeout_reaches_the_scheduler",
    "scheduler_vm_types": "tests.test_everyday.HardwareTest.test_a_cloud_backend_gets_the_cheapest_matching_types",
    "scheduler_cpu": "tests.test_everyday.HardwareTest.test_what_the_machine_lacks_is_refused_naming_the_argument",
    "scheduler_memory": "tests.test_everyday.HardwareTest.test_what_the_machine_lacks_is_refused_naming_the_argument",
    "asynchronous": "tests.test_cluster.ClusterTest.test_asynchronous_use",
    "account": f"{HERE}.test_coiled_names_dask_config_and_an_adaptive_range",
    "workspace": "tests.test_coiled_api.ClusterFunctionsTest.test_a_list_clusters_is_keyed_by_name",
    "shutdown_on_close": "tests.test_everyday.HardwareTest.test_a_cluster_kept_on_purpose_lives_to_its_idle_timeout",
    "idle_timeout": "tests.test_cluster.ClusterTest.test_idle_timeout_stops_the_cluster",
    "cluster_timeout": "tests.test_client_errors.ArgumentsTest.test_other_arguments",
    "no_client_timeout": "tests.test_everyday.HardwareTest.test_no_client_timeout_reaches_the_scheduler",
    "use_scheduler_public_ip": f"{HERE}.test_coiled_names_dask_config_and_an_adaptive_range",
    "credentials": "tests.test_aws_credentials.LocalCredentialsTest."
                   "test_worker_reads_s3_with_forwarded_session_credentials_and_gets_refreshed_ones",
    "timeout": "tests.test_cluster.ClusterTest.test_server_killed_while_a_cluster_starts",
    "environ": "tests.test_coiled_api.FunctionDecoratorTest.test_documented_options_map_submit_cluster_and_local",
    "tags": "tests.test_client_errors.ArgumentsTest.test_other_arguments",
    "send_dask_config": f"{HERE}.test_coiled_names_dask_config_and_an_adaptive_range",
    "show_widget": f"{HERE}.test_coiled_names_dask_config_and_an_adaptive_range",
    "configure_logging": f"{HERE}.test_coiled_names_dask_config_and_an_adaptive_range",
    "wait_for_workers": "tests.test_cluster.ClusterTest.test_compute_scale_adapt_and_close",
    "package_sync": "tests.test_software.PackageSyncTest.test_a_cluster_runs_what_this_python_has",
    "compute_purchase_option": "tests.test_cluster_arguments.TableTest.test_coiled_names_of_our_arguments",
    "spot_policy": "tests.test_everyday.HardwareTest.test_a_cloud_backend_gets_the_cheapest_matching_types",
    "scheduler_port": "tests.test_firewall.MappingTest.test_a_scheduler_port_moves_the_scheduler_and_its_rule",
    "allow_ingress_from": "tests.test_firewall.MappingTest.test_ssh_from_me_and_the_scheduler_from_everyone",
    "allow_ssh_from": "tests.test_firewall.MappingTest.test_ssh_from_an_office_is_its_own_rule",
    "allow_ssh": "tests.test_firewall.MappingTest.test_ssh_and_extra_ports_open_to_the_same_source",
    "allow_spark": "tests.test_firewall.MappingTest.test_spark_is_refused_by_name_no_port_opens_onto_nothing",
    "open_extra_ports": "tests.test_firewall.MappingTest.test_ssh_and_extra_ports_open_to_the_same_source",
    "region": "tests.test_everyday.HardwareTest.test_a_cloud_backend_gets_the_cheapest_matching_types",
    "arm": "tests.test_everyday.HardwareTest.test_a_cloud_backend_gets_the_cheapest_matching_types",
    "container": "tests.test_containers.ContainerClusterTest.test_a_cluster_of_an_image_computes_inside_it",
    "ignore_container_entrypoint": "tests.test_containers.ContainerClusterTest."
                                   "test_an_image_whose_entrypoint_runs_nothing_runs_with_it_ignored",
}
# A value that asks for something, for each refused argument.
ASKING = {"package_sync_strict": True, "allow_cross_zone": True, "package_sync_fail_on": "warning-or-higher",
          "package_sync_use_uv_installer": False, "_n_worker_specs_per_host": 2}


def _test_exists(dotted: str) -> bool:
    module, cls, method = dotted.rsplit(".", 2)
    return hasattr(getattr(importlib.import_module(module), cls, None), method)


class TableTest(unittest.TestCase):
    def test_every_argument_is_honoured_or_refused_never_both_never_neither(self):
        documented = set(COILED_SIGNATURE)
        self.assertEqual(len(documented), len(COILED_SIGNATURE))
        self.assertEqual(documented - set(HONOURED) - set(cluster_arguments.REFUSED), set(), "neither")
        self.assertEqual(set(HONOURED) & set(cluster_arguments.REFUSED), set(), "both")
        self.assertEqual(set(HONOURED) | set(cluster_arguments.REFUSED), documented, "not Coiled's")

    def test_each_honoured_argument_is_shown_honoured_by_a_test(self):
        for name, test in HONOURED.items():
            self.assertTrue(_test_exists(test), f"{name}: no test {test}")

    def test_each_refused_argument_is_refused_by_name_with_why_before_anything_is_sent(self):
        for name in cluster_arguments.REFUSED:
            value = ASKING.get(name, "something")
            with self.subTest(name), self.assertRaises(ArgumentError) as caught:
                # No server is reachable at this address: the refusal comes before any call.
                coiled.Cluster(**{name: value}, server="http://127.0.0.1:9", token="unused")
            self.assertRegex(str(caught.exception), rf"^Cluster\({name}={value!r}\): {name} is not supported "
                                                    r"by Cumulus: \w.{10,}\.$")

    def test_a_refused_argument_at_coileds_default_asks_for_nothing(self):
        defaults = {name: default for name, (default, _why) in cluster_arguments.REFUSED.items()}
        cluster_arguments.refuse_coiled_only(defaults)  # raises nothing

    def test_a_name_coiled_does_not_have_either_is_pythons_type_error(self):
        with self.assertRaisesRegex(TypeError, "unexpected keyword argument 'n_wrokers'"):
            coiled.Cluster(n_wrokers=2, server="http://127.0.0.1:9", token="unused")

    def test_coiled_names_of_our_arguments(self):
        for given, named in (({"compute_purchase_option": "spot", "spot_policy": "on-demand"}, "give one of them"),
                             ({"account": "a", "workspace": "b"}, "account is Coiled's name for workspace"),
                             ({"n_workers": [3, 1]}, r"n_workers=\[3, 1\]"),
                             ({"compute_purchase_option": "cheap"}, "spot_policy='cheap'"),
                             ({"send_dask_config": "yes"}, "send_dask_config='yes'")):
            with self.subTest(named), self.assertRaisesRegex(ArgumentError, named):
                coiled.Cluster(**given, server="http://127.0.0.1:9", token="unused")


MARK = {"cumulus-test": {"sent-config": "from this machine"}}


class CoiledArgumentsOnAServerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.token, cls.workspace = start_as_new_user()
        cls.addClassCleanup(cls.server.close)

    def start(self, **kwargs):
        printed = io.StringIO()
        with dask.config.set(MARK), contextlib.redirect_stdout(printed):
            cluster = coiled.Cluster(wait_for_workers=True, timeout=600, **kwargs)
        self.addCleanup(cluster.close)
        return cluster, printed.getvalue()

    def test_coiled_names_dask_config_and_an_adaptive_range(self):
        cluster, printed = self.start(n_workers=[1, 2], account=self.workspace, show_widget=False,
                                      configure_logging=True, use_scheduler_public_ip=False)
        self.assertEqual(printed, "")  # show_widget=False: nothing shown
        self.assertEqual(cluster.workspace, self.workspace)
        self.assertEqual((cluster._adaptive.minimum, cluster._adaptive.maximum), (1, 2))
        self.assertFalse(cluster._use_public_ip)
        self.assertTrue(coiled.cluster.logger.handlers)  # configure_logging=True

        def marker():
            import dask

            return dask.config.get("cumulus-test.sent-config", None)

        client = cluster.get_client()
        self.assertEqual(set(client.run(marker).values()), {"from this machine"})
        self.assertEqual(client.run_on_scheduler(marker), "from this machine")
        self.assertIn(f"/clusters/{cluster.cluster_id}?account={self.workspace}", cluster.details_url)

        cluster.send_private_envs({"CUMULUS_PRIVATE": "shh"})
        self.assertEqual(set(client.run(lambda: os.environ.get("CUMULUS_PRIVATE")).values()), {"shh"})
        self.assertEqual(client.run_on_scheduler(lambda: os.environ.get("CUMULUS_PRIVATE")), "shh")

        client.close()
        cluster.shutdown()
        path = f"/api/v2/clusters/account/{self.workspace}/id/{cluster.cluster_id}"
        from tests.harness import call, wait_until

        wait_until(lambda: call(self.server.url + path, token=self.token, scheme="ApiToken")[1]["current_state"]
                   ["state"] in ("stopping", "stopped"), 120, "the cluster stopping", 1)

    def test_without_send_dask_config_the_cluster_has_its_own(self):
        cluster, _ = self.start(n_workers=1, send_dask_config=False, quiet=True)
        client = cluster.get_client()
        self.addCleanup(client.close)
        self.assertEqual(set(client.run(lambda: dask.config.get("cumulus-test", None)).values()), {None})


if __name__ == "__main__":
    unittest.main()
