"""Scheduler preload: analytics, idle shutdown and the handlers clients call (keepalive, AWS credentials).

Registers the scheduler with the control plane, reports worker arrivals and departures, and
when nothing has run for ``idle_timeout`` asks the control plane to stop the cluster (with the
reason recorded). Runs inside dask-scheduler; standard library and distributed only.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import socket
import sys
import threading
import time
import urllib.request
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from dask.utils import parse_timedelta
from distributed.diagnostics.plugin import SchedulerPlugin
from tornado.ioloop import PeriodicCallback

if TYPE_CHECKING:
    from distributed import Scheduler
    from distributed.comm import Comm

SERVER = os.environ.get("CUMULUS_SERVER", "").rstrip("/")
TOKEN = os.environ.get("CUMULUS_CLUSTER_TOKEN", "")
BACKEND_ID = os.environ.get("CUMULUS_BACKEND_ID", "")
ACTIVE_STATES = ("processing", "waiting", "no-worker", "queued")
# Worker events kept while the control plane is away.
MAX_EVENTS = 1000
# aws_update_credentials' keys (contract 3) and the variables they set.
AWS_VARIABLES = {"AccessKeyId": "AWS_ACCESS_KEY_ID", "SecretAccessKey": "AWS_SECRET_ACCESS_KEY",
                 "SessionToken": "AWS_SESSION_TOKEN", "DefaultRegion": "AWS_DEFAULT_REGION"}
# Seconds a worker has to take them.
PUSH_TIMEOUT = 10


def call(method: str, path: str, body: object, timeout: int = 10) -> Any:
    req = urllib.request.Request(
        SERVER + path, data=json.dumps(body).encode(), method=method,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=timeout) as res:
        return json.loads(res.read() or b"null")


def call_in_background(method: str, path: str, body: object) -> None:
    def run() -> None:
        try:
            call(method, path, body)
        except Exception as e:  # analytics are best effort
            print(f"cumulus preload: {path} failed: {e}", file=sys.stderr, flush=True)

    threading.Thread(target=run, daemon=True).start()


def request_stop(reason: str, answered: Callable[[bool], None]) -> None:
    """Asks the control plane to stop the whole cluster (it stops every instance, this one too);
    calls ``answered(ok)``: a control plane that is away is asked again at the next check."""
    print(f"cumulus preload: {reason}; asking the control plane to stop the cluster", flush=True)

    def run() -> None:
        try:
            call("PATCH", "/api/v2/cluster_facing/scheduler/phone-home/instance",
                 {"backend_id": BACKEND_ID, "stop_cluster_reason": reason})
        except Exception as e:
            print(f"cumulus preload: the control plane did not hear it ({e}); asking again", file=sys.stderr, flush=True)
            answered(False)
        else:
            answered(True)

    threading.Thread(target=run, daemon=True).start()


def describe(seconds: float) -> str:
    if seconds % 60 == 0 and seconds >= 60:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{int(seconds)} seconds"


class CumulusSchedulerPlugin(SchedulerPlugin):
    name = "cumulus"

    def __init__(self, scheduler: Scheduler, idle_timeout: float) -> None:
        self.scheduler = scheduler
        self.idle_timeout = idle_timeout
        self.last_activity = time.monotonic()
        self.events = []
        self.events_lock = threading.Lock()
        # The control plane heard the stop request; `asking` while one is under way.
        self.stopping = False
        self.asking = False
        self.closed_reported = False
        self.aws = AwsCredentials(scheduler)

    def transition(self, key: str, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        self.last_activity = time.monotonic()

    def add_client(self, scheduler: Scheduler | None = None, client: str | None = None, **kwargs: Any) -> None:
        self.last_activity = time.monotonic()

    def add_worker(self, scheduler: Scheduler | None = None, worker: str | None = None,
                   **kwargs: Any) -> Awaitable[bool] | None:
        self.event("add-worker", worker)
        # Awaited by the scheduler before it gives the worker any task.
        return self.aws.arrived(worker)

    def remove_worker(self, scheduler: Scheduler | None = None, worker: str | None = None, **kwargs: Any) -> None:
        self.event("remove-worker", worker)

    def event(self, action: str, worker: str | None) -> None:
        with self.events_lock:
            self.events.append({"name": "worker", "action": action, "worker": worker,
                                "message": f"{action} {worker}", "created": time.time()})

    def flush_events(self) -> None:
        with self.events_lock:
            events, self.events = self.events, []
        if not events:
            return

        def send() -> None:
            try:
                call("POST", "/api/v2/analytics/events", {"ident": self.scheduler.id, "events": events})
            except Exception as e:  # the control plane is away: sent with the next flush (the newest kept)
                print(f"cumulus preload: worker events not sent yet: {e}", file=sys.stderr, flush=True)
                with self.events_lock:
                    self.events[:0] = events
                    del self.events[:-MAX_EVENTS]

        threading.Thread(target=send, daemon=True).start()

    def check_idle(self) -> None:
        """The idle clock is the scheduler's own activity: an outage of the control plane neither
        makes the cluster idle nor busy. Once idle, the stop is asked until the control plane hears it."""
        self.flush_events()
        if self.stopping or self.asking or not self.idle_timeout:
            return
        busy = any(ts.state in ACTIVE_STATES for ts in self.scheduler.tasks.values()) or self.active_elsewhere()
        if busy:
            self.last_activity = time.monotonic()
            return
        idle = time.monotonic() - self.last_activity
        if idle >= self.idle_timeout:
            if not self.closed_reported:
                self.closed_reported = True
                call_in_background("POST", "/api/v2/analytics/close",
                                   {"ident": self.scheduler.id, "scheduler_id": self.scheduler.id,
                                    "cluster_type": "cumulus", "reason": "idle"})
            self.asking = True

            def answered(ok: bool) -> None:
                self.stopping = ok
                self.asking = False

            request_stop(f"Cluster idle for {describe(self.idle_timeout)} (idle_timeout)", answered)

    def active_elsewhere(self) -> bool:
        """Work Dask does not see (a notebook's kernels): the agent touches CUMULUS_ACTIVITY_FILE for it."""
        path = os.environ.get("CUMULUS_ACTIVITY_FILE")
        try:
            return bool(path) and time.time() - os.path.getmtime(path) < max(30.0, self.idle_timeout / 10)
        except OSError:
            return False

    async def close(self) -> None:
        self.flush_events()


class AwsCredentials:
    """The newest AWS credentials the client forwarded (``aws_update_credentials``): set in this
    process's environment and in every worker's, workers that arrive later included. Values are
    never logged."""

    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        self.environ: dict | None = None

    async def update(self, comm: Comm | None = None, credentials: dict | None = None) -> str:
        credentials = credentials or {}
        if not credentials.get("AccessKeyId") or not credentials.get("SecretAccessKey"):
            return "refused: AccessKeyId and SecretAccessKey are required"
        self.environ = {var: credentials.get(key) or None for key, var in AWS_VARIABLES.items()}
        set_environ(self.environ)
        pushed = await asyncio.gather(*(self.push(address) for address in list(self.scheduler.workers)))
        print(f"cumulus: AWS credentials updated on the scheduler and {sum(pushed)} of {len(pushed)} worker(s); "
              f"they expire {credentials.get('Expiration') or 'when their source says'}", flush=True)
        return "OK"

    async def push(self, address: str) -> bool:
        try:
            await asyncio.wait_for(self.scheduler.rpc(address).cumulus_set_aws_environ(environ=self.environ), PUSH_TIMEOUT)
        except Exception as e:  # the worker left, or runs without the worker preload
            print(f"cumulus: AWS credentials not set on {address}: {type(e).__name__}", file=sys.stderr, flush=True)
            return False
        return True

    def arrived(self, address: str | None) -> Awaitable[bool] | None:
        """For a worker that joins: the push of the newest credentials to await, or None."""
        return self.push(address) if self.environ is not None else None


def set_environ(environ: dict[str, str | None]) -> None:
    for name, value in environ.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def keepalive_seconds(keepalive: object) -> int | None:
    """The no-client timeout in seconds, or None when off (as the no-client-shutdown preload reads it)."""
    if keepalive in (None, "", "none", "None", False, 0, "0"):
        return None
    try:
        return int(parse_timedelta(keepalive)) or None
    except Exception:
        return None


def keepalive_handlers(plugin: CumulusSchedulerPlugin) -> dict:
    def set_keepalive(comm: Comm | None = None, keepalive: str | None = None) -> str:
        # No-client shutdown reads this (see the no-client-shutdown preload); the control plane
        # shows it on the cluster's page.
        plugin.scheduler._cumulus_keepalive = keepalive
        call_in_background("PATCH", "/api/v2/cluster_facing/scheduler/phone-home/instance",
                           {"backend_id": BACKEND_ID, "no_client_timeout_seconds": keepalive_seconds(keepalive)})
        return "OK"

    return {"cumulus_set_keepalive": set_keepalive, "coiled_set_keepalive": set_keepalive}


async def dask_setup(scheduler: Scheduler) -> None:
    idle_timeout = float(os.environ.get("CUMULUS_IDLE_TIMEOUT_SECONDS") or 0)
    plugin = CumulusSchedulerPlugin(scheduler, idle_timeout)
    scheduler.add_plugin(plugin)
    scheduler.handlers.update(keepalive_handlers(plugin))
    scheduler.handlers["aws_update_credentials"] = plugin.aws.update
    interval = max(0.5, min(10.0, idle_timeout / 10 if idle_timeout else 10.0))
    callback = PeriodicCallback(plugin.check_idle, interval * 1000)
    callback.start()
    scheduler.periodic_callbacks["cumulus-idle"] = callback
    import distributed

    call_in_background("POST", "/api/v2/analytics/register", {
        "scheduler_id": scheduler.id,
        "account": os.environ.get("CUMULUS_WORKSPACE_SLUG", ""),
        "versions": {"distributed": distributed.__version__},
        "python_version": platform.python_version(),
        "OS": platform.system(),
        "hostname": socket.gethostname(),
        "architecture": platform.machine(),
        "idle_timeout": idle_timeout,
        "preloads": [],
        "scheduler_plugins": list(scheduler.plugins),
    })
