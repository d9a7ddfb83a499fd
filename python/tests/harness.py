"""A real Cumulus server for the Python tests: started from a repository, stopped, counted.

The server's repository is ``$CUMULUS_TEST_SERVER_ROOT`` (default: this one), so the client can
be tried against a server being built elsewhere. Each server gets a free port, its own data
directory and an SMTP sink; users are registered and verified through the real API.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import uuid
import warnings
from unittest import mock

from tests.smtp_sink import SmtpSink

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(PYTHON_DIR)
SERVER_ROOT = os.path.abspath(os.environ.get("CUMULUS_TEST_SERVER_ROOT") or REPO_ROOT)
PASSWORD = "Sturdy-passphrase-42"
BOOT_SECONDS = 180
_PREPARED: dict = {}
# Servers started and not closed yet: a run ended early (SIGTERM, Ctrl-C) leaves none behind.
_LIVE: set = set()


def _interrupted(signum, _frame):
    # Unlike SystemExit, which a test's error handling swallows, this ends the run: atexit follows.
    raise KeyboardInterrupt(f"signal {signum}")


def _close_live() -> None:
    for server in list(_LIVE):
        server.kill()
        _kill(processes_under(server.data_dir))
        server.sink.stop()
        shutil.rmtree(server.data_dir, ignore_errors=True)


signal.signal(signal.SIGTERM, _interrupted)
atexit.register(_close_live)


def _prepared() -> dict:
    """Once per run: the server built where its sources changed (the tests run it built, as ``npm
    start`` does: no compiler in each start) and, on the embedded database, one migrated PGlite
    data directory each server's starts from (a copy: initdb and the migrations take seconds)."""
    if not _PREPARED:
        build = os.path.join(SERVER_ROOT, "scripts/build-if-stale.mjs")
        if os.path.exists(build):
            subprocess.run(["node", build, "server"], cwd=SERVER_ROOT, check=True)
        entry = os.path.join(SERVER_ROOT, "apps/server/dist/main.js")
        # A server repository without a build runs from its sources; one process either way, so
        # SIGKILL reaches the real thing.
        _PREPARED["argv"] = (
            ["node", entry] if os.path.exists(entry) else ["node", "--import", "tsx", "apps/server/src/main.ts"]
        )
        script = os.path.join(SERVER_ROOT, "apps/server/scripts/migrated-pglite.mjs")
        _PREPARED["pgdata"] = None
        if os.path.exists(script) and not os.environ.get("CUMULUS_TEST_DATABASE_URL"):
            home = tempfile.mkdtemp(prefix="cumulus-pytest-template-")
            atexit.register(shutil.rmtree, home, True)
            _PREPARED["pgdata"] = os.path.join(home, "pgdata")
            subprocess.run(["node", script, _PREPARED["pgdata"]], cwd=SERVER_ROOT, check=True)
    return _PREPARED


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, timeout: float, what: str, interval: float = 0.5):
    """Polls ``condition`` until it returns something truthy; the machine is slow and shared."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as err:  # noqa: BLE001 - reported below if it never succeeds
            last_error = err
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}" + (f" (last error: {last_error!r})" if last_error else ""))


def call(url: str, method: str = "GET", body=None, token: str | None = None, scheme: str = "Token"):
    """A plain HTTP call for the tests' own setup, independent of the client under test."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"{scheme} {token}"
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as err:
        raw = err.read()
        try:
            return err.code, json.loads(raw)
        except ValueError:
            return err.code, raw.decode(errors="replace")


class User:
    def __init__(self, username: str, email: str, key: str, workspace: str):
        self.username = username
        self.email = email
        self.key = key  # a session key: `Authorization: Token <key>`
        self.workspace = workspace


