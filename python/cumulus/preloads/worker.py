"""Worker preload: says in the worker's log which cluster and instance it belongs to, and adds to
the worker's heartbeat the bytes it has sent to other workers (the scheduler's analytics report
them as `transferred`)."""

import os


async def dask_setup(worker):
    print(
        f"cumulus: worker {worker.name} of cluster {os.environ.get('CUMULUS_CLUSTER_NAME', '?')} "
        f"on instance {os.environ.get('CUMULUS_BACKEND_ID', '?')}",
        flush=True,
    )
    # In every heartbeat to the scheduler (WorkerState.metrics): a counter that only grows.
    worker.metrics["cumulus_sent_bytes"] = lambda w: getattr(w, "transfer_outgoing_bytes_total", 0)
