"""The agent's life: bootstrap, run Dask, heartbeat, stop."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import socket
import sys
import threading
import time
import urllib.parse
from typing import Any, Callable

from .backoff import Backoff
from .control import ControlPlane, Refused
from .dask_process import (
    DaskProcess, command, dask_config, environment, exit_reason, has_dashboard, write_scheduler_file,
)
from .hostmetrics import HostMetrics
from .jupyter import Jupyter
from .logs import LogShipper
from .software import environment_of, mark_used, unpacked_python
from .tasks import TaskRunner

STOP_GRACE_SECONDS = 10
# While Dask starts: how often to look whether it is up (locally: no request).
WAIT_POLL_SECONDS = 0.05
# How long a Dask that ended as a signal ends it (code 0, SIGTERM) waits for this agent's own signal.
TERMINATED_WAIT_SECONDS = 1.0
# The longest a worker's agent asks the control plane to hold an answer while it waits for its
# scheduler's address (also at most half a heartbeat interval; requests time out after 10 s).
MAX_HOLD_SECONDS = 5.0
# A preload of every Dask process this agent starts (see package_versions.py).
PACKAGE_VERSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "package_versions.py")
# Before bootstrap tells us (the backend also sets it): how long to keep trying to reach the control
# plane. Long: an outage or upgrade of the control plane must cost no cluster.
INITIAL_UNREACHABLE_SECONDS = float(os.environ.get("CUMULUS_AGENT_UNREACHABLE_SECONDS") or 1800)
# The longest wait between two attempts to reach it: back soon after it is (it grants a heartbeat
# timeout after it starts, many heartbeat intervals).
MAX_RETRY_SECONDS = 10.0
# How long the scheduler's report waits for its dashboard's address after its own.
DASHBOARD_LINE_SECONDS = 2.0
# In a warm process (warm.py): the forked child Dask starts in, with Dask imported already.
DASK_STARTER = None


def check_dashboard(python: str, then: Callable[[], object]) -> None:
    """Finds out, in the background and at low priority once the scheduler is up (so its start
    does not wait or compete), whether Dask in the scheduler's interpreter can serve its dashboard
    (a bokeh it supports); calls `then()` if it can."""

    if without_bokeh(python):
        return  # nothing to start a process for

    def check() -> None:
        try:
            # Not one of the instance's own processes (the backend finds those by this variable);
            # still in its process group, so stopping the instance ends it too.
            env = {k: v for k, v in os.environ.items() if k != "CUMULUS_BACKEND_ID"}
            done = subprocess.run([python, "-c", "import distributed.dashboard.core"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
                                  preexec_fn=lambda: os.nice(10))
        except (OSError, subprocess.TimeoutExpired):
            return
        if done.returncode == 0:
            then()

    threading.Thread(target=check, daemon=True).start()


def without_bokeh(python: str) -> bool:
    """Whether ``python`` surely has no bokeh: it is this interpreter, or a virtual environment of
    it, and neither has one (then no Dask dashboard can be served; else a check is needed)."""
    if os.path.realpath(python) != os.path.realpath(sys.executable) or has_dashboard():
        return False
    venv = os.path.dirname(os.path.dirname(os.path.abspath(python)))
    lib = os.path.join(venv, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")
    return not os.path.exists(os.path.join(lib, "bokeh"))


class Stop(Exception):
    """The control plane wants this instance gone, or cannot be reached for too long."""


def private_address(server: str) -> str:
    """The local address that reaches the control plane (what other instances can reach too)."""
    parsed = urllib.parse.urlparse(server)
    host = parsed.hostname or "127.0.0.1"
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        family = socket.getaddrinfo(host, port)[0][0]
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((host, port))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


class Agent:
    def __init__(self, control: ControlPlane, workdir: str) -> None:
        self.control = control
        self.workdir = workdir
        self.logs = LogShipper(control)
        self.terminate = threading.Event()
        self.heartbeat_interval = 5.0
        # The unpacked software environment Dask runs from, where it came as an archive (software.py).
        self.environment: str | None = None
        self.environment_marked = 0.0
        self.unreachable_timeout = INITIAL_UNREACHABLE_SECONDS
        self.last_contact = time.monotonic()
        # While the control plane cannot be reached: since when (None: it can).
        self.away_since = None
        self.away_lock = threading.Lock()
        # What this instance last said of itself, said again once the control plane is back.
        self.reports = {}
        self.rereport_due = False
        self.dask = None
        self.role = None
        self.tasks = None
        self.jupyter = None
        self.host_metrics = None

    def say(self, message: str) -> None:
        print(message, flush=True)
        self.logs.add(f"[cumulus-agent] {message}", "system")

    def backoff(self) -> Backoff:
        return Backoff(cap=min(MAX_RETRY_SECONDS, max(1.0, 2 * self.heartbeat_interval)))

    def unreachable(self, error: object) -> None:
        """Notes a failed attempt; Stop once the control plane has been away longer than allowed."""
        with self.away_lock:
            first = self.away_since is None
            if first:
                self.away_since = time.monotonic()
        if first:
            self.say(f"the control plane is unreachable ({error}); Dask keeps running, trying again")
        silent = time.monotonic() - self.last_contact
        if silent > self.unreachable_timeout:
            raise Stop(f"the control plane was unreachable for {int(silent)} s ({error})")

    def reached(self) -> None:
        """Notes an answer; after an outage, says so and has this instance's state reported again."""
        self.last_contact = time.monotonic()
        with self.away_lock:
            since, self.away_since = self.away_since, None
        if since is not None:
            self.say(f"the control plane is reachable again after {time.monotonic() - since:.0f} s")
            self.rereport_due = True

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Calls the control plane, retrying (backing off) until it answers; Stop once unreachable for too long."""
        backoff = self.backoff()
        while True:
            try:
                result = fn(*args, **kwargs)
            except Refused as e:
                raise Stop(f"the control plane refused: {e}") from None
            except Exception as e:
                self.unreachable(e)
                if self.terminate.wait(backoff.next()):
                    raise Stop("terminated") from None
                continue
            self.reached()
            return result

    def report(self, what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Reports a state of the instance or its process (``what``), and remembers it to say again."""
        self.reports[what] = (fn, args, kwargs)
        return self.call(fn, *args, **kwargs)

    def rereport(self) -> None:
        """Says again what this instance last reported: an outage of the control plane loses nothing."""
        self.rereport_due = False
        for fn, args, kwargs in list(self.reports.values()):
            self.call(fn, *args, **kwargs)

    def heartbeat(self) -> None:
        answer = self.call(self.control.heartbeat)
        if answer.get("stop"):
            raise Stop("the control plane asked this instance to stop")

    def try_heartbeat(self) -> bool:
        """One heartbeat; False when the control plane cannot be reached (Dask goes on meanwhile)."""
        try:
            answer = self.control.heartbeat()
        except Refused as e:
            raise Stop(f"the control plane refused: {e}") from None
        except Exception as e:
            self.unreachable(e)
            return False
        self.reached()
        if answer.get("stop"):
            raise Stop("the control plane asked this instance to stop")
        return True

    def run(self) -> int:
        # Only the private address: a cloud's public one is not on the VM (the control plane asks the cloud).
        host = os.environ.get("CUMULUS_AGENT_HOST") or private_address(self.control.server)
        # One call says the instance started and its Dask process is starting, and brings the
        # preloads: Dask is spawned one round trip after the agent starts.
        boot = self.call(self.control.bootstrap, started_at=host)
        self.role = boot["role"]
        self.heartbeat_interval = float(boot["heartbeat_interval_seconds"])
        self.unreachable_timeout = float(boot["unreachable_timeout_seconds"])
        self.say(f"instance {boot['instance_name']} ({self.role}) of cluster {boot['cluster_name']} at {host}")
        folded = bool(boot.get("reported_started"))
        started = (self.control.instance_state, ("started",), {"private_ip_address": host})
        if folded:
            # Said again after an outage, like any report.
            self.reports["instance"] = started
        else:
            self.report("instance", started[0], *started[1], **started[2])
        self.host_metrics = HostMetrics(self.control)
        self.host_metrics.start()

        # First, so that no other preload reads the versions before it.
        preloads = [PACKAGE_VERSIONS]
        sources = boot.get("preload_sources") or {}
        for name in boot.get("preloads", []):
            path = os.path.join(self.workdir, f"preload_{name.replace('-', '_')}.py")
            source = sources.get(name)
            with open(path, "w") as f:
                f.write(source if source is not None else self.call(self.control.preload, name))
            preloads.append(path)
        config = dask_config(boot, self.workdir)
        # A worker starts Dask at once: it imports while the scheduler starts, then waits for the
        # address in its scheduler file, which this agent writes as soon as the control plane knows it.
        scheduler_file = os.path.join(self.workdir, "scheduler.json")
        if self.role == "worker" and os.path.exists(scheduler_file):
            os.remove(scheduler_file)
        if boot.get("environment"):
            boot["python"] = self.call(unpacked_python, self.control, boot["environment"], self.workdir, self.say)
            self.environment = environment_of(boot["python"])
            self.environment_marked = time.monotonic()
        args = command(boot, host, preloads, self.workdir, scheduler_file)
        self.python = boot.get("python") or sys.executable
        starting = (self.control.process_state, (self.role, "starting"), {})
        if folded and not boot.get("environment"):
            self.reports["process"] = starting
        else:
            # An environment was unpacked since (or an older control plane): starting now.
            self.report("process", starting[0], *starting[1])
        self.env = environment(boot, config)
        # Work that Dask does not see (Jupyter's kernels) marks the instance active here (scheduler preload).
        self.env["CUMULUS_ACTIVITY_FILE"] = os.path.join(self.workdir, "activity")
        self.dask = DaskProcess(self.role, args, self.env, self.workdir,
                                lambda line: self.logs.add(line, "dask"), DASK_STARTER)
        if DASK_STARTER is not None:
            self.say("a warm process: Python and Dask were loaded before the cluster asked" if self.dask.forked
                     else "a warm process, but Dask runs from another interpreter: started it anew")
        self.scheduler = None
        if self.role == "worker":
            self.scheduler = self.scheduler_address(boot)
            if self.scheduler:
                write_scheduler_file(scheduler_file, self.scheduler)
        self.batch = boot.get("batch")
        return self.watch(host)

    def scheduler_address(self, boot: dict) -> str | None:
        """The scheduler's address, asked for until the control plane has it (heartbeating meanwhile);
        None when Dask exited meanwhile (watch() reports why). Each ask is held by the control plane
        until it knows the address (or half a heartbeat interval went by), so the worker hears it as
        soon as the scheduler reports, in a request or two rather than one every few milliseconds."""
        last_heartbeat = time.monotonic()
        hold = min(self.heartbeat_interval / 2, MAX_HOLD_SECONDS)
        while not boot.get("scheduler_address"):
            if self.dask.poll() is not None:
                return None
            if time.monotonic() - last_heartbeat >= self.heartbeat_interval:
                self.heartbeat()
                last_heartbeat = time.monotonic()
            if self.terminate.is_set():
                raise Stop("terminated")
            asked = time.monotonic()
            boot = self.call(self.control.bootstrap, hold)
            # An answer sooner than asked for, without the address (a control plane closing, or one
            # that does not hold): not at once again.
            if not boot.get("scheduler_address") and time.monotonic() - asked < hold / 2:
                if self.terminate.wait(WAIT_POLL_SECONDS * 4):
                    raise Stop("terminated")
        return boot["scheduler_address"]

    def watch(self, host: str) -> int:
        """Heartbeats until told to stop; reports the Dask address once seen and a crash if any.
        While the control plane cannot be reached Dask goes on, and heartbeats back off."""
        reported = False
        backoff = self.backoff()
        next_heartbeat = time.monotonic() + self.heartbeat_interval
        name = "dask-scheduler" if self.role == "scheduler" else "dask-worker"
        while True:
            code = self.dask.poll()
            if code is not None:
                self.dask.reader.join(2)
                if self.stopped_from_outside(code):
                    raise Stop("terminated")
                notice = self.spot_notice()
                if notice:
                    # Retired before EC2 takes the instance back (aws-spot preload): a stop, not a failure.
                    self.say(notice)
                    self.call(self.control.process_state, self.role, "stopped", notice)
                    self.call(self.control.instance_state, "stopping", notice)
                    return 0
                reason = exit_reason(name, code, self.dask.tail)
                self.say(reason)
                self.call(self.control.process_state, self.role, "error", reason)
                self.call(self.control.instance_state, "error", reason)
                return 1
            if not reported and self.dask.address_seen.is_set():
                extra = {"address": self.dask.address}
                if self.role == "scheduler":
                    # Woken by the address line: the dashboard's follows it at once (or never, with
                    # a Dask that serves none).
                    self.dask.dashboard_seen.wait(DASHBOARD_LINE_SECONDS)
                    extra["dashboard_address"] = self.dashboard_url(host)
                self.report("process", self.control.process_state, self.role, "started", **extra)
                if self.role == "scheduler" and extra["dashboard_address"]:
                    check_dashboard(self.python, lambda extra=extra: self.report(
                        "process", self.control.process_state, self.role, "started", dashboard_available=True,
                        **extra))
                self.report("instance", self.control.instance_state, "ready")
                self.say(f"{name} started at {self.dask.address}")
                reported = True
                if self.role == "scheduler" and self.jupyter is None:
                    self.jupyter = Jupyter(self, host, self.dask.address)
                    self.jupyter.start()
                if self.batch and self.tasks is None:
                    self.tasks = TaskRunner(self, self.batch, self.scheduler or self.dask.address, self.env,
                                            self.python)
                    self.tasks.start()
            now = time.monotonic()
            if self.environment and now >= self.environment_marked + 3600:
                # An instance that runs for weeks keeps its environment from being pruned (software.py).
                mark_used(self.environment)
                self.environment_marked = now
            if now >= next_heartbeat:
                if self.try_heartbeat():
                    backoff.reset()
                    next_heartbeat = now + self.heartbeat_interval
                    # Only once the control plane has said this instance should run on.
                    if self.rereport_due:
                        self.rereport()
                else:
                    next_heartbeat = now + backoff.next()
            if not reported:
                # Until Dask is up: woken at once by its address (the cluster is ready only once it
                # is reported), looking at its exit, a stop and the heartbeat in between.
                self.dask.address_seen.wait(WAIT_POLL_SECONDS)
                if self.terminate.is_set():
                    raise Stop("terminated")
                continue
            wait = max(WAIT_POLL_SECONDS, next_heartbeat - time.monotonic())
            if self.terminate.wait(min(wait, self.heartbeat_interval)):
                raise Stop("terminated")

    def stopped_from_outside(self, code: int) -> bool:
        """Whether Dask ended because the instance is being stopped: a backend's stop signals every
        process of the instance at once (ssh, local), and Dask may end before this agent's main loop
        sees its own signal (it was waiting on a heartbeat's answer). A stop, not a failure."""
        by_signal = code == 0 or code == -signal.SIGTERM
        return self.terminate.wait(TERMINATED_WAIT_SECONDS if by_signal else 0)

    def spot_notice(self) -> str | None:
        """Why Dask exited, when the aws-spot preload retired it on EC2's interruption notice; else None."""
        try:
            with open(os.path.join(self.workdir, "spot-notice")) as f:
                return f.read().strip() or None
        except OSError:
            return None

    def dashboard_url(self, host: str) -> str | None:
        """Where the scheduler's HTTP server listens (the dashboard, when it has one): its origin."""
        port = re.search(r":(\d+)", self.dask.dashboard or "")
        return f"http://{host}:{port.group(1)}" if port else None

    def shutdown(self, why: str, graceful: bool) -> None:
        self.say(f"stopping: {why}")
        if self.host_metrics is not None:
            self.host_metrics.stop()
        if self.tasks is not None:
            self.tasks.stop()
        if self.jupyter is not None:
            self.jupyter.stop()
        if self.dask is not None:
            self.dask.stop(STOP_GRACE_SECONDS)
        if graceful:
            # No reason: the control plane keeps the one it asked this instance to stop for.
            reports = [(self.control.instance_state, ("stopped",))]
            if self.role:
                reports.insert(0, (self.control.process_state, (self.role, "stopped")))
            for fn, args in reports:
                try:
                    fn(*args)
                except Exception:
                    pass
        self.logs.close()


