"""``cumulus ssh-hosts add|list|remove`` against a real server and a real OpenSSH server on 127.0.0.2
(as an account of this test's own, not the server tests' rig accounts, whose rigs end whatever
their account runs when they close): a wrong host key refused by the option that gave it, the host
added once checked, listed with its health, removed."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import unittest

from tests.harness import CumulusServer, client_env, free_port, run_cli, start_as_new_user, wait_until

ACCOUNT = "cumulus-ssh-cli"
HOME = f"/var/lib/{ACCOUNT}"
server: CumulusServer
token: str
workspace: str


def _keygen(path: str) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "", "-f", path], check=True)
    with open(f"{path}.pub", encoding="utf-8") as f:
        return " ".join(f.read().split()[:2])


def setUpModule():
    global server, token, workspace
    if os.geteuid() != 0 or not os.path.exists("/usr/sbin/sshd"):
        raise unittest.SkipTest("needs root and openssh-server (scripts/setup.sh --ssh)")
    server, token, workspace = start_as_new_user()
    unittest.addModuleCleanup(server.close)


class SshHostsCliTest(unittest.TestCase):
    def setUp(self):
        if subprocess.run(["id", "-u", ACCOUNT], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "--create-home", "--home-dir", HOME, "--shell", "/bin/bash", ACCOUNT], check=True)
            subprocess.run(["usermod", "-p", "*", ACCOUNT], check=True)
        self.dir = tempfile.mkdtemp(prefix="cumulus-ssh-cli-")
        os.chmod(self.dir, 0o755)
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.host_key = _keygen(os.path.join(self.dir, "host_key"))
        self.other_key = _keygen(os.path.join(self.dir, "other_host_key"))
        _keygen(os.path.join(self.dir, "user_key"))
        shutil.copy(os.path.join(self.dir, "user_key.pub"), os.path.join(self.dir, "authorized_keys"))
        os.chmod(os.path.join(self.dir, "authorized_keys"), 0o644)
        self.port = free_port()
        config = os.path.join(self.dir, "sshd.conf")
        with open(config, "w", encoding="utf-8") as f:
            f.write("\n".join([
                f"ListenAddress 127.0.0.2:{self.port}", f"HostKey {self.dir}/host_key", f"PidFile {self.dir}/sshd.pid",
                f"AuthorizedKeysFile {self.dir}/authorized_keys", "PubkeyAuthentication yes",
                "PasswordAuthentication no", "KbdInteractiveAuthentication no", "UsePAM no", "StrictModes no",
                f"AllowUsers {ACCOUNT}", "LogLevel ERROR", ""]))
        os.makedirs("/run/sshd", exist_ok=True)
        sshd = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", config], stderr=subprocess.DEVNULL)
        self.addCleanup(sshd.wait)
        self.addCleanup(sshd.terminate)

        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.2", self.port)) == 0

        wait_until(listening, 15, "sshd on 127.0.0.2")
        home = tempfile.mkdtemp(prefix="cumulus-ssh-cli-home-")
        self.addCleanup(shutil.rmtree, home, True)
        self.env = client_env(server, home, CUMULUS_API_TOKEN=token)

    def add(self, host_key: str, name: str = "box-a"):
        return run_cli(["ssh-hosts", "add", name, "--address", "127.0.0.2", "--port", str(self.port),
                        "--user", ACCOUNT, "--host-key", host_key, "--private-key", os.path.join(self.dir, "user_key"),
                        "--cores", "2", "--memory", "4", "--label", "big", "--label", "fast",
                        "--python", "/usr/bin/python3"], self.env)

    def test_add_list_remove(self):
        empty = run_cli(["ssh-hosts", "list"], self.env)
        self.assertEqual(empty.returncode, 0, empty.stderr)
        self.assertIn(f"No SSH hosts in workspace {workspace}.", empty.stdout)

        wrong = self.add(self.other_key)
        self.assertEqual(wrong.returncode, 1)
        self.assertEqual(
            wrong.stderr.strip(),
            "Error: --host-key: box-a (127.0.0.2) presented a host key other than the one pinned for it: refused "
            "(if the host was reinstalled, pin its new key).")

        # The key from a file, as copied from the host.
        added = self.add(os.path.join(self.dir, "host_key.pub"))
        self.assertEqual(added.returncode, 0, added.stderr)
        self.assertRegex(added.stdout, rf"^Added box-a \({ACCOUNT}@127\.0\.0\.2:{self.port}\): Reachable; Python \d")

        listed = run_cli(["ssh-hosts", "list"], self.env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        header, row = listed.stdout.splitlines()[:2]
        self.assertEqual(header.split()[:4], ["NAME", "ADDRESS", "HEALTH", "CORES"])
        self.assertEqual(row.split()[:6], ["box-a", f"{ACCOUNT}@127.0.0.2:{self.port}", "ok", "2", "4", "GiB"])
        self.assertIn("big,fast", row)
        self.assertNotIn("PRIVATE KEY", listed.stdout)

        removed = run_cli(["ssh-hosts", "remove", "box-a"], self.env)
        self.assertEqual(removed.returncode, 0, removed.stderr)
        self.assertEqual(removed.stdout.strip(), "Removed box-a.")
        again = run_cli(["ssh-hosts", "remove", "box-a"], self.env)
        self.assertEqual(again.returncode, 1)
        self.assertIn("has no SSH host named box-a", again.stderr)
        self.assertIn("No SSH hosts", run_cli(["ssh-hosts", "list"], self.env).stdout)


if __name__ == "__main__":
    unittest.main()
