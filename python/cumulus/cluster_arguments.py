"""Coiled's ``Cluster`` arguments that ``cumulus.Cluster`` does not take as its own: each refused by
name with why (an ``ArgumentError`` before anything is sent), never accepted and ignored.

An argument left at Coiled's default asks for nothing and passes; any other value is refused.
Coiled's names for what ``Cluster`` does take are renamed here (``account`` -> ``workspace``,
``compute_purchase_option`` -> ``spot_policy``).
"""

from __future__ import annotations

from cumulus.http import ArgumentError

_SOFTWARE = "give software= (an environment, which may be built from an image: create_software_environment)"
_DISK = "instances use their instance type's disk"
_PACKAGE_SYNC = "package sync installs what this Python has; name an environment with software= to choose otherwise"
_NOT_ON_CLUSTER = "use cumulus.batch.run for batch jobs"

# name: (Coiled's default, which asks for nothing; why any other value is refused)
REFUSED: dict = {
    "worker_disk_size": (None, _DISK),
    "worker_disk_throughput": (None, _DISK),
    "worker_disk_config": (None, _DISK),
    "scheduler_disk_size": (None, _DISK),
    "scheduler_disk_config": (None, _DISK),
    "scheduler_gpu": (None, "the scheduler's instance has no GPU here; workers have them (worker_gpu)"),
    "cloud": (None, "Cumulus has no Cloud session object: give server= and token=, or sign in with `cumulus login`"),
    "use_dashboard_https": (None, "the dashboard is served through the Cumulus server's own address"),
    "dashboard_custom_subdomain": (None, "the dashboard is served through the Cumulus server's own address"),
    "credentials_duration_seconds": (None, "forwarded AWS credentials last as long as STS grants and are refreshed"),
    "unset_single_threading_variables": (None, "workers keep Dask's single-threading variables (OMP_NUM_THREADS=1 "
                                               "and the like) as Dask's nanny sets them"),
    "backend_options": (None, "a workspace's cloud options are set up in the console or with `cumulus setup`; give "
                              "region=, spot_policy=, allow_ingress_from= for this cluster"),
    "custom_widget": (None, "the start is shown as lines of text (quiet=True for none)"),
    "package_sync_strict": (False, _PACKAGE_SYNC),
    "package_sync_conda_extras": (None, _PACKAGE_SYNC),
    "package_sync_ignore": (None, _PACKAGE_SYNC),
    "package_sync_only": (None, _PACKAGE_SYNC),
    "package_sync_fail_on": ("critical-only", _PACKAGE_SYNC),
    "package_sync_use_uv_installer": (True, "the server's build agent chooses its installer"),
    "private_to_creator": (None, "every member of a workspace sees its clusters"),
    "use_best_zone": (None, "the workspace's backend places instances"),
    "allow_cross_zone": (False, "the workspace's backend places instances"),
    "extra_worker_on_scheduler": (None, "the scheduler's instance runs the scheduler only"),
    "_n_worker_specs_per_host": (None, "each worker has an instance of its own"),
    "jupyter": (None, "start a notebook with `cumulus notebook start` or the console's Notebooks page"),
    "mount_bucket": (None, "instances reach buckets with the forwarded credentials (credentials='local')"),
    "batch_job_ids": (None, _NOT_ON_CLUSTER),
    "batch_job_container": (None, _NOT_ON_CLUSTER),
    "scheduler_sidecars": (None, "instances run Dask without containers: no sidecars"),
    "worker_sidecars": (None, "instances run Dask without containers: no sidecars"),
    "pause_on_exit": (None, "clusters stop, they are not paused, when their work ends"),
    "filestores_to_attach": (None, "filestores are attached to batch jobs (cumulus.batch.run)"),
    "host_setup_script": (None, "clusters run no host setup script here (batch jobs do: cumulus.batch.run)"),
}


def refuse_coiled_only(given: dict) -> None:
    """Raises for the first of ``given`` (Coiled-only arguments) that asks for something: by name with
    why, or as Python does for a name Coiled's ``Cluster`` does not have either."""
    for name, value in given.items():
        if name not in REFUSED:
            raise TypeError(f"Cluster.__init__() got an unexpected keyword argument {name!r}")
        default, why = REFUSED[name]
        if value is not None and value != default:
            raise ArgumentError(f"Cluster({name}={value!r}): {name} is not supported by Cumulus: {why}.")


def renamed(call: str, ours: str, ours_value, theirs: str, theirs_value):
    """The value of a parameter Coiled also names ``theirs`` (``account`` for ``workspace``)."""
    if theirs_value is None:
        return ours_value
    if ours_value is not None and ours_value != theirs_value:
        raise ArgumentError(f"{call}({ours}={ours_value!r}, {theirs}={theirs_value!r}): give one of them "
                            f"({theirs} is Coiled's name for {ours}).")
    return theirs_value


def adaptive_range(call: str, n_workers) -> tuple[object, tuple | None]:
    """Coiled's ``n_workers=[minimum, maximum]`` (adaptive scaling): the workers to start with and the range."""
    if not isinstance(n_workers, (list, tuple)):
        return n_workers, None
    if len(n_workers) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in n_workers) \
            or n_workers[0] > n_workers[1]:
        raise ArgumentError(f"{call}(n_workers={n_workers!r}): a range is [minimum, maximum], two whole numbers "
                            f"with minimum <= maximum.")
    return n_workers[0], (n_workers[0], n_workers[1])
