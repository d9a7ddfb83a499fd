"""``cumulus batch run|status|wait|logs|list|cancel``: batch jobs."""

from __future__ import annotations

import argparse
import datetime
import json
import os

from cumulus import batch, filestores, hardware
from cumulus.cli.common import (
    add_workspace, check_refused, command_words, env_file, group, local_file, local_time, pairs, refuse, table,
    workspace_api,
)
from cumulus.http import IDEMPOTENT, CumulusError


def add_commands(sub) -> None:
    _batch, bsub = group(sub, "batch", "batch jobs: run a script over an array of tasks, follow, cancel")
    brun = bsub.add_parser("run", help="run a script or command as a batch job on a cluster made for it",
                           description="Options may also be written in the script as `# CUMULUS key value` "
                                       "lines; the command line wins.")
    batch_run_options(brun)
    brun.set_defaults(run=_batch_run)
    bstatus = bsub.add_parser("status", help="a job's state and its tasks (default: your latest job)")
    job_arguments(bstatus)
    bstatus.add_argument("--format", choices=("table", "json"), default="table", help="json: the job as the server answers it")
    bstatus.add_argument("--sort", metavar="FIELD,...",
                         help="order the tasks by these fields of theirs (array_task_id, state, exit_code, start, stop; "
                              "--sort=-FIELD: descending)")
    # Coiled's older listing form: `coiled batch status --limit N` listed the newest jobs.
    bstatus.add_argument("--limit", type=int, metavar="N",
                         help="without CLUSTER or --job: list the N newest jobs instead, as `batch list` does "
                              "(Coiled's older form)")
    bstatus.set_defaults(run=_batch_status)
    bwait = bsub.add_parser("wait", help="wait for a job to finish, showing its progress (default: your latest job)")
    job_arguments(bwait)
    bwait.add_argument("--download", metavar="DIR",
                       help="then copy into DIR what its tasks wrote under output/ (a job run with --download or --sync)")
    bwait.set_defaults(run=_batch_wait)
    blogs = bsub.add_parser("logs", help="the output of a job's tasks (default: your latest job)")
    job_arguments(blogs)
    blogs.add_argument("--task", type=int, help="only this array task id")
    blogs.set_defaults(run=_batch_logs)
    bls = bsub.add_parser("list", help="batch jobs of the workspace")
    bls.add_argument("--format", choices=("table", "json"), default="table", help="json: the jobs as the server answers them")
    bls.add_argument("--limit", type=int, default=50, help="at most this many, newest first (default and most: 50)")
    bls.set_defaults(run=_batch_list)
    bcancel = bsub.add_parser("cancel", help="cancel a job: its running tasks and its cluster stop")
    job_arguments(bcancel, required=True)
    bcancel.set_defaults(run=_batch_cancel)
    add_workspace(bstatus, bwait, blogs, bls, bcancel)


def job_arguments(p: argparse.ArgumentParser, required: bool = False) -> None:
    """The job a command acts on, as Coiled's name it: by its cluster (id or name); or by its own id."""
    p.add_argument("cluster", nargs="?", metavar="CLUSTER",
                   help="the job's cluster, by id or name, as `cumulus batch run` prints it"
                        + ("" if required else " (default: your latest job)"))
    p.add_argument("--job", type=int, metavar="ID", help="the job by its own id (`cumulus batch list` shows them)")
    p.set_defaults(job_required=required, batch_action=p.prog.split()[-1])


# Coiled's `batch run` options with no meaning here: refused by name (`common.refuse`).
REFUSED = {
    "--dask-container": "Dask runs in the --container image itself here: give an image with Dask",
    "--allow-cross-zone": "the server places a job's instances; a job does not choose zones",
    "--no-cross-zone": "the server places a job's instances; a job does not choose zones",
    "--allow-ssh-from": "a batch cluster opens no SSH port of its own choosing; use `cumulus cluster ssh`",
    "--scheduler-sidecar-spec": "this server runs no sidecars",
    "--package-sync-strict": "a job runs in --software (or the workspace's default); nothing is synced from here",
    "--package-sync-conda-extras": "a job runs in --software (or the workspace's default); nothing is synced from here",
    "--package-sync-ignore": "a job runs in --software (or the workspace's default); nothing is synced from here",
    "--input-filestore": "named filestores are not attached from the command line yet: use --upload DIR",
    "--output-filestore": "named filestores are not attached from the command line yet: use --download DIR",
    "--wait-for-ready-cluster": "this server hands each task to an instance as soon as one is ready",
}
REFUSED_SWITCHES = ("--allow-cross-zone", "--no-cross-zone", "--package-sync-strict", "--wait-for-ready-cluster")


