"""Cumulus: the Python client (``cumulus.Cluster``, ``cumulus login``) and the instance agent.

Only the standard library and ``distributed`` are used. ``Cluster`` is imported on first use, so
the CLI and the agent start without loading Dask's client machinery.
"""

__version__ = "0.1.0"

__all__ = ["Cluster", "function", "run", "__version__"]


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
    raise AttributeError(f"module 'cumulus' has no attribute {name!r}")
