"""GCP spot preload: watches the instance's preemption flag and retires the worker before Compute
Engine takes the VM back.

Compute Engine gives a Spot VM about 30 seconds' notice: its metadata server's
`/computeMetadata/v1/instance/preempted` turns from FALSE to TRUE (every call carries
`Metadata-Flavor: Google`). Once it does, the worker retires gracefully: the scheduler moves its
data to other workers, then it closes. The notice goes in a file the instance's agent reads when
Dask exits, so it reports why (the reconciler then replaces the worker, on demand where the
cluster's policy allows). Only spot workers on Compute Engine load this preload.
"""

from __future__ import annotations

import asyncio
import os
import urllib.request
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed import Worker

METADATA = os.environ.get("CUMULUS_METADATA_URL", "http://metadata.google.internal").rstrip("/")
POLL_SECONDS = float(os.environ.get("CUMULUS_SPOT_POLL_SECONDS") or 5)
NOTICE_FILE = os.environ.get("CUMULUS_SPOT_NOTICE_FILE") or "spot-notice"
REASON = ("Spot interruption: Compute Engine preempts this instance (about 30 seconds' notice); "
          "its worker retired, its data moved to others")


def preempted() -> bool:
    """Whether Compute Engine has begun to take this Spot VM back."""
    request = urllib.request.Request(
        f"{METADATA}/computeMetadata/v1/instance/preempted", headers={"Metadata-Flavor": "Google"},
    )
    with urllib.request.urlopen(request, timeout=2) as answer:
        return answer.read().decode().strip().upper() == "TRUE"


async def watch(worker: Worker) -> None:
    loop = asyncio.get_running_loop()
    while worker.status.name not in ("closing", "closed", "closing_gracefully"):
        try:
            notice = await loop.run_in_executor(None, preempted)
        except (OSError, ValueError):
            notice = False  # the metadata server is out of reach for a moment: look again
        if notice:
            with open(NOTICE_FILE, "w") as out:
                out.write(REASON)
            print(f"cumulus: {REASON}", flush=True)
            await worker.close_gracefully(reason="spot-interruption")
            return
        await asyncio.sleep(POLL_SECONDS)


async def dask_setup(worker: Worker) -> None:
    print(f"cumulus: gcp-spot preload: watching {METADATA} for preemption", flush=True)
    worker._cumulus_spot_watch = asyncio.ensure_future(watch(worker))