class CumulusServer:
    def __init__(self, env: dict | None = None):
        # Variables for this server (None: without it), over the test run's own.
        self.extra_env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir = tempfile.mkdtemp(prefix="cumulus-pytest-")
        self.log_path = os.path.join(self.data_dir, "server.log")
        self.sink = SmtpSink().start()
        self.process: subprocess.Popen | None = None

    def env(self) -> dict:
        env = dict(os.environ)
        env.update(
            PORT=str(self.port),
            HOST="127.0.0.1",
            CUMULUS_PUBLIC_URL=self.url,
            # No default environment build competing with the tests (its own test is on the server).
            CUMULUS_DEFAULT_ENVIRONMENT="off",
            # Nor warm processes (test_warm_start and test_quiet_start start with them).
            CUMULUS_WARM_PROCESSES="0",
            CUMULUS_DATA_DIR=self.data_dir,
            CUMULUS_LOG_LEVEL="warn",
            CUMULUS_SMTP_URL=f"smtp://127.0.0.1:{self.sink.port}",
            CUMULUS_PYTHON="/usr/bin/python3",
        )
        for name in ("DATABASE_URL", "CUMULUS_SERVER", "CUMULUS_API_TOKEN"):
            env.pop(name, None)
        # Embedded PGlite unless asked otherwise: the suite owns its data dir, not a shared database.
        if os.environ.get("CUMULUS_TEST_DATABASE_URL"):
            env["DATABASE_URL"] = os.environ["CUMULUS_TEST_DATABASE_URL"]
        for name, value in self.extra_env.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        return env

    def start(self) -> "CumulusServer":
        prepared = _prepared()
        # The server's embedded database (apps/server/src/server.ts: <data dir>/pgdata), migrated.
        pgdata = os.path.join(self.data_dir, "pgdata")
        if prepared["pgdata"] and not os.path.exists(pgdata):
            shutil.copytree(prepared["pgdata"], pgdata)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            prepared["argv"],
            cwd=SERVER_ROOT,
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        _LIVE.add(self)
        log.close()

        def up():
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log_tail()}")
            return call(self.url + "/api/v1/health")[0] == 200

        try:
            wait_until(up, BOOT_SECONDS, f"the server on {self.url}")
        except RuntimeError as err:
            raise AssertionError(str(err)) from None
        return self

    def log_tail(self, lines: int = 40) -> str:
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks run, as when a machine dies."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.kill()

    def _running(self) -> bool:
        return bool(self.process) and self.process.poll() is None

    def close(self) -> None:
        """Stops the server; fails if any process it started is still alive (and then kills it)."""
        _LIVE.discard(self)
        # A client's close() asks for the stop and returns (as Coiled's does): the server ends the
        # cluster's processes on its next pass. Stopped first, it would leave them running, as a
        # restart must (the next start would stop them); so it gets the time to finish.
        deadline = time.monotonic() + 60
        while processes_under(self.data_dir) and time.monotonic() < deadline and self._running():
            time.sleep(0.5)
        self.stop()
        while processes_under(self.data_dir) and time.monotonic() < deadline:
            time.sleep(1)
        left = processes_under(self.data_dir)
        _kill(left)
        self.sink.stop()
        if not left:
            shutil.rmtree(self.data_dir, ignore_errors=True)
        if left:
            raise AssertionError(f"processes left behind under {self.data_dir}: {left}")

    def register(self) -> User:
        """A new verified user, signed in, through the same calls the console makes."""
        username = "py" + uuid.uuid4().hex[:10]
        email = f"{username}@example.com"
        status, body = call(
            self.url + "/api/v1/registration/",
            "POST",
            {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD, "full_name": f"Py {username}"},
        )
        assert status == 201, (status, body)
        verify_key = self.sink.wait_for(rf"Hello {username},[\s\S]*?/verify-email-confirm/([A-Za-z0-9_-]+)").group(1)
        status, body = call(self.url + "/api/v1/registration/verify-email/", "POST", {"key": verify_key})
        assert status == 200, (status, body)
        status, body = call(self.url + "/api/v1/auth/login/", "POST", {"username": username, "password": PASSWORD})
        assert status == 200, (status, body)
        session = body["key"]
        status, me = call(self.url + "/api/v2/user/me", token=session)
        assert status == 200, (status, me)
        return User(username, email, session, me["default_account"]["slug"])

    def api_token(self, user: User) -> str:
        status, body = call(self.url + "/api/v1/api-tokens/", "POST", {"label": "tests"}, token=user.key)
        assert status == 201, (status, body)
        return body["token"]


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def processes_under(directory: str) -> list[int]:
    """Live processes whose working directory is inside ``directory`` (local instances run there)."""
    found = []
    directory = os.path.realpath(directory)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (cwd == directory or cwd.startswith(directory + os.sep)):
            found.append(int(entry))
    return found


def instance_processes(data_dir: str) -> dict:
    """Live processes of local instances, by instance work dir (``<data dir>/instances/<id>``)."""
    root = os.path.join(os.path.realpath(data_dir), "instances")
    found: dict = {}
    for pid in processes_under(root):
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        instance = os.path.relpath(cwd, root).split(os.sep)[0]
        found.setdefault(instance, []).append(pid)
    return found


def start_as_new_user(env: dict | None = None) -> tuple[CumulusServer, str, str]:
    """A fresh server and a signed-up user whose API token the client in this process uses.

    For a test module's setUpModule: returns (server, token, workspace); the environment is
    restored when the module ends. The caller closes the server.
    """
    server = CumulusServer(env).start()
    user = server.register()
    token = server.api_token(user)
    patch = mock.patch.dict(os.environ, {"CUMULUS_SERVER": server.url, "CUMULUS_API_TOKEN": token})
    patch.start()
    unittest.addModuleCleanup(patch.stop)
    # Tornado's notice about distributed's loop threads, once per cluster: noise, not a finding.
    warnings.filterwarnings("ignore", "make_current is deprecated", DeprecationWarning)
    return server, token, user.workspace


def client_env(server: CumulusServer, home: str, **extra) -> dict:
    """Environment for running the client as a user would, with HOME pointing at ``home``."""
    env = dict(os.environ)
    for name in ("CUMULUS_SERVER", "CUMULUS_API_TOKEN", "DASK_CONFIG", "DISPLAY", "WAYLAND_DISPLAY", "BROWSER"):
        env.pop(name, None)
    env.update(HOME=home, CUMULUS_SERVER=server.url, PYTHONPATH=PYTHON_DIR, PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


def run_cli(args: list, env: dict, timeout: float = 120, cwd: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cumulus", *args], env=env, capture_output=True, text=True, timeout=timeout, cwd=cwd
    )