def batch_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", help="the name of the job's cluster (default: WORKSPACE-<random>)")
    tasks = p.add_mutually_exclusive_group()
    tasks.add_argument("--ntasks", "--n-tasks", type=int,
                       help="run N tasks, ids 0..N-1 (default: 1, or one per mapped value)")
    tasks.add_argument("--array", metavar="SPEC", help="task ids as Slurm writes them: 0-12:3,20 and %%N to run at most N at once")
    values = p.add_mutually_exclusive_group()
    values.add_argument("--map-over-values", metavar="A,B,...", help="one task per value, in $CUMULUS_BATCH_TASK_INPUT")
    values.add_argument("--map-over-file", metavar="FILE", help="one task per line of FILE, in $CUMULUS_BATCH_TASK_INPUT")
    p.add_argument("--map-over-input-var", metavar="NAME",
                   help="the variable each task finds its value in (default CUMULUS_BATCH_TASK_INPUT)")
    p.add_argument("--map-over-delimiter", metavar="TEXT",
                   help="what separates the values (default: a comma for --map-over-values, a line for --map-over-file)")
    p.add_argument("--task-on-scheduler", action=argparse.BooleanOptionalAction, default=None,
                   help="run the task of the lowest id on the scheduler's instance")
    p.add_argument("--scheduler-task-array", metavar="SPEC", help="the task ids that run on the scheduler's instance")
    p.add_argument("--env", "-e", action="append", default=[], metavar="K=V", help="a variable for every task (repeatable)")
    p.add_argument("--secret-env", action="append", default=[], metavar="K=V",
                   help="a variable kept secret: stored encrypted, never shown or logged (repeatable)")
    p.add_argument("--env-file", metavar="FILE", help="every variable of a .env file (KEY=value lines); --env wins")
    p.add_argument("--secret-env-file", metavar="FILE", help="every variable of a .env file, kept secret; --secret-env wins")
    p.add_argument("--forward-aws-credentials", action="store_true",
                   help="your AWS credentials here, as short-lived session credentials, for every task (kept secret)")
    p.add_argument("--tag", "-t", action="append", default=[], metavar="K=V", help="a tag of the job's cluster (repeatable)")
    p.add_argument("--max-workers", "-N", type=int,
                   help="at most this many worker instances (default: one per task; -1: no limit)")
    p.add_argument("--timeout", "--job-timeout", metavar="DURATION",
                   help="stop what still runs after this long (e.g. 90s, 30m, 1h)")
    p.add_argument("--max-retries", type=int, help="times a task whose instance is lost runs again (default 1)")
    p.add_argument("--pipe-to-files", action="store_true", help="keep each task's output as a file to download")
    p.add_argument("--host-setup", "--host-setup-script", metavar="SCRIPT",
                   help="a shell script run once on each instance first")
    p.add_argument("--software", metavar="ENV", help="the software environment tasks run with")
    p.add_argument("--container", metavar="IMAGE",
                   help="run the tasks in this container image (its environment, made once and checked for Dask; "
                        "IMAGE! ignores the image's entrypoint)")
    p.add_argument("--ignore-container-entrypoint", metavar="BOOL",
                   help="true: run the --container image without its entrypoint")
    p.add_argument("--run-on-host", metavar="VALUE",
                   help="accepted: tasks always run on the instance itself, in its software environment")
    p.add_argument("--no-implicit-file-upload", action="store_true",
                   help="accepted: only the local files named on the command line are sent, never files they name")
    p.add_argument("--upload", metavar="DIR", help="copy DIR's files into every task's work directory first")
    p.add_argument("--download", metavar="DIR",
                   help="when the job is done, copy into DIR what its tasks wrote under output/ (implies --wait)")
    p.add_argument("--sync", metavar="DIR", help="--upload DIR and --download DIR")
    p.add_argument("--wait", action="store_true", help="wait for the job to finish, showing progress")
    add_workspace(p)
    hardware.add_cli_options(p, "each worker")
    p.add_argument("--scheduler-vm-type", action="append", metavar="TYPE",
                   help="instance type of the scheduler, in order of preference (repeatable)")
    p.add_argument("--disk-size", type=int, metavar="GiB", help="disk of each instance, in GiB (cloud backends)")
    refuse(p, REFUSED, REFUSED_SWITCHES)
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="SCRIPT-OR-COMMAND",
                   help="a script (its local files are sent along) or a command")


