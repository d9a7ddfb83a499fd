"""``cumulus`` on the command line: sign in and out, list, stop and read the logs of clusters."""

from __future__ import annotations

import argparse
import datetime
import os
import sys

from cumulus import cluster_api, config
from cumulus.account import choose_workspace, fetch_identity
from cumulus.http import Api, CumulusError
from cumulus.logs import format_event, instance_names


SSH_USER = "ubuntu"  # who clients sign in as on a cluster machine (client-contract.md 2.5)


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    try:
        return args.run(args) or 0
    except CumulusError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cumulus", description="Cumulus: Dask clusters on your own control plane.")
    sub = p.add_subparsers(metavar="COMMAND")

    login = sub.add_parser("login", help="sign in from this terminal and save the token")
    login.add_argument("--server", help=f"Cumulus server URL (default: $CUMULUS_SERVER or {config.DEFAULT_SERVER})")
    login.add_argument("--workspace", help="workspace to use by default (slug or name)")
    login.add_argument("--token", help="an API token from the Profile page, instead of approving in the browser")
    login.add_argument("--no-browser", action="store_true", help="print the approval link without opening it")
    login.set_defaults(run=_login)

    logout = sub.add_parser("logout", help="revoke and forget the saved token")
    logout.set_defaults(run=_logout)

    cluster = sub.add_parser("cluster", help="list, stop or read the logs of clusters")
    csub = cluster.add_subparsers(metavar="ACTION")
    cluster.set_defaults(run=lambda _args: cluster.print_help() or 2)

    ls = csub.add_parser("list", help="clusters of the workspace")
    ls.add_argument("--mine", action="store_true", help="only clusters you created")
    ls.set_defaults(run=_list)

    stop = csub.add_parser("stop", help="stop a cluster by name")
    stop.add_argument("name")
    stop.set_defaults(run=_stop)

    logs = csub.add_parser("logs", help="print a cluster's logs")
    logs.add_argument("name")
    logs.add_argument("--filter", dest="filter_pattern", help="only lines containing this text")
    logs.add_argument("--no-system", action="store_true", help="only Dask's own lines")
    logs.set_defaults(run=_logs)

    ssh = csub.add_parser("ssh", help="open a shell on a cluster's scheduler (or a worker) with its key")
    ssh.add_argument("name")
    ssh.add_argument("--worker", metavar="NAME_OR_ADDRESS", help="a worker instead of the scheduler")
    ssh.add_argument("--user", default=SSH_USER, help=f"who to sign in as (default: {SSH_USER})")
    # Options go before NAME: what follows it is the command, as with ssh itself.
    ssh.add_argument("command", nargs=argparse.REMAINDER, help="a command to run instead of a shell")
    ssh.set_defaults(run=_ssh)

    env = sub.add_parser("env", help="software environments: create, list, inspect, delete, logs")
    esub = env.add_subparsers(metavar="ACTION")
    env.set_defaults(run=lambda _args: env.print_help() or 2)
    create = esub.add_parser("create", help="create (or update) an environment and wait for its build")
    create.add_argument("name")
    source = create.add_mutually_exclusive_group(required=True)
    source.add_argument("--pip", metavar="REQUIREMENTS", help="a pip requirements file")
    source.add_argument("--conda", metavar="ENVIRONMENT_YML", help="a conda environment.yml")
    source.add_argument("--container", metavar="IMAGE", help="a container image")
    create.add_argument("--force-rebuild", action="store_true", help="build again even if nothing changed")
    create.add_argument("--no-wait", action="store_true", help="do not wait for the build")
    create.set_defaults(run=_env_create)
    els = esub.add_parser("list", help="environments of the workspace")
    els.set_defaults(run=_env_list)
    inspect = esub.add_parser("inspect", help="an environment's latest spec and build")
    inspect.add_argument("name")
    inspect.set_defaults(run=_env_inspect)
    delete = esub.add_parser("delete", help="delete an environment")
    delete.add_argument("name")
    delete.set_defaults(run=_env_delete)
    elogs = esub.add_parser("logs", help="the log of an environment's latest build")
    elogs.add_argument("name")
    elogs.set_defaults(run=_env_logs)

    batch = sub.add_parser("batch", help="batch jobs: run a script over an array of tasks, follow, cancel")
    bsub = batch.add_subparsers(metavar="ACTION")
    batch.set_defaults(run=lambda _args: batch.print_help() or 2)
    brun = bsub.add_parser("run", help="run a script or command as a batch job on a cluster made for it",
                           description="Options may also be written in the script as `# CUMULUS key value` "
                                       "lines; the command line wins.")
    batch_run_options(brun)
    brun.set_defaults(run=_batch_run)
    bstatus = bsub.add_parser("status", help="a job's state and its tasks (default: your latest job)")
    bstatus.add_argument("job", nargs="?", type=int)
    bstatus.set_defaults(run=_batch_status)
    bwait = bsub.add_parser("wait", help="wait for a job to finish, showing its progress")
    bwait.add_argument("job", type=int)
    bwait.set_defaults(run=_batch_wait)
    blogs = bsub.add_parser("logs", help="the output of a job's tasks (default: your latest job)")
    blogs.add_argument("job", nargs="?", type=int)
    blogs.add_argument("--task", type=int, help="only this array task id")
    blogs.set_defaults(run=_batch_logs)
    bls = bsub.add_parser("list", help="batch jobs of the workspace")
    bls.set_defaults(run=_batch_list)
    bcancel = bsub.add_parser("cancel", help="cancel a job: its running tasks and its cluster stop")
    bcancel.add_argument("job", type=int)
    bcancel.set_defaults(run=_batch_cancel)

    from cumulus.everyday_cli import add_everyday_commands

    add_everyday_commands(sub)

    for p_ in (ls, stop, logs, ssh, create, els, inspect, delete, elogs, bstatus, bwait, blogs, bls, bcancel):
        p_.add_argument("--workspace", help="workspace slug or name (default: your default workspace)")
    return p


