"""Filestores on an instance: input stores are copied in before the first task, output stores get
what each task wrote (new or changed files) after it ends. Files travel through the signed links
the control plane answers; its calls use the cluster's token."""

import os
import urllib.request

TRANSFER_TIMEOUT = 600


def attachment_dir(attachment, workdir):
    """Where an attachment's files are: its path, under the task work directory unless absolute
    (and under this instance's own root when instances share a machine)."""
    path = attachment.get("path") or "."
    root = os.environ.get("CUMULUS_BATCH_ROOT")
    if os.path.isabs(path):
        return os.path.join(root, path.lstrip("/")) if root else path
    return os.path.normpath(os.path.join(workdir, path))


class Filestores:
    def __init__(self, control, role, say):
        self.control = control
        self.role = role
        self.say = say
        self.attachments = None

    def load(self):
        if self.attachments is None:
            self.attachments = self.control.filestore("GET", f"/vm/{self.role}")["attachments"]
        return self.attachments

    def sync_inputs(self, workdir):
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
                with urllib.request.urlopen(blob["url"], timeout=TRANSFER_TIMEOUT) as res, open(dest, "wb") as out:
                    while chunk := res.read(1 << 20):
                        out.write(chunk)
            self.control.filestore("POST", f"/fs/{fs['id']}/status/finish")
            self.say(f"filestore {fs['name']}: {len(blobs)} file(s) copied into {target}")

    def sync_outputs(self, workdir, since):
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
                    req = urllib.request.Request(urls[relative], data=f, method="PUT")
                    req.add_header("Content-Type", "binary/octet-stream")
                    req.add_header("Content-Length", str(os.path.getsize(full)))
                    urllib.request.urlopen(req, timeout=TRANSFER_TIMEOUT).read()
            self.say(f"filestore {fs['name']}: {len(changed)} file(s) kept")
