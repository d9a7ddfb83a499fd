"""Batch jobs from the command line against a real server and real clusters: ``cumulus batch``."""

from __future__ import annotations

import os
import re
import tempfile
import textwrap
import unittest

from cumulus.batch import command_and_files, header_arguments, parse_array, parse_duration
from cumulus.http import CumulusError
from tests.harness import client_env, run_cli, start_as_new_user

JOB_SECONDS = 300


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


def job_id(stdout: str) -> int:
    return int(re.search(r"Submitted batch job (\d+)", stdout).group(1))


def cluster_id(stdout: str) -> int:
    """The job's cluster, what Coiled's `batch status|wait|logs CLUSTER` take."""
    return int(re.search(r"Submitted batch job \d+: .* \((\d+)\)\.", stdout).group(1))


class ArrayAndOptionsTest(unittest.TestCase):
    def test_slurm_arrays(self):
        self.assertEqual(parse_array("0-12:3,20"), ([0, 3, 6, 9, 12, 20], None))
        self.assertEqual(parse_array("1-4%2"), ([1, 2, 3, 4], 2))
        self.assertEqual(parse_array("7"), ([7], None))
        for bad in ("", "3-1", "1-4%0", "a-b", "1,1"):
            with self.assertRaises(CumulusError, msg=bad):
                parse_array(bad)

    def test_durations(self):
        self.assertEqual([parse_duration(t) for t in ("90", "90s", "30m", "1h", "1h30m", "2d")],
                         [90, 90, 1800, 3600, 5400, 172800])
        with self.assertRaises(CumulusError):
            parse_duration("soon")

    def test_scripts_bring_their_options_and_files(self):
        with tempfile.TemporaryDirectory() as d:
            cwd = os.getcwd()
            os.chdir(d)
            try:
                with open("job.py", "w") as f:
                    f.write("# CUMULUS ntasks 4\n#CUMULUS env A=1\nprint('hi')\n")
                with open("data.txt", "w") as f:
                    f.write("x\n")
                self.assertEqual(header_arguments("job.py"), ["--ntasks", "4", "--env", "A=1"])
                # Coiled's comments, as its batch page writes them: the rest of the line is the one value.
                with open("coiled.py", "w") as f:
                    f.write("# COILED n-tasks     10\n# COILED memory      8 GiB\n# COILED region us-east-2\n")
                self.assertEqual(header_arguments("coiled.py"),
                                 ["--n-tasks", "10", "--memory", "8 GiB", "--region", "us-east-2"])
                command, files = command_and_files(["job.py", "data.txt"])
                self.assertEqual(command, "python job.py data.txt")
                self.assertEqual([f["path"] for f in files], ["job.py", "data.txt"])
                self.assertEqual(command_and_files(["echo $X | wc -c"])[0], "echo $X | wc -c")
            finally:
                os.chdir(cwd)


