"""``cumulus run --name NAME`` on a run cluster that is already up, without ``distributed``.

Three calls of the control plane (who the caller is, the cluster of that name, its details) find the
scheduler and the cluster's certificate; one connection to the scheduler (``dask_wire``) sends the
command to the ``runs`` preload's handler and reads its output and exit code. Nothing of Dask's
client is imported: the command starts a few hundred milliseconds after ``cumulus run`` does, where
a ``distributed.Client`` takes a second. Whenever this way cannot serve the run exactly as the
client would, ``reused_run`` answers None and ``run_command`` goes the usual way (the cluster
started or joined through ``cumulus.Cluster``):

- no running cluster of that name, or its scheduler not ready;
- a scheduler without the handler (started before this release);
- credentials to forward (``credentials="local"`` with AWS credentials on this machine, or any on
  Compute Engine): ``Cluster`` forwards them and renews them while the command runs.
"""

from __future__ import annotations

import contextlib
from typing import Callable

from cumulus import aws_credentials, cluster_api, config, gcp_credentials
from cumulus.account import choose_workspace, fetch_identity
from cumulus.dask_wire import SchedulerWire, WireError, tls_context
from cumulus.http import Api, CumulusError
from cumulus.startup import scheduler_address, scheduler_ready
from cumulus.tls import TlsFiles



def _forwards_credentials(credentials: str | None, backend: str | None) -> bool:
    if credentials is None:
        return False
    return backend in gcp_credentials.GOOGLE_BACKENDS or aws_credentials.local_credentials() is not None


def reused_run(
    command: str, *, name: str, workspace: str | None, server: str | None, token: str | None,
    archive: bytes, variables: dict, cpus: int | None, credentials: str | None, run_id: str,
    on_output: Callable[[str, str], None], say: Callable[[str], None], preamble: list[str],
) -> int | None:
    """Runs ``command`` on the running run cluster ``name``; answers its exit code, or None when the
    usual way must serve it (nothing has run then). ``on_output(stream, text)`` gets the output;
    ``say`` the lines the usual way prints before it (``preamble``: what was sent along)."""
    settings = config.load(server, token, workspace)
    api = Api.for_settings(settings)
    ws = choose_workspace(fetch_identity(api), settings.workspace)
    cluster_id = cluster_api.find_id(api, ws, name)
    if cluster_id is None:
        return None
    details = cluster_api.details(api, ws, cluster_id)
    options = details.get("cluster_options") or {}
    if not scheduler_ready(details) or not options.get("tls_cert") or not options.get("tls_key"):
        return None
    if _forwards_credentials(credentials, details.get("backend_type")):
        return None
    address = scheduler_address(details, bool(config.setting("cumulus.use_scheduler_public_ip", True)))
    tls = TlsFiles(options["tls_cert"], options["tls_key"])
    try:
        try:
            wire = SchedulerWire(address, tls_context(tls.cert, tls.key))
        except (OSError, WireError):
            return None  # the usual way says what is wrong with the scheduler, or waits for it
        with wire:
            said = [f"Using the running cluster {name} ({cluster_id}) in workspace {ws}.", *preamble,
                    f"Running on {name}: {command}"]
            return _run(wire, command, archive, variables, cpus, run_id, on_output, lambda: [*map(say, said)])
    finally:
        tls.remove()


def _run(wire: SchedulerWire, command: str, archive: bytes, variables: dict, cpus: int | None, run_id: str,
         on_output: Callable[[str, str], None], started: Callable[[], object]) -> int | None:
    wire.call("cumulus_run", run_id=run_id, command=command, archive=archive, env=variables, cpus=cpus)
    first = True
    try:
        while True:
            message = wire.read()
            if isinstance(message, dict) and "status" in message:
                # The handler failed (distributed's error message; the exception itself is not read here).
                raise CumulusError(f"cumulus run: the scheduler could not run the command: "
                                   f"{message.get('exception_text') or message.get('status')}")
            if not isinstance(message, dict):
                if first:
                    return None  # no such handler: a scheduler started without the runs preload
                raise CumulusError(f"cumulus run: the scheduler answered {message!r}")
            if first:
                started()
                first = False
            if "code" in message:
                wire.write({"done": True})
                return int(message["code"])
            on_output(message["stream"], message["text"])
    except KeyboardInterrupt:
        # Ctrl-C: the command is stopped (closing the connection would stop it too).
        with contextlib.suppress(OSError):
            wire.write({"stop": True})
        raise
    except (OSError, WireError) as err:
        # The scheduler went away mid-run (its cluster stopped, its host lost): said, not a traceback.
        raise CumulusError(f"cumulus run: the connection to the scheduler was lost while the command ran "
                           f"({err}); the cluster's logs have its output so far.") from None