def main() -> int:
    server = os.environ["CUMULUS_SERVER"]
    control = ControlPlane(server, os.environ["CUMULUS_CLUSTER_TOKEN"], os.environ["CUMULUS_BACKEND_ID"])
    agent = Agent(control, os.getcwd())
    signal.signal(signal.SIGTERM, lambda *_: agent.terminate.set())
    signal.signal(signal.SIGINT, lambda *_: agent.terminate.set())
    try:
        code = agent.run()
        if agent.tasks is not None:
            agent.tasks.stop()
        agent.logs.close()
        return code
    except Stop as stop:
        reachable = "unreachable" not in str(stop) and "refused" not in str(stop)
        # Where the backend says why its instances end (CUMULUS_BACKEND_REPORTS_END: a Slurm job
        # scancel'd, timed out, preempted), a signal is not reported as a stop: the control plane
        # hears the backend's reason instead of a stop nobody asked for.
        signalled = str(stop) == "terminated" and os.environ.get("CUMULUS_BACKEND_REPORTS_END") == "1"
        agent.shutdown(str(stop), graceful=reachable and not signalled)
        return 0
    except Exception as e:  # pragma: no cover - reported, then the instance ends
        agent.shutdown(f"agent failed: {e!r}", graceful=True)
        print(repr(e), file=sys.stderr)
        return 1
