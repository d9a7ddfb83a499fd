"""What a user reads when ``Cluster(...)`` or the CLI cannot go on: one clear error, in the
client's own words, before any call when the arguments are wrong, and saying where a refused
token came from. Against a real server, in subprocesses, as a user runs them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import unittest

import yaml

import cumulus
from cumulus.http import ArgumentError, CumulusError
from tests.harness import CumulusServer, client_env, run_cli

server: CumulusServer
token: str


def setUpModule():
    global server, token
    server = CumulusServer().start()
    token = server.api_token(server.register())


def tearDownModule():
    server.close()


class Listener:
    """A port that counts the connections made to it: the client must make none."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.connections = 0
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _accept(self):
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self):
        self.running = False
        self.thread.join(5)
        self.sock.close()


def run_python(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)


class ArgumentsTest(unittest.TestCase):
    """Arguments are checked before anything is called or printed, and named as the caller wrote them."""

    def setUp(self):
        self.listener = Listener()
        self.addCleanup(self.listener.close)
        patch = {"CUMULUS_SERVER": self.listener.url, "CUMULUS_API_TOKEN": "abc-def"}
        self.saved = {k: os.environ.get(k) for k in patch}
        os.environ.update(patch)
        self.addCleanup(self._restore)

    def _restore(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def refused(self, **kwargs) -> str:
        with self.assertRaises(ArgumentError) as caught:
            cumulus.Cluster(**kwargs)
        err = caught.exception
        self.assertIsInstance(err, ValueError)
        self.assertIsInstance(err, CumulusError)
        self.assertIsNone(err.__cause__)
        self.assertTrue(err.__suppress_context__)
        self.assertEqual(self.listener.connections, 0, "the client called the server")
        return str(err)

    def test_workers(self):
        self.assertEqual(self.refused(n_workers=-1), "Cluster(n_workers=-1): n_workers must be a whole number, 0 or more.")
        self.assertEqual(
            self.refused(n_workers="two"), "Cluster(n_workers='two'): n_workers must be a whole number, 0 or more."
        )
        self.assertIn("n_workers=1.5", self.refused(n_workers=1.5))
        self.assertIn("n_workers=True", self.refused(n_workers=True))

    def test_other_arguments(self):
        self.assertIn("Cluster(name='my cluster'): name must be letters, digits", self.refused(name="my cluster"))
        self.assertIn("idle_timeout must be a duration", self.refused(idle_timeout="soon"))
        self.assertIn("timeout must be a duration", self.refused(timeout=-5))
        self.assertIn("Cluster(tags=['team']): tags must be a dict", self.refused(tags=["team"]))
        self.assertIn("environ must be a dict", self.refused(environ="A=1"))
        self.assertIn("wait_for_workers must be", self.refused(wait_for_workers=2.5))
        self.assertIn("package_sync must be True or False", self.refused(package_sync="yes"))
        self.assertIn("software must be a non-empty string", self.refused(software=""))

    def test_printed_as_one_short_error_and_nothing_else(self):
        env = client_env(server, tempfile.gettempdir(), CUMULUS_SERVER=self.listener.url, CUMULUS_API_TOKEN="abc-def")
        done = run_python("import cumulus; cumulus.Cluster(n_workers=-1)", env)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertNotIn("Creating cluster", done.stderr)
        lines = done.stderr.strip().splitlines()
        self.assertEqual(lines[-1], "cumulus.http.ArgumentError: Cluster(n_workers=-1): n_workers must be a whole number, 0 or more.")
        # The caller's line, the raise in Cluster.__init__, the error: no frames of the client's insides.
        self.assertLessEqual(len(lines), 6, done.stderr)
        self.assertNotIn("arguments.py", done.stderr)
        self.assertEqual(self.listener.connections, 0)


class LocalFilesTest(unittest.TestCase):
    """What the CLI reads or runs here is checked here: one line, no traceback, nothing sent."""

    def setUp(self):
        self.listener = Listener()
        self.addCleanup(self.listener.close)
        self.home = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.home, True)
        self.env = {**client_env(server, self.home), "CUMULUS_SERVER": self.listener.url, "CUMULUS_API_TOKEN": "abc-def"}
        with open(os.path.join(self.home, "task.py"), "w") as f:
            f.write("print('hi')\n")

    def refused(self, *args: str) -> str:
        result = run_cli(list(args), self.env, cwd=self.home)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertEqual(self.listener.connections, 0, "the CLI called the server")
        return result.stderr.strip()

    def test_files_that_are_not_there(self):
        self.assertEqual(self.refused("env", "create", "--pip", "missing.txt", "x"),
                         "Error: --pip missing.txt: there is no such file here.")
        self.assertEqual(self.refused("env", "create", "--conda", "missing.yml", "x"),
                         "Error: --conda missing.yml: there is no such file here.")
        self.assertEqual(self.refused("batch", "run", "--map-over-file", "missing.txt", "task.py"),
                         "Error: --map-over-file missing.txt: there is no such file here.")

    def test_no_task_and_no_script_are_refused_before_submitting(self):
        self.assertEqual(self.refused("batch", "run", "--ntasks", "0", "task.py"),
                         "Error: --ntasks 0: give 1 or more tasks.")
        self.assertEqual(self.refused("batch", "run", "missing.py"),
                         "Error: missing.py: there is no such script here; nothing was submitted.")


