"""The instance agent: what every instance of a Cumulus cluster runs (``python -m cumulus.agent``).

It asks the control plane what to run (bootstrap), runs the Dask scheduler or a worker, reports
states and addresses (phone-home), ships output lines as logs, heartbeats, and stops when told or
when the control plane has been unreachable too long. Standard library and ``distributed`` only,
and nothing specific to local processes: the same agent runs on cloud VMs. See PROTOCOL.md.
"""

from __future__ import annotations
