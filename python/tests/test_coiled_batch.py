"""``coiled.batch`` as Coiled documents it (``import cumulus as coiled``), against a real server and
real batch clusters on the local backend: ``run``, ``status``, ``wait``, ``list``, ``logs``."""

from __future__ import annotations

import os
import tempfile
import textwrap
import unittest
from unittest import mock

import cumulus as coiled
from tests.harness import start_as_new_user

JOB_SECONDS = 300


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


class CoiledBatchTest(unittest.TestCase):
    def test_run_over_values_then_status_wait_list_and_logs(self):
        work = tempfile.mkdtemp()
        script = os.path.join(work, "square.py")
        with open(script, "w") as f:
            f.write(textwrap.dedent("""\
                import os
                n = int(os.environ["NUMBER"])
                print(f"task {os.environ['CUMULUS_BATCH_TASK_ID']}: {n} squared is {n * n} ({os.environ['GREETING']})")
                """))
        cwd = os.getcwd()
        os.chdir(work)
        self.addCleanup(os.chdir, cwd)
        job = coiled.batch.run(["square.py"], map_over_values=["3", "4", "5"], map_over_input_var="NUMBER",
                               env={"GREETING": "hello"}, tag=["team=data"], max_workers=2, name="coiled-batch")
        self.assertEqual((job["cluster_name"], job["n_tasks"]), ("coiled-batch", 3))
        self.assertEqual(coiled.list_clusters()["coiled-batch"]["id"], job["cluster_id"])

        # Coiled's wait takes the job's cluster (id or name), as its `batch wait CLUSTER` does.
        done = coiled.batch.wait(job["cluster_id"])
        self.assertEqual((done["id"], done["job_state"]), (job["job_id"], "done"), done)
        self.assertEqual(done["n_tasks_succeeded"], 3)
        self.assertEqual(coiled.batch.wait("coiled-batch", workspace=workspace)["id"], job["job_id"])
        self.assertEqual(coiled.batch.wait(job_id=job["job_id"])["job_state"], "done")
        self.assertEqual(coiled.batch.wait()["id"], job["job_id"])  # the latest job
        with self.assertRaisesRegex(ValueError, "name the job once"):
            coiled.batch.wait(job["cluster_id"], job_id=job["job_id"])
        with self.assertRaisesRegex(Exception, "no cluster named 'no-such-batch'"):
            coiled.batch.wait("no-such-batch")

        [by_cluster] = coiled.batch.status(job["cluster_id"])
        self.assertEqual(by_cluster["id"], job["job_id"])
        self.assertEqual(sorted(t["exit_code"] for t in by_cluster["tasks"]), [0, 0, 0])
        self.assertEqual(coiled.batch.status("coiled-batch")[0]["id"], job["job_id"])
        self.assertEqual(coiled.batch.status()[0]["id"], job["job_id"])  # the latest job

        listed = coiled.batch.list(workspace=workspace)
        self.assertEqual((listed[0]["id"], listed[0]["state"]), (job["job_id"], "done"))
        self.assertEqual(coiled.batch.list_jobs()[0]["id"], job["job_id"])

        one = coiled.batch.logs(job["job_id"], task=1)
        self.assertIn("task 1: 4 squared is 16 (hello)", one)
        self.assertNotIn("squared is 9", one)
        every = coiled.batch.logs()
        self.assertIn("[task 2] task 2: 5 squared is 25 (hello)", every)

    def test_a_failing_task_on_the_scheduler_fails_the_job(self):
        job = coiled.batch.run('[ "$CUMULUS_BATCH_TASK_ID" != 2 ] || exit 5', array="0-4:2", task_on_scheduler=True)
        self.assertEqual(coiled.batch.wait_for_job_done(job["job_id"]), "failed")
        [status] = coiled.batch.status(job_id=job["job_id"])
        codes = {t["array_task_id"]: t["exit_code"] for t in status["tasks"]}
        self.assertEqual(codes, {0: 0, 2: 5, 4: 0})

    def test_forwarded_aws_credentials_reach_the_tasks_as_secret_variables(self):
        session = {"AWS_ACCESS_KEY_ID": "ASIABATCHFORWARDED01", "AWS_SECRET_ACCESS_KEY": "batch-secret",
                   "AWS_SESSION_TOKEN": "batch-session"}
        with mock.patch.dict(os.environ, session):
            job = coiled.batch.run("echo key=$AWS_ACCESS_KEY_ID token=${#AWS_SESSION_TOKEN}", forward_aws_credentials=True)
        done = coiled.batch.wait(job["cluster_id"])
        self.assertEqual(done["job_state"], "done", done)
        self.assertIn("AWS_SESSION_TOKEN", done["secret_env_var_names"])
        self.assertIn("key=ASIABATCHFORWARDED01 token=13", coiled.batch.logs(job["job_id"]))

    def test_arguments_without_meaning_here_are_refused_by_name_before_anything_is_sent(self):
        before = len(coiled.batch.list())
        for kwargs, named in (({"container": "x", "software": "y"}, "give one of them"), ({"disk_size": "a lot"}, "disk_size='a lot'"),
                              ({"env": ["NOVALUE"]}, "NAME=VALUE"), ({"ntasks": 2, "array": "0-1"}, "not both")):
            with self.subTest(named), self.assertRaisesRegex(ValueError, named):
                coiled.batch.run("echo hi", **kwargs)
        self.assertEqual(len(coiled.batch.list()), before)
        # disk_size is sent as the CLI's --disk-size is; this server's local backend sizes no disks, and says so.
        with self.assertRaisesRegex(Exception, "worker_disk_size.*sizes no disks"):
            coiled.batch.run("echo hi", disk_size="100 GiB")
        # The job sent before its cluster was refused is not left waiting for one.
        refused = coiled.batch.list()[0]
        self.assertEqual(refused["state"], "cancelled", refused)


if __name__ == "__main__":
    unittest.main()
