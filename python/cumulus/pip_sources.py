"""Where this Python's pip finds packages: its index URLs and find-links, as package sync sends them.

A package installed from a private index (the workspace's own, a company's) or a wheel folder is
found by the cluster's build only if the build looks there too: the scan carries these sources,
and the server adds them to the server's own pip configuration for the build.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

# pip's own default: the server's build has it (or the server's configured index) already.
DEFAULT_INDEXES = {"https://pypi.org/simple", "https://pypi.python.org/simple"}
KEYS = ("index-url", "extra-index-url", "find-links", "no-index")


def pip_sources() -> tuple[list[str], list[str]]:
    """(index URLs, find-links) of pip's configuration here: its files, then PIP_* variables over them.

    The index URL comes first, then the extra ones (as the client contract's ``index_urls``); pip's
    default index is left out. Empty where pip cannot say (no pip in this environment).
    """
    settings = _configured()
    if settings.get("no-index", "").lower() in ("1", "true", "yes", "on"):
        indexes = []
    else:
        indexes = [settings["index-url"]] if settings.get("index-url") else []
        indexes += settings.get("extra-index-url", "").split()
    links = [_absolute(link) for link in settings.get("find-links", "").split()]
    return _unique(u for u in indexes if u.rstrip("/") not in DEFAULT_INDEXES), _unique(links)


def _configured() -> dict:
    """pip's settings that say where packages come from: its configuration files, then the variables."""
    found = _files_read() if sys.platform.startswith("linux") else _pip_config_list()
    settings: dict = {}
    # pip's order: an install-only setting over a global one, a variable over both.
    for section in ("global", "install"):
        for (where, key), value in found.items():
            if where == section:
                settings[key] = value
    for key in KEYS:
        variable = os.environ.get("PIP_" + key.upper().replace("-", "_"))
        if variable:
            settings[key] = variable
    return settings


def config_files() -> list[str]:
    """pip's configuration files on Linux, the later over the earlier (pip 23's
    ``Configuration``: global, user, site, then PIP_CONFIG_FILE; none when that is the null
    device; no user files when it names a file that exists)."""
    named = os.environ.get("PIP_CONFIG_FILE")
    if named == os.devnull:
        return []
    xdg_dirs = os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg"
    files = [os.path.join(d, "pip", "pip.conf") for d in xdg_dirs.split(os.pathsep) if d]
    files.append("/etc/pip.conf")
    if not (named and os.path.exists(named)):
        home = os.path.expanduser("~")
        files.append(os.path.join(home, ".pip", "pip.conf"))
        config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        files.append(os.path.join(config_home, "pip", "pip.conf"))
    files.append(os.path.join(sys.prefix, "pip.conf"))
    if named:
        files.append(named)
    return files


def _files_read() -> dict:
    """(section, key) -> value from pip's files, as ``pip config list`` merges them, without
    starting pip (a second Python importing pip costs about 0.4 s of a cluster's start)."""
    import configparser

    found: dict = {}
    # XDG_CONFIG_DIRS is searched most important first; pip loads those files in that order too.
    for path in config_files():
        parser = configparser.RawConfigParser()
        try:
            parser.read(path)
        except (configparser.Error, UnicodeDecodeError):
            continue
        for section in parser.sections():
            for name, value in parser.items(section):
                key = name.lstrip("-").replace("_", "-")
                if key in KEYS:
                    found[(section, key)] = value.replace("\n", " ")
    return found


def _pip_config_list() -> dict:
    """(section, key) -> value as ``pip config list`` says (where pip's files lie elsewhere)."""
    try:
        listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True,
                                timeout=30, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
        lines = listed.stdout.splitlines() if listed.returncode == 0 else []
    except (OSError, subprocess.SubprocessError):
        lines = []
    found: dict = {}
    for line in lines:
        match = re.match(r"^([^.\s]+)\.([a-z0-9_-]+)=(.*)$", line.strip(), re.IGNORECASE)
        if not match or match[2] not in KEYS:
            continue
        try:
            value = str(ast.literal_eval(match[3]))
        except (ValueError, SyntaxError):
            value = match[3]
        found[(match[1], match[2])] = value.replace("\n", " ")
    return found


def _absolute(link: str) -> str:
    return link if "://" in link or not os.path.exists(link) else os.path.abspath(link)


def _unique(items) -> list:
    out: list = []
    for item in items:
        if item and item not in out:
            out.append(item)
    return out
