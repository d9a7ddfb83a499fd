"""A Dask preload the agent gives every scheduler and worker it starts (by path: the cluster's own
environment need not have this package).

A worker's registration carries its package versions (``distributed.versions.get_versions``), and
the scheduler reads its own at the first registration: each imports numpy and pandas the first
time, about half a second of a fresh process, spent while the worker and the scheduler wait for
each other. Dask imports a preload well before that (a worker, before it has its scheduler's
address); reading the versions then, in a thread, takes that half second off the start.
"""

import threading


def _read_versions():
    try:
        from distributed.versions import get_versions

        get_versions()
    except Exception:  # noqa: BLE001 - an optimisation only: Dask reads them again when it needs them
        pass


# Dask imports a preload file twice (once to check it, once to run it); one reading is enough.
if not any(t.name == "cumulus-read-versions" for t in threading.enumerate()):
    threading.Thread(target=_read_versions, name="cumulus-read-versions", daemon=True).start()
