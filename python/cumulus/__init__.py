"""Cumulus: the Python client (``cumulus.Cluster``, ``cumulus login``) and the instance agent.

Only the standard library and ``distributed`` are used.
"""

__version__ = "0.1.0"
