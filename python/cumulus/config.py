"""Where the client finds its server, token and workspace.

Environment variables win over the saved login so scripts and CI can point anywhere without
touching ``~/.config/dask/cumulus.yaml``; otherwise Dask's own config machinery is used, which
already reads that file (and ``DASK_CUMULUS__*`` variables) at import. A Coiled user's login
(``~/.config/dask/coiled.yaml``, ``DASK_COILED__*``) is read the same way, after Cumulus's own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import yaml  # a dependency of dask: always present beside it

from cumulus.dask_config import dask_config

# Dask's config module alone (``dask_config``): reading a login does not import Dask.
_dask_config = dask_config()
DEFAULT_SERVER = "http://127.0.0.1:8000"
# Where a login read from a Coiled user's configuration came from (Settings.token_source).
COILED_SOURCE = "Coiled config"


@dataclass(frozen=True)
class Settings:
    server: str
    token: str | None
    workspace: str | None
    user: str | None
    #: Where the token came from: "argument", "CUMULUS_API_TOKEN", "saved login", "Coiled config" or None.
    token_source: str | None = None
    #: Where the server came from: "argument", "CUMULUS_SERVER", "saved login", "Coiled config" or "default".
    server_source: str = "default"
    #: The server the saved login is for (it may not be ``server``).
    saved_server: str | None = None

    @property
    def auth_hint(self) -> str:
        """What to do when the server refuses the token, naming where the token came from."""
        path = config_file()
        if self.token_source == "CUMULUS_API_TOKEN":
            return (
                "The token is CUMULUS_API_TOKEN from the environment, which overrides the saved login "
                f"({path}): unset CUMULUS_API_TOKEN to use the saved login, or set it to a valid token."
            )
        if self.token_source == "saved login":
            if self.server_source != "saved login" and self.saved_server and self.saved_server != self.server:
                return (
                    f"The saved login ({path}) is for {self.saved_server}, but {self.server} comes from "
                    f"{self.server_source}: run `cumulus login --server {self.server}` to sign in there."
                )
            return f"The saved login ({path}) is no longer accepted: run `cumulus login --server {self.server}` again."
        if self.token_source == COILED_SOURCE:
            return (
                "The token is Coiled's (DASK_COILED__TOKEN or coiled.yaml in "
                f"{os.path.dirname(path)}): run `cumulus login --server {self.server}` to sign in here."
            )
        if self.token_source == "argument":
            return "Check the token= given to the client."
        return ""


def setting(key: str, default: object = None) -> object:
    """One dotted key of the Dask config (``cumulus.use_scheduler_public_ip``), read without Dask."""
    return _dask_config.get(key, default)


def normalize_server(server: str) -> str:
    server = server.strip()
    if "://" not in server:
        server = "http://" + server
    return server.rstrip("/")


def saved_login() -> dict:
    """The ``cumulus`` section of the Dask config: the saved login plus any ``DASK_CUMULUS__*``."""
    saved = _dask_config.get("cumulus", default={})
    return saved if isinstance(saved, dict) else {}


def coiled_login() -> dict:
    """A Coiled user's login: the ``coiled`` section of the Dask config (``~/.config/dask/coiled.yaml``
    and ``DASK_COILED__TOKEN``/``__SERVER``/``__ACCOUNT``), with ``account`` read as the workspace."""
    found = _dask_config.get("coiled", default={})
    if not isinstance(found, dict):
        return {}
    return {**found, "workspace": found.get("workspace") or found.get("account")}


def _first(*candidates: tuple[str, object]) -> tuple[str | None, str | None]:
    """The first given value and where it came from."""
    for source, value in candidates:
        if value:
            return str(value), source
    return None, None


def load(server: str | None = None, token: str | None = None, workspace: str | None = None) -> Settings:
    saved = saved_login()
    coiled = coiled_login()
    server_value, server_source = _first(
        ("argument", server), ("CUMULUS_SERVER", os.environ.get("CUMULUS_SERVER")), ("saved login", saved.get("server")),
        (COILED_SOURCE, coiled.get("server")),
    )
    token_value, token_source = _first(
        ("argument", token), ("CUMULUS_API_TOKEN", os.environ.get("CUMULUS_API_TOKEN")), ("saved login", saved.get("token")),
        (COILED_SOURCE, coiled.get("token")),
    )
    return Settings(
        server=normalize_server(server_value or DEFAULT_SERVER),
        token=token_value,
        workspace=workspace or saved.get("workspace") or coiled.get("workspace") or None,
        user=saved.get("user"),
        token_source=token_source,
        server_source=server_source or "default",
        saved_server=normalize_server(saved["server"]) if saved.get("server") else None,
    )


def config_file() -> str:
    return os.path.join(os.path.expanduser(_dask_config.PATH), "cumulus.yaml")


def _read_file(path: str) -> dict:
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
    except FileNotFoundError:
        return {}
    return data if isinstance(data, dict) else {}


def _write_file(path: str, data: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # The file holds a secret: create it private, and keep it private if it already existed.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.chmod(path, 0o600)
    with os.fdopen(fd, "w") as f:
        yaml.safe_dump(data, f, default_flow_style=False, sort_keys=False)


def save_login(user: str, token: str, server: str, workspace: str | None) -> str:
    """Writes ``cumulus: {user, token, server[, workspace]}``, keeping anything else in the file."""
    path = config_file()
    data = _read_file(path)
    section = {"user": user, "token": token, "server": server}
    if workspace:
        section["workspace"] = workspace
    data["cumulus"] = section
    _write_file(path, data)
    # This process read its config at import; let it see the new login too.
    _dask_config.config.setdefault("cumulus", {}).update(section)
    if not workspace:
        _dask_config.config["cumulus"].pop("workspace", None)
    return path


def forget_login() -> bool:
    """Removes the saved token (and user); answers whether there was one."""
    path = config_file()
    data = _read_file(path)
    section = data.get("cumulus")
    had_token = isinstance(section, dict) and bool(section.get("token"))
    if isinstance(section, dict):
        section.pop("token", None)
        section.pop("user", None)
        _write_file(path, data)
    live = _dask_config.config.get("cumulus")
    if isinstance(live, dict):
        live.pop("token", None)
        live.pop("user", None)
    return had_token


def save_setting(key: str, value: object) -> str:
    """Saves one dotted Dask config key (``cumulus.workspace``, ``distributed.comm.timeouts.connect``)
    in the client's file, keeping everything else; this process sees it too. Answers the file."""
    path = config_file()
    data = _read_file(path)
    parts = key.split(".")
    node = data
    for depth, part in enumerate(parts[:-1]):
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise ValueError(f"{'.'.join(parts[:depth + 1])} is {child!r} in {path}, not a section: "
                             f"{key} cannot go under it.")
        node = child
    node[parts[-1]] = value
    _write_file(path, data)
    _dask_config.set({key: value})
    return path
