"""Dask preloads the agent hands to the scheduler and workers (served by the control plane)."""

from __future__ import annotations
