"""Dask preloads the agent hands to the scheduler and workers (served by the control plane)."""
