"""Scripts from Coiled's documentation (``tests/coiled_docs``, see its README) run unchanged but for
``import cumulus as coiled`` against a real server and real clusters on the local backend. They run
side by side; each must exit 0 and print ``ok`` last."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import unittest

from tests.harness import call, client_env, start_as_new_user, wait_until

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "coiled_docs")
SECONDS = 420  # each script, on a loaded two-core machine


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def _running() -> list:
    status, clusters = call(f"{server.url}/api/v2/clusters/account/{workspace}/?limit=100", token=token,
                            scheme="ApiToken")
    return [c for c in (clusters if status < 400 else []) if c["current_state"]["state"] not in ("stopped", "error")]


def tearDownModule():
    try:
        for c in _running():
            call(f"{server.url}/api/v2/clusters/account/{workspace}/id/{c['id']}?reason=tests+done", "DELETE",
                 token=token, scheme="ApiToken")
        wait_until(lambda: not _running(), 180, "the scripts' clusters to stop")
    finally:
        server.close()


def scripts() -> list:
    return sorted(f for f in os.listdir(DOCS) if f.endswith((".py", ".sh")))


class CoiledDocsTest(unittest.TestCase):
    def test_every_script_runs(self):
        self.assertGreaterEqual(len(scripts()), 4)
        env = client_env(server, tempfile.mkdtemp(), CUMULUS_API_TOKEN=token, DOCS_WORKSPACE=workspace,
                         PYTHON=sys.executable)
        running = {}
        for name in scripts():
            argv = [sys.executable if name.endswith(".py") else "bash", os.path.join(DOCS, name)]
            running[name] = subprocess.Popen(argv, env=env, cwd=tempfile.mkdtemp(), stdout=subprocess.PIPE,
                                             stderr=subprocess.STDOUT, text=True)
        started = time.monotonic()
        for name, process in running.items():
            with self.subTest(script=name):
                try:
                    out, _ = process.communicate(timeout=max(1, SECONDS - (time.monotonic() - started)))
                except subprocess.TimeoutExpired:
                    process.kill()
                    out, _ = process.communicate()
                    self.fail(f"{name} did not finish in {SECONDS}s:\n{out[-3000:]}")
                self.assertEqual(process.returncode, 0, f"{name}:\n{out[-3000:]}")
                self.assertEqual(out.strip().splitlines()[-1], "ok", f"{name}:\n{out[-3000:]}")


if __name__ == "__main__":
    unittest.main()
