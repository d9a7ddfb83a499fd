"""The cluster calls of the API (contract section 2), shared by ``Cluster`` and the CLI.

Each function is one call with the contract's path, parameters and retry rule, so the shapes
live in one place.
"""

from __future__ import annotations

from typing import Iterator
from urllib.parse import quote

from cumulus.http import DEFAULT, IDEMPOTENT, NO_RETRY, SLOW, Api, NotFound, Retry, request_timeout

# Contract 2.8. Unknown strings are an error in the established client; here they are shown as is.
CLUSTER_STOPPED = {"stopped", "error"}
CLUSTER_ENDING = {"stopping", "stopped", "error", "pausing", "paused"}
LIVE_WORKER = {"pending", "starting", "started"}
PAGE = 100
MAX_PAGES = 20


def _ws(ws: str) -> str:
    return f"/api/v2/clusters/account/{ws}"


def dask_config_overrides(api: Api, ws: str) -> dict:
    try:
        body = api.request("GET", f"/api/v2/user/workspace/{ws}/dask-config-overrides")
    except NotFound:
        return {}
    return body if isinstance(body, dict) else {}


def find_id(api: Api, ws: str, name: str, include_paused: bool = False) -> int | None:
    try:
        body = api.request("GET", f"{_ws(ws)}/name/{quote(name, safe='')}", query={"include_paused": int(include_paused)})
    except NotFound:
        return None
    return int(body["id"])


def newest_named(api: Api, ws: str, name: str) -> int | None:
    """The latest cluster of that name, running or not (name lookup only finds running ones)."""
    try:
        rows = api.request("GET", f"{_ws(ws)}/", query={"name": name, "limit": PAGE})
    except NotFound:
        return None
    return max((int(c["id"]) for c in rows or [] if c.get("name") == name), default=None)


def create(api: Api, ws: str, body: dict) -> tuple[int, bool]:
    answer = api.request("POST", f"{_ws(ws)}/", json_body=body, retry=SLOW)
    return int(answer["id"]), bool(answer["existing"])


def details(api: Api, ws: str, cluster_id: int, seen: str | None = None, wait: float = 0) -> dict:
    """The cluster's details; with ``seen`` (``startup.details_version`` of the last answer) and
    ``wait``, the server holds the answer up to ``wait`` seconds until they change."""
    if not (seen and wait):
        return api.request("GET", f"{_ws(ws)}/id/{cluster_id}", retry=IDEMPOTENT)
    held = Retry(connection=True, timeout=wait + request_timeout())
    query = {"wait_for_change": f"{wait:g}", "seen": seen}
    return api.request("GET", f"{_ws(ws)}/id/{cluster_id}", query=query, retry=held)


def ssh_key(api: Api, ws: str, cluster_id: int, worker: str | None = None) -> dict:
    return api.request("GET", f"{_ws(ws)}/id/{cluster_id}/ssh-key", query={"worker": worker}, retry=IDEMPOTENT)


def states(api: Api, ws: str, cluster_id: int, start_time: str | None) -> dict:
    body = api.request("GET", f"{_ws(ws)}/id/{cluster_id}/states", query={"start_time": start_time}, retry=IDEMPOTENT)
    return body if isinstance(body, dict) else {}


def state(api: Api, ws: str, cluster_id: int) -> dict:
    return api.request("GET", f"{_ws(ws)}/id/{cluster_id}/state", retry=NO_RETRY)


def delete(api: Api, ws: str, cluster_id: int, reason: str | None = None) -> None:
    api.request("DELETE", f"{_ws(ws)}/id/{cluster_id}", query={"reason": reason and reason[:6000]}, retry=IDEMPOTENT)


def list_clusters(api: Api, ws: str, just_mine: bool = False) -> list:
    found = []
    for page in range(MAX_PAGES):
        rows = api.request(
            "GET", f"{_ws(ws)}/", query={"limit": PAGE, "offset": PAGE * page, "just_mine": int(just_mine)}
        )
        if not rows:
            break
        found.extend(rows)
    return found


def _workers_path(ws: str, cluster_id: int) -> str:
    return f"/api/v2/workers/account/{ws}/cluster/{cluster_id}/"


def live_workers(api: Api, ws: str, cluster_id: int) -> list:
    """Names of the workers the server plans to have (pending, starting or started)."""
    names = []
    offset = 0
    while True:
        rows = api.request("GET", _workers_path(ws, cluster_id), query={"limit": PAGE, "offset": offset})
        if not rows:
            return names
        names += [w["name"] for w in rows if (w.get("current_state") or {}).get("state") in LIVE_WORKER]
        offset += PAGE


def add_workers(api: Api, ws: str, cluster_id: int, n: int, reason: str | None = None) -> list:
    body = {"n_workers": n}
    if reason:
        body["reason"] = reason
    created = api.request("POST", _workers_path(ws, cluster_id), json_body=body, retry=DEFAULT)
    return [w["name"] for w in created or []]


def remove_workers(api: Api, ws: str, cluster_id: int, cluster_name: str, names: list, reason=None) -> None:
    """Names travel without their ``<cluster name>-worker`` prefix, in batches of 200."""
    prefix = f"{cluster_name}-worker"
    short = [n[len(prefix) :] if n.startswith(prefix) else n for n in names]
    for i in range(0, len(short), 200):
        api.request("DELETE", _workers_path(ws, cluster_id), query={"name": short[i : i + 200], "reason": reason})


def better_logs(
    api: Api,
    ws: str,
    cluster_id: int,
    since_ms: int | None = None,
    until_ms: int | None = None,
    instance_ids: list | None = None,
    filter_pattern: str | None = None,
    dask: bool = True,
    system: bool = True,
    task_id: int | None = None,
) -> Iterator[dict]:
    """Every event, asking again from the newest timestamp seen until nothing new arrives."""
    seen: set = set()
    while True:
        query = {
            "dask": str(bool(dask)),
            "system": str(bool(system)),
            "since_ms": since_ms,
            "until_ms": until_ms,
            "filter_pattern": filter_pattern,
            "instance_ids": ",".join(str(i) for i in instance_ids) if instance_ids else None,
            "task_id": task_id,
        }
        events = api.request("GET", f"{_ws(ws)}/id/{cluster_id}/better-logs", query=query, retry=IDEMPOTENT)
        new = 0
        for event in events or []:
            key = (event.get("timestamp"), event.get("instance_id"), event.get("message"))
            if key in seen:
                continue
            seen.add(key)
            new += 1
            yield event
        if not new:
            return
        since_ms = max(e["timestamp"] for e in events)


def report_interaction(api: Api, action: str, success: bool, error: str | None = None, data=None) -> None:
    from cumulus import __version__

    api.request(
        "POST",
        "/api/v2/interactions/interaction",
        json_body={
            "action": action,
            "version": 1,
            "success": success,
            "cumulus_version": __version__,
            "error_message": error,
            "additional_text": None,
            "additional_data": data,
        },
    )
