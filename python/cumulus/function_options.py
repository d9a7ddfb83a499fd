"""``@cumulus.function``'s options as Coiled documents them, turned into ``cumulus.Cluster``'s.

Coiled's names map to the Cluster's (``cpu`` -> ``worker_cpu``, ``memory`` -> ``worker_memory``,
``vm_type`` -> ``worker_vm_types``, ``gpu`` -> ``worker_gpu``, ``threads_per_worker`` -> the workers'
``nthreads``, ``keepalive`` -> ``no_client_timeout``, ``account`` -> ``workspace``); ``n_workers`` may
be ``[min, max]`` (adaptive). Options this server cannot honour are refused by name.
"""

from __future__ import annotations

from cumulus.http import ArgumentError

RENAMED = {"cpu": "worker_cpu", "memory": "worker_memory", "vm_type": "worker_vm_types", "gpu": "worker_gpu",
           "keepalive": "no_client_timeout", "account": "workspace"}
REFUSED = {
    "disk_size": "workers use their instance type's disk",
    "package_sync_ignore": "give software= to choose the environment instead",
}
# What a local=True function uses; anything else is for a cluster, not this machine.
LOCAL = ("n_workers", "threads_per_worker", "memory", "environ", "name", "shutdown_on_close")


def refuse(name: str, value, why: str) -> ArgumentError:
    return ArgumentError(f"cumulus.function({name}={value!r}): {name} is not supported: {why}.")


def cluster_options(options: dict) -> tuple[dict, dict | None]:
    """Cluster keyword arguments and the adaptive range (``{"minimum", "maximum"}`` or None)."""
    options = {**(options.pop("extra_kwargs", None) or {}), **options}
    for name, why in REFUSED.items():
        if options.get(name) is not None:
            raise refuse(name, options[name], why)
    out = {RENAMED.get(k, k): v for k, v in options.items() if v is not None and k not in REFUSED}
    threads = out.pop("threads_per_worker", None)
    if threads is not None:
        out["worker_options"] = {**(out.get("worker_options") or {}), "nthreads": threads}
    adaptive = out.pop("adaptive", None)
    n_workers = out.get("n_workers")
    if isinstance(n_workers, (list, tuple)):
        adaptive = out.pop("n_workers")
    if adaptive is not None:
        if isinstance(adaptive, (list, tuple)) and len(adaptive) == 2:
            adaptive = {"minimum": adaptive[0], "maximum": adaptive[1]}
        if not isinstance(adaptive, dict):
            raise ArgumentError(f"cumulus.function(n_workers={adaptive!r}): a range must be [minimum, maximum].")
    return out, adaptive


def local_options(options: dict) -> dict:
    """``distributed.LocalCluster`` arguments of a local=True function."""
    for name, value in options.items():
        if name not in LOCAL and value is not None:
            raise refuse(name, value, "the function runs on this machine (local=True)")
    n_workers = options.get("n_workers") or 1
    if isinstance(n_workers, (list, tuple)):
        n_workers = n_workers[-1] or n_workers[0]
    out = {"n_workers": n_workers, "threads_per_worker": options.get("threads_per_worker") or 1,
           "processes": True, "dashboard_address": ":0"}
    if options.get("memory") is not None:
        out["memory_limit"] = options["memory"]
    if options.get("environ"):
        out["env"] = {k: str(v) for k, v in options["environ"].items()}
    return out
