"""``cumulus cluster list|stop|logs|ssh``."""

from __future__ import annotations

import argparse
import datetime
import os
import time

from cumulus import cluster_api
from cumulus.cli.common import add_workspace, group, local_time, refuse, table, workspace_api
from cumulus.http import Api, CumulusError
from cumulus.logs import format_event, instance_names

SSH_USER = "ubuntu"  # who clients sign in as on a cluster machine


def add_commands(sub) -> None:
    _cluster, csub = group(sub, "cluster", "list, stop or read the logs of clusters")

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
    ssh.add_argument("name", nargs="?", metavar="CLUSTER", help="the cluster, by name or id (default: the newest)")
    ssh.add_argument("--worker", metavar="NAME_OR_ADDRESS", help="a worker instead of the scheduler")
    ssh.add_argument("--user", default=SSH_USER, help=f"who to sign in as (default: {SSH_USER})")
    where = ssh.add_mutually_exclusive_group()
    where.add_argument("--private", action="store_true", help="the scheduler's private address")
    where.add_argument("--by-ip", action="store_true", help="the scheduler's public IP address, not its host name")
    ssh.add_argument("--command", dest="remote_command", metavar="COMMAND",
                     help="a command to run instead of a shell (as words after CLUSTER are)")
    refuse(ssh, {
        "--add-key": "no key is added to an SSH agent: each session's key is a file of its own, removed after it",
        "--delete-key": "no key is added to an SSH agent: each session's key is a file of its own, removed after it",
        "--dask": "Dask runs on the instance itself, not in a container: the shell is where Dask runs",
    }, ("--add-key", "--delete-key", "--dask"))
    # Options go before NAME: what follows it is the command, as with ssh itself.
    ssh.add_argument("command", nargs=argparse.REMAINDER, help="a command to run instead of a shell")
    ssh.set_defaults(run=_ssh)

    better = csub.add_parser("better-logs", help="a cluster's logs, as Coiled's `cluster better-logs` reads them")
    better.add_argument("cluster_arg", nargs="?", metavar="CLUSTER", help="the cluster, as --cluster gives it")
    better.add_argument("--cluster", metavar="NAME_OR_ID", help="the cluster (default: the newest)")
    better.add_argument("--no-color", action="store_true", help="accepted: lines are always plain text")
    better.add_argument("--filter", dest="filter_pattern", help="only lines containing this text")
    what = better.add_mutually_exclusive_group()
    what.add_argument("--system", action="store_true", help="only the instances' system lines")
    what.add_argument("--combined", action="store_true", help="Dask's lines and the system lines")
    better.add_argument("--no-scheduler", action="store_true", help="leave out the scheduler's instance")
    better.add_argument("--workers", default="all", metavar="all|none|NAME,...",
                        help="which workers' lines: all (default), none, or names or private addresses")
    better.add_argument("--since", help="from this time on: ISO time, or how long ago (10m, 2h)")
    better.add_argument("--until", help="up to this time: ISO time, or how long ago")
    better.add_argument("--tail", action="store_true", help="keep printing new lines until interrupted")
    better.add_argument("--interval", type=float, default=3, metavar="SECONDS", help="how often --tail asks (default 3)")
    better.add_argument("--show-all-timestamps", action="store_true", help="accepted: every line carries its time")
    refuse(better, {"--color": "lines are plain text, for any terminal or file",
                    "--label": "each line is labelled with its process's name"}, ("--color",))
    better.set_defaults(run=_better_logs)

    add_workspace(ls, stop, logs, ssh, better)


def _cluster_id(api: Api, ws: str, name: str, running: bool = True) -> int:
    if running:
        cluster_id = cluster_api.find_id(api, ws, name, include_paused=True)
    else:
        cluster_id = cluster_api.newest_named(api, ws, name)
    if cluster_id is None:
        raise CumulusError(f"No {'running ' if running else ''}cluster named {name!r} in workspace {ws}.")
    return cluster_id


def _list(args) -> None:
    api, ws = workspace_api(args)
    clusters = cluster_api.list_clusters(api, ws, just_mine=args.mine)
    if not clusters:
        print(f"No clusters in workspace {ws}.")
        return
    rows = [("ID", "NAME", "STATE", "WORKERS", "CREATED")]
    for c in clusters:
        workers = f"{c['ready_workers']}/{c['desired_workers']}" if "ready_workers" in c else ""
        state = (c.get("current_state") or {}).get("state", "")
        rows.append((str(c["id"]), c["name"], state, workers, local_time(c.get("created"))))
    table(rows)


def _stop(args) -> None:
    api, ws = workspace_api(args)
    cluster_id = _cluster_id(api, ws, args.name)
    cluster_api.delete(api, ws, cluster_id, reason="Stopped with `cumulus cluster stop`")
    print(f"Stopping cluster {args.name} ({cluster_id}).")


