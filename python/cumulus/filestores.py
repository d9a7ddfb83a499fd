"""Filestores from the client (client-contract section 6): named stores of files a batch job's
cluster reads its inputs from and writes its outputs to. Files go up and down through the
expiring links the server answers."""

from __future__ import annotations

import os

from cumulus.http import IDEMPOTENT, Api, CumulusError, send

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
            send("PUT", answer["urls"][relative], data=f, timeout=TRANSFER_TIMEOUT, retry=IDEMPOTENT,
                 headers={"Content-Type": "binary/octet-stream", "Content-Length": str(size)},
                 what=f"the filestore's upload link for {relative}")
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
        with open(dest, "wb") as out:
            send("GET", blob["url"], into=out, timeout=TRANSFER_TIMEOUT, retry=IDEMPOTENT,
                 what=f"the filestore's download link for {blob['relative_path']}")
        count += 1
    return count
