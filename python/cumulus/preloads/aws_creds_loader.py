"""AWS credentials loader preload: nothing to load on the local backend.

On a cloud VM this preload would install the AWS credentials the client forwards. Local instances
are processes of the control plane's machine and see its environment (AWS_* variables, ~/.aws)
directly, so this one only says so in the log. The credentials a client forwards
(``credentials="local"``) travel through the scheduler preload's ``aws_update_credentials`` handler
and the worker preload's ``cumulus_set_environ``, on every backend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from distributed.core import Server


async def dask_setup(dask_server: Server) -> None:
    print("cumulus: aws-creds-loader preload: local instance, credentials come from its environment", flush=True)
