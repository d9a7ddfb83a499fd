"""Batch jobs from the client: a script or command over an array of tasks on a cluster made for it.

The calls behind ``cumulus batch`` and ``cumulus.batch`` (the Python API, with Coiled's names).

``submit`` sends the job as established clients do (client-contract section 5): the spec as
gzip-compressed JSON to ``jobs/compressed``, then a cluster with ``batch_job_ids`` sized one worker
per task (up to ``max_workers``). The control plane hands the tasks to the cluster's instances and
stops the cluster once every task has finished.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shlex
import time
import uuid
from typing import Callable

from cumulus import cluster_api, filestores
from cumulus.http import IDEMPOTENT, SLOW, Api, CumulusError, ServerUnreachable
from cumulus.sizes import format_mib

MAX_COMPRESSED_BYTES = int(2.4 * 1024 * 1024)
# Local files the command names are sent along when at most this big; larger ones belong in a filestore.
MAX_ATTACHED_FILE_BYTES = 1024 * 1024
WORKDIR = "/scratch/batch"
POLL_SECONDS = 1.0
# A wait outlives a server that is slow or restarting this long (its jobs run on meanwhile): it
# says so at once, and gives up only when the server has been out of reach this long in a row.
UNREACHABLE_PATIENCE_SECONDS = 120.0
FINISHED = {"done", "failed", "cancelled"}
INTERPRETERS = {".py": "python", ".sh": "bash"}


def parse_array(spec: str) -> tuple[list[int], int | None]:
    """Slurm's ``--array``: ``0-12:3,20`` (ranges with steps, single ids) and ``%N`` to cap tasks at once."""
    text = spec.strip()
    limit = None
    if "%" in text:
        text, _, cap = text.partition("%")
        if not cap.isdigit() or int(cap) < 1:
            raise CumulusError(f"--array {spec!r}: after % comes how many tasks may run at once (a number ≥ 1).")
        limit = int(cap)
    ids: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(r"(\d+)(?:-(\d+)(?::(\d+))?)?", part)
        if not m:
            raise CumulusError(f"--array {spec!r}: {part!r} is not an id, a range A-B or a range with a step A-B:S.")
        start = int(m.group(1))
        end = int(m.group(2)) if m.group(2) is not None else start
        step = int(m.group(3) or 1)
        if end < start or step < 1:
            raise CumulusError(f"--array {spec!r}: in {part!r} the range must go up with a step of at least 1.")
        ids.extend(range(start, end + 1, step))
    if not ids:
        raise CumulusError(f"--array {spec!r} names no task.")
    if len(set(ids)) != len(ids):
        raise CumulusError(f"--array {spec!r} names a task more than once.")
    return ids, limit


