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
    """pip's settings that say where packages come from: ``pip config list``, then the variables."""
    settings: dict = {}
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


def _absolute(link: str) -> str:
    return link if "://" in link or not os.path.exists(link) else os.path.abspath(link)


def _unique(items) -> list:
    out: list = []
    for item in items:
        if item and item not in out:
            out.append(item)
    return out
