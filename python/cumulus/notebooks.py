"""Notebooks: Jupyter on a cluster's scheduler instance, next to its workers and data.

A notebook is a cluster tagged ``cumulus-cluster-type: notebook`` (the console's Notebooks page
lists them) whose scheduler options ask for Jupyter; the instance's agent runs JupyterLab (or
Jupyter Notebook) with ``Client()`` wired to the cluster and its workers (one by default), and the cluster details answer the
reader's own link to it, served through the server's proxy. ``sync`` copies a local directory in
when it starts and brings back, when it stops, what changed there — through Jupyter's own
contents API, over the same link.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
import urllib.parse
import uuid
from dataclasses import dataclass
from typing import Callable

from cumulus import cluster_api, config
from cumulus.account import choose_workspace, fetch_identity
from cumulus.http import Api, CumulusError, HttpError, send
from cumulus.directory_upload import directory_files, sync_skips

NOTEBOOK_TAG = {"cumulus-cluster-type": "notebook"}
JUPYTER_WAIT_SECONDS = 240
SYNC_DIR = os.path.join(os.path.expanduser("~"), ".config", "dask", "cumulus-notebooks")


@dataclass
class Notebook:
    name: str
    cluster_id: int
    workspace: str
    url: str
    workers: int = 0


def ui_name(url: str) -> str:
    """Which Jupyter a link opens: JupyterLab (``/jupyter/lab``) or, where only it is installed,
    the classic Jupyter Notebook (``/jupyter/tree``)."""
    return "JupyterLab" if urllib.parse.urlsplit(url).path.endswith("/lab") else "Jupyter Notebook"


def describe(notebook: Notebook) -> str:
    """One line: which UI serves the notebook and what its Client() computes on."""
    ui = ui_name(notebook.url)
    if ui != "JupyterLab":
        ui += " (the classic UI: JupyterLab is not installed in the notebook's Python; add jupyterlab to its software)"
    if notebook.workers:
        workers = f"{notebook.workers} Dask worker{'s' if notebook.workers != 1 else ''} for Client() in it"
    else:
        workers = ("no Dask workers: Client().submit(...) waits until some join; "
                   "start it with --workers N (or scale the cluster) to compute")
    return f"{ui} on notebook {notebook.name}, with {workers}"


def _manifest_path(ws: str, name: str) -> str:
    return os.path.join(SYNC_DIR, f"{ws}--{name}.json")


def jupyter_address(api: Api, ws: str, cluster_id: int) -> str | None:
    details = cluster_api.details(api, ws, cluster_id)
    return (details.get("scheduler") or {}).get("jupyter_address")


def _why_no_jupyter(api: Api, ws: str, cluster_id: int) -> str:
    lines = [e["message"] for e in cluster_api.better_logs(api, ws, cluster_id, filter_pattern="Jupyter", dask=False)]
    return lines[-1].replace("[cumulus-agent] ", "") if lines else "it did not report an address"


def not_yours(details: dict, username: str) -> str | None:
    """Why a notebook's Jupyter is not the caller's to open (another member started it), or None."""
    creator = (details.get("creator") or {}).get("username")
    if creator and creator != username:
        return (f"Notebook {details.get('name')} is {creator}'s: only the member who started a notebook can open "
                "its Jupyter (it runs code as them).")
    return None


def wait_for_jupyter(api: Api, ws: str, cluster_id: int, timeout: float = JUPYTER_WAIT_SECONDS,
                     username: str | None = None) -> str:
    """The caller's link to the notebook's Jupyter once it serves; refused at once for another member's."""
    deadline = time.monotonic() + timeout
    while True:
        details = cluster_api.details(api, ws, cluster_id)
        address = (details.get("scheduler") or {}).get("jupyter_address")
        if address:
            return address
        if username and not_yours(details, username):
            raise CumulusError(not_yours(details, username))
        reason = _why_no_jupyter(api, ws, cluster_id)
        if "not installed" in reason or "did not start" in reason or "exited" in reason:
            raise CumulusError(f"Jupyter is not running on the notebook: {reason}")
        if time.monotonic() > deadline:
            raise CumulusError(f"Jupyter did not start within {timeout:.0f} s: {reason}")
        time.sleep(1)


