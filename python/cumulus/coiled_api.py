"""Coiled's top-level functions, with Coiled's names, parameters and return shapes, on this server.

``import cumulus as coiled`` keeps a Coiled user's calls working: clusters (``list_clusters``,
``delete_cluster``, ``cluster_logs``), software environments (``create_software_environment``,
``list_software_environments``, ``get_software_info``, ``delete_software_environment``) and the
machine catalogue (``list_instance_types``, ``list_gpu_types``, ``list_core_usage``). ``account``
and ``workspace`` mean the same (Coiled renamed one to the other); either picks the workspace.
A parameter this server cannot honour is refused with an error naming it, never ignored.
"""

from __future__ import annotations

import sys
from urllib.parse import quote

from dask.utils import parse_bytes

from cumulus import cluster_api, config, logs, software
from cumulus.account import choose_workspace, fetch_identity
from cumulus.http import IDEMPOTENT, Api, ArgumentError, NotFound
from cumulus.hardware import LOCAL_BACKEND, backend_of

# Coiled's names of the GPUs the catalogue has (``gpu_name`` of ``vm-types/``).
GPU_TYPES = {"nvidia-tesla-t4": "NVIDIA Tesla T4", "nvidia-a10g": "NVIDIA A10G", "nvidia-l4": "NVIDIA L4",
             "nvidia-tesla-a100": "NVIDIA A100 40GB"}
CLOUD_BACKENDS = ("vm_aws", "vm_gcp", "vm_azure")


def _session(account: str | None = None, workspace: str | None = None) -> tuple[Api, str]:
    settings = config.load(workspace=workspace or account)
    api = Api.for_settings(settings)
    return api, choose_workspace(fetch_identity(api), settings.workspace)


def _refuse(call: str, **given) -> None:
    """Raises naming the first of ``given`` that is set: parameters this server has no meaning for."""
    for name, value in given.items():
        if value:
            raise ArgumentError(f"{call}({name}={value!r}): {name} is not supported by Cumulus.")


# --- clusters ----------------------------------------------------------------------------------


def list_clusters(account: str | None = None, workspace: str | None = None, max_pages: int = 10,
                  just_mine: bool = False) -> dict:
    """Clusters of the workspace: a dict keyed by cluster name (the newest cluster of each name)."""
    api, ws = _session(account, workspace)
    found: dict = {}
    for page in range(max_pages):
        rows = api.request("GET", f"/api/v2/clusters/account/{ws}/", retry=IDEMPOTENT,
                           query={"limit": cluster_api.PAGE, "offset": cluster_api.PAGE * page,
                                  "just_mine": int(just_mine)})
        for row in rows or []:
            if row["name"] not in found or int(row["id"]) > int(found[row["name"]]["id"]):
                found[row["name"]] = row
        if not rows or len(rows) < cluster_api.PAGE:
            break
    return found


def _cluster_id(api: Api, ws: str, name: str | None, cluster_id: int | None, call: str) -> int:
    if cluster_id is not None:
        return int(cluster_id)
    if not name:
        raise ArgumentError(f"{call}: give the cluster's name or cluster_id.")
    found = cluster_api.find_id(api, ws, name, include_paused=True) or cluster_api.newest_named(api, ws, name)
    if found is None:
        raise NotFound(f"{call}: there is no cluster named {name!r} in workspace {ws}.")
    return found


def delete_cluster(name: str | None = None, cluster_id: int | None = None, account: str | None = None,
                   workspace: str | None = None, reason: str | None = None) -> None:
    """Stops the cluster of that name (or id)."""
    api, ws = _session(account, workspace)
    cluster_api.delete(api, ws, _cluster_id(api, ws, name, cluster_id, "delete_cluster"), reason=reason)


def cluster_logs(cluster_id: int, account: str | None = None, workspace: str | None = None, scheduler: bool = True,
                 workers: bool = True, errors_only: bool = False) -> dict:
    """The cluster's logs as ``{instance name: text}``: the scheduler's and each worker's."""
    api, ws = _session(account, workspace)
    details = cluster_api.details(api, ws, int(cluster_id))
    names = logs.instance_names(details)
    scheduler_id = ((details.get("scheduler") or {}).get("instance") or {}).get("id")
    wanted = [i for i in names if (i == scheduler_id and scheduler) or (i != scheduler_id and workers)]
    found: dict = {names[i]: [] for i in wanted}
    if not wanted:
        return {}
    pattern = "error" if errors_only else None
    for event in cluster_api.better_logs(api, ws, int(cluster_id), instance_ids=wanted, filter_pattern=pattern):
        if event.get("instance_id") in wanted:
            found[names[event["instance_id"]]].append(event.get("message", "").rstrip("\n"))
    return {name: "\n".join(lines) for name, lines in found.items()}


# --- software environments ---------------------------------------------------------------------


def _pip_lines(pip) -> list | None:
    if pip is None:
        return None
    if isinstance(pip, str):  # a requirements file
        with open(pip) as f:
            return [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]
    return [str(p) for p in pip]


def _conda_spec(conda) -> dict | None:
    if conda is None:
        return None
    if isinstance(conda, str):  # an environment.yml
        return software._read_conda(conda)
    if isinstance(conda, (list, tuple)):
        return {"channels": [], "dependencies": list(conda)}
    return {"channels": list(conda.get("channels") or []), "dependencies": list(conda.get("dependencies") or [])}