class ServerRefusalTest(unittest.TestCase):
    def test_a_refused_field_is_named_by_the_clients_parameter(self):
        home = tempfile.mkdtemp(prefix="cumulus-home-")
        self.addCleanup(shutil.rmtree, home, True)
        env = client_env(server, home, CUMULUS_API_TOKEN=token)
        done = run_python("import cumulus; cumulus.Cluster(n_workers=5000, package_sync=False)", env)
        self.assertEqual(done.returncode, 1)
        lines = done.stderr.strip().splitlines()
        self.assertRegex(lines[-1], r"^cumulus\.http\.ArgumentError: The server refused Cluster\(n_workers=5000\): .*1000")
        self.assertNotIn("workers=", lines[-1].replace("n_workers=", ""))
        self.assertLessEqual(len(lines), 5, done.stderr)


    def test_cumulus_run_names_the_flag_typed(self):
        home = tempfile.mkdtemp(prefix="cumulus-home-")
        self.addCleanup(shutil.rmtree, home, True)
        env = client_env(server, home, CUMULUS_API_TOKEN=token)
        done = run_cli(["run", "--no-files", "--cpu", "99", "--", "true"], env, timeout=600, cwd=home)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertNotIn("Creating cluster", done.stderr)
        self.assertNotIn("Traceback", done.stderr)
        last = done.stderr.strip().splitlines()[-1]
        self.assertRegex(last, r"^Error: The server refused --cpu 99: \S")
        self.assertNotIn("scheduler_cpu", done.stderr)
        self.assertNotIn("Cluster(", done.stderr)


class RefusedTokenTest(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="cumulus-home-")
        self.addCleanup(shutil.rmtree, self.home, True)

    def save_login(self, saved_token: str, saved_server: str):
        path = os.path.join(self.home, ".config", "dask", "cumulus.yaml")
        os.makedirs(os.path.dirname(path))
        with open(path, "w") as f:
            yaml.safe_dump({"cumulus": {"user": "someone", "token": saved_token, "server": saved_server}}, f)
        return path

    def test_an_environment_token_says_it_overrode_the_saved_login(self):
        path = self.save_login(token, server.url)
        env = client_env(server, self.home, CUMULUS_API_TOKEN="abc-not-a-token")
        done = run_python("import cumulus; cumulus.Cluster(n_workers=1, package_sync=False)", env)
        self.assertEqual(done.returncode, 1)
        last = done.stderr.strip().splitlines()[-1]
        self.assertEqual(
            last,
            "cumulus.http.AuthenticationError: Invalid token. The token is CUMULUS_API_TOKEN from the environment, "
            f"which overrides the saved login ({path}): unset CUMULUS_API_TOKEN to use the saved login, "
            "or set it to a valid token.",
        )
        self.assertLessEqual(len(done.stderr.strip().splitlines()), 5, done.stderr)

        # The CLI prints the same, as one line and no traceback.
        cli = run_cli(["cluster", "list"], env)
        self.assertEqual(cli.returncode, 1)
        self.assertEqual(cli.stderr.strip().splitlines(), [f"Error: {last.split(': ', 1)[1]}"])
        self.assertNotIn("Traceback", cli.stderr)

        # Without the variable, the saved login works.
        del env["CUMULUS_API_TOKEN"]
        self.assertEqual(run_cli(["cluster", "list"], env).returncode, 0)

    def test_a_saved_login_for_another_server_says_so(self):
        path = self.save_login("abc-from-another-server", "http://127.0.0.1:9")
        env = client_env(server, self.home)  # CUMULUS_SERVER points at the test server
        cli = run_cli(["cluster", "list"], env)
        self.assertEqual(cli.returncode, 1)
        self.assertEqual(
            cli.stderr.strip(),
            f"Error: Invalid token. The saved login ({path}) is for http://127.0.0.1:9, but {server.url} comes from "
            f"CUMULUS_SERVER: run `cumulus login --server {server.url}` to sign in there.",
        )

    def test_a_refused_saved_login_says_to_sign_in_again(self):
        path = self.save_login("abc-revoked", server.url)
        env = client_env(server, self.home)
        env.pop("CUMULUS_SERVER")
        cli = run_cli(["cluster", "list"], env)
        self.assertEqual(cli.returncode, 1)
        self.assertEqual(
            cli.stderr.strip(),
            f"Error: Invalid token. The saved login ({path}) is no longer accepted: "
            f"run `cumulus login --server {server.url}` again.",
        )


if __name__ == "__main__":
    unittest.main()
