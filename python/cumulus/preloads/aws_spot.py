"""AWS spot preload: watches the instance's interruption notice and retires the worker before EC2
takes the instance back.

EC2 gives a spot instance two minutes' notice in its instance metadata
(`/latest/meta-data/spot/instance-action`, 404 until then; IMDSv2: a session token first). Once
it appears, the worker retires gracefully: the scheduler moves its data to other workers, then it
closes. The notice goes in a file the instance's agent reads when Dask exits, so it reports why
(the reconciler then replaces the worker). Only spot workers on EC2 load this preload.
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed import Worker

METADATA = os.environ.get("CUMULUS_METADATA_URL", "http://169.254.169.254").rstrip("/")
POLL_SECONDS = float(os.environ.get("CUMULUS_SPOT_POLL_SECONDS") or 5)
NOTICE_FILE = os.environ.get("CUMULUS_SPOT_NOTICE_FILE") or "spot-notice"


def interruption_notice() -> dict | None:
    """The notice as EC2 serves it ({"action": "terminate", "time": "..."}), or None before one."""
    token_request = urllib.request.Request(
        f"{METADATA}/latest/api/token", method="PUT",
        headers={"X-aws-ec2-metadata-token-ttl-seconds": "300"},
    )
    with urllib.request.urlopen(token_request, timeout=2) as answer:
        token = answer.read().decode()
    request = urllib.request.Request(
        f"{METADATA}/latest/meta-data/spot/instance-action", headers={"X-aws-ec2-metadata-token": token},
    )
    try:
        with urllib.request.urlopen(request, timeout=2) as answer:
            return json.loads(answer.read().decode() or "{}")
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise


async def watch(worker: Worker) -> None:
    loop = asyncio.get_running_loop()
    while worker.status.name not in ("closing", "closed", "closing_gracefully"):
        try:
            notice = await loop.run_in_executor(None, interruption_notice)
        except (OSError, ValueError):
            notice = None  # the metadata service is out of reach for a moment: look again
        if notice:
            reason = (f"Spot interruption: EC2 {notice.get('action', 'reclaims')} this instance at "
                      f"{notice.get('time', 'any moment')}; its worker retired, its data moved to others")
            with open(NOTICE_FILE, "w") as out:
                out.write(reason)
            print(f"cumulus: {reason}", flush=True)
            await worker.close_gracefully(reason="spot-interruption")
            return
        await asyncio.sleep(POLL_SECONDS)


async def dask_setup(worker: Worker) -> None:
    print(f"cumulus: aws-spot preload: watching {METADATA} for the spot interruption notice", flush=True)
    worker._cumulus_spot_watch = asyncio.ensure_future(watch(worker))
