"""Unpacked software environments on machines that outlive their clusters (SSH hosts, a Slurm
cluster's shared home): the ones unused for the keep period are removed when another is unpacked,
unless a process of the machine runs from them (cumulus/agent/software.py)."""

import os
import shutil
import subprocess
import tempfile
import time
import unittest
from unittest import mock

from cumulus.agent.software import environment_of, mark_used, prune

DAY = 86400


class PruneTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="cumulus-environments-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.said = []

    def env(self, key: str, days_ago: float, used_days_ago: float | None = None) -> str:
        path = os.path.join(self.root, key)
        os.makedirs(os.path.join(path, "bin"))
        for mark, ago in ((".unpacked", days_ago), (".used", used_days_ago)):
            if ago is None:
                continue
            open(os.path.join(path, mark), "w").close()
            when = time.time() - ago * DAY
            os.utime(os.path.join(path, mark), (when, when))
        return path

    def prune(self, keep: str):
        return prune(self.root, keep=keep, say=self.said.append)

    def test_removes_what_no_instance_used_for_the_keep_period_and_nothing_else(self):
        current = self.env("a" * 64, days_ago=30)
        old = self.env("b" * 64, days_ago=30)
        used = self.env("c" * 64, days_ago=30, used_days_ago=2)
        recent = self.env("d" * 64, days_ago=1)
        removed = self.prune(keep=current)
        self.assertEqual(removed, [old])
        self.assertTrue(all(os.path.isdir(p) for p in (current, used, recent)))
        self.assertFalse(os.path.exists(old))
        self.assertEqual(self.said, [f"removed 1 software environment(s) unused for 14 days: {'b' * 12}"])

    def test_keeps_an_environment_a_process_runs_from(self):
        running = self.env("e" * 64, days_ago=30)
        # A process whose command line names the environment's interpreter, as Dask's does.
        proc = subprocess.Popen(["sh", "-c", "sleep 30", os.path.join(running, "bin", "python")])
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)
        self.assertEqual(self.prune(keep=self.env("f" * 64, days_ago=0)), [])
        self.assertTrue(os.path.isdir(running))
        proc.kill()
        proc.wait()
        self.assertEqual(self.prune(keep=""), [running])

    def test_removes_unpackings_left_half_done_a_day_ago(self):
        left = os.path.join(self.root, "g" * 64 + ".4242")
        os.makedirs(left)
        archive = os.path.join(self.root, "g" * 64 + ".4243.tar.gz")
        open(archive, "w").close()
        fresh = os.path.join(self.root, "h" * 64 + ".4244")
        os.makedirs(fresh)
        two_days = time.time() - 2 * DAY
        for p in (left, archive):
            os.utime(p, (two_days, two_days))
        self.assertEqual(sorted(self.prune(keep="")), sorted([left, archive]))
        self.assertTrue(os.path.isdir(fresh))

    def test_the_keep_period_is_the_operators(self):
        old = self.env("i" * 64, days_ago=3)
        self.assertEqual(self.prune(keep=""), [])
        with mock.patch.dict(os.environ, {"CUMULUS_ENVIRONMENTS_KEEP_DAYS": "2"}):
            self.assertEqual(self.prune(keep=""), [old])

    def test_an_instance_marks_the_environment_it_runs_from(self):
        path = self.env("j" * 64, days_ago=30, used_days_ago=30)
        self.assertEqual(environment_of(os.path.join(path, "bin", "python")), path)
        mark_used(path)
        self.assertLess(time.time() - os.path.getmtime(os.path.join(path, ".used")), 60)
        self.assertEqual(self.prune(keep=""), [])


if __name__ == "__main__":
    unittest.main()
