"""Reading a starting cluster's details: is it ready, has it failed, what to tell the user.

Pure functions over the details and ``states`` answers (contract 2.3, 2.4), kept apart from the
``Cluster`` class so the rules can be read in one place.
"""

from __future__ import annotations

import hashlib
import math

from cumulus.http import CumulusError

# Contract 2.3: any of these while waiting means the cluster will not become ready.
ABORT_STATES = {"error", "paused", "pausing", "stopped", "stopping"}


class ClusterCreationError(CumulusError):
    pass


def state_of(obj) -> str | None:
    return ((obj or {}).get("current_state") or {}).get("state")


def reason_of(obj) -> str:
    return ((obj or {}).get("current_state") or {}).get("reason") or ""


def wait_target(wait_for_workers, desired: int) -> int:
    """How many started workers make the cluster usable: a count, a fraction, or all/none."""
    if wait_for_workers is True:
        return desired
    if wait_for_workers is False or wait_for_workers is None:
        return 0
    if isinstance(wait_for_workers, float) and 0 <= wait_for_workers <= 1:
        return math.ceil(wait_for_workers * desired)
    if isinstance(wait_for_workers, int) and wait_for_workers >= 0:
        return min(wait_for_workers, desired)
    raise ValueError(f"wait_for_workers must be a bool, a count or a fraction in [0, 1], not {wait_for_workers!r}")


def details_version(details) -> str:
    """What the server compares a held details request's ``seen`` with (details-wait.ts): the first
    16 hex digits of the SHA-256 of every ``current_state`` in the details as ``state@updated``,
    sorted and joined by commas."""
    states: list = []

    def walk(value) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key == "current_state" and isinstance(item, dict) and "state" in item:
                    updated = item.get("updated")
                    states.append(f"{item['state']}@{'' if updated is None else updated}")
                else:
                    walk(item)

    walk(details)
    return hashlib.sha256(",".join(sorted(states)).encode()).hexdigest()[:16]


def counts(details: dict) -> dict:
    out: dict = {}
    for worker in details.get("workers") or []:
        out[state_of(worker)] = out.get(state_of(worker), 0) + 1
    return out


def scheduler_ready(details: dict) -> bool:
    scheduler = details.get("scheduler")
    return state_of(scheduler) == "started" and state_of((scheduler or {}).get("instance")) in ("ready", "started")


def scheduler_address(details: dict, use_public_ip: bool) -> str:
    """Where a client reaches the scheduler: its public address when the cluster gives it one and the
    client wants it, else the private one (``tls://``, the scheduler port the details answer)."""
    instance = (details.get("scheduler") or {}).get("instance") or {}
    public = (details.get("cluster_infra") or {}).get("give_scheduler_public_ip") and use_public_ip
    ip = (public and instance.get("public_ip_address")) or instance.get("private_ip_address")
    ip = ip or instance.get("public_ip_address")
    return f"tls://{ip}:{details.get('scheduler_port', 443)}"


def check(details: dict, target: int) -> bool:
    """True when ready; raises ``ClusterCreationError`` when it cannot get there."""
    name = details.get("name", "")
    cluster_state = state_of(details)
    started = counts(details).get("started", 0)
    if scheduler_ready(details) and started >= target:
        return True
    if cluster_state in ABORT_STATES:
        reason = reason_of(details)
        raise ClusterCreationError(f"Cluster {name} is {cluster_state}" + (f": {reason}" if reason else "."))
    if cluster_state == "ready" and scheduler_ready(details):
        raise ClusterCreationError(f"Cluster {name} is ready with {started} workers but {target} were awaited.")
    errored = [w for w in details.get("workers") or [] if state_of(w) == "error"]
    desired = int(details.get("desired_workers") or 0)
    if errored and len(errored) > desired - target:
        reasons: dict = {}
        for worker in errored:
            reasons.setdefault(reason_of(worker) or "no reason given", []).append(worker.get("name", "?"))
        lines = [f"  {reason} ({', '.join(names)})" for reason, names in reasons.items()]
        raise ClusterCreationError(f"Too many workers of cluster {name} failed:\n" + "\n".join(lines))
    return False


def summary(details: dict) -> str:
    """One line, printed whenever it changes while the cluster starts."""
    scheduler = state_of(details.get("scheduler")) or "pending"
    by_state = counts(details)
    desired = details.get("desired_workers", 0)
    workers = f"{by_state.get('started', 0)}/{desired} workers started"
    others = [f"{n} {s}" for s, n in sorted(by_state.items(), key=lambda kv: str(kv[0])) if s != "started"]
    if others:
        workers += f" ({', '.join(others)})"
    return f"cluster {state_of(details) or 'pending'}, scheduler {scheduler}, {workers}"


def new_records(states: dict, seen: set) -> list:
    """State records of ``states`` not printed yet, oldest first, as (updated, kind, record)."""
    fresh = []
    for kind, records in (states or {}).items():
        for record in records or []:
            key = (kind, (record.get("stateful_object") or {}).get("name"), record.get("state"), record.get("updated"))
            if key not in seen:
                seen.add(key)
                fresh.append((record.get("updated") or "", kind, record))
    fresh.sort(key=lambda item: item[0])
    return fresh


def describe(kind: str, record: dict) -> str | None:
    """A line for a state record worth its own line: failures, with their reason.

    Progress itself is the summary line; repeating every record of every worker and instance
    would bury it.
    """
    state = record.get("state")
    if state not in ("error", "stopped", "stopping"):
        return None
    name = (record.get("stateful_object") or {}).get("name") or ""
    label = f"{kind.replace('_', ' ')} {name}".strip()
    reason = record.get("reason") or ""
    return f"{label}: {state}" + (f" ({reason})" if reason else "")
