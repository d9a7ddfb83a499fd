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
        # On Compute Engine a T4 is attached to an N1 type (the server adds guestAccelerators).
        gcp = fields("vm_gcp", worker_gpu=2)
        self.assertEqual(gcp["options"], {"worker_accelerator_count": 2, "worker_accelerator_type": "nvidia-tesla-t4"})
        self.assertEqual(gcp["worker_instance_types"], ["n1-standard-4"])

    def test_a_gpu_type_is_sent_and_chooses_the_types(self):
        # Another GPU than T4s: the server picks the cheapest type with it (a G2 for L4s on GCP).
        l4 = fields("vm_gcp", worker_gpu=1, worker_gpu_type="nvidia-l4")
        self.assertEqual(l4["options"], {"worker_accelerator_count": 1, "worker_accelerator_type": "nvidia-l4"})
        self.assertNotIn("worker_instance_types", l4)
        # With types named, they are sent as they are, for the server to check against the GPU.
        named = fields("vm_gcp", worker_gpu=2, worker_gpu_type="nvidia-tesla-t4", worker_vm_types="n1-standard-8")
        self.assertEqual(named["worker_instance_types"], ["n1-standard-8"])
        self.assertEqual(fields("slurm", worker_gpu=1, worker_gpu_type="nvidia-l4")["options"],
                         {"worker_accelerator_count": 1, "worker_accelerator_type": "nvidia-l4"})
        for given, said in (({"worker_gpu_type": "nvidia-l4"}, "give worker_gpu too"),
                            ({"worker_gpu": 1, "worker_gpu_type": ""}, "worker_gpu_type must be a GPU type")):
            with self.subTest(said), self.assertRaisesRegex(ArgumentError, said):
                hardware.check("Cluster", given)


if __name__ == "__main__":
    unittest.main()
