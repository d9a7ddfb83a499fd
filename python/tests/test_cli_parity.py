"""Coiled's CLI options under ``cumulus``: each exists with Coiled's name, or is refused by that name
with why; the batch and run parity options do what Coiled's do, against a real server and clusters."""

from __future__ import annotations

import json
import os
import re
import tempfile
import textwrap
import unittest

import yaml

from cumulus.cli import parser
from cumulus.http import Api
from tests.harness import client_env, run_cli, start_as_new_user

JOB_SECONDS = 300

# Coiled's `batch run` options (its CLI reference), each honoured or refused here.
BATCH_RUN_HONOURED = [
    ["--name", "x"], ["--workspace", "w"], ["--account", "w"], ["--software", "s"], ["--env", "A=1"], ["-e", "A=1"],
    ["--secret-env", "A=1"], ["--env-file", "f"], ["--secret-env-file", "f"], ["--tag", "a=b"], ["-t", "a=b"],
    ["--vm-type", "t"], ["--scheduler-vm-type", "t"], ["--arm"], ["--cpu", "2"], ["--memory", "4GiB"], ["--gpu"],
    ["--region", "r"], ["--spot-policy", "spot"], ["--disk-size", "50"], ["--map-over-values", "a,b"],
    ["--map-over-file", "f"], ["--map-over-input-var", "V"], ["--map-over-delimiter", ";"], ["--wait"],
    ["--upload", "d"], ["--download", "d"], ["--sync", "d"], ["--no-implicit-file-upload"], ["--pipe-to-files"],
    ["--ntasks", "2"], ["--n-tasks", "2"], ["--task-on-scheduler"], ["--no-task-on-scheduler"], ["--array", "0-3"],
    ["--scheduler-task-array", "0"], ["--max-workers", "2"], ["-N", "2"], ["--forward-aws-credentials"],
    ["--host-setup-script", "f"], ["--job-timeout", "1h"], ["--run-on-host", "true"], ["--container", "img"],
    ["--ignore-container-entrypoint", "true"],
]
BATCH_RUN_REFUSED = [
    ["--dask-container", "img"],
    ["--allow-cross-zone"], ["--no-cross-zone"], ["--allow-ssh-from", "me"], ["--scheduler-sidecar-spec", "f"],
    ["--package-sync-strict"], ["--package-sync-conda-extras", "x"], ["--package-sync-ignore", "x"],
    ["--input-filestore", "x"], ["--output-filestore", "x"], ["--wait-for-ready-cluster"],
]
# Coiled's `run` and `notebook start` options (its CLI reference), refused here with why.
RUN_REFUSED = [
    ["--file", "f"], ["-f", "f"], ["--detach"], ["--sync"], ["--port", "8888"], ["--expose", "8888"],
    ["--allow-ssh-from", "me"], ["--disk-size", "50"], ["--root"], ["--sync-ignore", "x"], ["--mount-bucket", "s3://b"],
    ["--docker-shm-size", "3 GiB"], ["--filestore", "f"],
    ["--subdomain", "s"], ["--allow-cross-zone"], ["--host-setup-script", "f"],
    ["--package-sync-strict"], ["--package-sync-conda-extras", "x"], ["--package-sync-ignore", "x"],
]
NOTEBOOK_REFUSED = [["--container", "img"], ["--disk-size", "50"], ["--vs-code"], ["--mount-bucket", "s3://b"],
                    ["--block"], ["--allow-ssh-from", "me"], ["--allow-sync-from", "me"], ["--allow-ingress-from", "me"],
                    ["--disk-config", "{}"], ["--host-setup-script", "s.sh"], ["--resumable"]]
# Coiled's `setup aws` options (https://docs.coiled.io/user_guide/setup/aws/cli.html): --region, --profile,
# --account/--workspace and --yes are honoured (tests/test_setup_aws.py); these make or name things Cumulus does not.
SETUP_AWS_REFUSED = [["--iam-user", "coiled"], ["--setup-policy", "p"], ["--ongoing-policy", "p"], ["--quotas"],
                     ["--cloudshell-link"], ["--no-cloudshell-link"], ["--manual-final-setup"], ["--update-policies"],
                     ["--update-instance-policy"], ["--keep-existing-access"], ["--accept-delete"],
                     ["--custom-s3-bucket-prefix", "p"]]


