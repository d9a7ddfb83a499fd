"""``cumulus env create|list|inspect|delete|logs``: software environments."""

from __future__ import annotations

import argparse

from cumulus import software
from cumulus.cli.common import add_workspace, group, local_file, local_time, refuse, table, workspace_api
from cumulus.http import CumulusError
from cumulus.sizes import format_mib


def add_commands(sub) -> None:
    _env, esub = group(sub, "env", "software environments: create, list, inspect, delete, logs")
    create = esub.add_parser("create", help="create (or update) an environment and wait for its build")
    create.add_argument("name", nargs="?")
    create.add_argument("--name", "-n", dest="name_option", metavar="NAME", help="the name, as Coiled's option")
    source = create.add_mutually_exclusive_group(required=True)
    source.add_argument("--pip", metavar="REQUIREMENTS", help="a pip requirements file")
    source.add_argument("--conda", metavar="ENVIRONMENT_YML", help="a conda environment.yml")
    source.add_argument("--container", metavar="IMAGE", help="a container image")
    create.add_argument("--force-rebuild", action="store_true", help="build again even if nothing changed")
    create.add_argument("--ignore-container-entrypoint", action="store_true",
                        help="run the --container image without its entrypoint")
    create.add_argument("--gpu-enabled", action="store_true", help="an environment for instances with a GPU")
    create.add_argument("--architecture", choices=("x86_64", "aarch64", "arm64"), default="x86_64",
                        help="the instances' CPU architecture (default x86_64; arm64 is aarch64)")
    create.add_argument("--arm", action="store_true", help="ARM instances: --architecture aarch64 (wins over it)")
    create.add_argument("--no-wait", action="store_true", help="do not wait for the build")
    refuse(create, {
        "--post-build": "the build installs the packages only; run setup steps in a batch job's --host-setup",
        "--conda-env-name": "the environment's own name is the one it is used by",
        "--private": "an environment belongs to its workspace, shared by its members",
        "--include-local-code": "local packages go along with a cluster's package sync, not a named environment",
        "--ignore-local-packages": "local packages go along with a cluster's package sync, not a named environment",
        "--ignore-local-package": "local packages go along with a cluster's package sync, not a named environment",
        "--region-name": "environments are built and kept by the Cumulus server, not stored in a cloud region",
        "--disable-uv-installer": "the server's build agent chooses its installer",
    }, ("--private", "--include-local-code", "--disable-uv-installer"))
    # Coiled's short form of --ignore-local-package, refused with it.
    create.add_argument("-i", dest="refused_ignore_local_package", action="append", metavar="PACKAGE",
                        help=argparse.SUPPRESS)
    create.set_defaults(run=_env_create)
    els = esub.add_parser("list", help="environments of the workspace")
    # Coiled's `env list [ACCOUNT]` names the workspace as a word of its own.
    els.add_argument("account", nargs="?", metavar="WORKSPACE", help="the workspace (as --workspace)")
    els.set_defaults(run=_env_list)
    inspect = esub.add_parser("inspect", help="an environment's latest spec and build")
    delete = esub.add_parser("delete", help="delete an environment")
    elogs = esub.add_parser("logs", help="the log of an environment's latest build")
    for p in (inspect, delete, elogs):
        # Coiled names the environment either way: `env inspect NAME` or `env inspect -n NAME`.
        p.add_argument("name", nargs="?")
        p.add_argument("--name", "-n", dest="name_option", metavar="NAME", help="the name, as Coiled's option")
    inspect.set_defaults(run=_env_inspect)
    delete.set_defaults(run=_env_delete)
    elogs.set_defaults(run=_env_logs)
    add_workspace(create, els, inspect, delete, elogs)


def _one_name(args, command: str) -> str:
    """NAME, or --name NAME (Coiled's option): one of them, the same if both."""
    if args.name and args.name_option and args.name != args.name_option:
        raise CumulusError(f"Two names: {args.name} and --name {args.name_option}; give one.")
    name = args.name or args.name_option
    if not name:
        raise CumulusError(f"Name the environment: `cumulus env {command} NAME` (or --name NAME).")
    return name

def _env_create(args) -> None:
    args.name = _one_name(args, "create")
    for flag, path in (("--pip", args.pip), ("--conda", args.conda)):
        if path:
            local_file(path, flag)
    api, ws = workspace_api(args)
    if args.ignore_container_entrypoint and not args.container:
        raise CumulusError("--ignore-container-entrypoint goes with --container IMAGE.")
    alias = software.create(api, ws, args.name, pip=args.pip, conda=args.conda, container=args.container,
                            force=args.force_rebuild, use_entrypoint=not args.ignore_container_entrypoint,
                            gpu_enabled=args.gpu_enabled,
                            architecture="aarch64" if args.arm or args.architecture == "arm64" else args.architecture)
    build = (alias.get("latest_spec") or {}).get("latest_build") or {}
    print(f"Software environment {alias['name']} ({alias['id']}): build {build.get('id')} {build.get('state')}.")
    if not args.no_wait:
        software.wait_for_build(api, ws, alias)
        print(f"Software environment {alias['name']} is built.")


def _env_list(args) -> None:
    if args.account and args.workspace and args.account != args.workspace:
        raise CumulusError(f"Two workspaces: {args.account} and --workspace {args.workspace}; give one.")
    args.workspace = args.workspace or args.account
    api, ws = workspace_api(args)
    aliases = software.list_aliases(api, ws)
    if not aliases:
        print(f"No software environments in workspace {ws}.")
        return
    rows = [("ID", "NAME", "STATUS", "SPECS", "DISK", "UPDATED")]
    for a in aliases:
        rows.append((str(a["id"]), a["name"], a.get("status") or "", str(a["spec_count"]),
                      _size(a.get("disk_bytes", 0)), local_time(a.get("updated"))))
    table(rows)


def _size(n: int) -> str:
    return format_mib(n) if n else "-"


def _env_inspect(args) -> None:
    args.name = _one_name(args, "inspect")
    if "/" in args.name:
        # Coiled's WORKSPACE/NAME: another workspace's environment.
        prefix, args.name = args.name.split("/", 1)
        if args.workspace and args.workspace != prefix:
            raise CumulusError(f"Two workspaces: {prefix}/ and --workspace {args.workspace}; give one.")
        args.workspace = prefix
    api, ws = workspace_api(args)
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
    args.name = _one_name(args, "delete")
    api, ws = workspace_api(args)
    software.delete_alias(api, ws, args.name)
    print(f"Deleted software environment {args.name}.")


def _env_logs(args) -> None:
    args.name = _one_name(args, "logs")
    api, ws = workspace_api(args)
    build = ((software.get_alias(api, ws, args.name).get("latest_spec") or {}).get("latest_build")) or {}
    if not build:
        raise CumulusError(f"Software environment {args.name} has no build.")
    for line in software.build_log(api, ws, build["id"]):
        print(line)