def parse_duration(text: str) -> int:
    """``90``, ``90s``, ``30m``, ``1h``, ``1h30m``, ``2d`` → seconds."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    t = text.strip().lower()
    if t.isdigit():
        return int(t)
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([smhd])", t)
    if not parts or "".join(n + u for n, u in parts) != t.replace(" ", ""):
        raise CumulusError(f"{text!r} is not a duration: use seconds or e.g. 90s, 30m, 1h, 1h30m.")
    return int(sum(float(n) * units[u] for n, u in parts))


def header_arguments(script_path: str) -> list[str]:
    """Options written in a script as ``# CUMULUS key value`` lines (or Coiled's ``# COILED key value``),
    as command-line arguments: the rest of the line is the option's one value (``# COILED memory 8 GiB``)."""
    args: list[str] = []
    try:
        with open(script_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^\s*#\s*(?:CUMULUS|COILED)\s+(\S+)(?:\s+(.*?))?\s*$", line)
                if m:
                    key = m.group(1).lstrip("-")
                    args.append(f"--{key}")
                    if m.group(2):
                        args.append(" ".join(shlex.split(m.group(2))))
    except OSError:
        pass
    return args


def command_and_files(words: list[str]) -> tuple[str, list[dict]]:
    """The command as the task runs it, and the small local files it names (sent with the job).

    A script given first runs with its interpreter (``python`` for .py, ``bash`` for .sh) unless it
    is executable; it and every other existing local file the command names go along.
    """
    if not words:
        raise CumulusError("Give the script or command to run.")
    files, seen = [], set()
    for word in words:
        if os.path.isfile(word) and word not in seen:
            size = os.path.getsize(word)
            if size > MAX_ATTACHED_FILE_BYTES:
                raise CumulusError(f"{word} is {format_mib(size)}: send files over 1 MiB with --upload DIR.")
            if os.path.isabs(word) or ".." in word.split(os.sep):
                continue
            with open(word, encoding="utf-8", errors="replace") as f:
                files.append({"path": word, "content": f.read()})
            seen.add(word)
    first = words[0]
    command = shlex.join(words)
    if os.path.isfile(first) and not os.path.isabs(first):
        ext = os.path.splitext(first)[1]
        if ext in INTERPRETERS:
            command = shlex.join([INTERPRETERS[ext], *words])
        elif os.access(first, os.X_OK) and not first.startswith(("./", "/")):
            command = shlex.join([f"./{first}", *words[1:]])
    elif len(words) == 1:
        command = words[0]  # one string: a shell command line as typed
    return command, files


def build_spec(
    ws: str,
    words: list[str],
    ntasks: int | None = None,
    array: str | None = None,
    values: list[str] | None = None,
    env: dict | None = None,
    secret_env: dict | None = None,
    timeout_seconds: int | None = None,
    pipe_to_files: bool = False,
    host_setup: str | None = None,
    max_retries: int | None = None,
) -> dict:
    command, files = command_and_files(words)
    spec: dict = {
        "workspace": ws,
        "user_command": command,
        "user_files": files,
        "scheduler_task_array": [],
        "env_vars": env or {},
        "secret_env_vars": secret_env or {},
        "wait_for_ready_cluster": False,
        "workdir": WORKDIR,
        "pipe_to_files": pipe_to_files,
        "host_setup": host_setup,
        "job_timeout_seconds": timeout_seconds,
        "run_in_container": False,
    }
    if array:
        ids, limit = parse_array(array)
        spec["task_array"] = ids
        if limit:
            spec["max_concurrent_tasks"] = limit
    n = len(spec.get("task_array") or []) or ntasks or (len(values) if values else 1)
    if not array:
        spec["task_array_ntasks"] = n
    if values is not None:
        if len(values) != n:
            raise CumulusError(f"{len(values)} value(s) to map over {n} task(s): give one value per task.")
        spec["task_map_env_var"] = "CUMULUS_BATCH_TASK_INPUT"
        spec["task_map_env_vals"] = values
    if max_retries is not None:
        spec["max_retries"] = max_retries
    return spec


# Where tasks write what `--download` brings back: under their work directory.
OUTPUT_DIR = "output"


def submit(
    api: Api,
    ws: str,
    spec: dict,
    max_workers: int | None = None,
    software: str | None = None,
    upload: str | None = None,
    download: bool = False,
    report: Callable[[str], None] = print,
    hardware: dict | None = None,
    name: str | None = None,
    tags: dict | None = None,
    container: str | None = None,
) -> dict:
    """Sends the job and starts its cluster; answers ``{id, cluster_id, cluster_name, n_tasks, output_store}``.

    ``upload``: a directory copied into every task's work directory (through an input filestore);
    ``download``: what tasks write under ``output/`` is kept in an output filestore; ``hardware``:
    the create call's fields of ``hardware.fields_for`` (instance types, worker options, options);
    ``name`` and ``tags``: the cluster's (default: a new name); ``container``: an image the tasks
    run in (``IMAGE!``: without its entrypoint), whose environment is made (once) and built before
    anything else is sent, the job marked ``run_in_container``.
    """
    if container:
        from cumulus import software as software_api

        if software:
            raise CumulusError(f"Give a container ({container}) or a software environment ({software}), not both.")
        image, use_entrypoint = software_api.split_container(container)
        report(f"Using the container image {image}...")
        software = software_api.container_env(api, ws, image, use_entrypoint, report)
        spec = {**spec, "run_in_container": True}
    body = gzip.compress(json.dumps(spec).encode())
    if len(body) > MAX_COMPRESSED_BYTES:
        raise CumulusError(
            f"The job is {format_mib(len(body))} compressed; at most 2.4 MiB can be sent. "
            "Put large files in a filestore (--upload DIR)."
        )
    job_id = api.request("POST", "/api/v2/jobs/compressed", raw=body, retry=SLOW)["id"]
    try:
        n = len(spec.get("task_array") or []) or spec.get("task_array_ntasks") or 1
        on_scheduler = set(spec.get("scheduler_task_array") or [])
        workers = min(n - len(on_scheduler), max_workers if max_workers is not None else 1000, 1000)
        name = name or f"{ws}-{uuid.uuid4().hex[:8]}"
        attachments, output_store = [], None
        if upload:
            store = filestores.get_or_create(api, ws, f"{name}-input")
            sent = filestores.upload_dir(api, store, upload)
            report(f"Uploaded {sent} file(s) from {upload} to filestore {store['name']}.")
            attachments.append({"id": store["id"], "input": True, "output": False, "path": ".", "primary": True})
        if download:
            output_store = filestores.get_or_create(api, ws, f"{name}-output")
            attachments.append({"id": output_store["id"], "input": False, "output": True, "path": OUTPUT_DIR,
                                "primary": False})
        cluster_id, _ = cluster_api.create(api, ws, {
            "filestores_to_attach": attachments or None,
            "name": name,
            "workers": max(workers, 0),
            "batch_job_ids": [job_id],
            "tags": {**(tags or {}), "cumulus-cluster-type": "batch"},
            "scheduler_options": {**(hardware or {}).get("scheduler_options", {}),
                                  "idle_timeout": "520 weeks", "worker_ttl": "520 weeks"},
            "env_name": software,
            **{k: v for k, v in (hardware or {}).items() if k not in ("scheduler_options",) and v},
        })
    except BaseException:
        # The cluster was refused (or the upload failed): the job it was for ends with it, not left pending.
        try:
            cancel(api, job_id)
        except Exception:
            pass
        raise
    return {"id": job_id, "cluster_id": cluster_id, "cluster_name": name, "n_tasks": n, "output_store": output_store}


def forwarded_aws_env(what: str) -> dict:
    """This machine's AWS credentials as a job's secret variables (Coiled's ``--forward-aws-credentials``):
    short-lived session credentials (STS) made from long-term keys, session ones as they are. ``what``
    names the option in errors."""
    from cumulus import aws_credentials

    found = _local_credentials(what, aws_credentials.credentials_to_forward, aws_credentials.CredentialsError,
                               "there are no AWS credentials here (environment, ~/.aws/credentials or ~/.aws/config).")
    env = {"AWS_ACCESS_KEY_ID": found["AccessKeyId"], "AWS_SECRET_ACCESS_KEY": found["SecretAccessKey"],
           "AWS_SESSION_TOKEN": found["SessionToken"]}
    if found.get("DefaultRegion"):
        env["AWS_DEFAULT_REGION"] = found["DefaultRegion"]
    return env


def get(api: Api, job_id: int) -> dict:
    return api.request("GET", f"/api/v2/jobs/{int(job_id)}", retry=IDEMPOTENT)


def latest(api: Api, ws: str) -> dict | None:
    items = api.request("GET", "/api/v2/jobs/", query={"workspace": ws, "limit": 1}, retry=IDEMPOTENT)["items"]
    return items[0] if items else None


def job_ids_of_cluster(api: Api, ws: str, cluster, call: str) -> list:
    """The ids of the jobs a batch cluster ran, oldest first: the cluster by id, or by name as Coiled's
    ``batch status|wait|logs CLUSTER`` take it (a name of digits is an id)."""
    if isinstance(cluster, str) and not cluster.strip().isdigit():
        found = cluster_api.find_id(api, ws, cluster, include_paused=True) or cluster_api.newest_named(api, ws, cluster)
        if found is None:
            raise CumulusError(f"{call}: there is no cluster named {cluster!r} in workspace {ws}.")
        cluster = found
    jobs = api.request("GET", f"/api/v2/jobs/cluster/{int(cluster)}", retry=IDEMPOTENT)
    return sorted(j["id"] for j in jobs)


def jobs_of(api: Api, ws: str, limit: int = 50) -> list:
    return api.request("GET", "/api/v2/jobs/", query={"workspace": ws, "limit": limit}, retry=IDEMPOTENT)["items"]


def cancel(api: Api, job_id: int) -> dict:
    return api.request("DELETE", f"/api/v2/jobs/{int(job_id)}")


def job_state(job: dict, running: int) -> str:
    """The job's state as its tasks show it: a job with a task running (or over) is running."""
    state = job["job_state"]
    if state == "pending" and (running or job["n_tasks_succeeded"] or job["n_tasks_failed"]):
        return "running"
    return state


def progress(job: dict) -> str:
    running = sum(1 for t in job.get("tasks", []) if t["state"] in ("assigned", "running"))
    return (f"job {job['id']}: {job_state(job, running)} — {job['n_tasks_succeeded']} done, "
            f"{job['n_tasks_failed']} failed, {running} running of {job['n_tasks']}")


def follow(api: Api, job_id: int, report: Callable[[str], None] = print, poll: float = POLL_SECONDS,
         patience: float = UNREACHABLE_PATIENCE_SECONDS) -> dict:
    """Waits until the job has finished, reporting progress whenever it changes. A server out of
    reach is reported in one line and waited for (``patience`` seconds in a row at most)."""
    last = None
    lost_since = None
    while True:
        try:
            job = get(api, job_id)
        except ServerUnreachable as err:
            now = time.monotonic()
            if lost_since is None:
                lost_since = now
                report(f"{err} (job {job_id} runs on; still waiting for it)")
            elif now - lost_since >= patience:
                raise
            time.sleep(poll)
            continue
        if lost_since is not None:
            report(f"The Cumulus server answers again after {time.monotonic() - lost_since:.0f} s.")
            lost_since = None
        line = progress(job)
        if line != last:
            report(line)
            last = line
        if job["job_state"] in FINISHED:
            return job
        time.sleep(poll)


def task_logs(api: Api, ws: str, job: dict, array_task_id: int | None = None):
    """The output lines of the job's tasks (of one task if asked), as (array task id, event)."""
    if not job.get("cluster_id"):
        return
    tasks = {t["id"]: t["array_task_id"] for t in job["tasks"]}
    wanted = [t for t, a in tasks.items() if array_task_id is None or a == array_task_id]
    if array_task_id is not None and not wanted:
        raise CumulusError(f"Job {job['id']} has no task {array_task_id}.")
    if array_task_id is not None:
        for event in cluster_api.better_logs(api, ws, job["cluster_id"], task_id=wanted[0]):
            yield array_task_id, event
        return
    for event in cluster_api.better_logs(api, ws, job["cluster_id"]):
        if event.get("task_id") in tasks:
            yield tasks[event["task_id"]], event



def forwarded_google_env(what: str) -> dict:
    """This machine's Google access token as a command's secret variables (Coiled's ``--forward-gcp-adc``):
    ``CLOUDSDK_AUTH_ACCESS_TOKEN`` and its expiry, from application default credentials or gcloud.
    ``what`` names the option in errors."""
    from cumulus import gcp_credentials

    found = _local_credentials(what, gcp_credentials.token_to_forward, gcp_credentials.CredentialsError,
                               "this machine has no Google credentials to forward (sign in with `gcloud auth "
                               "login`, or set up application default credentials).")
    return {name: value for name, value in gcp_credentials.environ_of(found).items() if value is not None}


def _local_credentials(what: str, read: Callable[[], dict | None], error: type[Exception], missing: str) -> dict:
    """What ``read`` finds of this machine's credentials; its failure, or finding none, one error naming ``what``."""
    try:
        found = read()
    except error as err:
        raise CumulusError(f"{what}: {err}") from None
    if found is None:
        raise CumulusError(f"{what}: {missing}")
    return found