class Contents:
    """Jupyter's contents API through the server's proxy, with the reader's pass. A program calls
    the server where the client reaches its API (``server``): the link's origin may be one only
    browsers resolve (a proxy origin per cluster, CUMULUS_PROXY_ORIGIN), and the path is the same."""

    def __init__(self, address: str, server: str | None = None):
        parsed = urllib.parse.urlsplit(address)
        self.pass_ = dict(urllib.parse.parse_qsl(parsed.query)).get("token", "")
        root = parsed.path.rsplit("/jupyter/", 1)[0] + "/jupyter/"
        if server:
            self.base = server.rstrip("/") + root
        else:
            self.base = urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, root, "", ""))

    def call(self, method: str, path: str, body=None, query=None):
        q = urllib.parse.urlencode({**(query or {}), "token": self.pass_})
        url = f"{self.base}api/contents/{urllib.parse.quote(path)}?{q}"
        data = None if body is None else json.dumps(body).encode()
        try:
            answer = send(method, url, data=data, headers={"Content-Type": "application/json"}, timeout=120)
        except HttpError as e:
            raise CumulusError(f"Jupyter answered {e.status} to {method} {path or '/'}: {str(e.body)[:300]}") from None
        return json.loads(answer or b"null")

    def upload(self, local_dir: str, ignore=(), include_vcs: bool = False) -> dict:
        """Copies the directory's files in (but those ``directory_upload.sync_skips`` leaves out); answers
        ``{path: sha256}`` of what it sent."""
        sent: dict = {}
        made: set = set()
        for full, path in directory_files(local_dir, ignore=ignore, include_vcs=include_vcs):
            parts = path.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                folder = "/".join(parts[:i])
                if folder not in made:
                    self.call("PUT", folder, {"type": "directory"})
                    made.add(folder)
            with open(full, "rb") as f:
                content = f.read()
            self.call("PUT", path, {"type": "file", "format": "base64", "content": base64.b64encode(content).decode()})
            sent[path] = hashlib.sha256(content).hexdigest()
        return sent

    def files(self, path: str = "", ignore=(), include_vcs: bool = False):
        listing = self.call("GET", path, query={"content": 1})
        for item in listing.get("content") or []:
            if item["type"] == "directory":
                if not sync_skips(item["path"] + "/-", ignore, include_vcs):
                    yield from self.files(item["path"], ignore, include_vcs)
            elif not sync_skips(item["path"], ignore, include_vcs):
                yield item["path"]

    def read(self, path: str) -> bytes:
        item = self.call("GET", path, query={"content": 1, "type": "file", "format": "base64"})
        return base64.b64decode(item["content"])

    def download_changed(self, local_dir: str, sent: dict, ignore=(), include_vcs: bool = False) -> list:
        """Writes into ``local_dir`` what is new or changed on the notebook since ``sent`` (but what the
        sync leaves out)."""
        changed = []
        for path in self.files(ignore=ignore, include_vcs=include_vcs):
            content = self.read(path)
            if sent.get(path) == hashlib.sha256(content).hexdigest():
                continue
            target = os.path.join(local_dir, *path.split("/"))
            os.makedirs(os.path.dirname(target) or local_dir, exist_ok=True)
            with open(target, "wb") as f:
                f.write(content)
            changed.append(path)
        return changed


