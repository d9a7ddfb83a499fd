"""Scheduler preload: stop the cluster once no client has been connected for a while.

Only after a client has connected at least once, so a cluster started from the console waits
for its first client. The timeout is scheduler_options.no_client_timeout (default 2 minutes),
changed at run time by the ``cumulus_set_keepalive`` handler; "none" or 0 disables it.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.request
from typing import TYPE_CHECKING, Any, Callable

from dask.utils import parse_timedelta
from distributed.diagnostics.plugin import SchedulerPlugin
from tornado.ioloop import PeriodicCallback

if TYPE_CHECKING:
    from distributed import Scheduler

DEFAULT = "2 minutes"
IGNORED_CLIENTS = ("fire-and-forget",)


def timeout_seconds(value: object) -> float | None:
    if value in (None, "", "none", "None", False, 0, "0"):
        return None
    try:
        return parse_timedelta(value)
    except Exception:
        return None


def request_stop(reason: str, answered: Callable[[bool], None]) -> None:
    """Asks the control plane to stop the cluster (it stops every instance, this one too); calls
    ``answered(ok)``."""
    print(f"cumulus preload: {reason}; asking the control plane to stop the cluster", flush=True)
    body = {"backend_id": os.environ.get("CUMULUS_BACKEND_ID", ""), "stop_cluster_reason": reason}
    req = urllib.request.Request(
        os.environ.get("CUMULUS_SERVER", "").rstrip("/") + "/api/v2/cluster_facing/scheduler/phone-home/instance",
        data=json.dumps(body).encode(), method="PATCH",
        headers={"Authorization": f"Bearer {os.environ.get('CUMULUS_CLUSTER_TOKEN', '')}",
                 "Content-Type": "application/json"},
    )

    def run() -> None:
        try:
            urllib.request.urlopen(req, timeout=10).close()
        except Exception as e:  # the control plane is away: asked again at the next check
            print(f"cumulus preload: the control plane did not hear it ({e}); asking again", flush=True)
            answered(False)
        else:
            answered(True)

    threading.Thread(target=run, daemon=True).start()


class NoClientShutdown(SchedulerPlugin):
    name = "cumulus-no-client-shutdown"

    def __init__(self, scheduler: Scheduler, default: str | float | None) -> None:
        self.scheduler = scheduler
        self.default = default
        self.seen_client = False
        self.alone_since = None
        # The control plane heard the stop request; `asking` while one is under way.
        self.stopping = False
        self.asking = False

    def add_client(self, scheduler: Scheduler | None = None, client: str | None = None, **kwargs: Any) -> None:
        # Seen here rather than by polling: a client may come and go between two checks.
        if client not in IGNORED_CLIENTS:
            self.seen_client = True

    def check(self) -> None:
        if self.stopping or self.asking:
            return
        keepalive = getattr(self.scheduler, "_cumulus_keepalive", self.default)
        timeout = timeout_seconds(keepalive)
        clients = [c for c in self.scheduler.clients if c not in IGNORED_CLIENTS]
        if clients:
            self.seen_client = True
            self.alone_since = None
            return
        if not self.seen_client or timeout is None:
            return
        if self.alone_since is None:
            self.alone_since = time.monotonic()
        if time.monotonic() - self.alone_since >= timeout:
            self.asking = True

            def answered(ok: bool) -> None:
                self.stopping = ok
                self.asking = False

            request_stop(f"No client connected for {int(timeout)} seconds (no_client_timeout)", answered)


async def dask_setup(scheduler: Scheduler) -> None:
    options = json.loads(os.environ.get("CUMULUS_SCHEDULER_OPTIONS") or "{}")
    watcher = NoClientShutdown(scheduler, options.get("no_client_timeout", DEFAULT))
    scheduler.add_plugin(watcher)
    callback = PeriodicCallback(watcher.check, 1000)
    callback.start()
    scheduler.periodic_callbacks["cumulus-no-client"] = callback
