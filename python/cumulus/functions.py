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

from cumulus import function_options
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
        self._given = dict(options)
        name = options.pop("name", None)
        self._local = bool(options.pop("local", False))
        if self._local:
            self._options, self._adaptive = function_options.local_options(options), None
        else:
            self._options, self._adaptive = function_options.cluster_options(options)
        self.cluster_name = name or cluster_name_for(fn, {**self._options, "adaptive": self._adaptive})
        if self._local:
            self.cluster_name = f"local-{self.cluster_name}"

    # --- the cluster ---------------------------------------------------------------------------

    def _cluster_and_client(self):
        with _lock:
            held = _clusters.get(self.cluster_name)
            if held and held[0].status.name == "running":
                return held
            from distributed import Client, LocalCluster

            if self._local:
                cluster = LocalCluster(**self._options)
                client = Client(cluster, set_as_default=False)
                _clusters[self.cluster_name] = (cluster, client)
                return cluster, client

            from cumulus.cluster import Cluster

            options = dict(self._options)
            options.setdefault("n_workers", self._adaptive["minimum"] if self._adaptive else 1)
            options.setdefault("idle_timeout", "20 minutes")
            tags = {**FUNCTION_TAG, **(options.pop("tags", None) or {})}
            scheduler_options = {"no_client_timeout": None, **(options.pop("scheduler_options", None) or {})}
            options.setdefault("quiet", True)
            options.setdefault("shutdown_on_close", False)
            cluster = Cluster(name=self.cluster_name, tags=tags, scheduler_options=scheduler_options, **options)
            if self._adaptive:
                cluster.adapt(**self._adaptive)
            client = Client(cluster, set_as_default=False)
            _clusters[self.cluster_name] = (cluster, client)
            return cluster, client

    @property
    def cluster(self):
        return self._cluster_and_client()[0]

    @property
    def local(self) -> "Function":
        """The same function run on this machine (a ``distributed.LocalCluster``), as Coiled's ``.local``."""
        kept = {k: v for k, v in self._given.items() if k in function_options.LOCAL and k != "name"}
        return Function(self._fn, {**kept, "local": True})

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
    """Decorates ``fn`` to run on a cluster; ``options`` are Coiled's (``cpu``, ``memory``, ``vm_type``,
    ``gpu``, ``n_workers`` (a number or ``[min, max]``), ``threads_per_worker``, ``keepalive``,
    ``idle_timeout``, ``software``, ``name``, ``environ``, ``local``, ...: function_options.py) or
    ``cumulus.Cluster``'s own, plus ``adaptive=(minimum, maximum)``."""
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
