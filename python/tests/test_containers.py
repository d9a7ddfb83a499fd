"""``Cluster(container=IMAGE)`` as a Coiled user writes it (``import cumulus as coiled``), against a
real server: the image becomes the workspace's environment, and Dask runs inside it. The image is
the one the server tests build from Debian's packages (scripts/container-images.sh)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import cumulus as coiled
from cumulus.http import ArgumentError
from tests.harness import client_env, run_cli, start_as_new_user

IMAGE = "localhost/cumulus-test/dask:bookworm"
# The same image with an entrypoint that runs nothing: usable only with the entrypoint ignored.
ENTRYPOINT = "localhost/cumulus-test/entrypoint:bookworm"
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def setUpModule():
    global server, token, workspace
    if shutil.which("podman") is None:
        raise unittest.SkipTest("podman is not installed (scripts/setup.sh --containers installs it)")
    subprocess.run(["bash", os.path.join(REPOSITORY, "scripts", "container-images.sh")], check=True, timeout=900)
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


class ContainerClusterTest(unittest.TestCase):
    def test_a_cluster_of_an_image_computes_inside_it(self):
        def where():  # defined here: sent by value (the cluster has no tests package)
            import os
            import sys
            with open("/etc/cumulus-test-image") as f:
                return {"image": f.read().strip(), "uid": os.getuid(), "python": sys.executable}

        with coiled.Cluster(container=IMAGE, n_workers=1, name="in-image", quiet=True) as cluster:
            with cluster.get_client() as client:
                self.assertEqual(client.submit(sum, range(101)).result(), 5050)
                on_worker = client.submit(where, pure=False).result()
                on_scheduler = client.run_on_scheduler(where)
        for seen in (on_worker, on_scheduler):
            self.assertEqual(seen["image"], IMAGE)
            self.assertNotEqual(seen["uid"], 0)
        names = coiled.list_software_environments()
        self.assertTrue(any(n.startswith("image-localhost-cumulus-test-dask-bookworm-") for n in names), names)

    def test_an_image_whose_entrypoint_runs_nothing_runs_with_it_ignored(self):
        with coiled.Cluster(container=ENTRYPOINT, ignore_container_entrypoint=True, n_workers=0,
                            name="entrypoint-ignored", quiet=True) as cluster:
            with cluster.get_client() as client:
                self.assertEqual(client.run_on_scheduler(lambda: 6 * 7), 42)

    def test_a_function_runs_in_the_image(self):
        @coiled.function(container=IMAGE, n_workers=1, name="fn-in-image")
        def marker(x):
            with open("/etc/cumulus-test-image") as f:
                return f.read().strip(), x + 1

        try:
            self.assertEqual(marker(1), (IMAGE, 2))
        finally:
            marker.cluster.shutdown()

    def test_cumulus_run_and_a_batch_job_run_in_the_image(self):
        home, work = tempfile.mkdtemp(), tempfile.mkdtemp()
        env = client_env(server, home, CUMULUS_API_TOKEN=token)
        # The marker file exists only in the image; the uid is the cluster's own, never root.
        command = 'echo "$(cat /etc/cumulus-test-image) as $(id -u)"'
        ran = run_cli(["run", "--workspace", workspace, "--container", IMAGE, "--", command], env, timeout=600, cwd=work)
        self.assertEqual(ran.returncode, 0, ran.stdout + ran.stderr)
        marker, _, uid = ran.stdout.strip().partition(" as ")
        self.assertEqual(marker, IMAGE)
        self.assertNotEqual(uid, "0")

        submitted = run_cli(["batch", "run", "--workspace", workspace, "--container", IMAGE, "--ntasks", "2", "--wait",
                             command + '" (task $CUMULUS_BATCH_TASK_ID)"'], env, timeout=600, cwd=work)
        self.assertEqual(submitted.returncode, 0, submitted.stdout + submitted.stderr)
        self.assertIn("all 2 task(s) succeeded", submitted.stdout)
        job = int(re.search(r"Submitted batch job (\d+)", submitted.stdout).group(1))
        logs = run_cli(["batch", "logs", "--job", str(job), "--workspace", workspace], env, cwd=work)
        for task in (0, 1):
            self.assertRegex(logs.stdout, rf"\[task {task}\] {re.escape(IMAGE)} as [1-9]\d* \(task {task}\)")

    def test_container_with_software_or_package_sync_is_refused_by_name(self):
        with self.assertRaisesRegex(ArgumentError, r"container='x'.*software='y'.*give one of them"):
            coiled.Cluster(container="x", software="y")
        with self.assertRaisesRegex(ArgumentError, r"container='x'.*package_sync=True"):
            coiled.Cluster(container="x", package_sync=True)
