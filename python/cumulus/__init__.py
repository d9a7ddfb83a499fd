"""Cumulus: the Python client (``cumulus.Cluster``, ``cumulus login``) and the instance agent.

Only the standard library and ``distributed`` are used. ``Cluster`` is imported on first use, so
the CLI and the agent start without loading Dask's client machinery.
"""

__version__ = "0.1.0"

_COILED_API = (
    "cluster_logs", "create_software_environment", "delete_cluster", "delete_software_environment",
    "get_software_info", "list_clusters", "list_core_usage", "list_gpu_types", "list_instance_types",
    "list_software_environments",
)

_COILED_ACCOUNT = (
    "AWSOptions", "BackendOptions", "GCPOptions", "diagnostics", "get_billing_activity", "list_local_versions",
    "list_performance_reports", "list_user_information", "performance_report", "set_backend_options",
)

__all__ = ["Cluster", "batch", "function", "run", "__version__", *_COILED_API, *_COILED_ACCOUNT]


def __getattr__(name):
    if name == "Cluster":
        from cumulus.cluster import Cluster

        return Cluster
    if name == "run":
        from cumulus.run_command import run

        return run
    if name == "function":
        from cumulus.functions import function

        return function
    if name == "batch":
        import cumulus.batch

        return cumulus.batch
    if name in _COILED_API:
        from cumulus import coiled_api

        return getattr(coiled_api, name)
    if name in _COILED_ACCOUNT:
        from cumulus import coiled_account

        return getattr(coiled_account, name)
    raise AttributeError(f"module 'cumulus' has no attribute {name!r}")
