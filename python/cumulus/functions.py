"""``@cumulus.function``: a Python function that runs on a cluster of its own.

    @cumulus.function(n_workers=2, worker_cpu=2)
    def train(x): ...

    train(1)                   # runs remotely, answers the result
    list(train.map(range(10))) # results in input order, computed in parallel
    train.submit(1)            # a Dask future

The cluster is ``cumulus.Cluster(name=...)``, named from the function and its options, so every
call, in this process or another, reuses the running one; it is left running when the process
ends and stops after its idle timeout. An exception in the function is raised at the caller
with its remote traceback (Dask sends it back).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
import threading
from collections import deque
from typing import Any, Callable, Iterator

from cumulus.http import ArgumentError

FUNCTION_TAG = {"cumulus-cluster-type": "function"}
# How many inputs of `map` are submitted ahead of the result being read.
MAP_WINDOW = 1000
_clusters: dict = {}
_lock = threading.Lock()


def cluster_name_for(fn: Callable, options: dict) -> str:
    """``function-<name>-<hash>``: the same function with the same options finds the same cluster."""
    described = json.dumps({"fn": f"{fn.__module__}.{fn.__qualname__}", "options": options}, sort_keys=True,
                           default=repr)
    digest = hashlib.sha256(described.encode()).hexdigest()[:8]
    base = re.sub(r"[^A-Za-z0-9_.-]", "-", fn.__name__)[:60].strip("-.") or "fn"
    return f"function-{base}-{digest}"


class Function:
    """A function and the cluster it runs on (made, or found by name, at its first call)."""

    def __init__(self, fn: Callable, options: dict):
        if not callable(fn):
            raise ArgumentError(f"cumulus.function({fn!r}): decorate a function.")
        functools.update_wrapper(self, fn)
        self._fn = fn
        adaptive = options.pop("adaptive", None)
        if adaptive is not None:
            if isinstance(adaptive, (list, tuple)) and len(adaptive) == 2:
                adaptive = {"minimum": adaptive[0], "maximum": adaptive[1]}
            if not isinstance(adaptive, dict):
                raise ArgumentError(f"cumulus.function(adaptive={adaptive!r}): adaptive must be (minimum, maximum).")
        self._adaptive = adaptive
        self._options = options
        self.cluster_name = options.pop("name", None) or cluster_name_for(fn, {**options, "adaptive": adaptive})

    # --- the cluster ---------------------------------------------------------------------------

    def _cluster_and_client(self):
        with _lock:
            held = _clusters.get(self.cluster_name)
            if held and held[0].status.name == "running":
                return held
            from distributed import Client

            from cumulus.cluster import Cluster

            options = dict(self._options)
            options.setdefault("n_workers", self._adaptive["minimum"] if self._adaptive else 1)
            options.setdefault("idle_timeout", "20 minutes")
            tags = {**FUNCTION_TAG, **(options.pop("tags", None) or {})}
            scheduler_options = {"no_client_timeout": None, **(options.pop("scheduler_options", None) or {})}
            options.setdefault("quiet", True)
            cluster = Cluster(name=self.cluster_name, tags=tags, scheduler_options=scheduler_options,
                              shutdown_on_close=False, **options)
            if self._adaptive:
                cluster.adapt(**self._adaptive)
            client = Client(cluster, set_as_default=False)
            _clusters[self.cluster_name] = (cluster, client)
            return cluster, client

    @property
    def cluster(self):
        return self._cluster_and_client()[0]

    @property
    def client(self):
        return self._cluster_and_client()[1]

    # --- calling -------------------------------------------------------------------------------

    def submit(self, *args, **kwargs):
        """A Dask future of ``f(*args, **kwargs)`` on the function's cluster."""
        return self.client.submit(self._fn, *args, pure=False, **kwargs)

    def __call__(self, *args, **kwargs) -> Any:
        return self.submit(*args, **kwargs).result()

    def map(self, *iterables, **kwargs) -> Iterator:
        """Results of ``f`` over the inputs, in input order, as they are read; up to MAP_WINDOW
        inputs are computing ahead of the one read, so the cluster stays busy."""
        client = self.client
        pending: deque = deque()
        inputs = zip(*iterables)
        for args in itertools.islice(inputs, MAP_WINDOW):
            pending.append(client.submit(self._fn, *args, pure=False, **kwargs))
        while pending:
            future = pending.popleft()
            for args in itertools.islice(inputs, 1):
                pending.append(client.submit(self._fn, *args, pure=False, **kwargs))
            yield future.result()

    def __repr__(self):
        return f"<cumulus.function {self.__name__} on cluster {self.cluster_name}>"


def function(fn: Callable | None = None, **options):
    """Decorates ``fn`` to run on a cluster; ``options`` are ``cumulus.Cluster``'s (software, hardware,
    environ, idle_timeout, n_workers, ...) plus ``adaptive=(minimum, maximum)`` and ``name``."""
    if fn is not None:
        return Function(fn, options)
    return lambda f: Function(f, dict(options))


def close_all() -> None:
    """Closes this process's clients (the clusters keep running until their idle timeout)."""
    with _lock:
        for cluster, client in _clusters.values():
            client.close()
            cluster.close()
        _clusters.clear()