class OptionsTest(unittest.TestCase):
    def test_coiled_run_and_notebook_options_are_known_and_refused_by_name(self):
        honoured = parser().parse_args(["run", "-e", "A=1", "-t", "team=data", "--keepalive", "5m", "--name", "n",
                                        "--vm-type", "t", "--arm", "--cpu", "2", "--memory", "4GiB", "--gpu",
                                        "--region", "r", "--spot-policy", "spot", "--software", "s",
                                        "--secret-env", "B=2", "--workspace", "w", "--", "true"])
        self.assertEqual((honoured.env, honoured.tag, honoured.idle_timeout), (["A=1"], ["team=data"], "5m"))
        notebook = parser().parse_args(["notebook", "start", "-e", "A=1", "-t", "k=v", "--no-block", "--sync",
                                        "--sync-ignore", "data", "--include-vcs", "--open", "--private"])
        self.assertEqual((notebook.env, notebook.tag, notebook.sync_ignore, notebook.include_vcs, notebook.open),
                         (["A=1"], ["k=v"], ["data"], True, True))
        with tempfile.TemporaryDirectory() as home:
            env = client_env_without_server(home)
            for option in RUN_REFUSED:
                with self.subTest(run=option[0]):
                    done = run_cli(["run", *option, "--", "true"], env)
                    self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                    self.assertRegex(done.stderr, rf"^Error: {re.escape(option[0])} cannot apply here: \S")
            for option in NOTEBOOK_REFUSED:
                with self.subTest(notebook=option[0]):
                    done = run_cli(["notebook", "start", *option], env)
                    self.assertRegex(done.stderr, rf"^Error: {re.escape(option[0])} cannot apply here: \S")
            done = run_cli(["run", "--keepalive", "5m", "--", "true"], env)
            self.assertRegex(done.stderr, r"^Error: --keepalive/--idle-timeout keep a named run cluster")

    def test_every_coiled_batch_run_option_is_known(self):
        for option in BATCH_RUN_HONOURED + BATCH_RUN_REFUSED:
            with self.subTest(option=option[0]):
                args = parser().parse_args(["batch", "run", *option, "echo", "hi"])
                self.assertEqual(args.command, ["echo", "hi"])

    def test_refused_options_are_named_with_why_before_anything_is_sent(self):
        with tempfile.TemporaryDirectory() as home:
            # No server listens at this address: a refusal must come before any call.
            env = client_env_without_server(home)
            for option in BATCH_RUN_REFUSED:
                with self.subTest(option=option[0]):
                    done = run_cli(["batch", "run", *option, "echo", "hi"], env)
                    self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                    self.assertRegex(done.stderr, rf"^Error: {re.escape(option[0])} cannot apply here: \S")
            done = run_cli(["cluster", "better-logs", "--color"], env)
            self.assertRegex(done.stderr, r"^Error: --color cannot apply here: ")
            for option in ("--add-key", "--delete-key", "--dask"):
                with self.subTest(option=option):
                    done = run_cli(["cluster", "ssh", option, "c"], env)
                    self.assertRegex(done.stderr, rf"^Error: {re.escape(option)} cannot apply here: \S")
            for option in (["--private"], ["--post-build", "x.sh"], ["--conda-env-name", "x"], ["--include-local-code"],
                           ["--ignore-local-packages", "x"], ["--ignore-local-package", "x"], ["--region-name", "r"],
                           ["--disable-uv-installer"]):
                with self.subTest(option=option[0]):
                    done = run_cli(["env", "create", "--name", "e", "--container", "img", *option], env)
                    self.assertRegex(done.stderr, rf"^Error: {re.escape(option[0])} cannot apply here: \S")
            done = run_cli(["env", "create", "--name", "e", "--container", "img", "-i", "x"], env)
            self.assertRegex(done.stderr, r"^Error: --ignore-local-package cannot apply here: \S")
            done = run_cli(["env", "create", "--container", "img"], env)
            self.assertEqual(done.stderr.strip(), "Error: Name the environment: `cumulus env create NAME` (or --name NAME).")

    def test_setup_aws_refuses_coileds_iam_options_by_name(self):
        with tempfile.TemporaryDirectory() as home:
            env = client_env_without_server(home)
            for option in SETUP_AWS_REFUSED:
                with self.subTest(option=option[0]):
                    done = run_cli(["setup", "aws", *option], env)
                    self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                    self.assertRegex(done.stderr, rf"^Error: {re.escape(option[0])} cannot apply here: \S.*\n$")

    def test_coileds_login_env_and_batch_status_forms_parse(self):
        # `coiled login -s URL -t TOKEN -a WORKSPACE --no-retry --no-browser` (a token may come in pieces).
        login = parser().parse_args(["login", "-s", "http://x", "-t", "ab", "-t", "cd", "-a", "w", "--no-retry",
                                     "--no-browser"])
        self.assertEqual((login.server, login.token, login.workspace, login.retry, login.browser),
                         ("http://x", ["ab", "cd"], "w", False, False))
        self.assertTrue(parser().parse_args(["login"]).retry)
        self.assertEqual(parser().parse_args(["env", "list", "team"]).account, "team")
        for action in ("inspect", "delete", "logs"):
            with self.subTest(action=action):
                self.assertEqual(parser().parse_args(["env", action, "-n", "e"]).name_option, "e")
                self.assertEqual(parser().parse_args(["env", action, "e"]).name, "e")
        self.assertEqual(parser().parse_args(["batch", "status", "--limit", "3"]).limit, 3)
        with tempfile.TemporaryDirectory() as home:
            # Each mistake is said before anything is sent (no server listens there).
            env = client_env_without_server(home)
            for argv, said in (
                (["env", "inspect"], "Error: Name the environment: `cumulus env inspect NAME` (or --name NAME).\n"),
                (["env", "delete", "a", "-n", "b"], "Error: Two names: a and --name b; give one.\n"),
                (["env", "list", "a", "--workspace", "b"], "Error: Two workspaces: a and --workspace b; give one.\n"),
                (["batch", "status", "c", "--limit", "2"],
                 "Error: --limit lists the newest jobs: give it without CLUSTER or --job "
                 "(or use `cumulus batch list --limit N`).\n"),
                (["batch", "status", "--limit", "2", "--sort", "state"],
                 "Error: --sort orders a job's tasks: give it with CLUSTER or --job, not with --limit.\n"),
            ):
                with self.subTest(argv=argv):
                    done = run_cli(argv, env)
                    self.assertEqual((done.returncode, done.stderr), (1, said))

    def test_the_coiled_command_groups_exist(self):
        for argv in (["login", "--account", "w", "--no-browser"], ["cluster", "list"], ["cluster", "ssh", "c"],
                     ["cluster", "logs", "c"], ["cluster", "better-logs", "--cluster", "c", "--tail"],
                     ["cluster", "stop", "c"], ["env", "create", "e", "--pip", "r.txt"], ["env", "delete", "e"],
                     ["env", "list"], ["env", "inspect", "e"], ["notebook", "start"], ["notebook", "stop", "n"],
                     ["batch", "status"], ["batch", "wait", "1"], ["batch", "wait"], ["batch", "status", "my-job"],
                     ["batch", "logs", "--job", "3"], ["batch", "list"], ["batch", "logs"],
                     ["config", "set", "account", "w"], ["diagnostics"], ["setup", "aws"], ["run", "--", "true"],
                     ["env", "create", "-n", "e", "--container", "img"], ["batch", "status", "--format", "json"],
                     ["batch", "list", "--format", "json", "--limit", "5"], ["cluster", "ssh"],
                     ["cluster", "ssh", "--private", "c"], ["cluster", "ssh", "--by-ip", "--command", "ls", "7"],
                     ["cluster", "better-logs", "c", "--no-color"], ["batch", "status", "c", "--sort=-state"],
                     ["run", "-it", "--no-credential-forwarding", "--skip-entrypoint", "--", "bash"]):
            with self.subTest(argv=argv):
                self.assertTrue(callable(parser().parse_args(argv).run))