def batch_run_options(p: argparse.ArgumentParser) -> None:
    tasks = p.add_mutually_exclusive_group()
    tasks.add_argument("--ntasks", type=int, help="run N tasks, ids 0..N-1 (default: 1, or one per mapped value)")
    tasks.add_argument("--array", metavar="SPEC", help="task ids as Slurm writes them: 0-12:3,20 and %%N to run at most N at once")
    values = p.add_mutually_exclusive_group()
    values.add_argument("--map-over-values", metavar="A,B,...", help="one task per value, in $CUMULUS_BATCH_TASK_INPUT")
    values.add_argument("--map-over-file", metavar="FILE", help="one task per line of FILE, in $CUMULUS_BATCH_TASK_INPUT")
    p.add_argument("--env", action="append", default=[], metavar="K=V", help="a variable for every task (repeatable)")
    p.add_argument("--secret-env", action="append", default=[], metavar="K=V",
                   help="a variable kept secret: stored encrypted, never shown or logged (repeatable)")
    p.add_argument("--max-workers", type=int, help="at most this many worker instances (default: one per task)")
    p.add_argument("--timeout", metavar="DURATION", help="stop what still runs after this long (e.g. 90s, 30m, 1h)")
    p.add_argument("--max-retries", type=int, help="times a task whose instance is lost runs again (default 1)")
    p.add_argument("--pipe-to-files", action="store_true", help="keep each task's output as a file to download")
    p.add_argument("--host-setup", metavar="SCRIPT", help="a shell script run once on each instance first")
    p.add_argument("--software", metavar="ENV", help="the software environment tasks run with")
    p.add_argument("--upload", metavar="DIR", help="copy DIR's files into every task's work directory first")
    p.add_argument("--download", metavar="DIR",
                   help="when the job is done, copy into DIR what its tasks wrote under output/ (implies --wait)")
    p.add_argument("--wait", action="store_true", help="wait for the job to finish, showing progress")
    p.add_argument("--workspace", help="workspace slug or name (default: your default workspace)")
    from cumulus import hardware

    hardware.add_cli_options(p, "each worker")
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="SCRIPT-OR-COMMAND",
                   help="a script (its local files are sent along) or a command")


