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

    for p_ in (ls, stop, logs):
        p_.add_argument("--workspace", help="workspace slug or name (default: your default workspace)")
    return p


def _login(args) -> None:
    from cumulus.login import login

    login(server=args.server, workspace=args.workspace, token=args.token, open_browser=not args.no_browser)


def _logout(_args) -> None:
    from cumulus.login import logout

    logout()


def _workspace_api(args) -> tuple:
    settings = config.load(workspace=args.workspace)
    api = Api(settings.server, settings.token)
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
