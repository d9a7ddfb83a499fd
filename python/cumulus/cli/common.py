"""What every command group shares: the workspace a command acts in, tables, times, NAME=VALUE pairs."""

from __future__ import annotations

import argparse
import datetime
import os

from cumulus import config
from cumulus.account import choose_workspace, fetch_identity
from cumulus.http import Api, CumulusError

WORKSPACE_HELP = "workspace slug or name (default: your default workspace)"


def add_workspace(*parsers: argparse.ArgumentParser) -> None:
    for p in parsers:
        p.add_argument("--workspace", "--account", help=WORKSPACE_HELP)


def group(sub, name: str, help_text: str):
    """A command group (``cumulus cluster``): its parser, and the subparsers of its actions. Without an
    action it prints its help."""
    parser = sub.add_parser(name, help=help_text)
    actions = parser.add_subparsers(metavar="ACTION")
    parser.set_defaults(run=lambda _args: parser.print_help() or 2)
    return parser, actions


def workspace_api(args) -> tuple[Api, str]:
    settings = config.load(workspace=args.workspace)
    api = Api.for_settings(settings)
    return api, choose_workspace(fetch_identity(api), settings.workspace)


def local_time(iso: str | None) -> str:
    try:
        return datetime.datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError):
        return iso or ""


def table(rows: list) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def local_file(path: str, flag: str) -> str:
    """A file the command reads here: refused in one line before anything is sent when it cannot be read."""
    if not os.path.isfile(path):
        raise CumulusError(f"{flag} {path}: there is no such file{' here' if not os.path.isabs(path) else ''}.")
    if not os.access(path, os.R_OK):
        raise CumulusError(f"{flag} {path}: the file cannot be read (permission denied).")
    return path


def pairs(items: list, what: str) -> dict:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CumulusError(f"{what} {item!r}: write it as NAME=VALUE.")
        out[key] = value
    return out


def command_words(command: list) -> list:
    """The words after the options, without the ``--`` that may separate them."""
    words = list(command)
    return words[1:] if words[:1] == ["--"] else words


def env_file(path: str, flag: str) -> dict:
    """The variables of a ``.env`` file: ``KEY=value`` lines (``export`` before, quotes around the value
    and ``#`` comment lines allowed)."""
    out = {}
    with open(local_file(path, flag), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, value = line.removeprefix("export ").partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key:
                raise CumulusError(f"{flag} {path}, line {number}: write it as NAME=VALUE.")
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            out[key] = value
    return out


def refuse(parser: argparse.ArgumentParser, options: dict, switches: tuple = ()) -> None:
    """Coiled's options that cannot apply here, parsed so that one given is refused by its name (never
    ignored): ``options`` maps each to why; ``switches`` are those that take no value."""
    group = parser.add_argument_group("Coiled's options refused here")
    refused = dict(parser.get_default("refused") or {})
    for flag, why in options.items():
        dest = "refused_" + flag.lstrip("-").replace("-", "_")
        if flag in switches:
            group.add_argument(flag, dest=dest, action="store_const", const=True, help=why)
        else:
            group.add_argument(flag, dest=dest, action="append", metavar="VALUE", help=why)
        refused[dest] = (flag, why)
    parser.set_defaults(refused=refused)


def check_refused(args: argparse.Namespace) -> None:
    for dest, (flag, why) in (getattr(args, "refused", None) or {}).items():
        if getattr(args, dest, None) is not None:
            raise CumulusError(f"{flag} cannot apply here: {why}")


def read_local(path: str, flag: str) -> str:
    with open(local_file(path, flag), encoding="utf-8") as f:
        return f.read()


def by_option(err: CumulusError, flags: dict) -> CumulusError:
    """A refusal of fields said by the options that set them (``--host-key: ...``): ``flags`` maps each
    request field to its option."""
    body = err.body if isinstance(err.body, dict) else {}
    lines = [
        f"{flags.get(field.split('.')[0], field)}: {' '.join(str(m) for m in messages)}"
        for field, messages in body.items()
        if isinstance(messages, list) and field.split(".")[0] in flags
    ]
    return CumulusError("\n".join(lines), err.status, err.body) if lines else err


# The SSH options of a machine Cumulus logs in to (an SSH host, a Slurm login node), by request field.
SSH_FLAGS = {"address": "--address", "port": "--port", "user": "--user", "host_key": "--host-key",
             "private_key": "--private-key"}


def add_ssh_options(parser: argparse.ArgumentParser, machine: str, address_help: str, user_help: str,
                    required: bool = True) -> None:
    """--address, --port, --user, --host-key (pinned) and --private-key of the ``machine`` (``host``)."""
    parser.add_argument("--address", required=required, help=address_help)
    parser.add_argument("--port", type=int, default=22)
    parser.add_argument("--user", required=required, help=user_help)
    parser.add_argument("--host-key", required=required, metavar="KEY_OR_FILE",
                        help=f"the {machine}'s public key line (ssh-ed25519 AAAA...), or a file holding it "
                             f"(/etc/ssh/ssh_host_ed25519_key.pub copied from the {machine})")
    parser.add_argument("--private-key", required=required, metavar="FILE",
                        help="a file with the OpenSSH private key USER's authorized_keys lets in")


def ssh_fields(args) -> dict:
    """The request's SSH fields from the options of ``add_ssh_options`` (the key files read here)."""
    host_key = (args.host_key or "").strip()
    if host_key and not host_key.startswith("ssh-"):
        host_key = read_local(args.host_key, "--host-key").strip()
    return {"address": args.address, "port": args.port, "user": args.user, "host_key": host_key or None,
            "private_key": read_local(args.private_key, "--private-key") if args.private_key else None}


def add_checked(args, path: str, body: dict, flags: dict) -> dict:
    """POSTs a machine the server checks before adding it (``/api/v2/ssh-hosts``): its fields left
    unset not sent, a refusal said by the options (``flags``) that set the fields."""
    api, ws = workspace_api(args)
    try:
        return api.request("POST", f"{path}/{ws}", json_body={k: v for k, v in body.items() if v is not None})
    except CumulusError as err:
        raise by_option(err, flags) from None


def named(api: Api, path: str, ws: str, name: str, missing: str) -> dict:
    """The workspace's machine of that name at ``path`` (``/api/v2/ssh-hosts``), or ``missing`` said."""
    found = next((m for m in api.request("GET", f"{path}/{ws}")["items"] if m["name"] == name), None)
    if found is None:
        raise CumulusError(missing)
    return found
