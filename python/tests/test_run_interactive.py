"""Coiled's ``coiled run`` options under ``cumulus run``, against a real server and real clusters on
the local backend: ``--interactive`` (a terminal on the run cluster's instance, joined to this one;
here the command runs in the cluster's sandbox, as its user) and ``--no-credential-forwarding``."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time
import unittest

from tests.harness import client_env, run_cli, start_as_new_user

START_SECONDS = 240


class Terminal:
    """``cumulus`` run in a terminal of its own, as a user at a terminal runs it."""

    def __init__(self, args: list, env: dict, cwd: str):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.proc = subprocess.Popen([sys.executable, "-m", "cumulus", *args], stdin=slave, stdout=slave, stderr=slave,
                                     env=env, cwd=cwd, start_new_session=True)
        os.close(slave)
        self.master = master
        self.seen = b""

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def expect(self, text: str, timeout: float) -> str:
        """What the terminal showed up to ``text`` (on a line of output, not the echo of what was typed)."""
        deadline = time.monotonic() + timeout
        while text.encode() not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and not select.select([self.master], [], [], 0)[0]:
                raise AssertionError(f"no {text!r} in the terminal: {self.seen.decode(errors='replace')[-3000:]}")
            if select.select([self.master], [], [], min(left, 1))[0]:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:
                    time.sleep(0.1)
        return self.seen.decode(errors="replace")

    def close(self) -> int:
        try:
            code = self.proc.wait(60)
            # What it wrote last, until the terminal has no writer left (EIO).
            while select.select([self.master], [], [], 5)[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            os.close(self.master)
        return code


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


class RunInteractiveTest(unittest.TestCase):

    def test_a_shell_on_the_instance_typed_into_interrupted_and_exited(self):
        home, work = tempfile.mkdtemp(), tempfile.mkdtemp()
        with open(os.path.join(work, "here.txt"), "w") as f:
            f.write("sent along\n")
        env = client_env(server, home, CUMULUS_API_TOKEN=token, TERM="xterm")
        term = Terminal(["run", "--interactive", "--workspace", workspace, "--", "bash"], env, work)
        try:
            # Typed before the shell has started: kept for it. $((...)) is worked out there, so the
            # answer (not the echo of what was typed) says the shell ran it, on a terminal of its own.
            term.type("[ -t 0 ] && echo on-a-tty-$((6*7)); cat here.txt; stty size\n")
            shown = term.expect("on-a-tty-42", START_SECONDS)
            term.expect("sent along", 30)
            # The command's terminal is as large as this one.
            term.expect("30 100", 30)
            self.assertIn("Running on ", shown)
            # Ctrl-C is the remote command's: it ends the sleep, not this client.
            term.type("sleep 120\n")
            time.sleep(2)
            term.type("\x03")
            term.type("echo after-$((1+1))\n")
            term.expect("after-2", 30)
            self.assertIsNone(term.proc.poll())
            term.type("exit 3\n")
            code = term.close()
        finally:
            if term.proc.poll() is None:
                term.proc.kill()
        shown = term.seen.decode(errors="replace")
        self.assertEqual(code, 3, shown[-3000:])
        self.assertIn("cumulus run: the command exited with code 3", shown)


    def test_aws_credentials_go_along_unless_told_not_to(self):
        home, work = tempfile.mkdtemp(), tempfile.mkdtemp()
        # Session credentials are forwarded as they are (no STS call): the command sees them.
        env = client_env(server, home, CUMULUS_API_TOKEN=token, AWS_ACCESS_KEY_ID="ASIAFORWARDEDKEY0001",
                         AWS_SECRET_ACCESS_KEY="forwarded-secret", AWS_SESSION_TOKEN="forwarded-session")
        show = ["--", "echo key=${AWS_ACCESS_KEY_ID:-none}"]
        forwarded = run_cli(["run", "--workspace", workspace, "--no-files", *show], env, START_SECONDS, work)
        self.assertEqual(forwarded.returncode, 0, forwarded.stdout + forwarded.stderr)
        self.assertIn("key=ASIAFORWARDEDKEY0001", forwarded.stdout)
        kept = run_cli(["run", "--no-credential-forwarding", "--workspace", workspace, "--no-files", *show], env,
                       START_SECONDS, work)
        self.assertEqual(kept.returncode, 0, kept.stdout + kept.stderr)
        self.assertIn("key=none", kept.stdout)


if __name__ == "__main__":
    unittest.main()
