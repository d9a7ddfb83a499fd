"""``cumulus slurm add|list|check|remove``: the Slurm cluster the workspace's clusters run on as Slurm jobs
(the ``slurm`` backend)."""

from __future__ import annotations

from cumulus.cli.common import SSH_FLAGS, add_checked, add_ssh_options, add_workspace, group, local_time, named
from cumulus.cli.common import read_local, ssh_fields, table, workspace_api

PATH = "/api/v2/slurm-clusters"

# The request's fields, by the options that set them: a refusal names the option.
FLAGS = {
    "name": "NAME", "login": "--local", **SSH_FLAGS, "rest_url": "--rest", "token": "--token",
    "partition": "--partition", "slurm_account": "--slurm-account", "qos": "--qos", "time_limit_minutes": "--time-limit",
    "node_cores": "--node-cores", "node_memory_mib": "--node-memory", "node_gpus": "--node-gpus", "python": "--python",
}


def add_commands(sub) -> None:
    _slurm, ssub = group(sub, "slurm", "the Slurm cluster the workspace's clusters run on: add, list, check, remove")
    add = ssub.add_parser(
        "add", help="connect the workspace's Slurm cluster (workspace admins): its login node checked first",
        description="Cumulus runs sinfo for the partition on the login node (over SSH, its host key pinned, or on "
                    "the Cumulus server's own machine with --local where its operator allows it) before it "
                    "connects the cluster. The private key is kept encrypted and never shown again. Once "
                    "connected, each scheduler and worker of the workspace's new clusters is a Slurm job.")
    add.add_argument("name", help="the Slurm cluster's name in Cumulus (lowercase letters, digits, dashes)")
    add.add_argument("--local", action="store_true",
                     help="submit jobs on the Cumulus server's own machine, as its user (the server's operator "
                          "allows it with CUMULUS_SLURM_LOCAL_LOGIN); no SSH options then")
    add.add_argument("--rest", metavar="URL",
                     help="submit through slurmrestd at URL (http://host:6820) with a JWT instead of a login node: "
                          "--user (the Slurm user the token is of, whom jobs run as) and --token then, no other SSH option")
    add.add_argument("--token", metavar="TOKEN_OR_FILE",
                     help="with --rest: the JWT (scontrol token username=USER), or a file holding it; kept encrypted, "
                          "never shown again")
    add_ssh_options(add, "login node", "the login node's address, as the server reaches it",
                    "the account jobs are submitted as", required=False)
    add.add_argument("--partition", help="the partition jobs go to (default: Slurm's default partition)")
    add.add_argument("--slurm-account", help="sbatch --account")
    add.add_argument("--qos", help="sbatch --qos")
    add.add_argument("--time-limit", type=int, metavar="MINUTES", help="sbatch --time (default: the partition's)")
    add.add_argument("--node-cores", type=int, required=True, help="cores one node offers: no instance asks more")
    add.add_argument("--node-memory", type=float, required=True, metavar="GIB", help="GiB of memory one node offers")
    add.add_argument("--node-gpus", type=int, default=0,
                     help="GPUs one node has (Slurm's gpu GRES): a cluster's worker_gpu asks at most this (default 0)")
    add.add_argument("--python", default="python3",
                     help="the interpreter with Dask on the compute nodes (default: python3)")
    add.set_defaults(run=_add)
    ls = ssub.add_parser("list", help="the workspace's Slurm cluster with its health")
    ls.set_defaults(run=_list)
    check = ssub.add_parser("check", help="check the Slurm cluster's login node again now (workspace admins)")
    check.add_argument("name")
    check.set_defaults(run=_check)
    remove = ssub.add_parser("remove", help="disconnect the Slurm cluster (workspace admins); refused while "
                                            "clusters run there")
    remove.add_argument("name")
    remove.set_defaults(run=_remove)
    add_workspace(add, ls, check, remove)


def _token(value: str) -> str:
    """--token: the JWT itself (three dot-separated parts), or a file holding it."""
    if value.count(".") == 2 and "/" not in value:
        return value.strip()
    return read_local(value, "--token").strip()


def _login_fields(args) -> dict:
    """The request's login and its fields; options of another login are sent, so the server refuses them by
    name (``--address: Not a field of login "rest".``)."""
    ssh = {k: v for k, v in ssh_fields(args).items() if k != "port" or v != 22}
    if args.rest:
        return {**ssh, "login": "rest", "rest_url": args.rest, "token": _token(args.token) if args.token else None}
    if args.local:
        return {**ssh, "login": "local", "token": args.token}
    return {**ssh, "login": "ssh", "token": args.token}


def _add(args) -> None:
    body = {
        "name": args.name, **_login_fields(args),
        "partition": args.partition, "slurm_account": args.slurm_account, "qos": args.qos,
        "time_limit_minutes": args.time_limit, "node_cores": args.node_cores,
        "node_memory_mib": round(args.node_memory * 1024), "node_gpus": args.node_gpus, "python": args.python,
    }
    cluster = add_checked(args, PATH, body, FLAGS)
    print(f"Connected {cluster['name']} ({_login(cluster)}): {cluster['health']['message']}.")


def _login(cluster: dict) -> str:
    if cluster["login"] == "local":
        return "this server"
    if cluster["login"] == "rest":
        return f"{cluster['user']} at {cluster['rest_url']}"
    return f"{cluster['user']}@{cluster['address']}:{cluster['port']}"


def _named(api, ws: str, name: str) -> dict:
    return named(api, PATH, ws, name,
                 f"Workspace {ws} has no Slurm cluster named {name} (`cumulus slurm list` lists it).")


def _list(args) -> None:
    api, ws = workspace_api(args)
    clusters = api.request("GET", f"{PATH}/{ws}")["items"]
    if not clusters:
        print(f"No Slurm cluster in workspace {ws}.")
        return
    rows = [("NAME", "LOGIN", "HEALTH", "PARTITION", "NODE", "TIME LIMIT", "CHECKED")]
    for c in clusters:
        health = c.get("health") or {}
        rows.append((
            c["name"], _login(c), health.get("status", "not checked"), c["partition"] or "(default)",
            f"{c['node_cores']} cores, {c['node_memory_mib'] / 1024:g} GiB"
            + (f", {c['node_gpus']} GPUs" if c.get("node_gpus") else ""),
            f"{c['time_limit_minutes']} min" if c["time_limit_minutes"] else "(partition's)",
            local_time(c.get("checked_at")),
        ))
    table(rows)
    for c in clusters:
        health = c.get("health") or {}
        if health:
            print(f"{c['name']}: {health.get('message')}"
                  + (f" ({health['partition_state']})" if health.get("partition_state") else ""))


def _check(args) -> int | None:
    api, ws = workspace_api(args)
    cluster = api.request("POST", f"{PATH}/{ws}/{_named(api, ws, args.name)['id']}/check")
    health = cluster.get("health") or {}
    print(f"{cluster['name']}: {health.get('status')}: {health.get('message')}.")
    if health.get("status") != "ok":
        return 1


def _remove(args) -> None:
    api, ws = workspace_api(args)
    api.request("DELETE", f"{PATH}/{ws}/{_named(api, ws, args.name)['id']}")
    print(f"Disconnected {args.name}.")
