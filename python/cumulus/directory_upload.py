"""The files of a local directory that go to a cluster: ``cumulus run``'s working directory (a zip,
``pack_directory``) and ``cumulus notebook``'s synced directory (``directory_files``), without version
control, caches and virtual environments, and refused past ``MAX_UPLOAD_BYTES``."""

from __future__ import annotations

import io
import os
import zipfile

from cumulus.http import CumulusError
from cumulus.sizes import MIB

MAX_UPLOAD_BYTES = 100 * MIB
# Not sent along: version control, caches and virtual environments.
SKIPPED_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".cumulus", ".mypy_cache",
                ".pytest_cache", ".ipynb_checkpoints", ".tox"}


def directory_files(path: str, limit: int = MAX_UPLOAD_BYTES):
    """The files under ``path`` (not under SKIPPED_DIRS, no links) as (full path, path relative to it,
    "/"-separated), directories first-visited in order; refuses once they add up past ``limit``."""
    total = 0
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            full = os.path.join(root, name)
            if not os.path.isfile(full) or os.path.islink(full):
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
