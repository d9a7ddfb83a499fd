"""The Dask process an instance runs: its command line, environment and output."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
from collections import deque
from typing import Any, Callable, Iterable

ADDRESS_PATTERNS = {
    "scheduler": re.compile(r"Scheduler at:\s+(\S+)"),
    "worker": re.compile(r"Start worker at:\s+(\S+)"),
}
DASHBOARD_PATTERN = re.compile(r"[Dd]ashboard at:\s+(\S+)")
ERROR_PATTERN = re.compile(r"^\s*(?:[\w.]+(?:Error|Exception|Exit)|Traceback|.* - (?:ERROR|CRITICAL) - )")


def has_dashboard() -> bool:
    return importlib.util.find_spec("bokeh") is not None


def write_private(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def dask_config(boot: dict, workdir: str) -> dict:
    """The cluster's Dask config plus mutual TLS with the cluster's own certificate."""
    cert = os.path.join(workdir, "tls-cert.pem")
    key = os.path.join(workdir, "tls-key.pem")
    write_private(cert, boot["tls_cert"])
    write_private(key, boot["tls_key"])
    pair = {"cert": cert, "key": key}
    config = dict(boot.get("dask_config") or {})
    distributed = dict(config.get("distributed") or {})
    distributed["comm"] = {
        "require-encryption": True,
        "default-scheme": "tls",
        "tls": {"ca-file": cert, "scheduler": pair, "worker": pair, "client": pair},
    }
    config["distributed"] = distributed
    return config


def environment(boot: dict, config: dict) -> dict[str, str]:
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in (boot.get("environ") or {}).items()})
    # What dask.config.serialize writes, without importing Dask into the agent.
    env["DASK_INTERNAL_INHERIT_CONFIG"] = base64.urlsafe_b64encode(json.dumps(config).encode()).decode()
    env["CUMULUS_CLUSTER_NAME"] = boot["cluster_name"]
    env["CUMULUS_WORKSPACE_SLUG"] = boot["workspace"]
    env["CUMULUS_IDLE_TIMEOUT_SECONDS"] = str(boot["idle_timeout_seconds"])
    env["CUMULUS_SCHEDULER_OPTIONS"] = json.dumps(boot.get("scheduler_options") or {})
    env["PYTHONUNBUFFERED"] = "1"
    return env


def write_scheduler_file(path: str, address: str) -> None:
    """Where a waiting dask-worker reads its scheduler's address (written whole, then renamed)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"address": address}, f)
    os.replace(tmp, path)


def command(boot: dict, host: str, preload_paths: list[str], workdir: str,
            scheduler_file: str | None = None) -> list[str]:
    # The cluster's software environment, if it has one; else the agent's own interpreter.
    python = boot.get("python") or sys.executable
    dashboard = ["--dashboard-address", f"{host}:0"] if has_dashboard() else ["--no-dashboard"]
    preloads = [arg for path in preload_paths for arg in ("--preload", path)]
    if boot["role"] == "scheduler":
        # Its HTTP server always runs (health, and the dashboard where bokeh allows), under the path
        # the control plane proxies it at.
        prefix = boot.get("dashboard_prefix")
        http = ["--dashboard-address", f"{host}:{boot.get('dashboard_port') or 0}",
                *(["--dashboard-prefix", prefix] if prefix else [])]
        return [
            python, "-m", "distributed.cli.dask_scheduler",
            "--host", host, "--port", str(boot.get("scheduler_port") or 0), "--protocol", "tls",
            *http, *preloads,
        ]
    options = boot.get("worker_options") or {}
    args = [
        python, "-m", "distributed.cli.dask_worker", "--scheduler-file", scheduler_file,
        "--name", boot["instance_name"], "--no-nanny", "--protocol", "tls", "--host", host,
        "--local-directory", os.path.join(workdir, "dask-worker-space"),
        "--nthreads", str(int(options.get("nthreads") or 1)),
        *dashboard, *preloads,
    ]
    if boot.get("worker_class"):
        args += ["--worker-class", boot["worker_class"]]
    if options.get("memory_limit") is not None:
        args += ["--memory-limit", str(options["memory_limit"])]
    resources = options.get("resources")
    if isinstance(resources, dict) and resources:
        args += ["--resources", " ".join(f"{k}={v}" for k, v in resources.items())]
    return args


class DaskProcess:
    """Runs the command, forwards each output line, and notices the Dask address in it."""

    def __init__(self, role: str, args: list[str], env: dict[str, str], cwd: str,
                 on_line: Callable[[str], object], starter: Any = None) -> None:
        self.role = role
        self.address = None
        self.dashboard = None
        self.address_seen = threading.Event()
        # The scheduler prints its HTTP server's address on the line after its own.
        self.dashboard_seen = threading.Event()
        self.on_line = on_line
        self.tail = deque(maxlen=50)
        # A warm process's zygote (warm.py) where it can run the command, else a new process.
        forked = starter.offer(args, env, cwd) if starter is not None else None
        self.forked = forked is not None
        self.popen = forked or subprocess.Popen(
            args, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
        )
        self.reader = threading.Thread(target=self._read, name="cumulus-dask-output", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        pattern = ADDRESS_PATTERNS[self.role]
        for line in self.popen.stdout:
            line = line.rstrip("\n")
            self.on_line(line)
            self.tail.append(line)
            if self.address is None:
                match = pattern.search(line)
                if match:
                    self.address = match.group(1)
                    self.address_seen.set()
            if self.dashboard is None:
                match = DASHBOARD_PATTERN.search(line)
                if match:
                    self.dashboard = match.group(1)
                    self.dashboard_seen.set()

    def poll(self) -> int | None:
        return self.popen.poll()

    def stop(self, grace: float) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(grace)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self.reader.join(2)


def last_error(lines: Iterable[str]) -> str | None:
    """The last line of the output that names an error, so a crash says why."""
    for line in reversed(list(lines)):
        if ERROR_PATTERN.match(line) and not line.lstrip().startswith("Traceback"):
            return line.strip()[:300]
    return None


def exit_reason(name: str, code: int, lines: Iterable[str] = ()) -> str:
    if code is not None and code < 0:
        return f"{name} was killed by signal {-code}"
    error = last_error(lines) if code else None
    return f"{name} exited with code {code}" + (f": {error}" if error else "")