def _map_values(args) -> list | None:
    """One value per task, from --map-over-values or --map-over-file, split at --map-over-delimiter."""
    if args.map_over_values is None and not args.map_over_file:
        if args.map_over_delimiter or args.map_over_input_var:
            flag = "--map-over-delimiter" if args.map_over_delimiter else "--map-over-input-var"
            raise CumulusError(f"{flag} goes with --map-over-values or --map-over-file.")
        return None
    if args.map_over_file:
        with open(local_file(args.map_over_file, "--map-over-file"), encoding="utf-8") as f:
            raw = f.read()
        if not args.map_over_delimiter:
            return [line for line in raw.splitlines() if line.strip()]
    else:
        raw = args.map_over_values
    delimiter = args.map_over_delimiter or ","
    return raw.rstrip(delimiter).split(delimiter) if args.map_over_delimiter else raw.split(delimiter)


def _secret_env(args) -> dict:
    secret = env_file(args.secret_env_file, "--secret-env-file") if args.secret_env_file else {}
    if args.forward_aws_credentials:
        secret.update(batch.forwarded_aws_env("--forward-aws-credentials"))
    return {**secret, **pairs(args.secret_env, "--secret-env")}


def _on_scheduler(args, spec: dict) -> list:
    """The task ids that run on the scheduler's instance (--scheduler-task-array, --task-on-scheduler)."""
    ids = spec.get("task_array") or list(range(spec.get("task_array_ntasks") or 1))
    chosen = batch.parse_array(args.scheduler_task_array)[0] if args.scheduler_task_array else []
    unknown = sorted(set(chosen) - set(ids))
    if unknown:
        raise CumulusError(f"--scheduler-task-array {args.scheduler_task_array}: the job has no task {unknown[0]}.")
    if args.task_on_scheduler and min(ids) not in chosen:
        chosen.append(min(ids))
    return sorted(chosen)


def _cluster_fields(args, sized: dict) -> dict:
    """The create call's fields of the job's cluster: its hardware, and its name, tags and disks."""
    fields = dict(sized)
    if args.name:
        fields["name"] = args.name
    if args.tag:
        fields["tags"] = {**pairs(args.tag, "--tag"), "cumulus-cluster-type": "batch"}
    if args.disk_size is not None:
        fields["worker_disk_size"] = fields["scheduler_disk_size"] = args.disk_size
    return fields


def _batch_run(args) -> int:
    words = command_words(args.command)
    if words and os.path.isfile(words[0]):
        args = _with_header_options(args, batch.header_arguments(words[0]))
    check_refused(args)
    if args.sync:
        args.upload = args.upload or args.sync
        args.download = args.download or args.sync
    _check_batch_run(args, words)
    values = _map_values(args)
    host_setup = None
    if args.host_setup:
        with open(local_file(args.host_setup, "--host-setup"), encoding="utf-8") as f:
            host_setup = f.read()
    env = {**(env_file(args.env_file, "--env-file") if args.env_file else {}), **pairs(args.env, "--env")}
    secret_env = _secret_env(args)
    api, ws = workspace_api(args)
    spec = batch.build_spec(
        ws, words, ntasks=args.ntasks, array=args.array, values=values, env=env, secret_env=secret_env,
        timeout_seconds=batch.parse_duration(args.timeout) if args.timeout else None,
        pipe_to_files=args.pipe_to_files, host_setup=host_setup, max_retries=args.max_retries,
    )
    if values is not None and args.map_over_input_var:
        spec["task_map_env_var"] = args.map_over_input_var
    spec["scheduler_task_array"] = _on_scheduler(args, spec)
    given = hardware.from_cli(args, "worker")
    if args.scheduler_vm_type:
        given["scheduler_vm_types"] = args.scheduler_vm_type
    sized = hardware.fields_for(api, ws, hardware.check("cumulus batch run", given), call="cumulus batch run")
    job = batch.submit(api, ws, spec, max_workers=None if args.max_workers == -1 else args.max_workers,
                       software=args.software, upload=args.upload, download=bool(args.download),
                       hardware=_cluster_fields(args, sized), container=_container(args))
    cluster_name = args.name or job["cluster_name"]
    print(f"Submitted batch job {job['id']}: {job['n_tasks']} task(s) on cluster {cluster_name} "
          f"({job['cluster_id']}).")
    if not args.wait and not args.download:
        print(f"Follow it with `cumulus batch status {job['cluster_id']}` or `cumulus batch wait {job['cluster_id']}`.")
        return 0
    code = _finish(batch.wait(api, job["id"]))
    if args.download:
        n = filestores.download_dir(api, job["output_store"]["id"], args.download)
        print(f"Downloaded {n} output file(s) into {args.download}.")
    return code