def _logs(args) -> None:
    api, ws = workspace_api(args)
    cluster_id = _cluster_id(api, ws, args.name, running=False)
    names = instance_names(cluster_api.details(api, ws, cluster_id))
    for event in cluster_api.better_logs(
        api, ws, cluster_id, filter_pattern=args.filter_pattern, system=not args.no_system
    ):
        print(format_event(event, names))


def _named_or_newest(api: Api, ws: str, cluster: str | None, running: bool = True) -> tuple[int, str]:
    """A cluster by id, by name, or (none given) the workspace's newest, as Coiled's commands take it."""
    if cluster and cluster.isdigit():
        return int(cluster), cluster
    if cluster:
        return _cluster_id(api, ws, cluster, running=running), cluster
    newest = max(cluster_api.list_clusters(api, ws), key=lambda c: c.get("created") or "", default=None)
    if newest is None:
        raise CumulusError(f"No clusters in workspace {ws}.")
    return newest["id"], newest["name"]


def _ssh_address(key: dict, args) -> str | None:
    if args.worker:
        return key.get("worker_address")
    if args.private:
        return key.get("scheduler_private_address")
    if args.by_ip:
        return key.get("scheduler_public_address")
    return (key.get("scheduler_address_to_use") or key.get("scheduler_hostname")
            or key.get("scheduler_public_address") or key.get("scheduler_private_address"))


def _ssh(args) -> int:
    import shutil
    import tempfile

    api, ws = workspace_api(args)
    cluster_id, name = _named_or_newest(api, ws, args.name)
    key = cluster_api.ssh_key(api, ws, cluster_id, worker=args.worker)
    if not key.get("ssh_available", True):
        raise CumulusError(key.get("detail") or f"Cluster {name}'s machines serve no SSH.")
    address = _ssh_address(key, args)
    if not address:
        which = "worker" if args.worker else "scheduler" + (" (private)" if args.private else " (by IP)" if args.by_ip else "")
        raise CumulusError(f"Cluster {name}'s {which} has no address yet.")
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
            *args.command[1 if args.command[:1] == ["--"] else 0:], *([args.remote_command] if args.remote_command else [])]
    import subprocess

    try:
        return subprocess.call(argv)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _when_ms(text: str | None, flag: str) -> int | None:
    """``--since``/``--until``: an ISO time, or how long ago (``10m``)."""
    if not text:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text)
        if moment.tzinfo is None:
            moment = moment.astimezone()
        return int(moment.timestamp() * 1000)
    except ValueError:
        pass
    from cumulus.batch import parse_duration

    try:
        return int((time.time() - parse_duration(text)) * 1000)
    except CumulusError:
        raise CumulusError(f"{flag} {text}: give an ISO time (2025-01-31T12:00) or how long ago (10m, 2h).") from None


def _instances(details: dict, args) -> list | None:
    """The instance ids whose lines to read (None: all of them)."""
    if not args.no_scheduler and args.workers == "all":
        return None
    wanted = set() if args.workers in ("all", "none") else {w.strip() for w in args.workers.split(",")}
    ids = []
    scheduler = ((details.get("scheduler") or {}).get("instance") or {}).get("id")
    if scheduler is not None and not args.no_scheduler:
        ids.append(scheduler)
    for worker in details.get("workers") or []:
        instance = worker.get("instance") or {}
        if instance.get("id") is None:
            continue
        if args.workers == "all" or worker.get("name") in wanted or instance.get("private_ip_address") in wanted:
            ids.append(instance["id"])
    return ids


def _better_logs(args) -> None:
    api, ws = workspace_api(args)
    if args.cluster and args.cluster_arg and args.cluster != args.cluster_arg:
        raise CumulusError(f"Name the cluster once: {args.cluster_arg} or --cluster {args.cluster}.")
    cluster_id, _name = _named_or_newest(api, ws, args.cluster or args.cluster_arg, running=False)
    if args.tail and args.until:
        raise CumulusError("--until and --tail do not go together: a tail has no end.")
    details = cluster_api.details(api, ws, cluster_id)
    names = instance_names(details)
    instances = _instances(details, args)
    if instances == []:
        return
    since = _when_ms(args.since, "--since")
    if since is None and args.tail:
        since = int((time.time() - 30) * 1000)
    until = _when_ms(args.until, "--until")
    while True:
        for event in cluster_api.better_logs(api, ws, cluster_id, since_ms=since, until_ms=until,
                                             instance_ids=instances, filter_pattern=args.filter_pattern,
                                             dask=not args.system, system=args.system or args.combined):
            print(format_event(event, names), flush=True)
            since = max(since or 0, event["timestamp"] + 1)
        if not args.tail:
            return
        time.sleep(args.interval)
