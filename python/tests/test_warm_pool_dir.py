"""An SSH host's warm process (cumulus/agent/warm.py told through a FIFO, compute/ssh/warm.ts): it
waits in its pool's directory, is taken by moving that directory to the instance's and writing the
assignment to its FIFO (it answers ``taken`` and becomes the instance there, keeping the account's
environment under the assignment's, ``~/`` the home), and leaves the pool by itself once no server
has kept it for its idle time, unless it was taken meanwhile."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from tests.harness import wait_until

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class WarmPoolDirectory(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="cumulus-warm-home-")
        self.pool = os.path.join(self.home, ".cumulus", "warm", "1-test")
        os.makedirs(self.pool)
        self.kept = os.path.join(self.pool, ".kept")
        open(self.kept, "w").close()
        self.children: list[subprocess.Popen] = []

    def tearDown(self):
        for child in self.children:
            child.kill()
            child.wait()
        shutil.rmtree(self.home, ignore_errors=True)

    def start(self, idle: float) -> tuple[str, subprocess.Popen]:
        """A warm process in the pool, started as the fill script starts one; answers its directory."""
        w = "warm-%016x" % int.from_bytes(os.urandom(8), "big")
        d = os.path.join(self.pool, w)
        os.mkdir(d)
        os.mkfifo(os.path.join(d, "in"), 0o600)
        env = {
            "HOME": self.home,
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "ACCOUNT_SETTING": "from-the-session",
            "CUMULUS_BACKEND_ID": w,
            "CUMULUS_WARM_DIR": d,
            "CUMULUS_WARM_FIFO": os.path.join(d, "in"),
            "CUMULUS_WARM_KEPT": self.kept,
            "CUMULUS_WARM_IDLE_SECONDS": str(idle),
            "PYTHONPATH": PYTHON_DIR,
            "PYTHONUNBUFFERED": "1",
        }
        with open(os.path.join(d, "out"), "w") as out, open(os.path.join(d, "err"), "w") as err:
            child = subprocess.Popen([sys.executable, "-m", "cumulus.agent.warm"], cwd=d, env=env,
                                     stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        self.children.append(child)
        wait_until(lambda: open(os.path.join(d, "out")).read() == "ready\n", 60, "the warm process to be ready", 0.05)
        return d, child

    def test_unkept_it_leaves_the_pool(self):
        d, child = self.start(idle=1)
        os.utime(self.kept, (time.time() - 60, time.time() - 60))
        self.assertEqual(child.wait(timeout=30), 0)
        self.assertFalse(os.path.exists(d))
        self.assertEqual([n for n in os.listdir(self.pool) if not n.startswith(".")], [])

    def test_kept_it_waits_then_becomes_the_instance_it_is_told(self):
        d, child = self.start(idle=1)
        for _ in range(5):  # past its idle time, the pool kept meanwhile
            os.utime(self.kept)
            time.sleep(0.5)
        self.assertIsNone(child.poll())
        instance = os.path.join(self.home, ".cumulus", "ssh-test-1")
        os.rename(d, instance)
        assignment = {
            "cwd": "~/.cumulus/ssh-test-1",
            "inherit": True,
            # No server answers here: the agent keeps trying, which is all this test needs of it.
            "env": {"CUMULUS_SERVER": "http://127.0.0.1:9", "CUMULUS_CLUSTER_TOKEN": "t",
                    "CUMULUS_BACKEND_ID": "ssh-test-1", "CUMULUS_INSTANCE_ID": "1",
                    "CUMULUS_BATCH_ROOT": "~/.cumulus/ssh-test-1/batch"},
        }
        with open(os.path.join(instance, "in"), "w") as fifo:
            fifo.write(json.dumps(assignment) + "\n")
        wait_until(lambda: open(os.path.join(instance, "out")).read() == "ready\ntaken\n", 30, "taken", 0.05)
        self.assertTrue(os.path.exists(os.path.join(instance, "agent.log")))
        self.assertEqual(os.readlink(f"/proc/{child.pid}/cwd"), instance)
        # Untouched since, the pool's idle time passes: an instance does not leave.
        os.utime(self.kept, (time.time() - 60, time.time() - 60))
        time.sleep(2)
        self.assertIsNone(child.poll())

    def test_taken_it_keeps_the_accounts_environment_under_the_assignments(self):
        instance = os.path.join(self.home, ".cumulus", "ssh-test-2")
        os.makedirs(instance)
        script = (
            "import json, os, sys\n"
            "from cumulus.agent import warm\n"
            "warm._become(json.loads(sys.argv[1]))\n"
            "print(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd(), 'path0': sys.path[0]}))\n"
        )
        assignment = {"cwd": "~/.cumulus/ssh-test-2", "inherit": True,
                      "env": {"CUMULUS_BACKEND_ID": "ssh-test-2", "CUMULUS_BATCH_ROOT": "~/.cumulus/ssh-test-2/batch"}}
        gone = os.path.join(self.pool, "warm-moved")
        env = {"HOME": self.home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": PYTHON_DIR,
               "ACCOUNT_SETTING": "from-the-session", "CUMULUS_BACKEND_ID": "warm-moved",
               "CUMULUS_WARM_DIR": gone, "CUMULUS_WARM_FIFO": os.path.join(gone, "in")}
        subprocess.run([sys.executable, "-c", script, json.dumps(assignment)], env=env, check=True, timeout=120,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(instance, "agent.log")) as f:
            seen = json.loads(f.read().splitlines()[-1])
        self.assertEqual(seen["cwd"], instance)
        self.assertEqual(seen["env"]["ACCOUNT_SETTING"], "from-the-session")
        self.assertEqual(seen["env"]["CUMULUS_BATCH_ROOT"], os.path.join(instance, "batch"))
        self.assertEqual(seen["env"]["CUMULUS_BACKEND_ID"], "ssh-test-2")
        self.assertEqual([k for k in seen["env"] if k.startswith("CUMULUS_WARM_")], [])

    def test_without_inherit_only_the_assignments_environment(self):
        instance = os.path.join(self.home, "local-instance")
        os.makedirs(instance)
        script = ("import json, os, sys\nfrom cumulus.agent import warm\nwarm._become(json.loads(sys.argv[1]))\n"
                  "print(json.dumps(dict(os.environ)))\n")
        env = {"HOME": self.home, "PATH": "/usr/bin:/bin", "PYTHONPATH": PYTHON_DIR, "ACCOUNT_SETTING": "x"}
        subprocess.run([sys.executable, "-c", script, json.dumps({"cwd": instance, "env": {"A": "1"}})],
                       env=env, check=True, timeout=120, stdout=subprocess.DEVNULL)
        with open(os.path.join(instance, "agent.log")) as f:
            self.assertEqual(json.loads(f.read().splitlines()[-1]), {"A": "1"})


if __name__ == "__main__":
    unittest.main()
