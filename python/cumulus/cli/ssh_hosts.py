"""``cumulus ssh-hosts add|list|remove``: the workspace's own machines its clusters run on (the ``ssh`` backend)."""

from __future__ import annotations

from cumulus.cli.common import (
    SSH_FLAGS,
    add_checked,
    add_ssh_options,
    add_workspace,
    group,
    local_time,
    named,
    ssh_fields,
    table,
    workspace_api,
)

PATH = "/api/v2/ssh-hosts"

# The request's fields, by the options that set them: a refusal names the option.
FLAGS = {
    "name": "NAME", **SSH_FLAGS, "cores": "--cores", "memory_mib": "--memory", "gpus": "--gpus",
    "labels": "--label", "python": "--python",
}


def add_commands(sub) -> None:
    _hosts, hsub = group(sub, "ssh-hosts", "SSH hosts the workspace's clusters run on: add, list, remove")
    add = hsub.add_parser(
        "add", help="register a host (workspace admins): checked first, its host key pinned",
        description="Cumulus logs in as USER with the private key, refuses any host key but the one given, "
                    "and looks for Python with Dask before it adds the host. The private key is kept "
                    "encrypted and never shown again. Once a workspace has hosts, its new clusters run there.")
    add.add_argument("name", help="the host's name in Cumulus (lowercase letters, digits, dashes)")
    add_ssh_options(add, "host", "its address, as the server and clients reach it", "the account cluster processes run as")
    add.add_argument("--cores", type=int, required=True, help="cores Cumulus may fill there")
    add.add_argument("--memory", type=float, required=True, metavar="GIB", help="GiB of memory Cumulus may fill there")
    add.add_argument("--gpus", type=int, default=0)
    add.add_argument("--label", action="append", default=[],
                     help="a label (repeat for more): clusters asking for it (worker_vm_types) run only on hosts carrying it")
    add.add_argument("--python", default="python3", help="the interpreter with Dask on the host (default: python3)")
    add.set_defaults(run=_add)
    ls = hsub.add_parser("list", help="the workspace's hosts with their health")
    ls.set_defaults(run=_list)
    remove = hsub.add_parser("remove", help="forget a host (workspace admins); refused while clusters run there")
    remove.add_argument("name")
    remove.set_defaults(run=_remove)
    add_workspace(add, ls, remove)


def _add(args) -> None:
    body = {
        "name": args.name, **ssh_fields(args), "cores": args.cores, "memory_mib": round(args.memory * 1024),
        "gpus": args.gpus, "labels": args.label, "python": args.python,
    }
    host = add_checked(args, PATH, body, FLAGS)
    print(f"Added {host['name']} ({host['user']}@{host['address']}:{host['port']}): {host['health']['message']}.")


def _list(args) -> None:
    api, ws = workspace_api(args)
    hosts = api.request("GET", f"{PATH}/{ws}")["items"]
    if not hosts:
        print(f"No SSH hosts in workspace {ws}.")
        return
    rows = [("NAME", "ADDRESS", "HEALTH", "CORES", "MEMORY", "USED", "FREE NOW", "LABELS", "CHECKED")]
    for h in hosts:
        health = h.get("health") or {}
        free = (f"{health['free_cores']} cores, {health['free_memory_mib'] / 1024:.1f} GiB"
                if "free_cores" in health and "free_memory_mib" in health else "-")
        rows.append((
            h["name"], f"{h['user']}@{h['address']}:{h['port']}", health.get("status", "not checked"),
            str(h["cores"]), f"{h['memory_mib'] / 1024:g} GiB", f"{h['used_cores']} cores", free,
            ",".join(h["labels"]) or "-", local_time(h.get("checked_at")),
        ))
    table(rows)
    for h in hosts:
        health = h.get("health") or {}
        if health and health.get("status") != "ok":
            print(f"{h['name']}: {health.get('message')}")


def _remove(args) -> None:
    api, ws = workspace_api(args)
    host = named(api, PATH, ws, args.name,
                 f"Workspace {ws} has no SSH host named {args.name} (`cumulus ssh-hosts list` lists them).")
    api.request("DELETE", f"{PATH}/{ws}/{host['id']}")
    print(f"Removed {args.name}.")