def _login(args) -> None:
    from cumulus.login import login

    login(server=args.server, workspace=args.workspace, token=args.token, open_browser=not args.no_browser)


def _logout(_args) -> None:
    from cumulus.login import logout

    logout()


def _workspace_api(args) -> tuple:
    settings = config.load(workspace=args.workspace)
    api = Api.for_settings(settings)
    return api, choose_workspace(fetch_identity(api), settings.workspace)


def _cluster_id(api: Api, ws: str, name: str, running: bool = True) -> int:
    if running:
        cluster_id = cluster_api.find_id(api, ws, name, include_paused=True)
    else:
        cluster_id = cluster_api.newest_named(api, ws, name)
    if cluster_id is None:
        raise CumulusError(f"No {'running ' if running else ''}cluster named {name!r} in workspace {ws}.")
    return cluster_id


def _list(args) -> None:
    api, ws = _workspace_api(args)
    rows = cluster_api.list_clusters(api, ws, just_mine=args.mine)
    if not rows:
        print(f"No clusters in workspace {ws}.")
        return
    table = [("ID", "NAME", "STATE", "WORKERS", "CREATED")]
    for c in rows:
        workers = f"{c['ready_workers']}/{c['desired_workers']}" if "ready_workers" in c else ""
        state = (c.get("current_state") or {}).get("state", "")
        table.append((str(c["id"]), c["name"], state, workers, _local_time(c.get("created"))))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def _local_time(iso: str | None) -> str:
    try:
        return datetime.datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError):
        return iso or ""


def _stop(args) -> None:
    api, ws = _workspace_api(args)
    cluster_id = _cluster_id(api, ws, args.name)
    cluster_api.delete(api, ws, cluster_id, reason="Stopped with `cumulus cluster stop`")
    print(f"Stopping cluster {args.name} ({cluster_id}).")


def _logs(args) -> None:
    api, ws = _workspace_api(args)
    cluster_id = _cluster_id(api, ws, args.name, running=False)
    names = instance_names(cluster_api.details(api, ws, cluster_id))
    for event in cluster_api.better_logs(
        api, ws, cluster_id, filter_pattern=args.filter_pattern, system=not args.no_system
    ):
        print(format_event(event, names))


