"""``cumulus login``, ``logout``, ``config set`` and ``diagnostics``: who you are, where, and how."""

from __future__ import annotations

import argparse
import sys

from cumulus import config
from cumulus.cli.common import add_workspace, group


def add_commands(sub) -> None:
    login = sub.add_parser("login", help="sign in from this terminal and save the token")
    login.add_argument("--server", "-s", help=f"Cumulus server URL (default: $CUMULUS_SERVER or {config.DEFAULT_SERVER})")
    login.add_argument("--workspace", "--account", "-a", help="workspace to use by default (slug or name)")
    # Coiled's --token may be given in pieces (-t A -t B), which are joined.
    login.add_argument("--token", "-t", action="append",
                       help="an API token from the Profile page, instead of approving in the browser")
    login.add_argument("--browser", action=argparse.BooleanOptionalAction, default=True,
                       help="open the approval link in a browser (--no-browser: print it only)")
    login.add_argument("--retry", action=argparse.BooleanOptionalAction, default=True,
                       help="when the server refuses --token and this is a terminal, approve a new token in the "
                            "browser instead (--no-retry: fail at once)")
    login.set_defaults(run=_login)

    logout = sub.add_parser("logout", help="revoke and forget the saved token")
    logout.set_defaults(run=_logout)

    _config, csub = group(sub, "config", "the client's saved settings")
    setter = csub.add_parser("set", help="save a setting: server, token, workspace (account), user, or a Dask key",
                             description="`cumulus config set workspace my-team` saves cumulus.workspace; any "
                                         "other dotted KEY is saved as Dask config (e.g. distributed.comm.timeouts.connect).")
    setter.add_argument("key")
    setter.add_argument("value")
    setter.add_argument("--type-infer", action=argparse.BooleanOptionalAction, default=True,
                        help="read VALUE as YAML (numbers, true/false); --no-type-infer keeps it text")
    setter.set_defaults(run=_config_set)

    diagnostics = sub.add_parser("diagnostics", help="versions here, the server, and who you are there")
    add_workspace(diagnostics)
    diagnostics.set_defaults(run=_diagnostics)


def _login(args) -> None:
    from cumulus.login import login

    token = "".join(args.token) if args.token else None
    login(server=args.server, workspace=args.workspace, token=token, open_browser=args.browser, retry=args.retry)


def _logout(_args) -> None:
    from cumulus.login import logout

    logout()


# Coiled's short keys, saved in Cumulus's own section (``account`` names the workspace).
LOGIN_KEYS = {"server": "server", "token": "token", "user": "user", "account": "workspace", "workspace": "workspace"}


def _config_set(args) -> None:
    import yaml

    from cumulus.http import CumulusError

    value = yaml.safe_load(args.value) if args.type_infer else args.value
    if args.key in LOGIN_KEYS:
        key = f"cumulus.{LOGIN_KEYS[args.key]}"
    else:
        key = args.key
    try:
        path = config.save_setting(key, value)
    except ValueError as err:
        raise CumulusError(str(err)) from None
    print(f"Saved {key} = {value!r} in {path}")


def _diagnostics(args) -> None:
    # As Coiled's `coiled diagnostics`: the checks as one JSON document (``cumulus.diagnostics()``),
    # a failed one named in its ``error`` (the report is still made: exit code 0).
    import json

    from cumulus.coiled_account import diagnostics

    found = diagnostics(args.workspace)
    print(json.dumps(found, indent=4))
