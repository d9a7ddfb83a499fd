"""``cumulus.batch``: Coiled's batch API (``run``, ``status``, ``wait``, ``list``, ``logs``) on this server.

The same jobs as ``cumulus batch`` on the command line: ``run`` sends a command (or a script, its
local files along) over an array of tasks on a cluster made for it and answers at once; ``wait``
follows it to the end. Arguments that have no meaning here are refused by name (``ArgumentError``),
never ignored. The calls behind both live in ``cumulus.batch_jobs``.
"""

from __future__ import annotations

import builtins
import logging
import os

from cumulus import batch_jobs, config, hardware
from cumulus.account import choose_workspace, fetch_identity
from cumulus.batch_jobs import (  # noqa: F401 - what `cumulus batch` (the CLI) calls
    FINISHED, INTERPRETERS, build_spec, cancel, command_and_files, forwarded_aws_env, get, header_arguments,
    job_ids_of_cluster, jobs_of, latest, parse_array, parse_duration, progress, submit, task_logs,
)
from cumulus.http import Api, ArgumentError, CumulusError

CALL = "cumulus.batch.run"
# Coiled's arguments this server has no meaning for, and why (refused when given a value that asks for it).
REFUSED = {
    "cluster_kwargs": "give the cluster's hardware as run()'s own arguments (vm_type, cpu, memory, ...)",
    "allow_cross_zone": "clusters here are placed by the workspace's backend",
    "allow_ssh_from": "batch clusters open no SSH port",
    "wait_for_ready_cluster": "tasks start as soon as their instance is up",
    "package_sync_strict": "batch jobs run a named software environment (software=), not a package sync",
    "package_sync_conda_extras": "batch jobs run a named software environment (software=), not a package sync",
    "package_sync_ignore": "batch jobs run a named software environment (software=), not a package sync",
}


def _session(workspace: str | None) -> tuple[Api, str]:
    settings = config.load(workspace=workspace)
    api = Api.for_settings(settings)
    return api, choose_workspace(fetch_identity(api), settings.workspace)


def _pairs(name: str, value) -> dict:
    """Coiled's ``env``/``secret_env``/``tag``: a dict, or a list of ``"NAME=VALUE"`` strings."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    out = {}
    for item in value if isinstance(value, (builtins.list, tuple)) else [value]:
        key, sep, text = str(item).partition("=")
        if not sep or not key:
            raise ArgumentError(f"{CALL}({name}=[{item!r}, ...]): write each as NAME=VALUE.")
        out[key] = text
    return out


def _read(name: str, path: str) -> str:
    if not os.path.isfile(path):
        raise ArgumentError(f"{CALL}({name}={path!r}): there is no such file here.")
    with open(path, encoding="utf-8") as f:
        return f.read()


def _values(map_over_values, map_over_file, map_over_delimiter) -> builtins.list | None:
    if map_over_values is not None and map_over_file is not None:
        raise ArgumentError(f"{CALL}(): give map_over_values or map_over_file, not both.")
    if map_over_file is not None:
        text = _read("map_over_file", map_over_file)
        parts = text.split(map_over_delimiter) if map_over_delimiter else text.splitlines()
        return [p.strip("\n") for p in parts if p.strip()]
    if isinstance(map_over_values, str):
        return map_over_values.split(map_over_delimiter or ",")
    return None if map_over_values is None else [str(v) for v in map_over_values]


def _gib(disk_size) -> int:
    """Coiled's ``disk_size``: GiB, as a number or text (``100``, ``"100 GiB"``, ``"100GB"``)."""
    import re

    found = re.fullmatch(r"\s*(\d+)\s*(gib|gb|g)?\s*", str(disk_size), re.IGNORECASE)
    if not found or int(found.group(1)) < 1:
        raise ArgumentError(f"{CALL}(disk_size={disk_size!r}): give the disk of each instance in GiB (100, '100 GiB').")
    return int(found.group(1))


def _words(command) -> builtins.list:
    if isinstance(command, str):
        return [command]
    if not command:
        raise ArgumentError(f"{CALL}(command=...): give the script or command to run.")
    return [str(w) for w in command]