def _ssh(args) -> int:
    import shutil
    import tempfile

    api, ws = _workspace_api(args)
    cluster_id = _cluster_id(api, ws, args.name)
    key = cluster_api.ssh_key(api, ws, cluster_id, worker=args.worker)
    if not key.get("ssh_available", True):
        raise CumulusError(key.get("detail") or f"Cluster {args.name}'s machines serve no SSH.")
    address = key.get("worker_address") if args.worker else (
        key.get("scheduler_address_to_use") or key.get("scheduler_hostname")
        or key.get("scheduler_public_address") or key.get("scheduler_private_address"))
    if not address:
        raise CumulusError(f"Cluster {args.name}'s {'worker' if args.worker else 'scheduler'} has no address yet.")
    ssh = shutil.which("ssh")
    if not ssh:
        raise CumulusError("No `ssh` command here: install OpenSSH's client.")
    # The key lives in a file only its owner reads, for as long as the session does.
    folder = tempfile.mkdtemp(prefix="cumulus-ssh-")
    key_file = os.path.join(folder, "id_ed25519")
    with open(os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
        out.write(key["private_key"] if key["private_key"].endswith("\n") else key["private_key"] + "\n")
    argv = [ssh, "-i", key_file, "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=accept-new",
            "-o", f"UserKnownHostsFile={os.path.join(folder, 'known_hosts')}", f"{args.user}@{address}",
            *args.command[1 if args.command[:1] == ["--"] else 0:]]
    import subprocess

    try:
        return subprocess.call(argv)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _local_file(path: str, flag: str) -> str:
    """A file the command reads here: refused in one line before anything is sent when it cannot be read."""
    if not os.path.isfile(path):
        raise CumulusError(f"{flag} {path}: there is no such file{' here' if not os.path.isabs(path) else ''}.")
    if not os.access(path, os.R_OK):
        raise CumulusError(f"{flag} {path}: the file cannot be read (permission denied).")
    return path


def _env_create(args) -> None:
    from cumulus import software

    for flag, path in (("--pip", args.pip), ("--conda", args.conda)):
        if path:
            _local_file(path, flag)
    api, ws = _workspace_api(args)
    alias = software.create(api, ws, args.name, pip=args.pip, conda=args.conda, container=args.container,
                            force=args.force_rebuild)
    build = (alias.get("latest_spec") or {}).get("latest_build") or {}
    print(f"Software environment {alias['name']} ({alias['id']}): build {build.get('id')} {build.get('state')}.")
    if not args.no_wait:
        software.wait_for_build(api, ws, alias)
        print(f"Software environment {alias['name']} is built.")


def _env_list(args) -> None:
    from cumulus import software

    api, ws = _workspace_api(args)
    rows = software.list_aliases(api, ws)
    if not rows:
        print(f"No software environments in workspace {ws}.")
        return
    table = [("ID", "NAME", "STATUS", "SPECS", "DISK", "UPDATED")]
    for a in rows:
        table.append((str(a["id"]), a["name"], a.get("status") or "", str(a["spec_count"]),
                      _size(a.get("disk_bytes", 0)), _local_time(a.get("updated"))))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n else "-"


def _env_inspect(args) -> None:
    from cumulus import software

    api, ws = _workspace_api(args)
    alias = software.get_alias(api, ws, args.name)
    spec = alias.get("latest_spec") or {}
    build = spec.get("latest_build") or {}
    print(f"{alias['name']} ({alias['id']}) in {alias['account_slug']}, {alias['spec_count']} spec(s)")
    for line in spec.get("raw_pip") or []:
        print(f"  pip: {line}")
    for p in spec.get("packages") or []:
        if p["include"]:
            print(f"  {p['name']}{p['specifier']}" + (f"  (file {p['file']['file_name']})" if p.get("file") else ""))
    if build:
        print(f"build {build['id']}: {build['state']}" + (f" ({build['reason']})" if build.get("reason") else ""))
        for p in build.get("packages") or []:
            print(f"  installed {p['name']}=={p['version']}")


def _env_delete(args) -> None:
    from cumulus import software

    api, ws = _workspace_api(args)
    software.delete_alias(api, ws, args.name)
    print(f"Deleted software environment {args.name}.")


def _env_logs(args) -> None:
    from cumulus import software

    api, ws = _workspace_api(args)
    build = ((software.get_alias(api, ws, args.name).get("latest_spec") or {}).get("latest_build")) or {}
    if not build:
        raise CumulusError(f"Software environment {args.name} has no build.")
    for line in software.build_log(api, ws, build["id"]):
        print(line)


def _pairs(items: list, what: str) -> dict:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CumulusError(f"{what} {item!r}: write it as NAME=VALUE.")
        out[key] = value
    return out


def _batch_run(args) -> int:
    from cumulus import batch

    words = list(args.command)
    if words and words[0] == "--":
        words = words[1:]
    if words and os.path.isfile(words[0]):
        args = _with_header_options(args, batch.header_arguments(words[0]))
    _check_batch_run(args, words)
    values = None
    if args.map_over_values is not None:
        values = [v for v in args.map_over_values.split(",")]
    elif args.map_over_file:
        with open(_local_file(args.map_over_file, "--map-over-file"), encoding="utf-8") as f:
            values = [line.rstrip("\n") for line in f if line.strip()]
    host_setup = None
    if args.host_setup:
        with open(_local_file(args.host_setup, "--host-setup"), encoding="utf-8") as f:
            host_setup = f.read()
    api, ws = _workspace_api(args)
    spec = batch.build_spec(
        ws, words, ntasks=args.ntasks, array=args.array, values=values, env=_pairs(args.env, "--env"),
        secret_env=_pairs(args.secret_env, "--secret-env"),
        timeout_seconds=batch.parse_duration(args.timeout) if args.timeout else None,
        pipe_to_files=args.pipe_to_files, host_setup=host_setup, max_retries=args.max_retries,
    )
    from cumulus import hardware

    given = hardware.from_cli(args, "worker")
    sized = hardware.fields_for(api, ws, hardware.check("cumulus batch run", given), call="cumulus batch run")
    job = batch.submit(api, ws, spec, max_workers=args.max_workers, software=args.software, upload=args.upload,
                       download=bool(args.download), hardware=sized)
    print(f"Submitted batch job {job['id']}: {job['n_tasks']} task(s) on cluster {job['cluster_name']} "
          f"({job['cluster_id']}).")
    if not args.wait and not args.download:
        print(f"Follow it with `cumulus batch status {job['id']}` or `cumulus batch wait {job['id']}`.")
        return 0
    code = _finish(batch.wait(api, job["id"]))
    if args.download:
        from cumulus import filestores

        n = filestores.download_dir(api, job["output_store"]["id"], args.download)
        print(f"Downloaded {n} output file(s) into {args.download}.")
    return code


def _check_batch_run(args, words: list) -> None:
    """What would only fail once submitted (no task at all, a script that is not there), refused here."""
    from cumulus import batch

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


def _table(rows: list) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def _seconds_between(start: str | None, stop: str | None) -> str:
    if not start:
        return ""
    try:
        a = datetime.datetime.fromisoformat(start)
        b = datetime.datetime.fromisoformat(stop) if stop else datetime.datetime.now(datetime.timezone.utc)
        return f"{(b - a).total_seconds():.1f}s"
    except ValueError:
        return ""


def _job_or_latest(api, ws: str, job_id: int | None) -> int | None:
    """The job asked for, else the workspace's latest (None, said, when it has none)."""
    from cumulus import batch

    if job_id is not None:
        return job_id
    newest = batch.latest(api, ws)
    if not newest:
        print(f"No batch jobs in workspace {ws}.")
        return None
    return newest["id"]


def _batch_status(args) -> None:
    from cumulus import batch

    api, ws = _workspace_api(args)
    job_id = _job_or_latest(api, ws, args.job)
    if job_id is None:
        return
    job = batch.get(api, job_id)
    print(batch.progress(job) + (f" ({job['reason']})" if job.get("reason") else ""))
    print(f"command: {job['user_command']}")
    if job.get("cluster_name"):
        print(f"cluster: {job['cluster_name']} ({job['cluster_id']}), {job.get('cluster_state')}")
    rows = [("TASK", "STATE", "EXIT", "DURATION", "INSTANCE", "REASON")]
    for t in job["tasks"]:
        rows.append((str(t["array_task_id"]), t["state"], "" if t["exit_code"] is None else str(t["exit_code"]),
                     _seconds_between(t["start"], t["stop"]), (t.get("assigned_to") or {}).get("name", ""),
                     t.get("reason") or ""))
    _table(rows)


def _batch_wait(args) -> int:
    from cumulus import batch

    api, _ws = _workspace_api(args)
    return _finish(batch.wait(api, args.job))


def _batch_logs(args) -> None:
    from cumulus import batch

    api, ws = _workspace_api(args)
    job_id = _job_or_latest(api, ws, args.job)
    if job_id is None:
        return
    job = batch.get(api, job_id)
    for task, event in batch.task_logs(api, ws, job, args.task):
        print(event["message"] if args.task is not None else f"[task {task}] {event['message']}")


def _batch_list(args) -> None:
    from cumulus import batch

    api, ws = _workspace_api(args)
    jobs = batch.list_jobs(api, ws)
    if not jobs:
        print(f"No batch jobs in workspace {ws}.")
        return
    rows = [("ID", "STATE", "TASKS", "FAILED", "CREATED", "COMMAND")]
    for j in jobs:
        rows.append((str(j["id"]), j["state"], f"{j['n_tasks_succeeded']}/{j['n_tasks']}", str(j["n_tasks_failed"]),
                     _local_time(j["created"]), j["user_command"][:60]))
    _table(rows)


def _batch_cancel(args) -> None:
    from cumulus import batch

    api, _ws = _workspace_api(args)
    job = batch.cancel(api, args.job)
    print(f"Cancelled batch job {job['id']}; its cluster stops.")
