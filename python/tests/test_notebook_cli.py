"""``cumulus notebook start`` as a new user types it: a notebook whose Client() has workers to
compute on, and a line that says which Jupyter opens (JupyterLab, or the classic Notebook where
only that is installed) — against a real server, real Dask and real Jupyter."""

from __future__ import annotations

import shutil
import tempfile
import unittest
import urllib.parse

from tests.harness import CumulusServer, call, client_env, run_cli, start_as_new_user

server: CumulusServer
token: str
workspace: str


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


class NotebookStartTest(unittest.TestCase):
    def test_start_gives_workers_by_default_and_names_the_ui_it_opens(self):
        home = tempfile.mkdtemp(prefix="cumulus-notebook-cli-")
        self.addCleanup(shutil.rmtree, home, True)
        env = client_env(server, home, CUMULUS_API_TOKEN=token)
        self.addCleanup(run_cli, ["notebook", "stop", "first-day"], env)
        started = run_cli(["notebook", "start", "--name", "first-day"], env, timeout=900)
        self.assertEqual(started.returncode, 0, started.stderr + started.stdout)
        said, url = started.stdout.strip().splitlines()[-2:]
        path = urllib.parse.urlsplit(url).path
        self.assertRegex(path, r"/jupyter/(lab|tree)$")
        # It says which UI the link opens, and that Client() has a worker to compute on.
        ui = "JupyterLab on" if path.endswith("/lab") else "Jupyter Notebook (the classic UI"
        self.assertTrue(said.startswith(ui), said)
        self.assertIn("with 1 Dask worker for Client() in it", said)
        clusters = call(f"{server.url}/api/v2/clusters/account/{workspace}/", token=token, scheme="ApiToken")[1]
        notebook = next(c for c in clusters if c["name"] == "first-day")
        self.assertEqual(notebook["desired_workers"], 1, notebook)

if __name__ == "__main__":
    unittest.main()