def run(
    command, *, name: str | None = None, workspace: str | None = None, software: str | None = None,
    container: str | None = None, ignore_container_entrypoint: bool | None = None, run_on_host: bool | None = None, cluster_kwargs: dict | None = None,
    env=None, secret_env=None, tag=None, vm_type=None, scheduler_vm_type=None, arm: bool | None = False,
    cpu=None, memory=None, gpu: bool | None = False, region: str | None = None, spot_policy: str | None = None,
    allow_cross_zone: bool | None = None, disk_size=None, allow_ssh_from: str | None = None,
    ntasks: int | None = None, task_on_scheduler: bool | None = None, array: str | None = None,
    scheduler_task_array: str | None = None, map_over_values=None, map_over_file: str | None = None,
    map_over_input_var: str | None = None, map_over_task_var_dicts=None, map_over_delimiter: str | None = None,
    max_workers: int | None = None, wait_for_ready_cluster: bool | None = None,
    forward_aws_credentials: bool | None = None, package_sync_strict: bool = False,
    package_sync_conda_extras=None, package_sync_ignore=None, host_setup_script: str | None = None,
    job_timeout: str | None = None, pipe_to_files: bool | None = None, max_retries: int | None = None,
    logger: logging.Logger | None = None,
) -> dict:
    """Submits a batch job and answers at once: ``{"job_id", "cluster_id", "cluster_name", "n_tasks"}``.

    ``command`` is a command line (a string) or its words (a script first: it and the local files
    the command names are sent along). Tasks see ``CUMULUS_BATCH_TASK_ID`` (and the mapped value in
    ``map_over_input_var``, default ``CUMULUS_BATCH_TASK_INPUT``), and as Coiled's scripts read them,
    ``COILED_BATCH_TASK_ID`` (and ``COILED_BATCH_TASK_INPUT``). ``run_on_host`` is what tasks
    always do here. ``container``: the tasks (and the cluster's Dask) run in that image, its
    environment made once and checked first (``ignore_container_entrypoint``: without the image's
    entrypoint). ``forward_aws_credentials``: this machine's AWS credentials go to the tasks as secret
    variables (session credentials; long-term keys become STS ones). Follow the job by its cluster, as Coiled's do: ``wait(cluster_id)``, ``status(cluster_id)``.
    """
    given = {"cluster_kwargs": cluster_kwargs, "allow_cross_zone": allow_cross_zone,
             "allow_ssh_from": allow_ssh_from,
             "wait_for_ready_cluster": wait_for_ready_cluster,
             "package_sync_strict": package_sync_strict, "package_sync_conda_extras": package_sync_conda_extras,
             "package_sync_ignore": package_sync_ignore}
    for param, why in REFUSED.items():
        if given[param]:
            raise ArgumentError(f"{CALL}({param}={given[param]!r}): {param} is not supported: {why}.")
    if ntasks is not None and array is not None:
        raise ArgumentError(f"{CALL}(): give ntasks or array, not both.")
    if container and software:
        raise ArgumentError(f"{CALL}(container={container!r}, software={software!r}): give one of them.")
    if ignore_container_entrypoint and not container:
        raise ArgumentError(f"{CALL}(ignore_container_entrypoint=True): it goes with container=.")
    if ntasks is not None and (not isinstance(ntasks, int) or ntasks < 1):
        raise ArgumentError(f"{CALL}(ntasks={ntasks!r}): give 1 or more tasks.")
    words = _words(command)
    values = _values(map_over_values, map_over_file, map_over_delimiter)
    if map_over_task_var_dicts is not None and values is not None:
        raise ArgumentError(f"{CALL}(): give map_over_task_var_dicts or map_over_values/map_over_file, not both.")
    sized = hardware.check(CALL, {"worker_vm_types": vm_type, "scheduler_vm_types": scheduler_vm_type,
                                  "worker_cpu": cpu, "worker_memory": memory, "worker_gpu": gpu, "arm": arm,
                                  "spot_policy": spot_policy, "region": region})
    api, ws = _session(workspace)
    n_dicts = len(map_over_task_var_dicts) if map_over_task_var_dicts is not None else None
    spec = build_spec(
        ws, words, ntasks=ntasks or n_dicts, array=array, values=values, env=_pairs("env", env),
        secret_env={**(forwarded_aws_env(f"{CALL}(forward_aws_credentials=True)") if forward_aws_credentials else {}),
                    **_pairs("secret_env", secret_env)},
        timeout_seconds=parse_duration(job_timeout) if job_timeout else None, pipe_to_files=bool(pipe_to_files),
        host_setup=_read("host_setup_script", host_setup_script) if host_setup_script else None,
        max_retries=max_retries,
    )
    if map_over_input_var and values is not None:
        spec["task_map_env_var"] = map_over_input_var
    if map_over_task_var_dicts is not None:
        spec["task_map_env_vars_and_vals"] = [{str(k): str(v) for k, v in d.items()} for d in map_over_task_var_dicts]
    ids = spec.get("task_array") or builtins.list(range(spec.get("task_array_ntasks") or 1))
    if task_on_scheduler:
        spec["scheduler_task_array"] = ids
    elif scheduler_task_array:
        spec["scheduler_task_array"] = parse_array(scheduler_task_array)[0]
    fields = hardware.fields_for(api, ws, sized, call=CALL)
    if disk_size is not None:
        fields["worker_disk_size"] = fields["scheduler_disk_size"] = _gib(disk_size)
    say = (logger or _default_logger()).info
    image = f"{container.rstrip('!')}!" if container and ignore_container_entrypoint else container
    job = submit(api, ws, spec, max_workers=max_workers, software=software, report=say, hardware=fields,
                 name=name, tags=_pairs("tag", tag), container=image)
    say(f"Submitted batch job {job['id']}: {job['n_tasks']} task(s) on cluster {job['cluster_name']}.")
    return {"job_id": job["id"], "cluster_id": job["cluster_id"], "cluster_name": job["cluster_name"],
            "n_tasks": job["n_tasks"]}