def _container(args) -> str | None:
    """--container IMAGE, with `!` appended where --ignore-container-entrypoint says so (Coiled's words)."""
    ignore = (args.ignore_container_entrypoint or "").strip().lower()
    if ignore and ignore not in ("true", "false", "yes", "no", "1", "0"):
        raise CumulusError(f"--ignore-container-entrypoint {args.ignore_container_entrypoint}: give true or false.")
    if not args.container:
        if ignore in ("true", "yes", "1"):
            raise CumulusError("--ignore-container-entrypoint goes with --container IMAGE.")
        return None
    if args.software:
        raise CumulusError(f"--container {args.container} and --software {args.software}: give one of them.")
    image = args.container
    return f"{image.rstrip('!')}!" if ignore in ("true", "yes", "1") else image


def _check_batch_run(args, words: list) -> None:
    """What would only fail once submitted (no task at all, a script that is not there), refused here."""
    if args.ntasks is not None and args.ntasks < 1:
        raise CumulusError(f"--ntasks {args.ntasks}: give 1 or more tasks.")
    first = words[0] if words else ""
    if os.path.splitext(first)[1] in batch.INTERPRETERS and not os.path.isfile(first):
        uploaded = args.upload and os.path.isfile(os.path.join(args.upload, first))
        if not uploaded:
            raise CumulusError(f"{first}: there is no such script here; nothing was submitted.")


# Options of which one excludes the other: one given on the command line drops the script's.
_EXCLUSIVE = (("ntasks", "array"), ("map_over_values", "map_over_file"))


def _with_header_options(args, header: list):
    """The run's options with the script's `# CUMULUS` lines under them: the command line wins."""
    if not header:
        return args
    sub = argparse.ArgumentParser(prog="cumulus batch run (script header)", add_help=False)
    batch_run_options(sub)
    written = sub.parse_args(header)
    defaults = sub.parse_args([])
    for key, value in vars(written).items():
        if key == "command":
            continue
        given = getattr(args, key, None)
        if isinstance(value, list):
            setattr(args, key, [*value, *(given or [])])
        elif given == getattr(defaults, key):
            if any(key in pair and any(getattr(args, k) not in (None, False) for k in pair if k != key)
                   for pair in _EXCLUSIVE):
                continue
            setattr(args, key, value)
    return args


def _finish(job: dict) -> int:
    if job["job_state"] == "done":
        print(f"Batch job {job['id']} is done: all {job['n_tasks']} task(s) succeeded.")
        return 0
    print(f"Batch job {job['id']} {job['job_state']}: {job.get('reason') or ''}".rstrip(": "))
    return 1


def _seconds_between(start: str | None, stop: str | None) -> str:
    if not start:
        return ""
    try:
        a = datetime.datetime.fromisoformat(start)
        b = datetime.datetime.fromisoformat(stop) if stop else datetime.datetime.now(datetime.timezone.utc)
        return f"{(b - a).total_seconds():.1f}s"
    except ValueError:
        return ""


def _job_id(api, ws: str, args) -> int | None:
    """The job asked for: ``--job``, else the newest job of CLUSTER, else the workspace's latest (None,
    said, when it has none)."""
    if args.job is not None and args.cluster is not None:
        raise CumulusError("Name the job once: by its cluster (CLUSTER) or by --job ID, not both.")
    if args.job is not None:
        return args.job
    if args.cluster is not None:
        ids = batch.job_ids_of_cluster(api, ws, args.cluster, f"cumulus batch {args.batch_action}")
        if not ids:
            raise CumulusError(f"Cluster {args.cluster} ran no batch job.")
        return ids[-1]
    if args.job_required:
        raise CumulusError(f"Name the job: `cumulus batch {args.batch_action} CLUSTER` (its cluster's id or name) or --job ID.")
    newest = batch.latest(api, ws)
    if not newest:
        print(f"No batch jobs in workspace {ws}.")
        return None
    return newest["id"]