class BatchCliTest(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp()
        self.work = tempfile.mkdtemp()
        self.env = client_env(server, self.home, CUMULUS_API_TOKEN=token)

    def cli(self, *args):
        """`cumulus ...` in the work directory; `batch run` names its workspace itself (before the command)."""
        if args[:2] != ("batch", "run"):
            args = (*args, "--workspace", workspace)
        return run_cli(list(args), self.env, timeout=JOB_SECONDS, cwd=self.work)

    def test_a_script_over_a_file_of_inputs_waits_and_shows_status_and_logs(self):
        with open(os.path.join(self.work, "square.py"), "w") as f:
            f.write(textwrap.dedent("""\
                # CUMULUS map-over-file inputs.txt
                # CUMULUS max-workers 2
                import os
                n = int(os.environ["CUMULUS_BATCH_TASK_INPUT"])
                print(f"{os.environ['CUMULUS_BATCH_TASK_ID']}: {n} squared is {n * n} ({os.environ['GREETING']})")
                """))
        with open(os.path.join(self.work, "inputs.txt"), "w") as f:
            f.write("3\n4\n5\n")
        run = self.cli("batch", "run", "--workspace", workspace, "--env", "GREETING=hello", "--wait", "square.py")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("3 done, 0 failed, 0 running of 3", run.stdout)
        self.assertIn("all 3 task(s) succeeded", run.stdout)
        job = job_id(run.stdout)

        # As Coiled's, by the job's cluster; and by the job's own id.
        status = self.cli("batch", "status", str(cluster_id(run.stdout)))
        self.assertEqual(status.returncode, 0, status.stderr)
        self.assertIn(f"job {job}: done", status.stdout)
        self.assertEqual(len(re.findall(r"^\d+\s+done\s+0\s", status.stdout, re.M)), 3, status.stdout)

        logs = self.cli("batch", "logs", "--job", str(job), "--task", "1")
        self.assertIn("1: 4 squared is 16 (hello)", logs.stdout)
        self.assertNotIn("squared is 9", logs.stdout)
        every = self.cli("batch", "logs", "--job", str(job))
        self.assertIn("[task 2] 2: 5 squared is 25 (hello)", every.stdout)
        # Like `batch status`, `batch logs` without a job id shows the latest job.
        latest = self.cli("batch", "logs", "--task", "1")
        self.assertEqual(latest.returncode, 0, latest.stderr)
        self.assertIn("1: 4 squared is 16 (hello)", latest.stdout)

        listed = self.cli("batch", "list")
        self.assertRegex(listed.stdout, rf"(?m)^{job}\s+{cluster_id(run.stdout)}\s+done\s+3/3\s+0\s")

    def test_inputs_are_uploaded_and_outputs_downloaded_through_filestores(self):
        data = os.path.join(self.work, "data")
        os.makedirs(os.path.join(data, "nested"))
        for i in range(3):
            with open(os.path.join(data, "nested", f"in-{i}.txt"), "w") as f:
                f.write(f"value {i}\n")
        results = os.path.join(self.work, "results")
        run = self.cli("batch", "run", "--workspace", workspace, "--ntasks", "3", "--max-workers", "2",
                       "--upload", data, "--download", results,
                       'mkdir -p output && tr a-z A-Z < nested/in-$CUMULUS_BATCH_TASK_ID.txt '
                       '> output/out-$CUMULUS_BATCH_TASK_ID.txt')
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("Uploaded 3 file(s)", run.stdout)
        self.assertIn("Downloaded 3 output file(s)", run.stdout)
        for i in range(3):
            with open(os.path.join(results, f"out-{i}.txt")) as f:
                self.assertEqual(f.read(), f"VALUE {i}\n")

    def test_a_failing_task_fails_the_job_with_its_exit_code(self):
        run = self.cli("batch", "run", "--workspace", workspace, "--array", "0-4:2", "--wait",
                       '[ "$CUMULUS_BATCH_TASK_ID" != 2 ] || exit 5')
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("failed: 1 of 3 tasks failed: task 2 (exit code 5)", run.stdout)
        status = self.cli("batch", "status", "--job", str(job_id(run.stdout)))
        self.assertRegex(status.stdout, r"(?m)^2\s+error\s+5\s+.*Exited with code 5$")

    def test_cancel_stops_a_running_job(self):
        run = self.cli("batch", "run", "--workspace", workspace, "sleep 600")
        self.assertEqual(run.returncode, 0, run.stderr)
        job = job_id(run.stdout)
        self.assertIn(f"Follow it with `cumulus batch status {cluster_id(run.stdout)}`", run.stdout)
        cancelled = self.cli("batch", "cancel", "--job", str(job))
        self.assertEqual(cancelled.returncode, 0, cancelled.stderr)
        self.assertIn(f"Cancelled batch job {job}", cancelled.stdout)
        waited = self.cli("batch", "wait", str(cluster_id(run.stdout)))
        self.assertEqual(waited.returncode, 1)
        self.assertIn("cancelled", waited.stdout)

    def test_bad_input_is_refused_before_anything_is_sent(self):
        bad = self.cli("batch", "run", "--workspace", workspace, "--array", "5-1", "echo")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("the range must go up", bad.stderr)
        bad_env = self.cli("batch", "run", "--workspace", workspace, "--env", "NOVALUE", "echo")
        self.assertIn("write it as NAME=VALUE", bad_env.stderr)


if __name__ == "__main__":
    unittest.main()
