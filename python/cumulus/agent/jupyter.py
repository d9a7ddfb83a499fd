"""Jupyter on a notebook cluster's scheduler instance (agent/PROTOCOL.md, "Notebooks").

Once Dask's scheduler has started, the agent asks the control plane how to run Jupyter (404: this
cluster runs none), starts JupyterLab — or Jupyter Notebook where only that is installed — with
the cluster's interpreter, under the base URL the control plane proxies and with the token only
the control plane knows, its kernels wired to the cluster (``DASK_SCHEDULER_ADDRESS`` and the
cluster's TLS config, so ``Client()`` connects), then reports where it serves. While a kernel
works, it marks the instance active, so the idle timeout waits for the notebook's user.
"""

from __future__ import annotations

import datetime
import json
import os
import socket
import subprocess
import threading
import time
from typing import TYPE_CHECKING, Any

from cumulus.http import send

from .control import Refused

if TYPE_CHECKING:
    from .agent import Agent

START_SECONDS = 180
ACTIVITY_POLL_SECONDS = 15
# What a kernel does not inherit from the agent: the cluster's token is the control plane's.
# CUMULUS_BACKEND_ID stays: Jupyter is one of the instance's own processes, which the local backend
# finds by it, to stop it with the instance and to vouch for the port it serves on (the proxy goes
# only where one of the instance's processes listens).
PRIVATE_VARIABLES = ("CUMULUS_CLUSTER_TOKEN", "CUMULUS_BATCH_ROOT")
MISSING = ("Jupyter is not installed in this cluster's Python ({python}): put jupyterlab in its software "
           "environment (pip install jupyterlab), or on Debian install python3-notebook "
           "(scripts/setup.sh does for the server's own Python).")


def flavour(python: str, env: dict[str, str]) -> str | None:
    """``lab`` when JupyterLab can run, ``tree`` for Jupyter Notebook alone, else None."""
    for module, ui in (("jupyterlab", "lab"), ("notebook", "tree")):
        done = subprocess.run([python, "-c", f"import {module}"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=120)
        if done.returncode == 0:
            return ui
    return None


def free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def command(python: str, ui: str, host: str, port: int, settings: dict, root: str) -> list:
    app = "ServerApp" if ui == "lab" else "NotebookApp"
    return [
        # A cloud image or a container may well run everything as root.
        python, "-m", "jupyterlab" if ui == "lab" else "notebook", "--no-browser", "--allow-root",
        f"--ip={host}", f"--port={port}", f"--{app}.port_retries=0",
        f"--{app}.base_url={settings['base_url']}", f"--{app}.token={settings['token']}",
        f"--{app}.password=", f"--{app}.allow_origin={settings['allow_origin']}",
        f"--{app}.allow_remote_access=True", f"--{app}.open_browser=False",
        f"--{app}.{'root_dir' if ui == 'lab' else 'notebook_dir'}={root}",
        # `cumulus notebook start --sync --include-vcs` copies .git and the like in through the contents API.
        "--ContentsManager.allow_hidden=True",
    ]


class Jupyter(threading.Thread):
    def __init__(self, agent: Agent, host: str, scheduler_address: str) -> None:
        super().__init__(name="cumulus-jupyter", daemon=True)
        self.agent = agent
        self.host = host
        self.scheduler_address = scheduler_address
        self.proc = None
        self.last_line = ""
        self.stopping = threading.Event()

    def say(self, message: str) -> None:
        self.agent.say(message)

    def run(self) -> None:
        try:
            settings = self.agent.control.request("GET", "/scheduler/jupyter",
                                                  query={"backend_id": self.agent.control.backend_id})
        except Refused as e:
            if e.status != 404:
                self.say(f"Jupyter: the control plane refused its settings: {e}")
            return
        except Exception as e:
            self.say(f"Jupyter: cannot read its settings: {e!r}")
            return
        try:
            self.launch(settings)
        except Exception as e:  # reported; Dask goes on without Jupyter
            self.say(f"Jupyter did not start: {e}")

    def launch(self, settings: dict) -> None:
        env = {k: v for k, v in self.agent.env.items() if k not in PRIVATE_VARIABLES}
        # The kernels' `Client()` connects to this cluster: its address and TLS config (inherited).
        env["DASK_SCHEDULER_ADDRESS"] = self.scheduler_address
        bindir = os.path.dirname(self.agent.python)
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        ui = flavour(self.agent.python, env)
        if ui is None:
            self.say(MISSING.format(python=self.agent.python))
            return
        port = int(settings.get("port") or 0) or free_port(self.host)
        root = os.path.join(self.agent.workdir, "notebooks")
        os.makedirs(root, exist_ok=True)
        env["HOME"] = env.get("HOME") or root
        args = command(self.agent.python, ui, self.host, port, settings, root)
        self.say(f"starting {'JupyterLab' if ui == 'lab' else 'Jupyter Notebook'} on port {port}")
        self.proc = subprocess.Popen(args, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, errors="replace")
        threading.Thread(target=self.forward, daemon=True).start()
        base = f"http://{self.host}:{port}{settings['base_url']}"
        deadline = time.monotonic() + START_SECONDS
        while not self.stopping.is_set():
            if self.proc.poll() is not None:
                self.proc.wait()
                time.sleep(0.2)  # its last words
                self.say(f"Jupyter exited with code {self.proc.returncode} before it served: {self.last_line}")
                return
            if self.get(base + "api/status", settings["token"]) is not None:
                break
            if time.monotonic() > deadline:
                self.say(f"Jupyter did not answer within {START_SECONDS} s")
                return
            self.stopping.wait(0.5)
        self.agent.call(self.agent.control.request, "PATCH", "/scheduler/jupyter",
                        {"backend_id": self.agent.control.backend_id, "address": f"http://{self.host}:{port}",
                         "ui": ui})
        self.say(f"Jupyter serves at {settings['base_url']}{ui}")
        self.watch_activity(base, settings["token"])

    def forward(self) -> None:
        for line in self.proc.stdout:
            self.last_line = line.strip()[:300] or self.last_line
            self.agent.logs.add(f"[jupyter] {line.rstrip()}", "dask")

    @staticmethod
    def get(url: str, token: str) -> Any:
        try:
            return json.loads(send("GET", url, headers={"Authorization": f"token {token}"}, timeout=10) or b"null")
        except Exception:
            return None

    def watch_activity(self, base: str, token: str) -> None:
        """A kernel that is busy, or did something since the last look, marks the instance active."""
        seen = None
        activity_file = self.agent.env.get("CUMULUS_ACTIVITY_FILE")
        while not self.stopping.wait(ACTIVITY_POLL_SECONDS):
            if self.proc.poll() is not None:
                self.say(f"Jupyter exited with code {self.proc.returncode}")
                return
            kernels = self.get(base + "api/kernels", token) or []
            latest = max((k.get("last_activity") or "" for k in kernels), default="")
            busy = any(k.get("execution_state") == "busy" for k in kernels)
            if activity_file and (busy or (latest and latest != seen)):
                with open(activity_file, "w") as f:
                    f.write(datetime.datetime.now(datetime.timezone.utc).isoformat())
            seen = latest

    def stop(self, grace: int = 5) -> None:
        self.stopping.set()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
