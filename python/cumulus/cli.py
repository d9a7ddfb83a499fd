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

    for p_ in (ls, stop, logs, create, els, inspect, delete, elogs):
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


def _env_create(args) -> None:
    from cumulus import software

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
