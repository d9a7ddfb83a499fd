"""The files of a local directory that go to a cluster: ``cumulus run``'s working directory (a zip,
``pack_directory``) and ``cumulus notebook``'s synced directory (``directory_files``), without version
control, caches and virtual environments, and refused past ``MAX_UPLOAD_BYTES``."""

from __future__ import annotations

import fnmatch
import io
import os
import zipfile

from cumulus.http import CumulusError
from cumulus.sizes import MIB

MAX_UPLOAD_BYTES = 100 * MIB
# Not sent along: version control, caches and virtual environments.
SKIPPED_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".cumulus", ".mypy_cache",
                ".pytest_cache", ".ipynb_checkpoints", ".tox"}


VCS_DIRS = {".git", ".hg", ".svn"}


def sync_skips(path: str, ignore=(), include_vcs: bool = False) -> bool:
    """Whether a "/"-separated relative ``path`` stays out of a sync: under SKIPPED_DIRS (version control
    too, unless ``include_vcs``), or matched by one of ``ignore``: a glob (``*.csv``, ``data/*``) against
    the whole path or any one of its names, so ``data`` leaves out the directory and all under it."""
    parts = path.split("/")
    skipped = SKIPPED_DIRS - VCS_DIRS if include_vcs else SKIPPED_DIRS
    if any(part in skipped for part in parts[:-1]):
        return True
    return any(fnmatch.fnmatchcase(path, pattern.strip("/")) or any(fnmatch.fnmatchcase(p, pattern) for p in parts)
               for pattern in ignore)


def directory_files(path: str, limit: int = MAX_UPLOAD_BYTES, ignore=(), include_vcs: bool = False):
    """The files under ``path`` (not under SKIPPED_DIRS, nor matched by ``ignore``: ``sync_skips``; no
    links) as (full path, path relative to it, "/"-separated), directories first-visited in order;
    refuses once they add up past ``limit``."""
    total = 0
    for root, dirs, files in os.walk(path):
        base = os.path.relpath(root, path).replace(os.sep, "/")
        base = "" if base == "." else base + "/"
        dirs[:] = sorted(d for d in dirs if not sync_skips(f"{base}{d}/-", ignore, include_vcs))
        for name in sorted(files):
            full = os.path.join(root, name)
            if not os.path.isfile(full) or os.path.islink(full) or sync_skips(base + name, ignore, include_vcs):
                continue
            total += os.path.getsize(full)
            if total > limit:
                raise CumulusError(
                    f"The files under {path} add up to more than {limit // MIB} MiB: use a smaller "
                    "directory, or put large data in a filestore or object storage."
                )
            yield full, os.path.relpath(full, path).replace(os.sep, "/")


def pack_directory(path: str, limit: int = MAX_UPLOAD_BYTES) -> tuple[bytes, int]:
    """The files under ``path`` (directory_files) as a zip, and how many."""
    buffer = io.BytesIO()
    n = 0
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for full, relative in directory_files(path, limit):
            archive.write(full, relative)
            n += 1
    return buffer.getvalue(), n
