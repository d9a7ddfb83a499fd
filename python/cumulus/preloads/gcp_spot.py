"""GCP spot preload: nothing to watch on the local backend.

On a GCP spot VM this preload would watch for preemption and retire the worker before the VM
goes. Local instances are never preempted, so this one only says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed.core import Server


async def dask_setup(dask_server: Server) -> None:
    print("cumulus: gcp-spot preload: local instance, no preemption to watch", flush=True)
