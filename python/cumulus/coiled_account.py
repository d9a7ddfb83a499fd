"""Coiled's account-side top-level functions on this server: who you are, billing activity, the
versions here, a diagnostic check, performance reports and backend options.

``list_user_information`` and ``get_billing_activity`` read the server; ``list_local_versions``
and ``diagnostics`` this machine and the server; ``performance_report`` writes Dask's report to a
local file (this server keeps none, so ``list_performance_reports`` is refused by name), and
``set_backend_options`` is refused by name: a workspace's cloud is set up in the console or with
``cumulus setup``.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import platform
import shutil
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import TypedDict
from urllib.parse import quote

from cumulus import config
from cumulus.account import choose_workspace, fetch_identity
from cumulus.http import IDEMPOTENT, Api, CumulusError


class NotSupported(CumulusError, NotImplementedError):
    """A Coiled function that has no meaning on a Cumulus server, named with why."""


def _session(account: str | None = None, workspace: str | None = None) -> tuple[Api, str]:
    settings = config.load(workspace=workspace or account)
    api = Api.for_settings(settings)
    return api, choose_workspace(fetch_identity(api), settings.workspace)


def list_user_information() -> dict:
    """The signed-in user as the server knows them: ``id``, ``username``, ``email``, ``full_name``,
    ``default_account`` (the default workspace), ``memberships``..."""
    api = Api.for_settings(config.load())
    return api.request("GET", "/api/v1/users/me/", retry=IDEMPOTENT)


def _iso(name: str, value) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return value.isoformat()
    if isinstance(value, datetime.date):
        return datetime.datetime.combine(value, datetime.time(), datetime.timezone.utc).isoformat()
    try:
        return _iso(name, datetime.datetime.fromisoformat(str(value)))
    except ValueError:
        raise CumulusError(f"get_billing_activity({name}={value!r}): give a datetime or an ISO timestamp.") from None


def get_billing_activity(account: str | None = None, cluster: str | None = None, cluster_id: int | None = None,
                         start_time=None, end_time=None, kind: str | None = None, page: int | None = None) -> dict:
    """The workspace's billing events, newest first, one page (``count``, ``next``, ``previous``,
    ``results``: ``kind``, ``detail``, ``cluster``, ``cluster_id``, ``user``, ``created``...),
    filtered by cluster name or id, time (``start_time``/``end_time``: datetimes or ISO text) and kind."""
    api, ws = _session(account)
    query = {"cluster": cluster, "cluster_id": cluster_id, "event_after": _iso("start_time", start_time),
             "event_before": _iso("end_time", end_time), "kind": kind, "page": page}
    return api.request("GET", f"/api/v1/{quote(ws, safe='')}/billing-events/",
                       query={k: v for k, v in query.items() if v is not None}, retry=IDEMPOTENT)


def _version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def list_local_versions() -> dict:
    """This machine's versions: ``operating_system``, ``python`` (version and path), ``pip``,
    ``conda``, ``cumulus``, ``dask`` and ``distributed``."""
    from cumulus import __version__

    conda = shutil.which("conda")
    return {
        "operating_system": platform.platform(),
        "python": {"version": platform.python_version(), "path": sys.executable},
        "pip": {"version": _version("pip")},
        "conda": {"path": conda, "prefix": os.environ.get("CONDA_PREFIX")},
        "cumulus": __version__,
        "dask": _version("dask"),
        "distributed": _version("distributed"),
    }


def diagnostics(account: str | None = None) -> dict:
    """A check to send with a support request: whether the server answers (``health_check``) and who
    you are there (``user``, ``workspace``), this machine's versions (``local_versions``) and where
    the server's address and the token came from (``configuration``); ``error`` says what failed."""
    settings = config.load(workspace=account)
    api = Api.for_settings(settings)
    found: dict = {
        "server": settings.server,
        "local_versions": list_local_versions(),
        # Where each setting came from (a variable, a file, the default); never the token itself.
        "configuration": {"server_from": settings.server_source,
                          "token_from": settings.token_source if settings.token else None},
    }
    if not settings.token:
        found["error"] = "no token: run `cumulus login`"
        return found
    try:
        found["health_check"] = api.request("GET", "/api/v1/health", retry=IDEMPOTENT)
        identity = fetch_identity(api)
        found["user"] = identity.username
        found["workspace"] = choose_workspace(identity, settings.workspace)
    except CumulusError as err:
        found["error"] = str(err)
    return found


class PerformanceReport:
    """What ``performance_report`` yields: ``url`` names the report's file once the block has ended."""

    def __init__(self, filename: str):
        self.filename = os.path.abspath(filename)
        self.url: str | None = None


@contextlib.contextmanager
def performance_report(filename: str = "dask-report.html", private: bool = False, account: str | None = None,
                       workspace: str | None = None):
    """Dask's performance report of the computations in the block, written to ``filename``. Coiled
    uploads it too; this server keeps no reports, so it stays on this machine (``url`` is its
    ``file://`` address) and ``private`` has nothing to hide."""
    import importlib.util

    from distributed import performance_report as dask_report

    if importlib.util.find_spec("bokeh") is None:
        raise CumulusError("performance_report: Dask draws the report with bokeh, which is not installed here "
                           "(pip install bokeh).")
    report = PerformanceReport(filename)
    with dask_report(filename=report.filename):
        yield report
    report.url = f"file://{report.filename}"


def list_performance_reports(account: str | None = None) -> list:
    raise NotSupported(
        "list_performance_reports: Cumulus keeps no performance reports; performance_report() writes "
        "each to a local file (its url)."
    )


def set_backend_options(*_args, **_kwargs) -> None:
    raise NotSupported(
        "set_backend_options: a workspace's cloud is set up in the console (Setup) or with `cumulus setup`; "
        "clusters read it from there."
    )




# Coiled's typed dictionaries of backend options (``from coiled import BackendOptions``), for code
# that builds them: Cluster(backend_options=...) itself is refused here (see cumulus.cluster_arguments).
class BackendOptions(TypedDict, total=False):
    region_name: str | None
    zone_name: str | None
    firewall: dict | None
    ingress: list | None
    spot: bool | None
    spot_on_demand_fallback: bool | None
    multizone: bool | None
    use_dashboard_public_ip: bool | None
    use_dashboard_https: bool | None
    send_prometheus_metrics: bool | None
    prometheus_write: dict | None


class AWSOptions(BackendOptions, total=False):
    keypair_name: str | None
    use_placement_group: bool | None


class GCPOptions(BackendOptions, total=False):
    scheduler_accelerator_count: int | None
    scheduler_accelerator_type: str | None
    worker_accelerator_count: int | None
    worker_accelerator_type: str | None


__all__ = [
    "AWSOptions", "BackendOptions", "GCPOptions", "diagnostics", "get_billing_activity", "list_local_versions", "list_performance_reports",
    "list_user_information", "performance_report", "set_backend_options",
]
