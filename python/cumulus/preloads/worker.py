"""Worker preload: says in the worker's log which cluster and instance it belongs to."""

import os


async def dask_setup(worker):
    print(
        f"cumulus: worker {worker.name} of cluster {os.environ.get('CUMULUS_CLUSTER_NAME', '?')} "
        f"on instance {os.environ.get('CUMULUS_BACKEND_ID', '?')}",
        flush=True,
    )
