"""A newcomer's start: ``Cluster(n_workers=2)`` with every default prints a few lines, no pip.

The server runs with its defaults (default environment on); the client runs in a process of its
own, as a script would, and what it prints (stdout and stderr) is counted.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import unittest

from cumulus import software
from cumulus.http import Api
from cumulus.progress import Progress
from tests.harness import CumulusServer, client_env

SCRIPT = """
import cumulus
cluster = cumulus.Cluster(n_workers=2)
print("== started", flush=True)
cluster.close()
"""
PIP_WORDS = ("Requirement already satisfied", "pip", "Installing", "virtual environment")


class DefaultServer(CumulusServer):
    def env(self) -> dict:
        env = super().env()
        env.pop("CUMULUS_DEFAULT_ENVIRONMENT")
        env.pop("CUMULUS_WARM_PROCESSES")
        return env


def setUpModule():
    global server, token, workspace
    server = DefaultServer().start()
    user = server.register()
    token = server.api_token(user)
    workspace = user.workspace


def tearDownModule():
    server.close()


def start() -> list[str]:
    """The lines a default start prints, stdout and stderr together."""
    env = client_env(server, tempfile.mkdtemp(), CUMULUS_API_TOKEN=token)
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)
    output = done.stdout.splitlines()
    assert done.returncode == 0 and "== started" in output, done.stdout
    return output[: output.index("== started")]


def synced_aliases() -> list:
    return [a for a in software.list_aliases(Api(server.url, token), workspace) if a["name"].startswith("package-sync-")]


class QuietStartTest(unittest.TestCase):
    def test_a_default_start_prints_a_few_lines_and_the_same_packages_build_once(self):
        first = start()
        self.assertLessEqual(len(first), 5, first)
        self.assertFalse([line for line in first if any(word in line for word in PIP_WORDS)], first)
        self.assertTrue(any(line.startswith("Package sync:") for line in first), first)
        [alias] = synced_aliases()
        build = software.get_alias(Api(server.url, token), workspace, alias["name"])["latest_spec"]["latest_build"]

        # Again with the same packages: the environment built the first time, no new build.
        second = start()
        self.assertLessEqual(len(second), 5, second)
        self.assertFalse([line for line in second if any(word in line for word in PIP_WORDS)], second)
        self.assertTrue(any("built already" in line for line in second), second)
        [again] = synced_aliases()
        self.assertEqual(again["spec_count"], 1)
        latest = software.get_alias(Api(server.url, token), workspace, again["name"])["latest_spec"]["latest_build"]
        self.assertEqual(latest["id"], build["id"])


class _Terminal(io.StringIO):
    def isatty(self):
        return True


class ProgressTest(unittest.TestCase):
    def test_a_terminal_sees_one_line_redrawn_and_a_pipe_sees_lasting_lines_only(self):
        tty = _Terminal()
        progress = Progress(stream=tty)
        progress.status("building")
        progress.status("started")
        progress.line("Cluster c is ready.")
        self.assertEqual(tty.getvalue(), "\rbuilding\rstarted \r       \rCluster c is ready.\n")
        pipe = io.StringIO()
        progress = Progress(stream=pipe)
        progress.status("building")
        progress.detail("Requirement already satisfied: dask")
        progress.line("Cluster c is ready.")
        self.assertEqual(pipe.getvalue(), "Cluster c is ready.\n")
        progress = Progress(stream=pipe, verbose=True)
        progress.detail("Requirement already satisfied: dask")
        self.assertIn("Requirement already satisfied: dask", pipe.getvalue())


if __name__ == "__main__":
    unittest.main()
