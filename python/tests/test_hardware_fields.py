"""The create call's hardware fields on backends of the workspace's own machines (``ssh`` hosts,
``slurm``): threads and memory as locally, GPUs by count alone (the server places them on a host's
devices or asks Slurm's GRES), never a catalogue's instance type. No server: the backend is given."""

import unittest

from cumulus import hardware
from cumulus.http import ArgumentError


def fields(backend: str, **given) -> dict:
    return hardware.fields_for(None, "ws", hardware.check("Cluster", given), backend=backend)


class SizedBackendsTest(unittest.TestCase):
    def test_gpus_go_by_count_with_no_type_on_ssh_hosts_and_slurm(self):
        for backend in ("ssh", "slurm"):
            self.assertEqual(
                fields(backend, worker_gpu=2, worker_cpu=4, worker_memory="8 GiB"),
                {"worker_options": {"nthreads": 4, "memory_limit": 8 * 2**30}, "scheduler_options": {},
                 "options": {"worker_accelerator_count": 2}},
            )
            self.assertEqual(fields(backend, worker_gpu=True)["options"], {"worker_accelerator_count": 1})
            self.assertEqual(fields(backend, worker_gpu=False)["options"], {})

    def test_ssh_host_labels_pass_as_instance_types(self):
        self.assertEqual(fields("ssh", worker_vm_types=["big"], worker_gpu=1)["worker_instance_types"], ["big"])

    def test_the_local_backend_still_refuses_gpus_and_a_cloud_still_gets_a_gpu_type(self):
        with self.assertRaises(ArgumentError) as caught:
            fields("in_process", worker_gpu=1)
        self.assertIn("the local backend has no GPUs", str(caught.exception))
        aws = fields("vm_aws", worker_gpu=1)
        self.assertEqual(aws["options"]["worker_accelerator_type"], "nvidia-tesla-t4")
        self.assertEqual(aws["worker_instance_types"], ["g4dn.xlarge"])


if __name__ == "__main__":
    unittest.main()
