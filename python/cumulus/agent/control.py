"""The agent's HTTP client for the cluster-facing calls (cluster bearer token, JSON)."""

import json
import os
import urllib.error
import urllib.parse
import urllib.request

API = "/api/v2/cluster_facing"


class Refused(Exception):
    """The control plane answered, and said no (4xx): the instance or cluster is gone."""

    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body[:200]}")
        self.status = status


class ControlPlane:
    def __init__(self, server, token, backend_id, timeout=10):
        self.server = server.rstrip("/")
        self.token = token
        self.backend_id = backend_id
        self.timeout = timeout

    def request(self, method, path, body=None, query=None, raw=False, timeout=None, api=API):
        url = self.server + api + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(url, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as res:
                payload = res.read()
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            if 400 <= e.code < 500 and e.code not in (408, 429):
                raise Refused(e.code, text) from None
            raise
        return payload.decode() if raw else json.loads(payload or b"null")

    def bootstrap(self, wait_for_scheduler=0):
        """What this instance runs. A worker's agent waiting for its scheduler's address may ask the
        control plane to hold the answer up to ``wait_for_scheduler`` seconds until it knows it."""
        query = {"backend_id": self.backend_id}
        if wait_for_scheduler:
            query["wait_for_scheduler"] = f"{wait_for_scheduler:g}"
        return self.request("GET", "/bootstrap", query=query)

    def preload(self, name):
        return self.request("GET", f"/preload/{name}", raw=True)

    def heartbeat(self):
        return self.request("GET", f"/instance/{urllib.parse.quote(self.backend_id)}/state")

    def instance_state(self, state, reason="", **addresses):
        body = {"backend_id": self.backend_id, "state": state, "reason": reason, **addresses}
        return self.request("PATCH", "/instance/phone-home/", body)

    def process_state(self, role, state=None, reason="", **extra):
        path = "/scheduler/phone-home/instance" if role == "scheduler" else "/worker/phone-home/instance/"
        body = {"backend_id": self.backend_id, "reason": reason, **extra}
        if state:
            body["state"] = state
        return self.request("PATCH", path, body)

    def next_task(self, report=None):
        """Ends the last task (``report``: ``{task_id, state, exit_code?, reason?}``) and claims the
        next one, already running, in one call: ``{report, task}``."""
        if report is not None:
            report = {k: v for k, v in report.items() if v is not None and v != ""}
            if "reason" in report:
                report["reason"] = report["reason"][:2000]
        path = f"/next-run-task/{urllib.parse.quote(self.backend_id)}"
        return self.request("POST", path, {"report": report})

    def task_state(self, task_id, state, exit_code=None, reason=None):
        body = {"state": state, "backend_id": self.backend_id}
        if exit_code is not None:
            body["exit_code"] = exit_code
        if reason:
            body["reason"] = reason[:2000]
        return self.request("POST", f"/run-task/{task_id}", body)

    def upload_task_output(self, task_id, path):
        with open(path, "rb") as f:
            req = urllib.request.Request(f"{self.server}{API}/run-task/{task_id}/output", data=f, method="PUT")
            req.add_header("Authorization", f"Bearer {self.token}")
            req.add_header("Content-Type", "application/octet-stream")
            req.add_header("Content-Length", str(os.path.getsize(path)))
            with urllib.request.urlopen(req, timeout=300) as res:
                return json.loads(res.read() or b"null")

    def filestore(self, method, path, body=None):
        """The filestore calls (``/api/v2/filestore/...``), with this cluster's token."""
        return self.request(method, path, body, api="/api/v2/filestore")

    def host_metrics(self, samples):
        """The machine's samples (hostmetrics.py), with this instance's id."""
        body = {"host": {"backend_id": self.backend_id, "samples": samples}}
        return self.request("POST", "/metrics", body, api="/api/v2/analytics")

    def ship_logs(self, lines):
        return self.request("POST", "/logs", {"backend_id": self.backend_id, "lines": lines})
