"""Filestores from the client (client-contract section 6): named stores of files a batch job's
cluster reads its inputs from and writes its outputs to. Files go up and down through the
expiring links the server answers."""

from __future__ import annotations

import os
import urllib.request

from cumulus.http import IDEMPOTENT, Api, CumulusError

TRANSFER_TIMEOUT = 600


def get_or_create(api: Api, ws: str, name: str) -> dict:
    return api.request("POST", "/api/v2/filestore/list", json_body={"names": [name], "workspace": ws,
                                                                    "region": None})["filestores"][0]


def upload_dir(api: Api, store: dict, directory: str) -> int:
    """Sends the files of `directory` not already in the store (same path and size); answers how many."""
    if not os.path.isdir(directory):
        raise CumulusError(f"--upload {directory}: not a directory.")
    paths = []
    for folder, _dirs, files in os.walk(directory):
        for name in files:
            paths.append(os.path.relpath(os.path.join(folder, name), directory).replace(os.sep, "/"))
    if not paths:
        return 0
    answer = api.request("POST", f"/api/v2/filestore/fs/{store['id']}/signed-urls/upload", json_body={"paths": paths})
    sent = 0
    for relative in paths:
        full = os.path.join(directory, relative)
        size = os.path.getsize(full)
        if answer["existing"].get(relative, {}).get("size") == size:
            continue
        with open(full, "rb") as f:
            req = urllib.request.Request(answer["urls"][relative], data=f, method="PUT")
            req.add_header("Content-Type", "binary/octet-stream")
            req.add_header("Content-Length", str(size))
            urllib.request.urlopen(req, timeout=TRANSFER_TIMEOUT).read()
        sent += 1
    return sent


def download_dir(api: Api, store_id: int, directory: str) -> int:
    """Fetches every file of the store into `directory`; answers how many."""
    blobs = api.request("GET", f"/api/v2/filestore/fs/{store_id}/download-with-urls", retry=IDEMPOTENT)
    root = os.path.abspath(directory)
    count = 0
    for blob in blobs["blobs_with_urls"]:
        dest = os.path.abspath(os.path.join(root, blob["relative_path"]))
        if not dest.startswith(root + os.sep):
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with urllib.request.urlopen(blob["url"], timeout=TRANSFER_TIMEOUT) as res, open(dest, "wb") as out:
            while chunk := res.read(1 << 20):
                out.write(chunk)
        count += 1
    return count
