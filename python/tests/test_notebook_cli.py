"""``cumulus notebook start`` as a new user types it: a notebook whose Client() has workers to
compute on, and a line that says which Jupyter opens (JupyterLab, or the classic Notebook where
only that is installed) — against a real server, real Dask and real Jupyter."""

from __future__ import annotations

import os
import shutil
import sys
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

    def test_coileds_sync_ignore_include_vcs_open_and_private(self):
        # `coiled notebook start --sync --sync-ignore ... --include-vcs --open --private` (Coiled's CLI
        # reference): what --sync copies in is what they say, and --open hands the link to the browser.
        from cumulus.notebooks import Contents

        home = tempfile.mkdtemp(prefix="cumulus-notebook-cli-")
        work = tempfile.mkdtemp(prefix="cumulus-notebook-work-")
        for d in (home, work):
            self.addCleanup(shutil.rmtree, d, True)
        for path in ("keep.txt", "table.csv", "data/x.txt", ".git/HEAD", "__pycache__/m.pyc"):
            os.makedirs(os.path.join(work, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(work, path), "w") as f:
                f.write(path)
        opened = os.path.join(home, "opened")
        browser = os.path.join(home, "browser.py")
        with open(browser, "w") as f:
            f.write(f"import sys\nopen({opened!r}, 'w').write(sys.argv[1])\n")
        env = client_env(server, home, CUMULUS_API_TOKEN=token, BROWSER=f"{sys.executable} {browser} %s")
        self.addCleanup(run_cli, ["notebook", "stop", "synced"], env)
        started = run_cli(["notebook", "start", "--name", "synced", "--workers", "0", "--sync", "--sync-ignore",
                           "*.csv", "--sync-ignore", "data", "--include-vcs", "--open", "--private"],
                          env, timeout=900, cwd=work)
        self.assertEqual(started.returncode, 0, started.stderr + started.stdout)
        url = started.stdout.strip().splitlines()[-1]
        with open(opened) as f:
            self.assertEqual(f.read(), url)
        there = set(Contents(url, server.url).files(include_vcs=True))
        self.assertEqual(there, {"keep.txt", ".git/HEAD"})

        # Without --sync there is nothing for them to say: refused by name before anything starts.
        alone = run_cli(["notebook", "start", "--sync-ignore", "data"], env)
        self.assertEqual(alone.stderr, "Error: --sync-ignore says what --sync copies: give it with --sync.\n")


if __name__ == "__main__":
    unittest.main()
