"""Analytics preload: tells the control plane what the scheduler computes.

Every few seconds, when something changed, one report goes to ``analytics/metrics`` (gzip
compressed to ``analytics/metrics-compress`` when large): the computations and task groups that
changed since the last report (at most ``MAX_GROUPS``, the rest next time), exceptions tasks
raised, seconds per task prefix and action since the last report, and the scheduler's gauges.
After a computation finishes, the workers' profile of it goes to ``analytics/profile`` (at most
once a minute). The scheduler's event loop only collects; HTTP runs in a thread, one report at a
time. Runs inside dask-scheduler; standard library and distributed only.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from itertools import islice
from typing import TYPE_CHECKING, Any

import dask
from dask.utils import parse_timedelta
from distributed.diagnostics.plugin import SchedulerPlugin
from tornado.ioloop import PeriodicCallback

if TYPE_CHECKING:
    from collections.abc import Iterable

    from distributed import Scheduler
    from distributed.scheduler import Computation, TaskGroup, TaskPrefix

SERVER = os.environ.get("CUMULUS_SERVER", "").rstrip("/")
TOKEN = os.environ.get("CUMULUS_CLUSTER_TOKEN", "")
MAX_GROUPS = 2000
MAX_EXCEPTIONS = 200
PENDING_EXCEPTIONS = 1000
# Groups are found in the newest computations; older ones are history.
RECENT_COMPUTATIONS = 20
RECENT_FINISHED = 1000
COMPRESS_ABOVE = 16 * 1024
MAX_PROFILE_JSON = 1024 * 1024
ACTIVE = ("waiting", "processing", "no-worker", "queued")


def post(path: str, body: object, timeout: int = 30) -> Any:
    data = json.dumps(body).encode()
    content_type = "application/json"
    if path == "/api/v2/analytics/metrics" and len(data) > COMPRESS_ABOVE:
        path, data, content_type = "/api/v2/analytics/metrics-compress", gzip.compress(data), "application/octet-stream"
    req = urllib.request.Request(
        SERVER + path, data=data, method="POST",
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": content_type},
    )
    with urllib.request.urlopen(req, timeout=timeout) as res:
        return json.loads(res.read() or b"null")


def nonzero(counts: dict) -> dict:
    return {k: v for k, v in counts.items() if v}


class AnalyticsPlugin(SchedulerPlugin):
    name = "cumulus-analytics"

    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        self.dirty = {}  # task group name -> TaskGroup, in the order they changed
        self.exceptions = []
        self.reported = {}  # task prefix name -> {action: seconds already reported}
        self.gauges = None
        self.sending = False
        self.first = True
        self.profiled_at = 0.0
        self.finished = {}  # ids of computations reported as finished, oldest first
        self.sent_bytes = {}  # worker address -> bytes it had sent at the previous report

    # Called for every task transition: keep it to a dict lookup and a dict write.
    def transition(self, key: str, start: str, finish: str, *args: Any, **kwargs: Any) -> None:
        ts = self.scheduler.tasks.get(key)
        if ts is None or ts.group is None:
            return
        self.dirty[ts.group.name] = ts.group
        # Only the task that raised carries the exception (or, killed with its workers, is its own
        # cause); its dependents err because of it.
        if finish == "erred" and (kwargs.get("exception_text") is not None or kwargs.get("cause") == key):
            text = kwargs.get("exception_text") or f"KilledWorker: workers died while running {key!r}"
            if len(self.exceptions) < PENDING_EXCEPTIONS:
                self.exceptions.append({
                    "key": str(key)[:500], "group": ts.group.name, "prefix": ts.prefix.name[:200],
                    "exception": str(text)[:5000],
                    "traceback": str(kwargs.get("traceback_text") or "")[:20000],
                    "worker": kwargs.get("worker"), "time": time.time(),
                })

    def computations_of(self, names: list[str]) -> dict[str, Computation]:
        """The newest computation each task group belongs to."""
        wanted, found = set(names), {}
        for computation in islice(reversed(self.scheduler.computations), RECENT_COMPUTATIONS):
            for group in computation.groups:
                if group.name in wanted and group.name not in found:
                    found[group.name] = computation
            if len(found) == len(wanted):
                break
        return found

    def gauge(self) -> dict:
        workers = list(self.scheduler.workers.values())
        states = {"waiting": 0, "memory": 0}
        for prefix in self.scheduler.task_prefixes.values():
            for state in states:
                states[state] += prefix.states.get(state, 0)
        return {
            "n_workers": len(workers),
            "threads": self.scheduler.total_nthreads,
            "memory": sum(ws.nbytes for ws in workers),
            "n_tasks": len(self.scheduler.tasks),
            "processing": sum(len(ws.processing) for ws in workers),
            "waiting": states["waiting"],
            "in_memory": states["memory"],
            "worker_memory": int(sum(ws.metrics.get("memory", 0) or 0 for ws in workers)),
            "worker_cpu": round(float(sum(ws.metrics.get("cpu", 0) or 0 for ws in workers)), 1),
        }

    def transferred(self) -> int:
        """Bytes workers sent each other since the previous report (their heartbeats' counters)."""
        total, seen = 0, {}
        for address, ws in self.scheduler.workers.items():
            sent = ws.metrics.get("cumulus_sent_bytes")
            if not isinstance(sent, (int, float)):
                continue
            seen[address] = sent
            total += max(0, sent - self.sent_bytes.get(address, sent))
        self.sent_bytes = seen
        return int(total)

    def durations(self, prefixes: Iterable[TaskPrefix]) -> list[dict]:
        out = []
        for prefix in prefixes:
            seen = self.reported.setdefault(prefix.name, {})
            for action, total in prefix.all_durations.items():
                delta = total - seen.get(action, 0.0)
                if delta > 1e-6:
                    out.append({"prefix": prefix.name[:200], "action": action[:32], "seconds": delta})
                    seen[action] = total
        return out

    def collect(self) -> tuple | None:
        """The next report, or None when nothing changed. Runs on the event loop."""
        names = list(islice(self.dirty, MAX_GROUPS))
        groups = [self.dirty.pop(name) for name in names]
        exceptions, self.exceptions = self.exceptions[:MAX_EXCEPTIONS], self.exceptions[MAX_EXCEPTIONS:]
        owner = self.computations_of(names + [e["group"] for e in exceptions])
        gauges = self.gauge()
        transferred = self.transferred()
        if not groups and not exceptions and gauges == self.gauges and not transferred:
            return None
        self.gauges = gauges
        now = time.time()
        computations = {}
        for computation in owner.values():
            if computation.id in computations:
                continue
            states = computation.states
            done = not any(states.get(s) for s in ACTIVE)
            stop = computation.stop
            computations[computation.id] = {
                "id": str(computation.id), "start": computation.start,
                "stop": (stop if stop > 0 else now) if done else None,
                "n_tasks": sum(states.values()), "n_groups": len(computation.groups),
                "states": nonzero(states), "code": next(iter(computation.code), "")[:5000],
            }
        report = {
            "ident": self.scheduler.id, "time": now,
            "computations": list(computations.values()),
            "task_groups": [
                {
                    "name": g.name[:300], "prefix": g.prefix.name[:200] if g.prefix is not None else "",
                    "computation": str(owner[g.name].id),
                    "start": g.start or None, "stop": g.stop or None,
                    "durations": dict(g.all_durations), "nbytes": max(0, g.nbytes_total),
                    "n_tasks": sum(g.states.values()), "states": nonzero(g.states),
                    "types": sorted(str(t)[:200] for t in g.types)[:20],
                }
                for g in groups if g.name in owner
            ],
            "exceptions": [
                {**{k: v for k, v in e.items() if k != "group"},
                 "computation": str(owner[e["group"]].id) if e["group"] in owner else None}
                for e in exceptions
            ],
            "durations": self.durations({g.prefix for g in groups if g.prefix is not None}),
            **gauges,
            "transferred": transferred,
        }
        if self.first:
            self.first = False
            report["plugins"] = [str(p)[:200] for p in list(self.scheduler.plugins)[:100]]
            report["idle_timeout"] = float(os.environ.get("CUMULUS_IDLE_TIMEOUT_SECONDS") or 0) or None
        newly_done = [c for c in computations.values() if c["stop"] is not None and c["id"] not in self.finished]
        for c in newly_done:
            self.finished[c["id"]] = True
        while len(self.finished) > RECENT_FINISHED:
            del self.finished[next(iter(self.finished))]
        return report, groups, exceptions, newly_done

    def restore(self, groups: list[TaskGroup], exceptions: list[dict]) -> None:
        """A report that did not arrive: its groups and exceptions go into the next one."""
        for group in groups:
            self.dirty.setdefault(group.name, group)
        self.exceptions[:0] = exceptions

    def tick(self) -> None:
        if self.sending:
            return
        collected = self.collect()
        if collected is None:
            return
        report, groups, exceptions, newly_done = collected
        self.sending = True
        loop = self.scheduler.loop

        def send() -> None:
            try:
                post("/api/v2/analytics/metrics", report)
            except Exception as e:  # analytics are best effort
                print(f"cumulus analytics: report failed: {e}", file=sys.stderr, flush=True)
                if not (isinstance(e, urllib.error.HTTPError) and 400 <= e.code < 500):
                    loop.add_callback(self.restore, groups, exceptions)
            finally:
                self.sending = False

        threading.Thread(target=send, daemon=True).start()
        interval = parse_timedelta(dask.config.get("cumulus.analytics.profile-interval", "60s"))
        if newly_done and time.time() - self.profiled_at >= interval:
            self.profiled_at = time.time()
            start = min(c["start"] for c in newly_done)
            stop = max(c["stop"] for c in newly_done)
            asyncio.ensure_future(self.send_profile(start, stop))

    async def send_profile(self, start: float, stop: float) -> None:
        try:
            profile = await self.scheduler.get_profile(start=start, stop=stop + 1)
            body = {"ident": self.scheduler.id, "n_workers": len(self.scheduler.workers), "profile": profile}
            if len(json.dumps(body)) <= MAX_PROFILE_JSON:
                await asyncio.get_running_loop().run_in_executor(None, post, "/api/v2/analytics/profile", body)
        except Exception as e:  # analytics are best effort
            print(f"cumulus analytics: profile failed: {e}", file=sys.stderr, flush=True)

    async def close(self) -> None:
        # The last report, if the control plane answers within a few seconds.
        collected = None if self.sending else self.collect()
        if collected is not None:
            try:
                loop = asyncio.get_running_loop()
                await asyncio.wait_for(loop.run_in_executor(None, post, "/api/v2/analytics/metrics", collected[0], 5), 10)
            except Exception as e:  # noqa: BLE001 - best effort at shutdown
                print(f"cumulus analytics: last report failed: {e}", file=sys.stderr, flush=True)


async def dask_setup(scheduler: Scheduler) -> None:
    plugin = AnalyticsPlugin(scheduler)
    scheduler.add_plugin(plugin)
    interval = parse_timedelta(dask.config.get("cumulus.analytics.interval", "5s"))
    callback = PeriodicCallback(plugin.tick, max(0.5, interval) * 1000)
    callback.start()
    scheduler.periodic_callbacks["cumulus-analytics"] = callback
