"""How ``cumulus.Cluster`` starts: the identity and workspace, a running cluster of that name or a new
one (package sync or a container's environment first, when asked), waiting until the server has it
ready (its progress and failures printed as they come), then the scheduler connection over mutual
TLS; a start that fails or is interrupted stops what it created and says why."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import time
import uuid
from contextlib import suppress

import dask.config
from dask.utils import parse_timedelta
from distributed.compatibility import PeriodicCallback
from distributed.core import Status, rpc
from distributed.deploy.cluster import Cluster as DeployCluster

from cumulus import arguments, cluster_api, firewall, hardware
from cumulus import software as software_api
from cumulus.account import choose_workspace, fetch_identity
from cumulus.cluster_body import dotted
from cumulus.http import ArgumentError, CumulusError, ServerUnreachable
from cumulus.startup import (
    ClusterCreationError, check, describe, details_version, new_records, scheduler_address, summary, wait_target,
)
from cumulus.tls import TlsFiles

# While a cluster starts, how long the server may be unreachable before the start is given up.
STARTING_PATIENCE = 120.0
# While a cluster starts, how often its state records are read (for failures to print).
STATES_INTERVAL = 1.0
# How long the server is asked to hold a starting cluster's details until they change.
HELD_DETAILS_SECONDS = 5.0


class Starting:
    """Mixed into ``cumulus.Cluster`` (it has ``_call``, the options ``_keep_options`` kept, ``_body``,
    ``_forward_credentials`` and ``_wait_for_workers``, and Dask's ``Cluster`` after it)."""

    async def _start(self):
        if self.status != Status.created:
            return
        self.status = Status.starting
        try:
            await self._launch()
            await super()._start()
            self._mark("scheduler connected")
            if self._no_client_timeout is not None:
                # Not sent over HTTP: the scheduler's keepalive handler takes it (contract 2.2, 3).
                await self.scheduler_comm.coiled_set_keepalive(keepalive=str(self._no_client_timeout))
            if self._forward_credentials_local:
                # Not sent over HTTP either: the scheduler's handlers take them (cluster_credentials.py).
                await self._forward_credentials()
                self._mark("credentials forwarded")
            # The server counts a worker once its process runs; wait until the scheduler has it too.
            await self._wait_for_workers(self._started_target, self._timeout)
            self._mark("workers connected")
            if self._adaptive_range:
                minimum, maximum = self._adaptive_range
                self.adapt(minimum=minimum, maximum=maximum)
        except BaseException as err:
            await self._abandon(err)
            raise
        # Told to the server in the background: the cluster is the caller's as soon as it is ready.
        asyncio.get_running_loop().run_in_executor(None, self._report_created)

    def _report_created(self) -> None:
        with suppress(Exception):
            cluster_api.report_interaction(
                self._api, "cluster-create", True, data={"cluster_id": self.cluster_id, "workspace": self.workspace}
            )

    def _log(self, log: str) -> None:
        """A line that stays (kept with the cluster's logs too)."""
        self._cluster_manager_logs.append((datetime.datetime.now(), log))
        self._progress.line(log)

    def _status(self, text: str) -> None:
        """Where the start is: one line redrawn in place on a terminal, not printed elsewhere."""
        self._cluster_manager_logs.append((datetime.datetime.now(), text))
        self._progress.status(text)

    def _mark(self, step: str) -> None:
        self._phases.append((step, time.time()))

    async def _launch(self):
        # The package scan reads every installed distribution's metadata (20-30 ms here): it runs while
        # the calls before package sync wait for their answers.
        scan = _in_background(software_api.scan, "cumulus-package-scan") if self._package_sync else None
        identity = await self._call(fetch_identity, self._api)
        self.workspace = choose_workspace(identity, self._wanted_workspace)
        name = self._requested_name
        # Asked at once, not one after another: each is a round trip before the create.
        overrides, existing_id, backend = await asyncio.gather(
            self._call(cluster_api.dask_config_overrides, self._api, self.workspace),
            self._call(cluster_api.find_id, self._api, self.workspace, name) if name else _none(),
            self._call(software_api.builds_environments, self._api, self.workspace) if self._package_sync
            else _none(),
            return_exceptions=True,
        )
        # Raised as they would have been one after another; the backend's only when it is used.
        for answer in (overrides, existing_id):
            if isinstance(answer, BaseException):
                raise answer
        if overrides:
            dask.config.set(dotted(overrides))

        if not name:
            name = f"{self.workspace}-{uuid.uuid4().hex[:8]}"
        self.name = name
        if existing_id is not None:
            self.cluster_id = existing_id
            self._log(f"Using the running cluster {name} ({existing_id}) in workspace {self.workspace}.")
        else:
            if self._package_sync:
                if isinstance(backend, BaseException):
                    raise backend
                if backend is not None:
                    why = software_api.no_builds_text(self.workspace, backend)
                    if self._given["package_sync"] is True:
                        raise CumulusError(f"package_sync=True cannot be honoured: {why}.")
                    self._log(f"Package sync skipped: {why}.")
                    self._package_sync = False
            if self._package_sync:
                self._status("Syncing this environment's packages to the cluster...")
                alias = await self._call(
                    software_api.package_sync, self._api, self.workspace, self._log, status=self._status,
                    show_log=self._progress.verbose, mark=self._mark,
                    scan_result=scan.result if scan else software_api.scan,
                )
                self._env_id = int(alias["id"])
            if self._container:
                image, use_entrypoint = self._container
                # The image becomes a named environment of the workspace (built once: pulled and
                # checked for Dask). The cluster is made once it is built, so that the server checks
                # the image's Dask against this client's (local_versions) at create.
                self._status(f"Using the container image {image}...")
                self._software = await self._call(
                    software_api.container_env, self._api, self.workspace, image, use_entrypoint, self._log,
                    status=self._status, show_log=self._progress.verbose)
            self._mark("package sync done" if self._package_sync else "identity")
            try:
                self._hardware_fields = await self._call(hardware.fields_for, self._api, self.workspace, self._hardware)
                self._firewall_fields = await self._call(firewall.fields_for, self._api, self.workspace, self._firewall)
            except ArgumentError as err:
                raise err.with_traceback(None) from None
            workers = f"{self._n_workers} worker{'' if self._n_workers == 1 else 's'}"
            try:
                self.cluster_id, existing = await self._call(
                    cluster_api.create, self._api, self.workspace, self._body(name)
                )
            except CumulusError as err:
                raise arguments.refused_by_server(err, self._given) from None
            # Said once the server took it: a refusal is the only line of a refused create.
            self._log(f"Creating cluster {name} in workspace {self.workspace} with {workers}...")
            self._created = not existing
            self._mark("create")
        details = await self._wait_until_ready()
        self._mark("ready")
        self._plan = set(await self._call(cluster_api.live_workers, self._api, self.workspace, self.cluster_id))
        self._connect(details)
        interval = parse_timedelta(dask.config.get("cumulus.cluster-state-check-interval", "10s"))
        self.periodic_callbacks["cumulus-state"] = PeriodicCallback(self._check_state, interval * 1000)


    async def _wait_until_ready(self) -> dict:
        loop = asyncio.get_running_loop()
        began = loop.time()
        deadline = began + self._timeout
        seen: set = set()
        newest = None
        shown = None
        away_since = None
        states_due = began
        version = None
        while True:
            if self._abandoned:
                raise ClusterCreationError("Interrupted while the cluster was starting.")
            asked = loop.time()
            try:
                # Held by the server until the details change (or HELD_DETAILS_SECONDS went by):
                # the client hears the cluster ready when it is, in a request or two per change.
                details = await self._call(cluster_api.details, self._api, self.workspace, self.cluster_id,
                                           version, min(HELD_DETAILS_SECONDS, max(0.0, deadline - loop.time())))
            except ServerUnreachable as err:
                # A start already under way outlasts a short outage (a server restarting), not a long one.
                if away_since is None:
                    away_since = loop.time()
                    self._log(f"  {err}; waiting for it")
                if loop.time() - away_since > STARTING_PATIENCE:
                    raise
                await asyncio.sleep(1)
                continue
            away_since = None
            self.details = details
            desired = int(details.get("desired_workers", self._n_workers) or 0)
            self._started_target = wait_target(self._wait_for, desired)
            failed = None
            try:
                ready = check(details, self._started_target)
            except ClusterCreationError as err:
                ready, failed = False, err
            # State records say only what failed (the summary line says the rest): read once a
            # second, as the established client does, and always before giving up.
            if failed or loop.time() >= states_due:
                states_due = loop.time() + STATES_INTERVAL
                with suppress(CumulusError):
                    records = await self._call(cluster_api.states, self._api, self.workspace, self.cluster_id, newest)
                    for updated, kind, record in new_records(records, seen):
                        newest = max(newest or updated, updated)
                        line = describe(kind, record)
                        # A reused cluster's history is old news; only what happens from now on is shown.
                        if line and (self._created or shown is not None):
                            self._log(f"  {line}")
            progress = summary(details)
            if progress != shown:
                self._status(f"  [{loop.time() - began:3.0f}s] {progress}")
                shown = progress
            if failed:
                raise failed
            if ready:
                return details
            if loop.time() > deadline:
                raise ClusterCreationError(f"Cluster {self.name} was not ready after {self._timeout:.0f} s ({progress}).")
            # Asked again at once, held until the details change. An answer as it was and sooner than
            # asked for (a server that does not hold) is asked for again as before: often at first,
            # less often as it goes on.
            unchanged_early = details_version(details) == version and loop.time() - asked < HELD_DETAILS_SECONDS / 2
            version = details_version(details)
            if unchanged_early:
                elapsed = loop.time() - began
                await asyncio.sleep(0.1 if elapsed < 5 else 0.25 if elapsed < 20 else 1)

    def _connect(self, details: dict) -> None:
        self.details = details
        address = scheduler_address(details, self._use_public_ip)
        options = details.get("cluster_options") or {}
        self._tls = TlsFiles(options["tls_cert"], options["tls_key"])
        self.security = self._tls.security()
        self.scheduler_comm = rpc(address, connection_args=self.security.get_connection_args("client"))
        self._log(f"Cluster {self.name} is ready: scheduler at {address}.")

    async def _abandon(self, err: BaseException) -> None:
        """A start that failed or was interrupted: stop what this call created, say why."""
        if self._abandoned:
            return
        self._abandoned = True
        self._progress.done()
        if isinstance(err, (KeyboardInterrupt, asyncio.CancelledError)):
            message = "Interrupted while the cluster was starting"
        else:
            message = f"The Python client could not start: {str(err) or type(err).__name__}"
        if self.cluster_id is not None and self._created:
            with suppress(Exception):
                await self._call(cluster_api.delete, self._api, self.workspace, self.cluster_id, message)
        with suppress(Exception):
            await self._call(cluster_api.report_interaction, self._api, "cluster-create", False, error=message[:10000])
        with suppress(Exception):
            await DeployCluster._close(self)
        if self._tls:
            self._tls.remove()
        self.status = Status.closed


async def _none():
    """What a call not made answers (beside calls made at once with ``asyncio.gather``)."""
    return None


def _in_background(fn, name: str) -> concurrent.futures.Future:
    """Runs ``fn`` in a thread of its own that ends with it; its future answers what it returns."""
    pool = concurrent.futures.ThreadPoolExecutor(1, name)
    try:
        return pool.submit(fn)
    finally:
        pool.shutdown(wait=False)