def _default_logger() -> logging.Logger:
    return logging.getLogger("cumulus")


def _job_ids(api: Api, ws: str, cluster, job_id, call: str = "cumulus.batch.status") -> builtins.list:
    """The jobs ``status`` and ``wait`` act on: the one asked for, the cluster's (by id or name), else
    the latest."""
    if job_id is not None and cluster not in (None, ""):
        raise ArgumentError(f"{call}(cluster={cluster!r}, job_id={job_id!r}): name the job once, by its cluster "
                            "or by job_id.")
    if job_id is not None:
        return [int(job_id)]
    if cluster is not None and cluster != "":
        return batch_jobs.job_ids_of_cluster(api, ws, cluster, call)
    newest = latest(api, ws)
    return [newest["id"]] if newest else []


def status(cluster: str | int | None = None, workspace: str | None = None, job_id: int | None = None) -> builtins.list:
    """The jobs of a batch cluster (by id or name), or job ``job_id``, or else your latest job: each
    with its state (``job_state``), counts and ``tasks`` (``array_task_id``, ``state``, ``exit_code``,
    ``start``, ``stop``...), as ``cumulus batch status`` shows them."""
    api, ws = _session(workspace)
    return [get(api, j) for j in _job_ids(api, ws, cluster, job_id)]


def wait(cluster: str | int | None = None, workspace: str | None = None, *args, job_id: int | None = None,
         report=None, **kwargs) -> dict:
    """Waits until the batch job of a cluster (by id or name, as Coiled's ``batch wait CLUSTER`` takes
    it), or job ``job_id``, or else your latest job, has finished; answers that job (``job_state``:
    done, failed or cancelled). A cluster that ran several jobs: each is waited for, the newest
    answered. Progress lines go to ``report`` (default: the ``cumulus`` logger).

    The CLI's form ``wait(api, job_id, ...)`` is still taken (``cumulus batch wait``).
    """
    if isinstance(cluster, Api):
        return batch_jobs.follow(cluster, workspace, *args, report=report or print, **kwargs)
    api, ws = _session(workspace)
    ids = _job_ids(api, ws, cluster, job_id, "cumulus.batch.wait")
    if not ids:
        raise CumulusError(f"cumulus.batch.wait: cluster {cluster} ran no batch job." if cluster not in (None, "")
                           else f"cumulus.batch.wait: there are no batch jobs in workspace {ws}.")
    say = report or _default_logger().info
    return [batch_jobs.follow(api, j, report=say) for j in ids][-1]


def wait_for_job_done(job_id: int, workspace: str | None = None) -> str:
    """Coiled's name for waiting on one job by its id: waits and answers its final state."""
    return wait(workspace=workspace, job_id=job_id)["job_state"]


def list(workspace: str | None = None, limit: int = 10) -> builtins.list:  # noqa: A001 - Coiled's name
    """The workspace's latest jobs, newest first: ``id``, ``state``, ``n_tasks``, ``n_tasks_succeeded``,
    ``n_tasks_failed``, ``created``, ``user_command``, ``cluster_id``... (``cumulus batch list``)."""
    api, ws = _session(workspace)
    return jobs_of(api, ws, limit)


def list_jobs(workspace=None, limit=10, *rest) -> builtins.list:
    """Coiled's name for ``list``; the CLI's form ``list_jobs(api, workspace, limit)`` is still taken."""
    if isinstance(workspace, Api):
        return jobs_of(workspace, limit, *rest)
    return list(workspace, limit)


def logs(job_id: int | None = None, workspace: str | None = None, task: int | None = None) -> str:
    """The output of the job's tasks (of task ``task`` only if given; default: your latest job) as
    text, each line marked ``[task N]`` unless one task was asked for (``cumulus batch logs``)."""
    api, ws = _session(workspace)
    if job_id is None:
        newest = latest(api, ws)
        if not newest:
            return ""
        job_id = newest["id"]
    job = get(api, int(job_id))
    lines = [event["message"].rstrip("\n") if task is not None else f"[task {t}] {event['message'].rstrip()}"
             for t, event in task_logs(api, ws, job, task)]
    return "\n".join(lines)


__all__ = ["run", "status", "wait", "wait_for_job_done", "list", "list_jobs", "logs"]
