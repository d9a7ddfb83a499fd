"""The cluster's software environment where it comes as an archive (vm_aws, vm_gcp): download, unpack, use.

The control plane's bootstrap answers ``environment: {path, url, key}``: the archive is fetched from
the control plane's ``path`` with the cluster token, or (vm_gcp) from ``url``, a short-lived signed
link into the workspace's Cloud Storage bucket, with no token at all; it is unpacked once per machine
under its content hash (``key``), so every instance on a machine, and every cluster whose
environment has the same packages, shares one copy.

Where the machine outlives its clusters (an SSH host, a Slurm cluster's shared home) the copies
would pile up: each instance marks the one it runs from (``.used``, at boot and every hour), and
unpacking removes the others that none has used for ``CUMULUS_ENVIRONMENTS_KEEP_DAYS`` (14) days
and that no process of this machine runs from, with any unpacking that was left half done.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import time
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
        mark_used(target)
        prune(root, keep=target, say=say)
        return python
    os.makedirs(root, exist_ok=True)
    archive = os.path.join(root, f"{key}.{os.getpid()}.tar.gz")
    say(f"downloading software environment {key[:12]}")
    with open(archive, "wb") as out:
        if environment.get("url"):
            # A signed link into the workspace's bucket (vm_gcp): the link is its own credential. The
            # cluster's token goes to the control plane only, never to another URL.
            send("GET", environment["url"], headers={}, timeout=600, into=out, what="the workspace's bucket")
        else:
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
    mark_used(target)
    prune(root, keep=target, say=say)
    return python


def environment_of(python: str) -> str:
    """The unpacked environment an interpreter (``<root>/<key>/bin/python``) is of."""
    return os.path.dirname(os.path.dirname(python))


def mark_used(target: str) -> None:
    """Says an instance runs from this environment now (its ``.used`` file's time)."""
    try:
        with open(os.path.join(target, ".used"), "a"):
            pass
        os.utime(os.path.join(target, ".used"))
    except OSError:
        pass


def _running_from(paths: list[str]) -> set[str]:
    """Those of ``paths`` that a process of this machine runs from (its executable or command line)."""
    found: set[str] = set()
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not pid.isdigit():
            continue
        seen = []
        try:
            seen.append(os.readlink(f"/proc/{pid}/exe"))
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                seen.append(f.read().replace(b"\0", b" ").decode("utf-8", "replace"))
        except OSError:
            pass
        for path in paths:
            if any(path + os.sep in s or s == path for s in seen):
                found.add(path)
    return found


def prune(root: str, keep: str, say: Callable[[str], None], now: float | None = None) -> list[str]:
    """Removes the environments under ``root`` unused for the keep period (``.used``, else
    ``.unpacked``, older) that no process here runs from, and half-done unpackings a day old;
    never ``keep``. Best effort: what cannot be removed stays. Answers what was removed."""
    days = float(os.environ.get("CUMULUS_ENVIRONMENTS_KEEP_DAYS") or 14)
    now = time.time() if now is None else now
    stale: list[str] = []
    try:
        names = os.listdir(root)
    except OSError:
        return []
    for name in names:
        path = os.path.join(root, name)
        if path == keep:
            continue
        try:
            if "." in name:  # `<key>.<pid>` or `<key>.<pid>.tar.gz`: an unpacking in progress, or left behind
                if now - os.path.getmtime(path) > 86400:
                    stale.append(path)
                continue
            marks = [os.path.join(path, ".used"), os.path.join(path, ".unpacked")]
            last = max((os.path.getmtime(m) for m in marks if os.path.exists(m)), default=None)
            if last is not None and now - last > days * 86400:
                stale.append(path)
        except OSError:
            continue
    removed = []
    for path in sorted(set(stale) - _running_from(stale)):
        if os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.remove(path)
            except OSError:
                continue
        if not os.path.exists(path):
            removed.append(path)
    if removed:
        say(f"removed {len(removed)} software environment(s) unused for {days:g} days: "
            + ", ".join(os.path.basename(p)[:12] for p in removed))
    return removed
