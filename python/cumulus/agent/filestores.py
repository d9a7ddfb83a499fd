"""Filestores on an instance: input stores are copied in before the first task, output stores get
what each task wrote (new or changed files) after it ends. Files travel through the signed links
the control plane answers; its calls use the cluster's token."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

from cumulus.http import IDEMPOTENT, send

if TYPE_CHECKING:
    from .control import ControlPlane

TRANSFER_TIMEOUT = 600


def attachment_dir(attachment: dict, workdir: str) -> str:
    """Where an attachment's files are: its path, under the task work directory unless absolute
    (and under this instance's own root when instances share a machine)."""
    path = attachment.get("path") or "."
    root = os.environ.get("CUMULUS_BATCH_ROOT")
    if os.path.isabs(path):
        return os.path.join(root, path.lstrip("/")) if root else path
    return os.path.normpath(os.path.join(workdir, path))


class Filestores:
    def __init__(self, control: ControlPlane, role: str, say: Callable[[str], None]) -> None:
        self.control = control
        self.role = role
        self.say = say
        self.attachments = None

    def load(self) -> list:
        if self.attachments is None:
            self.attachments = self.control.filestore("GET", f"/vm/{self.role}")["attachments"]
        return self.attachments

    def sync_inputs(self, workdir: str) -> None:
        for a in self.load():
            if not a["input"]:
                continue
            fs = a["filestore"]
            target = attachment_dir(a, workdir)
            self.control.filestore("POST", f"/fs/{fs['id']}/status/start")
            blobs = self.control.filestore("GET", f"/fs/{fs['id']}/download-with-urls")["blobs_with_urls"]
            for blob in blobs:
                dest = os.path.normpath(os.path.join(target, blob["relative_path"]))
                if not dest.startswith(os.path.normpath(target) + os.sep):
                    continue
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "wb") as out:
                    send("GET", blob["url"], timeout=TRANSFER_TIMEOUT, into=out, retry=IDEMPOTENT)
            self.control.filestore("POST", f"/fs/{fs['id']}/status/finish")
            self.say(f"filestore {fs['name']}: {len(blobs)} file(s) copied into {target}")

    def sync_outputs(self, workdir: str, since: float) -> None:
        """Uploads what changed in each output store's directory since `since` (epoch seconds)."""
        for a in self.load():
            if not a["output"]:
                continue
            fs = a["filestore"]
            source = attachment_dir(a, workdir)
            changed = []
            for folder, _dirs, files in os.walk(source):
                for name in files:
                    full = os.path.join(folder, name)
                    if os.path.getmtime(full) >= since:
                        changed.append(os.path.relpath(full, source).replace(os.sep, "/"))
            if not changed:
                continue
            urls = self.control.filestore("POST", f"/fs/{fs['id']}/signed-urls/upload", {"paths": changed})["urls"]
            for relative in changed:
                full = os.path.join(source, relative)
                with open(full, "rb") as f:
                    send("PUT", urls[relative], data=f, timeout=TRANSFER_TIMEOUT, retry=IDEMPOTENT,
                         headers={"Content-Type": "binary/octet-stream", "Content-Length": str(os.path.getsize(full))})
            self.say(f"filestore {fs['name']}: {len(changed)} file(s) kept")
