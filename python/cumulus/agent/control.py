"""The agent's HTTP client for the cluster-facing calls (cluster bearer token, JSON), through the
client's ``cumulus.http.send``: one attempt each, the agent backing off itself (agent.py ``call``)."""

from __future__ import annotations

import json
import os
import urllib.parse
from typing import Any

from cumulus.http import HttpError, send

API = "/api/v2/cluster_facing"


class Refused(Exception):
    """The control plane answered, and said no (4xx): the instance or cluster is gone."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"HTTP {status}: {body[:200]}")
        self.status = status


class ControlPlane:
    def __init__(self, server: str, token: str, backend_id: str, timeout: float = 10) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.backend_id = backend_id
        self.timeout = timeout

    def request(self, method: str, path: str, body: Any = None, query: dict | None = None, raw: bool = False,
                timeout: float | None = None, api: str = API) -> Any:
        url = self.server + api + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        try:
            payload = send(method, url, data=data, headers=headers, timeout=timeout or self.timeout,
                           what="the control plane")
        except HttpError as e:
            if 400 <= e.status < 500 and e.status not in (408, 429):
                raise Refused(e.status, str(e.body)) from None
            raise
        return payload.decode() if raw else json.loads(payload or b"null")

    def bootstrap(self, wait_for_scheduler: float = 0, started_at: str | None = None) -> dict:
        """What this instance runs. A worker's agent waiting for its scheduler's address may ask the
        control plane to hold the answer up to ``wait_for_scheduler`` seconds until it knows it. The
        first bootstrap gives ``started_at`` (the instance's private address): the control plane
        then also records the instance started there and its Dask process starting, and answers
        with the preloads' sources (``reported_started``, ``preload_sources``; an older control
        plane does neither, and the agent makes those calls itself)."""
        query = {"backend_id": self.backend_id}
        if wait_for_scheduler:
            query["wait_for_scheduler"] = f"{wait_for_scheduler:g}"
        if started_at:
            query["started_at"] = started_at
        return self.request("GET", "/bootstrap", query=query)

    def preload(self, name: str) -> str:
        return self.request("GET", f"/preload/{name}", raw=True)

    def heartbeat(self) -> dict:
        return self.request("GET", f"/instance/{urllib.parse.quote(self.backend_id)}/state")

    def instance_state(self, state: str, reason: str = "", **addresses: Any) -> Any:
        body = {"backend_id": self.backend_id, "state": state, "reason": reason, **addresses}
        return self.request("PATCH", "/instance/phone-home/", body)

    def process_state(self, role: str, state: str | None = None, reason: str = "", **extra: Any) -> Any:
        path = "/scheduler/phone-home/instance" if role == "scheduler" else "/worker/phone-home/instance/"
        body = {"backend_id": self.backend_id, "reason": reason, **extra}
        if state:
            body["state"] = state
        return self.request("PATCH", path, body)

    def next_task(self, report: dict | None = None) -> dict:
        """Ends the last task (``report``: ``{task_id, state, exit_code?, reason?}``) and claims the
        next one, already running, in one call: ``{report, task}``."""
        if report is not None:
            report = {k: v for k, v in report.items() if v is not None and v != ""}
            if "reason" in report:
                report["reason"] = report["reason"][:2000]
        path = f"/next-run-task/{urllib.parse.quote(self.backend_id)}"
        return self.request("POST", path, {"report": report})

    def task_state(self, task_id: int, state: str, exit_code: int | None = None, reason: str | None = None) -> Any:
        body = {"state": state, "backend_id": self.backend_id}
        if exit_code is not None:
            body["exit_code"] = exit_code
        if reason:
            body["reason"] = reason[:2000]
        return self.request("POST", f"/run-task/{task_id}", body)

    def upload_task_output(self, task_id: int, path: str) -> Any:
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/octet-stream",
                   "Content-Length": str(os.path.getsize(path))}
        with open(path, "rb") as f:
            answer = send("PUT", f"{self.server}{API}/run-task/{task_id}/output", data=f, headers=headers,
                          timeout=300, what="the control plane")
        return json.loads(answer or b"null")

    def filestore(self, method: str, path: str, body: Any = None) -> Any:
        """The filestore calls (``/api/v2/filestore/...``), with this cluster's token."""
        return self.request(method, path, body, api="/api/v2/filestore")

    def host_metrics(self, samples: list) -> Any:
        """The machine's samples (hostmetrics.py), with this instance's id."""
        body = {"host": {"backend_id": self.backend_id, "samples": samples}}
        return self.request("POST", "/metrics", body, api="/api/v2/analytics")

    def ship_logs(self, lines: list) -> Any:
        return self.request("POST", "/logs", {"backend_id": self.backend_id, "lines": lines})
