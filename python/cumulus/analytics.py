"""What clusters' schedulers reported: computations, exceptions, summaries (contract 7).

Each function is one user call of ``/api/v2/analytics/{workspace}/...``; the workspace defaults
to the saved login's (or the user's default one), as for ``Cluster``.
"""

from __future__ import annotations

from urllib.parse import quote

from cumulus import config
from cumulus.account import choose_workspace, fetch_identity
from cumulus.http import IDEMPOTENT, Api, CumulusError


def _session(workspace: str | None, server: str | None, token: str | None) -> tuple:
    settings = config.load(server=server, token=token, workspace=workspace)
    api = Api.for_settings(settings)
    return api, f"/api/v2/analytics/{choose_workspace(fetch_identity(api), settings.workspace)}"


def _get(path: str, query: dict, workspace=None, server=None, token=None):
    api, base = _session(workspace, server, token)
    defined = {k: v for k, v in query.items() if v is not None}
    return api.request("GET", base + path, query=defined, retry=IDEMPOTENT)


def list_computations(cluster_id: int | None = None, scheduler_id: str | None = None, *, offset: int = 0,
                      limit: int = 100, workspace=None, server=None, token=None) -> list:
    """A cluster's (or one Dask scheduler's) computations, newest first."""
    if (cluster_id is None) == (scheduler_id is None):
        raise CumulusError("Give either cluster_id or scheduler_id.")
    path = f"/cluster/{int(cluster_id)}" if cluster_id is not None else f"/{quote(scheduler_id, safe='')}"
    return _get(f"{path}/computations/list", {"offset": offset, "limit": limit}, workspace, server, token)


def list_exceptions(cluster_id: int | None = None, scheduler_id: str | None = None, since: float | None = None,
                    user: int | None = None, *, offset: int = 0, limit: int = 100, workspace=None, server=None,
                    token=None) -> list:
    """Exceptions tasks raised on the workspace's clusters, newest first; ``since`` is epoch seconds."""
    query = {"cluster": cluster_id, "scheduler": scheduler_id, "since": since, "user": user,
             "offset": offset, "limit": limit}
    return _get("/exceptions/list", query, workspace, server, token)


def summary(cluster_id: int, *, task_prefix_limit: int = 50, workspace=None, server=None, token=None) -> dict:
    """Totals of a cluster's work and its task prefixes, those that computed longest first."""
    return _get(f"/cluster/{int(cluster_id)}/summary", {"task_prefix_limit": task_prefix_limit},
                workspace, server, token)
