"""``cumulus slurm add|list|check|remove`` against a real server and a real Slurm 22.05 (the server tests'
rig, apps/server/test/helpers/slurm.ts, run by slurm-rig-main.ts), its login node the server's own machine
(CUMULUS_SLURM_LOCAL_LOGIN): refusals said by the options that caused them, the cluster connected once sinfo
lists its partition, listed and checked with its health, disconnected; and connected through the rig's slurmrestd
with a JWT (--rest, --user, --token)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import unittest

from tests.harness import REPO_ROOT, client_env, run_cli, start_as_new_user

rig: subprocess.Popen
conf: dict
server = None
token: str
workspace: str


def setUpModule():
    global rig, conf, server, token, workspace
    if os.geteuid() != 0 or not os.path.exists("/usr/sbin/slurmctld"):
        raise unittest.SkipTest("needs root and Slurm (scripts/setup.sh --slurm)")
    rig = subprocess.Popen(
        ["node", "--import", "tsx", "apps/server/test/helpers/slurm-rig-main.ts", "4", "4096", "rest"],
        cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    # Closing its stdin stops the rig (its jobs cancelled, its daemons and directory gone).
    unittest.addModuleCleanup(rig.wait, 60)
    unittest.addModuleCleanup(rig.stdin.close)
    line = rig.stdout.readline()
    if not line:
        raise AssertionError("the Slurm rig did not start")
    conf = json.loads(line)
    server, token, workspace = start_as_new_user({"CUMULUS_SLURM_LOCAL_LOGIN": "true", "SLURM_CONF": conf["conf"]})
    unittest.addModuleCleanup(server.close)


class SlurmCliTest(unittest.TestCase):
    def setUp(self):
        home = tempfile.mkdtemp(prefix="cumulus-slurm-cli-home-")
        self.addCleanup(shutil.rmtree, home, True)
        self.env = client_env(server, home, CUMULUS_API_TOKEN=token)

    def add(self, *extra: str):
        return run_cli(["slurm", "add", "hpc", "--node-cores", "4", "--node-memory", "4", "--time-limit", "60",
                        "--python", "/usr/bin/python3", *extra], self.env)

    def test_add_list_check_remove(self):
        empty = run_cli(["slurm", "list"], self.env)
        self.assertEqual(empty.returncode, 0, empty.stderr)
        self.assertIn(f"No Slurm cluster in workspace {workspace}.", empty.stdout)

        # Over SSH (without --local), the login node's options are wanted, each named.
        no_login = self.add("--partition", conf["partition"])
        self.assertEqual(no_login.returncode, 1)
        self.assertEqual(no_login.stderr.splitlines()[0], "Error: --address: Required to reach the login node over SSH.")
        self.assertIn("--private-key: Required to reach the login node over SSH.", no_login.stderr)

        wrong = self.add("--local", "--partition", "nowhere")
        self.assertEqual(wrong.returncode, 1)
        self.assertRegex(wrong.stderr.strip(), r"^Error: --partition: .*nowhere")

        added = self.add("--local", "--partition", conf["partition"])
        self.assertEqual(added.returncode, 0, added.stderr)
        self.assertEqual(added.stdout.strip(), "Connected hpc (this server): Slurm answers on hpc (this machine).")

        listed = run_cli(["slurm", "list"], self.env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        header, row = listed.stdout.splitlines()[:2]
        self.assertEqual(header.split()[:4], ["NAME", "LOGIN", "HEALTH", "PARTITION"])
        self.assertEqual(row.split()[:9], ["hpc", "this", "server", "ok", "rig", "4", "cores,", "4", "GiB"])
        self.assertIn("60 min", row)
        self.assertRegex(listed.stdout, r"hpc: Slurm answers on hpc \(this machine\) \(rig\*? up 1 idle\)")

        checked = run_cli(["slurm", "check", "hpc"], self.env)
        self.assertEqual(checked.returncode, 0, checked.stderr)
        self.assertEqual(checked.stdout.strip(), "hpc: ok: Slurm answers on hpc (this machine).")

        removed = run_cli(["slurm", "remove", "hpc"], self.env)
        self.assertEqual(removed.returncode, 0, removed.stderr)
        self.assertEqual(removed.stdout.strip(), "Disconnected hpc.")
        again = run_cli(["slurm", "check", "hpc"], self.env)
        self.assertEqual(again.returncode, 1)
        self.assertIn(f"Workspace {workspace} has no Slurm cluster named hpc", again.stderr)
        self.assertIn("No Slurm cluster", run_cli(["slurm", "list"], self.env).stdout)

    def test_rest(self):
        url, user = conf["rest_url"], conf["rest_user"]
        with tempfile.NamedTemporaryFile("w", suffix=".jwt") as f:
            f.write(conf["rest_token"] + "\n")
            f.flush()
            # An SSH option with --rest is refused by name, not ignored.
            ssh_option = self.add("--rest", url, "--user", user, "--token", f.name, "--address", "login1")
            self.assertEqual(ssh_option.returncode, 1)
            self.assertEqual(ssh_option.stderr.strip(), 'Error: --address: Not a field of login "rest".')
            no_token = self.add("--rest", url, "--user", user)
            self.assertEqual(no_token.returncode, 1)
            self.assertEqual(no_token.stderr.strip(), "Error: --token: Required to reach slurmrestd.")
            added = self.add("--rest", url, "--user", user, "--token", f.name, "--partition", conf["partition"],
                             "--node-gpus", "2")
        self.assertEqual(added.returncode, 0, added.stderr)
        self.assertEqual(added.stdout.strip(), f"Connected hpc ({user} at {url}): Slurm answers on hpc ({url}).")
        listed = run_cli(["slurm", "list"], self.env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertIn("4 GiB, 2 GPUs", listed.stdout)
        self.assertNotIn(conf["rest_token"], listed.stdout)
        removed = run_cli(["slurm", "remove", "hpc"], self.env)
        self.assertEqual(removed.returncode, 0, removed.stderr)


if __name__ == "__main__":
    unittest.main()
