"""The cluster's software environment where it comes as an archive (vm_aws): download, unpack, use.

The control plane's bootstrap answers ``environment: {path, key}``: the archive is fetched with the
cluster token and unpacked once per machine under its content hash (``key``), so every instance
on a machine, and every cluster whose environment has the same packages, shares one copy.
"""

from __future__ import annotations

import os
import shutil
import tarfile
from typing import TYPE_CHECKING, Callable

from cumulus.http import send

if TYPE_CHECKING:
    from .control import ControlPlane


def environments_root(workdir: str) -> str:
    """Beside the instances' work dirs (``$CUMULUS_WORK_DIR/environments``), or CUMULUS_ENVIRONMENTS_DIR."""
    return os.environ.get("CUMULUS_ENVIRONMENTS_DIR") or os.path.join(os.path.dirname(workdir), "environments")


def unpacked_python(control: ControlPlane, environment: dict, workdir: str, say: Callable[[str], None]) -> str:
    """The interpreter of the unpacked environment, downloading and unpacking it first if needed."""
    key = "".join(ch for ch in environment["key"] if ch.isalnum())[:64]
    root = environments_root(workdir)
    target = os.path.join(root, key)
    python = os.path.join(target, "bin", "python")
    if os.path.exists(os.path.join(target, ".unpacked")):
        say(f"software environment {key[:12]} is unpacked here already")
        return python
    os.makedirs(root, exist_ok=True)
    archive = os.path.join(root, f"{key}.{os.getpid()}.tar.gz")
    say(f"downloading software environment {key[:12]}")
    with open(archive, "wb") as out:
        send("GET", control.server + environment["path"], headers={"Authorization": f"Bearer {control.token}"},
             timeout=600, into=out, what="the control plane")
    work = f"{target}.{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    with tarfile.open(archive) as tar:
        tar.extractall(work, filter="tar") if hasattr(tarfile, "tar_filter") else tar.extractall(work)
    os.remove(archive)
    open(os.path.join(work, ".unpacked"), "w").close()
    try:
        os.rename(work, target)
    except OSError:
        # Another instance on this machine unpacked it meanwhile: theirs is as good.
        shutil.rmtree(work, ignore_errors=True)
    say(f"software environment {key[:12]} unpacked at {target}")
    return python
