"""Scheduler preload: analytics, idle shutdown and the handlers clients call (keepalive, forwarded
credentials and variables).

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
        self.forwarded = ForwardedEnviron(scheduler)

    def transition(self, key: str, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        self.last_activity = time.monotonic()

    def add_client(self, scheduler: Scheduler | None = None, client: str | None = None, **kwargs: Any) -> None:
        self.last_activity = time.monotonic()

    def add_worker(self, scheduler: Scheduler | None = None, worker: str | None = None,
                   **kwargs: Any) -> Awaitable[bool] | None:
        self.event("add-worker", worker)
        # Awaited by the scheduler before it gives the worker any task.
        return self.forwarded.arrived(worker)

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


class ForwardedEnviron:
    """Variables the client forwarded: AWS credentials (``aws_update_credentials``), a Google access
    token or anything else (``coiled_update_env_vars`` / ``coiled_unset_env_vars``, as Coiled's
    client sends ``CLOUDSDK_AUTH_ACCESS_TOKEN``). Set in this process's environment and in every
    worker's, workers that arrive later included. Values are never logged; names the agent itself
    sets (``CUMULUS_*``) are refused."""

    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        # Every name forwarded so far, None for one unset: what a worker that arrives is given.
        self.environ: dict[str, str | None] = {}

    async def update_aws(self, comm: Comm | None = None, credentials: dict | None = None) -> str:
        credentials = credentials or {}
        if not credentials.get("AccessKeyId") or not credentials.get("SecretAccessKey"):
            return "refused: AccessKeyId and SecretAccessKey are required"
        environ = {var: credentials.get(key) or None for key, var in AWS_VARIABLES.items()}
        pushed = await self.apply(environ)
        print(f"cumulus: AWS credentials updated on the scheduler and {pushed}; "
              f"they expire {credentials.get('Expiration') or 'when their source says'}", flush=True)
        return "OK"

    async def update_env_vars(self, comm: Comm | None = None, env: dict | None = None) -> str:
        environ = {str(name): None if value is None else str(value) for name, value in (env or {}).items()}
        refused = sorted(name for name in environ if not settable(name))
        if refused:
            return f"refused: {', '.join(refused)} cannot be set (Cumulus sets CUMULUS_* itself)"
        pushed = await self.apply(environ)
        print(f"cumulus: {', '.join(sorted(environ)) or 'no variables'} set on the scheduler and {pushed}", flush=True)
        return "OK"

    async def unset_env_vars(self, comm: Comm | None = None, unset: list | None = None) -> str:
        return await self.update_env_vars(env={str(name): None for name in unset or []})

    async def apply(self, environ: dict[str, str | None]) -> str:
        """Sets these here and on every worker; says on how many."""
        self.environ.update(environ)
        set_environ(environ)
        pushed = await asyncio.gather(*(self.push(address, environ) for address in list(self.scheduler.workers)))
        return f"{sum(pushed)} of {len(pushed)} worker(s)"

    async def push(self, address: str, environ: dict[str, str | None]) -> bool:
        try:
            await asyncio.wait_for(self.scheduler.rpc(address).cumulus_set_environ(environ=environ), PUSH_TIMEOUT)
        except Exception as e:  # the worker left, or runs without the worker preload
            print(f"cumulus: forwarded variables not set on {address}: {type(e).__name__}", file=sys.stderr, flush=True)
            return False
        return True

    def arrived(self, address: str | None) -> Awaitable[bool] | None:
        """For a worker that joins: the push of everything forwarded so far to await, or None."""
        return self.push(address, dict(self.environ)) if self.environ and address else None


def settable(name: str) -> bool:
    """A variable the client may set on the cluster's processes (not one of the agent's own)."""
    return bool(name) and "=" not in name and "\0" not in name and not name.startswith("CUMULUS_")


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
    scheduler.handlers["aws_update_credentials"] = plugin.forwarded.update_aws
    for prefix in ("coiled", "cumulus"):
        scheduler.handlers[f"{prefix}_update_env_vars"] = plugin.forwarded.update_env_vars
        scheduler.handlers[f"{prefix}_unset_env_vars"] = plugin.forwarded.unset_env_vars
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