def client_env_without_server(home: str) -> dict:
    env = dict(os.environ)
    for name in ("CUMULUS_API_TOKEN", "DASK_CONFIG"):
        env.pop(name, None)
    env.update(HOME=home, CUMULUS_SERVER="http://127.0.0.1:9", CUMULUS_API_TOKEN="abc-123",
               PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return env


class WithServerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.token, cls.workspace = start_as_new_user()

    @classmethod
    def tearDownClass(cls):
        cls.server.close()

    def setUp(self):
        self.home = tempfile.mkdtemp()
        self.work = tempfile.mkdtemp()
        self.env = client_env(self.server, self.home, CUMULUS_API_TOKEN=self.token)

    def cli(self, *args, env=None):
        return run_cli(list(args), env or self.env, timeout=JOB_SECONDS, cwd=self.work)

    def test_env_create_takes_coileds_gpu_and_architecture_options(self):
        with open(os.path.join(self.work, "req.txt"), "w") as f:
            f.write("distributed\n")
        made = self.cli("env", "create", "-n", "gpu-arm", "--pip", "req.txt", "--gpu-enabled", "--architecture", "arm64",
                        "--no-wait", "--workspace", self.workspace)
        self.assertEqual(made.returncode, 0, made.stdout + made.stderr)
        api = Api(self.server.url, self.token)
        from cumulus import software

        spec = software.get_alias(api, self.workspace, "gpu-arm")["latest_spec"]
        self.assertEqual((spec["gpu_enabled"], spec["architecture"], spec["use_entrypoint"]), (True, "aarch64", True))
        # Coiled's --arm wins over --architecture.
        arm = self.cli("env", "create", "-n", "arm", "--pip", "req.txt", "--arm", "--architecture", "x86_64",
                       "--no-wait", "--workspace", self.workspace)
        self.assertEqual(arm.returncode, 0, arm.stdout + arm.stderr)
        self.assertEqual(software.get_alias(api, self.workspace, "arm")["latest_spec"]["architecture"], "aarch64")
        alone = self.cli("env", "create", "e", "--pip", "req.txt", "--ignore-container-entrypoint",
                         "--workspace", self.workspace)
        self.assertEqual(alone.stderr, "Error: --ignore-container-entrypoint goes with --container IMAGE.\n")

    def test_env_list_inspect_delete_take_coileds_forms(self):
        with open(os.path.join(self.work, "req.txt"), "w") as f:
            f.write("distributed\n")
        made = self.cli("env", "create", "-n", "forms", "--pip", "req.txt", "--no-wait", "--workspace", self.workspace)
        self.assertEqual(made.returncode, 0, made.stdout + made.stderr)
        # `coiled env list ACCOUNT`: the workspace as a word of its own.
        listed = self.cli("env", "list", self.workspace)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertRegex(listed.stdout, r"(?m)^\d+\s+forms\s")
        elsewhere = self.cli("env", "list", "no-such-workspace")
        self.assertEqual(elsewhere.returncode, 1)
        self.assertIn("not a member of workspace 'no-such-workspace'", elsewhere.stderr)
        # `coiled env inspect -n NAME` and `coiled env delete -n NAME`.
        inspected = self.cli("env", "inspect", "-n", "forms", "--workspace", self.workspace)
        self.assertEqual(inspected.returncode, 0, inspected.stderr)
        self.assertRegex(inspected.stdout, rf"^forms \(\d+\) in {re.escape(self.workspace)}, 1 spec\(s\)\n")
        self.assertIn("  pip: distributed", inspected.stdout)
        # Coiled's WORKSPACE/NAME names the workspace in the name.
        qualified = self.cli("env", "inspect", f"{self.workspace}/forms")
        # The build line may move on (queued → building) between the two reads: compare the rest.
        def settled(out):
            return re.sub(r"(?m)^build \d+: \w+$", "build N: <state>", out)
        self.assertEqual((qualified.returncode, settled(qualified.stdout)), (0, settled(inspected.stdout)), qualified.stderr)
        other = self.cli("env", "inspect", "no-such-workspace/forms")
        self.assertIn("not a member of workspace 'no-such-workspace'", other.stderr)
        deleted = self.cli("env", "delete", "-n", "forms", "--workspace", self.workspace)
        self.assertEqual((deleted.returncode, deleted.stdout), (0, "Deleted software environment forms.\n"), deleted.stderr)
        self.assertNotRegex(self.cli("env", "list", self.workspace).stdout, r"(?m)^\d+\s+forms\s")

    def test_batch_parity_options(self):
        with open(os.path.join(self.work, "job.env"), "w") as f:
            f.write("# plain\nexport GREETING='hello there'\nPLACE=here\n")
        with open(os.path.join(self.work, "secret.env"), "w") as f:
            f.write("PASSWORD=s3cret\n")
        with open(os.path.join(self.work, "show.sh"), "w") as f:
            f.write(textwrap.dedent("""\
                echo "task $CUMULUS_BATCH_TASK_ID: [$FRUIT] $GREETING $PLACE ${#PASSWORD} ${AWS_ACCESS_KEY_ID:-none}"
                mkdir -p output && echo "$FRUIT" > output/fruit-$CUMULUS_BATCH_TASK_ID.txt
                """))
        sync = os.path.join(self.work, "sync")
        os.makedirs(sync)
        with open(os.path.join(sync, "input.txt"), "w") as f:
            f.write("in\n")
        env = {**self.env, "AWS_ACCESS_KEY_ID": "AKIAEXAMPLEEXAMPLE12", "AWS_SECRET_ACCESS_KEY": "secret",
               "AWS_SESSION_TOKEN": "session", "AWS_DEFAULT_REGION": "us-east-2"}
        run = self.cli("batch", "run", "--workspace", self.workspace, "--name", "parity-job", "--env-file", "job.env",
                       "--env", "PLACE=there", "--secret-env-file", "secret.env", "--tag", "team=data", "-t", "tier=1",
                       "--map-over-values", "apple; pear;plum;", "--map-over-delimiter", ";",
                       "--map-over-input-var", "FRUIT", "--task-on-scheduler", "--forward-aws-credentials",
                       "--sync", sync, "show.sh", env=env)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("3 task(s) on cluster parity-job", run.stdout)
        self.assertIn("Uploaded 1 file(s)", run.stdout)
        self.assertIn("Downloaded 3 output file(s)", run.stdout)
        with open(os.path.join(sync, "fruit-1.txt")) as f:
            self.assertEqual(f.read(), " pear\n")

        api = Api(self.server.url, self.token)
        job_id = re.search(r"Submitted batch job (\d+)", run.stdout).group(1)
        job = api.request("GET", f"/api/v2/jobs/{job_id}")
        self.assertEqual(job["env_vars"], {"GREETING": "hello there", "PLACE": "there"})
        self.assertEqual(sorted(job["secret_env_var_names"]),
                         ["AWS_ACCESS_KEY_ID", "AWS_DEFAULT_REGION", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                          "PASSWORD"])
        self.assertEqual([(t["array_task_id"], t["run_on"]) for t in job["tasks"]],
                         [(0, "scheduler"), (1, "worker"), (2, "worker")])
        logs = self.cli("batch", "logs", "--job", str(job["id"]), "--workspace", self.workspace)
        self.assertIn("[task 0] task 0: [apple] hello there there 6 AKIAEXAMPLEEXAMPLE12", logs.stdout)
        self.assertIn("[task 2] task 2: [plum] hello there there 6 AKIAEXAMPLEEXAMPLE12", logs.stdout)
        details = api.request("GET", f"/api/v2/clusters/account/{self.workspace}/id/{job['cluster_id']}")
        self.assertEqual({k: details["tags"].get(k) for k in ("team", "tier")}, {"team": "data", "tier": "1"})

        again = os.path.join(self.work, "again")
        # Coiled's `batch wait CLUSTER`: the job's cluster, by name here.
        waited = self.cli("batch", "wait", "parity-job", "--download", again, "--workspace", self.workspace)
        self.assertEqual(waited.returncode, 0, waited.stdout + waited.stderr)
        self.assertIn(f"Downloaded 3 output file(s) into {again}", waited.stdout)
        with open(os.path.join(again, "fruit-2.txt")) as f:
            self.assertEqual(f.read(), "plum\n")

        as_json = self.cli("batch", "status", str(job["cluster_id"]), "--format", "json", "--workspace", self.workspace)
        self.assertEqual(json.loads(as_json.stdout)["id"], int(job_id))
        # Coiled's --sort: the task rows by a field of theirs, descending with a minus.
        ordered = self.cli("batch", "status", "parity-job", "--sort=-array_task_id", "--workspace", self.workspace)
        rows = [line.split()[0] for line in ordered.stdout.splitlines() if re.match(r"^\d+\s+(succeeded|done)", line)]
        self.assertEqual(rows, ["2", "1", "0"], ordered.stdout)
        wrong = self.cli("batch", "status", "parity-job", "--sort", "colour", "--workspace", self.workspace)
        self.assertRegex(wrong.stderr, r"^Error: --sort colour: sort by array_task_id, state")
        listed = self.cli("batch", "list", "--format", "json", "--limit", "1", "--workspace", self.workspace)
        self.assertEqual([j["id"] for j in json.loads(listed.stdout)], [int(job_id)])
        # Coiled's older listing form of `batch status`: the N newest jobs.
        for limit, ids in (("1", [int(job_id)]), ("0", [])):
            status_list = self.cli("batch", "status", "--limit", limit, "--format", "json", "--workspace", self.workspace)
            self.assertEqual([j["id"] for j in json.loads(status_list.stdout)], ids, status_list.stderr)
        as_table = self.cli("batch", "status", "--limit", "5", "--workspace", self.workspace)
        self.assertRegex(as_table.stdout, rf"(?m)^ID\s+CLUSTER\s+STATE.*\n{job_id}\s+{job['cluster_id']}\s+done\s+3/3\s")

        better = self.cli("cluster", "better-logs", "parity-job", "--filter", "[plum]", "--no-color",
                          "--workspace", self.workspace)
        self.assertEqual(better.returncode, 0, better.stderr)
        self.assertRegex(better.stdout, r"task 2: \[plum\] hello there")
        self.assertNotIn("[apple]", better.stdout)

    def test_run_takes_coiled_env_and_tag_flags(self):
        run = self.cli("run", "-e", "GREETING=hello", "-t", "team=data", "--workspace", self.workspace, "--",
                       "sh", "-c", "echo $GREETING")
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertEqual(run.stdout.strip().splitlines()[-1], "hello")
        name = re.search(r"Running on (\S+):", run.stderr).group(1)
        api = Api(self.server.url, self.token)
        [cluster] = [c for c in api.request("GET", f"/api/v2/clusters/account/{self.workspace}/?limit=100")
                     if c["name"] == name]
        details = api.request("GET", f"/api/v2/clusters/account/{self.workspace}/id/{cluster['id']}")
        self.assertEqual((details["tags"].get("team"), details["tags"].get("cumulus-cluster-type")), ("data", "run"))

    def test_disk_size_is_the_servers_to_refuse_on_the_local_backend(self):
        run = self.cli("batch", "run", "--workspace", self.workspace, "--disk-size", "50", "echo hi")
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("it sizes no disks", run.stderr)

    def test_config_set_and_diagnostics(self):
        done = self.cli("config", "set", "account", self.workspace)
        self.assertEqual(done.returncode, 0, done.stderr)
        done = self.cli("config", "set", "distributed.comm.timeouts.connect", "45")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(self.home, ".config", "dask", "cumulus.yaml")) as f:
            saved = yaml.safe_load(f)
        self.assertEqual(saved["cumulus"]["workspace"], self.workspace)
        self.assertEqual(saved["distributed"]["comm"]["timeouts"]["connect"], 45)
        clash = self.cli("config", "set", "distributed.comm.timeouts.connect.more", "1")
        self.assertEqual(clash.returncode, 1)
        self.assertIn("cannot go under it", clash.stderr)

        diagnostics = self.cli("diagnostics")
        self.assertEqual(diagnostics.returncode, 0, diagnostics.stderr)
        # Coiled's `coiled diagnostics` prints its checks as JSON.
        report = json.loads(diagnostics.stdout)
        self.assertEqual(report["configuration"], {"server_from": "CUMULUS_SERVER", "token_from": "CUMULUS_API_TOKEN"})
        self.assertEqual((report["server"], report["workspace"]), (self.server.url, self.workspace))
        self.assertEqual(report["health_check"]["status"], "ok")
        self.assertRegex(report["local_versions"]["distributed"], r"^\d")
        self.assertNotIn(self.env["CUMULUS_API_TOKEN"], diagnostics.stdout)
        down = self.cli("diagnostics", env={**self.env, "CUMULUS_SERVER": "http://127.0.0.1:9"})
        self.assertEqual(down.returncode, 0, down.stderr)
        self.assertIn("error", json.loads(down.stdout))

        setup = self.cli("setup", "azure")
        self.assertEqual(setup.returncode, 1)
        self.assertIn(f"{self.server.url}/settings/setup", setup.stderr)


if __name__ == "__main__":
    unittest.main()
