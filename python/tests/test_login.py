"""`cumulus login` and `cumulus logout` as a user runs them, against a real server."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

from tests.harness import CumulusServer, call, client_env, run_cli

server: CumulusServer


def setUpModule():
    global server
    server = CumulusServer().start()


def tearDownModule():
    server.close()


def saved(home: str) -> dict:
    with open(os.path.join(home, ".config", "dask", "cumulus.yaml")) as f:
        return yaml.safe_load(f)["cumulus"]


class LoginTest(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp(prefix="cumulus-home-")
        self.addCleanup(shutil.rmtree, self.home, True)
        self.user = server.register()
        self.env = client_env(server, self.home)

    def start_login(self, *args, stdin=None) -> tuple[subprocess.Popen, str, str]:
        """Runs `cumulus login` until it prints the approval link and the code to type there."""
        proc = subprocess.Popen(
            [sys.executable, "-m", "cumulus", "login", *args],
            env=self.env,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.addCleanup(proc.stdout.close)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        printed = []
        identifier = None
        for line in proc.stdout:
            printed.append(line)
            match = re.search(r"(\S+)/activate-token\?id=([0-9a-f]+)", line)
            if match:
                self.assertEqual(match.group(1), server.url)
                identifier = match.group(2)
            code = re.search(r"type this code: ([A-Z]{4}-[A-Z]{4})$", line.strip())
            if code:
                self.assertIsNotNone(identifier, "the code came before the link")
                self.assertNotIn(code.group(1), identifier)
                return proc, identifier, code.group(1)
        self.fail("login printed no approval link and code:\n" + "".join(printed))

    def approve(self, identifier: str, code: str) -> tuple[int, dict]:
        url = f"{server.url}/api/v1/api-tokens/{identifier}/activate/"
        return call(url, "PATCH", body={"user_code": code}, token=self.user.key)

    def test_terminal_sign_in_saves_the_approved_token(self):
        proc, identifier, code = self.start_login()
        # Not approved yet: the client keeps polling instead of failing.
        with self.assertRaises(subprocess.TimeoutExpired):
            proc.wait(3)
        # The link alone, or with a wrong code, approves nothing: the client keeps waiting.
        status, body = self.approve(identifier, "BBBB-BBBB" if code != "BBBB-BBBB" else "CCCC-CCCC")
        self.assertEqual(status, 400, body)
        self.assertIn("does not match the one shown in your terminal", body["user_code"][0])
        with self.assertRaises(subprocess.TimeoutExpired):
            proc.wait(2)
        status, body = self.approve(identifier, code)
        self.assertEqual(status, 200, body)
        rest = proc.stdout.read()
        self.assertEqual(proc.wait(60), 0, rest)
        self.assertIn(f"Signed in to {server.url} as {self.user.username}", rest)

        login = saved(self.home)
        self.assertEqual(login["user"], self.user.username)
        self.assertEqual(login["server"], server.url)
        self.assertTrue(login["token"].startswith(identifier + "-"))
        self.assertNotIn("workspace", login)
        mode = os.stat(os.path.join(self.home, ".config", "dask", "cumulus.yaml")).st_mode & 0o777
        self.assertEqual(mode, 0o600)

        # The saved token is the user's, and is labelled with where it was made.
        status, me = call(server.url + "/api/v2/user/me", token=login["token"], scheme="ApiToken")
        self.assertEqual((status, me["username"]), (200, self.user.username))
        status, tokens = call(server.url + "/api/v1/api-tokens/", token=self.user.key)
        labels = {t["identifier"]: t["label"] for t in tokens["results"]}
        self.assertIn("@", labels[identifier])

    def test_logout_revokes_and_forgets_the_token(self):
        proc, identifier, code = self.start_login("--workspace", self.user.workspace)
        self.assertEqual(self.approve(identifier, code)[0], 200)
        self.assertEqual(proc.wait(60), 0, proc.stdout.read())
        token = saved(self.home)["token"]
        self.assertEqual(saved(self.home)["workspace"], self.user.workspace)

        out = run_cli(["logout"], self.env)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("Revoked", out.stdout)
        login = saved(self.home)
        self.assertNotIn("token", login)
        self.assertEqual(login["server"], server.url)
        status, _ = call(server.url + "/api/v2/user/me", token=token, scheme="ApiToken")
        self.assertEqual(status, 401)

        again = run_cli(["logout"], self.env)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("No saved login", again.stdout)

    def test_login_with_a_token_and_a_workspace_that_is_not_yours(self):
        token = server.api_token(self.user)
        out = run_cli(["login", "--token", token, "--workspace", "no-such-workspace"], self.env)
        self.assertEqual(out.returncode, 1)
        self.assertIn("not a member of workspace 'no-such-workspace'", out.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.home, ".config", "dask", "cumulus.yaml")))

        out = run_cli(["login", "--token", token], self.env)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(saved(self.home)["token"], token)

    def test_coileds_short_options_and_a_token_given_in_pieces(self):
        # `coiled login -s SERVER -t TOKEN -a WORKSPACE`; Coiled joins a token given as several -t.
        token = server.api_token(self.user)
        out = run_cli(["login", "-s", server.url, "-t", token[:12], "-t", token[12:], "-a", self.user.workspace],
                      {k: v for k, v in self.env.items() if k != "CUMULUS_SERVER"})
        self.assertEqual(out.returncode, 0, out.stderr)
        login = saved(self.home)
        self.assertEqual((login["token"], login["server"], login["workspace"]), (token, server.url, self.user.workspace))

    def test_a_refused_token_fails_at_once_with_no_retry_or_no_terminal(self):
        token = server.api_token(self.user)
        call(f"{server.url}/api/v1/api-tokens/{token.split('-')[0]}/revoke", "DELETE", token=self.user.key)
        for retry in (["--no-retry"], ["--retry"], []):
            with self.subTest(retry=retry):
                # Without a terminal there is no one to approve a new token: the refusal is the answer.
                out = subprocess.run([sys.executable, "-m", "cumulus", "login", "--token", token, *retry],
                                     env=self.env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
                self.assertEqual(out.returncode, 1, out.stdout)
                self.assertTrue(out.stderr.startswith("Error: "), out.stderr)
                self.assertNotIn("activate-token", out.stdout)
                self.assertFalse(os.path.exists(os.path.join(self.home, ".config", "dask", "cumulus.yaml")))

    def test_retry_at_a_terminal_approves_a_new_token_in_place_of_a_refused_one(self):
        import pty

        token = server.api_token(self.user)
        call(f"{server.url}/api/v1/api-tokens/{token.split('-')[0]}/revoke", "DELETE", token=self.user.key)
        leader, follower = pty.openpty()
        self.addCleanup(os.close, leader)
        proc, identifier, code = self.start_login("--token", token, "--no-browser", stdin=follower)
        os.close(follower)
        self.assertEqual(self.approve(identifier, code)[0], 200)
        rest = proc.stdout.read()
        self.assertEqual(proc.wait(60), 0, rest)
        self.assertIn(f"Signed in to {server.url} as {self.user.username}", rest)
        new = saved(self.home)["token"]
        self.assertTrue(new.startswith(identifier + "-"))
        self.assertNotEqual(new, token)

        # --no-retry at the same terminal: the refusal is the answer.
        leader2, follower2 = pty.openpty()
        self.addCleanup(os.close, leader2)
        done = subprocess.run([sys.executable, "-m", "cumulus", "login", "--token", token, "--no-retry"],
                              env=self.env, stdin=follower2, capture_output=True, text=True, timeout=60)
        os.close(follower2)
        self.assertEqual(done.returncode, 1, done.stdout)
        self.assertNotIn("activate-token", done.stdout)
        self.assertEqual(saved(self.home)["token"], new)

    def test_a_revoked_token_is_refused_with_the_servers_message(self):
        token = server.api_token(self.user)
        call(f"{server.url}/api/v1/api-tokens/{token.split('-')[0]}/revoke", "DELETE", token=self.user.key)
        out = run_cli(["cluster", "list"], {**self.env, "CUMULUS_API_TOKEN": token})
        self.assertEqual(out.returncode, 1)
        self.assertTrue(out.stderr.startswith("Error: "), out.stderr)
        self.assertNotIn("Traceback", out.stderr)

    def test_a_server_that_is_not_there_is_named(self):
        out = run_cli(["login", "--server", "127.0.0.1:9"], self.env)
        self.assertEqual(out.returncode, 1)
        self.assertIn("Cannot reach the Cumulus server at http://127.0.0.1:9", out.stderr)
