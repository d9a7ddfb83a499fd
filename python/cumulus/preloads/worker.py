"""Worker preload: says in the worker's log which cluster and instance it belongs to, adds to
the worker's heartbeat the bytes it has sent to other workers (the scheduler's analytics report
them as `transferred`), and takes the variables the scheduler forwards (the client's
``credentials="local"``: AWS credentials or a Google access token; ``coiled_update_env_vars``) into
the worker's environment, where tasks read them."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed import Worker
    from distributed.comm import Comm

def set_environ(comm: Comm | None = None, environ: dict[str, str | None] | None = None) -> str:
    """``cumulus_set_environ``: the scheduler's push of forwarded variables (None unsets one); the
    agent's own (``CUMULUS_*``) are never replaced."""
    for name, value in (environ or {}).items():
        if not name or name.startswith("CUMULUS_"):
            continue
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = str(value)
    return "OK"


async def dask_setup(worker: Worker) -> None:
    print(
        f"cumulus: worker {worker.name} of cluster {os.environ.get('CUMULUS_CLUSTER_NAME', '?')} "
        f"on instance {os.environ.get('CUMULUS_BACKEND_ID', '?')}",
        flush=True,
    )
    # In every heartbeat to the scheduler (WorkerState.metrics): a counter that only grows.
    worker.metrics["cumulus_sent_bytes"] = lambda w: getattr(w, "transfer_outgoing_bytes_total", 0)
    worker.handlers["cumulus_set_environ"] = set_environ