def create_software_environment(name: str | None = None, account: str | None = None, workspace: str | None = None,
                                conda=None, pip=None, container: str | None = None, log_output=sys.stdout,
                                post_build=None, conda_env_name: str | None = None, backend_options=None,
                                private: bool = False, force_rebuild: bool = False, environ=None,
                                use_entrypoint: bool = True, gpu_enabled: bool = False, arm: bool = False,
                                architecture: str = "x86_64", region_name: str | None = None,
                                include_local_code: bool = False, ignore_local_packages=None) -> dict:
    """Creates (or reuses) the named environment from pip/conda packages or an image and waits for
    its build, writing the build's log to ``log_output`` (None: quiet). Answers the environment."""
    call = "create_software_environment"
    _refuse(call, post_build=post_build, conda_env_name=conda_env_name, backend_options=backend_options,
            private=private, environ=environ, include_local_code=include_local_code,
            ignore_local_packages=ignore_local_packages)
    if not name:
        raise ArgumentError(f"{call}: name is required.")
    if conda is None and pip is None and container is None:
        raise ArgumentError(f"{call}({name!r}): give conda, pip or container.")
    api, ws = _session(account, workspace)
    alias = software.create_raw(api, ws, name, raw_pip=_pip_lines(pip), raw_conda=_conda_spec(conda),
                                container=container, force=force_rebuild, gpu_enabled=bool(gpu_enabled),
                                architecture="aarch64" if arm or architecture in ("aarch64", "arm64") else "x86_64",
                                use_entrypoint=use_entrypoint, region_name=region_name)

    def say(line: str) -> None:
        if log_output is not None:
            log_output.write(line + "\n")

    return software.wait_for_build(api, ws, alias, say, show_log=log_output is not None)


def list_software_environments(account: str | None = None, workspace: str | None = None) -> dict:
    """The workspace's software environments, keyed by name."""
    api, ws = _session(account, workspace)
    return {alias["name"]: alias for alias in software.list_aliases(api, ws)}


def get_software_info(name: str, account: str | None = None, workspace: str | None = None) -> dict:
    """The environment of that name with its latest spec (the packages it was built from)."""
    api, ws = _session(account, workspace)
    return software.get_alias(api, ws, name)


def delete_software_environment(name: str, account: str | None = None, workspace: str | None = None) -> None:
    api, ws = _session(account, workspace)
    software.delete_alias(api, ws, name)


# --- machines ----------------------------------------------------------------------------------


def _bounds(call: str, name: str, value, one) -> tuple:
    if value is None:
        return None, None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return tuple(None if v is None else one(v) for v in value)
    if isinstance(value, (list, tuple)):
        raise ArgumentError(f"{call}({name}={value!r}): {name} must be a value or a [min, max] range.")
    return one(value), one(value)


def _mib(v) -> int:
    """Coiled's memory: a size such as "16GiB", or a number of GiB; the catalogue counts MiB."""
    return int(parse_bytes(v) // 2**20) if isinstance(v, str) else int(v * 1024)


def list_instance_types(backend: str | None = None, min_cores: int | None = None, min_gpus: int | None = None,
                        min_memory=None, cores=None, memory=None, gpus=None, arch: str | None = None) -> dict:
    """Instance types of the catalogue that fit, keyed by name: ``{name, cores, gpus, gpu_name,
    memory (MiB), backend_type}``. ``backend`` (``aws``, ``gcp``, ``azure`` or ``vm_...``) defaults to
    the workspace's cloud; on the local backend every cloud's types are listed."""
    call = "list_instance_types"
    if backend is None:
        api, ws = _session()
        backend = backend_of(api, ws)
    else:
        api = Api.for_settings(config.load())
    backend_type = backend if backend.startswith("vm_") else f"vm_{backend}"
    if backend_type not in CLOUD_BACKENDS and backend != LOCAL_BACKEND:
        raise ArgumentError(f"{call}(backend={backend!r}): backend must be aws, gcp or azure.")
    low_cores, high_cores = _bounds(call, "cores", cores, int)
    low_mem, high_mem = _bounds(call, "memory", memory, _mib)
    low_gpus, high_gpus = _bounds(call, "gpus", gpus, int)
    query = {
        "backend_type": backend_type if backend_type in CLOUD_BACKENDS else None,
        "arch": {"arm": "arm64", "aarch64": "arm64"}.get(arch or "", arch),
        "cores__gte": max(filter(None, (low_cores, min_cores)), default=None), "cores__lte": high_cores,
        "memory__gte": max(filter(None, (low_mem, min_memory and _mib(min_memory))), default=None),
        "memory__lte": high_mem,
        "gpus__gte": max(filter(None, (low_gpus, min_gpus)), default=None), "gpus__lte": high_gpus,
    }
    query = {k: v for k, v in query.items() if v is not None}
    found: dict = {}
    page = 1
    while page:
        answer = api.request("GET", "/api/v1/vm-types/", query={**query, "page": page}, retry=IDEMPOTENT)
        for t in answer.get("results") or []:
            found[t["name"]] = {"name": t["name"], "cores": t["cores"], "gpus": t["gpus"], "gpu_name": t["gpu_name"],
                                "memory": t["memory"], "backend_type": t["backend_type"]}
        page = page + 1 if answer.get("next") else 0
    return found


def list_gpu_types() -> dict:
    """The GPUs clusters can have: ``{Coiled's name: the GPU's full name}``."""
    return dict(GPU_TYPES)


def list_core_usage(account: str | None = None) -> dict:
    """Cores in use now: yours, your limit, the workspace's and the organization's nodes."""
    api, ws = _session(account)
    return api.request("GET", f"/api/v1/{quote(ws, safe='')}/usage/cores/", retry=IDEMPOTENT)


__all__ = [
    "cluster_logs", "create_software_environment", "delete_cluster", "delete_software_environment",
    "get_software_info", "list_clusters", "list_core_usage", "list_gpu_types", "list_instance_types",
    "list_software_environments",
]