def _job_asked(args) -> tuple | None:
    """The job asked for (``_job_id``) with the API and workspace, or None."""
    api, ws = workspace_api(args)
    job_id = _job_id(api, ws, args)
    return None if job_id is None else (api, ws, batch.get(api, job_id))


def _batch_status(args) -> None:
    if args.limit is not None:
        if args.cluster is not None or args.job is not None:
            raise CumulusError("--limit lists the newest jobs: give it without CLUSTER or --job "
                               "(or use `cumulus batch list --limit N`).")
        if args.sort:
            raise CumulusError("--sort orders a job's tasks: give it with CLUSTER or --job, not with --limit.")
        _batch_list(args)
        return
    asked = _job_asked(args)
    if asked is None:
        return
    job = asked[2]
    if args.sort:
        job["tasks"] = _sorted_tasks(job["tasks"], args.sort)
    if args.format == "json":
        print(json.dumps(job, indent=2))
        return
    print(batch.progress(job) + (f" ({job['reason']})" if job.get("reason") else ""))
    print(f"command: {job['user_command']}")
    if job.get("cluster_name"):
        print(f"cluster: {job['cluster_name']} ({job['cluster_id']}), {job.get('cluster_state')}")
    rows = [("TASK", "STATE", "EXIT", "DURATION", "INSTANCE", "REASON")]
    for t in job["tasks"]:
        rows.append((str(t["array_task_id"]), t["state"], "" if t["exit_code"] is None else str(t["exit_code"]),
                     _seconds_between(t["start"], t["stop"]), (t.get("assigned_to") or {}).get("name", ""),
                     t.get("reason") or ""))
    table(rows)


SORT_FIELDS = ("array_task_id", "state", "exit_code", "start", "stop")


def _sorted_tasks(tasks: list, sort: str) -> list:
    """``--sort a,-b``: by a, then by b descending (a task without a value last either way)."""
    keys = [k.strip() for k in sort.split(",") if k.strip()]
    unknown = [k for k in keys if k.lstrip("-") not in SORT_FIELDS]
    if unknown or not keys:
        raise CumulusError(f"--sort {sort}: sort by {', '.join(SORT_FIELDS)} (--sort=-FIELD: descending).")
    for key in reversed(keys):
        field = key.lstrip("-")
        present = [t for t in tasks if t.get(field) is not None]
        tasks = sorted(present, key=lambda t: t[field], reverse=key.startswith("-")) + [
            t for t in tasks if t.get(field) is None]
    return tasks


def _batch_wait(args) -> int:
    api, ws = workspace_api(args)
    job_id = _job_id(api, ws, args)
    if job_id is None:
        return 1
    code = _finish(batch.wait(api, job_id))
    if args.download:
        cluster_id = batch.get(api, job_id)["cluster_id"]
        attached = api.request("GET", f"/api/v2/filestore/cluster/{cluster_id}", retry=IDEMPOTENT)["attachments"]
        stores = [a["filestore"] for a in attached if a["output"]]
        if not stores:
            raise CumulusError(f"Batch job {job_id} kept no output files: run it with --download DIR or --sync DIR.")
        n = sum(filestores.download_dir(api, store["id"], args.download) for store in stores)
        print(f"Downloaded {n} output file(s) into {args.download}.")
    return code


def _batch_logs(args) -> None:
    asked = _job_asked(args)
    if asked is None:
        return
    api, ws, job = asked
    for task, event in batch.task_logs(api, ws, job, args.task):
        print(event["message"] if args.task is not None else f"[task {task}] {event['message']}")


def _batch_list(args) -> None:
    api, ws = workspace_api(args)
    jobs = batch.list_jobs(api, ws)[: max(args.limit, 0)]
    if args.format == "json":
        print(json.dumps(jobs, indent=2))
        return
    if not jobs:
        print(f"No batch jobs in workspace {ws}.")
        return
    rows = [("ID", "CLUSTER", "STATE", "TASKS", "FAILED", "CREATED", "COMMAND")]
    for j in jobs:
        rows.append((str(j["id"]), str(j.get("cluster_id") or ""), j["state"], f"{j['n_tasks_succeeded']}/{j['n_tasks']}", str(j["n_tasks_failed"]),
                     local_time(j["created"]), j["user_command"][:60]))
    table(rows)


def _batch_cancel(args) -> None:
    api, ws = workspace_api(args)
    job = batch.cancel(api, _job_id(api, ws, args))
    print(f"Cancelled batch job {job['id']}; its cluster stops.")