def start(
    name: str | None = None,
    *,
    software: str | None = None,
    n_workers: int = 1,
    workspace: str | None = None,
    idle_timeout: str | None = "20 minutes",
    sync: str | None = None,
    sync_ignore=(),
    include_vcs: bool = False,
    tags: dict | None = None,
    say: Callable[[str], None] = print,
    server: str | None = None,
    token: str | None = None,
    **cluster_args,
) -> Notebook:
    """Starts (or finds running) the notebook cluster ``name`` and answers the link to its Jupyter.
    ``sync``: a local directory to copy in (and bring changes back from at ``stop``), but version control
    (unless ``include_vcs``), caches and what matches ``sync_ignore`` (``directory_upload.sync_skips``); ``tags``: the
    cluster's (``environ=`` and the hardware arguments are ``cumulus.Cluster``'s)."""
    from cumulus.cluster import Cluster

    scheduler_options = {"jupyter": True, "no_client_timeout": None}
    cluster = Cluster(
        name=name or f"notebook-{uuid.uuid4().hex[:8]}", n_workers=n_workers, workspace=workspace, software=software,
        idle_timeout=idle_timeout, tags={**(tags or {}), **NOTEBOOK_TAG}, scheduler_options=scheduler_options,
        shutdown_on_close=False,
        wait_for_workers=False if n_workers == 0 else None, server=server, token=token, **cluster_args,
    )
    try:
        ws, cluster_id = cluster.workspace, cluster.cluster_id
        say("Waiting for Jupyter...")
        me = fetch_identity(cluster._api).username
        address = wait_for_jupyter(cluster._api, ws, cluster_id, username=me)
        if sync:
            ignore = list(sync_ignore or ())
            sent = Contents(address, cluster._api.server).upload(sync, ignore, include_vcs)
            os.makedirs(SYNC_DIR, exist_ok=True)
            with open(_manifest_path(ws, cluster.name), "w") as f:
                json.dump({"directory": os.path.abspath(sync), "files": sent, "ignore": ignore,
                           "include_vcs": include_vcs}, f)
            say(f"Synced {len(sent)} file(s) from {os.path.abspath(sync)}.")
        return Notebook(cluster.name, cluster_id, ws, address, n_workers)
    finally:
        cluster.close()


def _workspace_api(workspace: str | None) -> tuple[Api, str, str]:
    """The API, the workspace and the caller's username."""
    settings = config.load(workspace=workspace)
    api = Api.for_settings(settings)
    identity = fetch_identity(api)
    return api, choose_workspace(identity, settings.workspace), identity.username


def stop(name: str, workspace: str | None = None, say: Callable[[str], None] = print) -> list:
    """Brings back what changed in a synced notebook's files, then stops it; answers the paths brought back."""
    api, ws, _me = _workspace_api(workspace)
    cluster_id = cluster_api.find_id(api, ws, name)
    if cluster_id is None:
        raise CumulusError(f"No running notebook named {name!r} in workspace {ws}.")
    changed: list = []
    manifest = _manifest_path(ws, name)
    if os.path.exists(manifest):
        with open(manifest) as f:
            kept = json.load(f)
        address = jupyter_address(api, ws, cluster_id)
        if address:
            changed = Contents(address, api.server).download_changed(
                kept["directory"], kept["files"], kept.get("ignore", ()), kept.get("include_vcs", False))
            say(f"Brought back {len(changed)} changed file(s) into {kept['directory']}"
                + (f": {', '.join(changed)}" if changed else "."))
        else:
            say("Jupyter is not serving: nothing could be brought back.")
    cluster_api.delete(api, ws, cluster_id, reason="Stopped with `cumulus notebook stop`")
    if os.path.exists(manifest):
        os.remove(manifest)
    say(f"Stopping notebook {name} ({cluster_id}).")
    return changed


def list_notebooks(workspace: str | None = None) -> list:
    """The workspace's running notebook clusters, with the caller's link to each of their own
    notebooks' Jupyter (another member's notebook is listed with its creator, and no link)."""
    api, ws, me = _workspace_api(workspace)
    found = []
    for c in cluster_api.list_clusters(api, ws):
        tags = c.get("tags") or {}
        if "notebook" not in (tags.get("cumulus-cluster-type"), tags.get("coiled-cluster-type")):
            continue
        state = (c.get("current_state") or {}).get("state")
        if state in ("stopped", "error"):
            continue
        creator = (c.get("creator") or {}).get("username")
        yours = creator == me
        found.append({"id": c["id"], "name": c["name"], "state": state, "creator": creator, "yours": yours,
                      "url": jupyter_address(api, ws, c["id"]) if state == "ready" and yours else None})
    return found
