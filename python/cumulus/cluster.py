"""``cumulus.Cluster``: a Dask cluster run by a Cumulus server, usable as ``Client(cluster)``.

The server owns the cluster (it starts, watches and stops the scheduler and workers); this class
asks for one, waits for it, connects to its scheduler over mutual TLS, and turns ``scale``,
``adapt`` and ``close`` into the server's calls (contract section 2).
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import datetime
import functools
import logging
import time
import uuid
import weakref
from contextlib import suppress

import dask.config
from dask.utils import parse_timedelta
from distributed.compatibility import PeriodicCallback
from distributed.core import Status, rpc
from distributed.deploy.cluster import Cluster as DeployCluster
from distributed.utils import Log, Logs

from cumulus import arguments, aws_credentials, cluster_api, cluster_arguments, config, firewall, hardware
from cumulus import software as software_api
from cumulus.account import choose_workspace, fetch_identity
from cumulus.cluster_methods import CoiledMethods
from cumulus.http import NO_RETRY, Api, ArgumentError, CumulusError, ServerUnreachable
from cumulus.logs import format_event, instance_names, source
from cumulus.progress import Progress
from cumulus.startup import (
    ClusterCreationError, check, describe, details_version, new_records, summary, wait_target,
)
from cumulus.tls import TlsFiles

logger = logging.getLogger("cumulus")
# While a cluster starts, how long the server may be unreachable before the start is given up.
STARTING_PATIENCE = 120.0
# While a cluster starts, how often its state records are read (for failures to print).
STATES_INTERVAL = 1.0
# How long the server is asked to hold a starting cluster's details until they change.
HELD_DETAILS_SECONDS = 5.0
_live: weakref.WeakSet = weakref.WeakSet()


class Cluster(CoiledMethods, DeployCluster):
    """A cluster on a Cumulus server.

    ``name`` reuses a running cluster of that name, else creates one (``workspace/name`` also
    picks the workspace). ``idle_timeout`` stops it after that long without work;
    ``shutdown_on_close=False`` leaves it running when this object closes, until its idle timeout
    (``no_client_timeout``, by default 2 minutes after the last client left, applies only to
    clusters this object would stop, unless it is given). ``software`` names an
    environment of the workspace to run; without one, ``package_sync`` (the default) makes the
    cluster run what this Python has installed; its build's output is printed only if it fails,
    or with ``verbose=True``. ``wait_for_workers``
    (default: 30% of ``n_workers``) is how many workers must be up before the constructor
    returns. ``server`` and ``token`` override ``CUMULUS_SERVER``/``CUMULUS_API_TOKEN`` and the
    saved login. ``credentials="local"`` (the default) forwards this machine's AWS credentials, as
    short-lived STS session credentials, to the scheduler and workers and refreshes them until the
    cluster closes (nothing is forwarded when there are none); ``credentials=None`` forwards nothing.
    Where the workspace's clusters have a firewall of their own (vm_aws), the scheduler's port opens
    to ``allow_ingress_from`` (``"me"``, the default: this machine's address as the server sees it;
    ``"everyone"``; or a CIDR); ``allow_ssh=True`` opens SSH too (or to ``allow_ssh_from``),
    ``open_extra_ports`` others; ``scheduler_port`` moves the scheduler (``allow_spark`` is refused:
    no Spark runs on a Cumulus cluster). ``worker_class`` (an import path, like
    ``"mypackage.MyWorker"``, importable in the cluster's software environment) is the Dask worker
    class its workers run; the Nanny, the established client's default, means Dask's own worker.
    Coiled's names work too: ``account`` (the workspace), ``compute_purchase_option`` (spot_policy),
    ``n_workers=[minimum, maximum]`` (adaptive), ``send_dask_config`` (default True: this machine's
    Dask config goes to the scheduler and workers), ``use_scheduler_public_ip``, ``show_widget``
    (False: quiet), ``configure_logging``; Coiled's other arguments are refused by name with why
    (``cumulus.cluster_arguments``).
    """

    def __init__(
        self,
        name: str | None = None,
        n_workers: int = 4,
        workspace: str | None = None,
        idle_timeout: str | None = "20 minutes",
        tags: dict | None = None,
        environ: dict | None = None,
        worker_options: dict | None = None,
        shutdown_on_close: bool = True,
        *,
        software: str | None = None,
        package_sync: bool | None = None,
        scheduler_options: dict | None = None,
        wait_for_workers: int | float | bool | None = None,
        timeout: str | float | None = None,
        server: str | None = None,
        token: str | None = None,
        asynchronous: bool = False,
        loop=None,
        quiet: bool = False,
        verbose: bool = False,
        worker_vm_types: list | str | None = None,
        scheduler_vm_types: list | str | None = None,
        worker_cpu: int | list | None = None,
        worker_memory: str | list | None = None,
        scheduler_cpu: int | list | None = None,
        scheduler_memory: str | list | None = None,
        worker_gpu: int | bool | None = None,
        arm: bool | None = None,
        spot_policy: str | None = None,
        region: str | None = None,
        cluster_timeout: str | float | None = None,
        no_client_timeout: str | float | None = None,
        credentials: str | None = "local",
        allow_ingress_from: str | None = None,
        allow_ssh: bool | None = None,
        allow_ssh_from: str | None = None,
        allow_spark: bool | None = None,
        scheduler_port: int | None = None,
        open_extra_ports: list | None = None,
        worker_class: str | None = None,
        account: str | None = None,
        compute_purchase_option: str | None = None,
        send_dask_config: bool = True,
        use_scheduler_public_ip: bool | None = None,
        show_widget: bool | None = None,
        configure_logging: bool | None = None,
        container: str | None = None,
        ignore_container_entrypoint: bool = False,
        **coiled_only,
    ):
        # Every argument is checked before anything is called or printed; a refusal is raised from
        # here, so it reads as one line under the caller's own.
        args = dict(locals())
        try:
            cluster_arguments.refuse_coiled_only(args.pop("coiled_only"))
            workspace = args["workspace"] = cluster_arguments.renamed(
                "Cluster", "workspace", workspace, "account", account)
            spot_policy = args["spot_policy"] = cluster_arguments.renamed(
                "Cluster", "spot_policy", spot_policy, "compute_purchase_option", compute_purchase_option)
            args["n_workers"], self._adaptive_range = cluster_arguments.adaptive_range("Cluster", n_workers)
            for flag in ("send_dask_config", "use_scheduler_public_ip", "show_widget", "configure_logging"):
                arguments.flag("Cluster", flag, args[flag], optional=flag != "send_dask_config")
            n_workers = _check_arguments(args)
            self._hardware = hardware.check("Cluster", args)
            self._firewall = firewall.check("Cluster", args)
        except ArgumentError as err:
            raise err.with_traceback(None) from None
        # What the caller wrote, to name it if the server refuses it.
        self._given = {"n_workers": n_workers, "name": name, "tags": tags, "environ": environ,
                       "worker_options": worker_options, "scheduler_options": scheduler_options,
                       "idle_timeout": idle_timeout, "software": software, "package_sync": package_sync,
                       "cluster_timeout": cluster_timeout, "worker_class": worker_class,
                       **{p: args[p] for p in hardware.PARAMS + firewall.PARAMS}}
        self._worker_class = worker_class or dask.config.get("cumulus.worker.class", None)
        self._send_dask_config = send_dask_config
        self._use_public_ip = (dask.config.get("cumulus.use_scheduler_public_ip", True)
                               if use_scheduler_public_ip is None else use_scheduler_public_ip)
        quiet = quiet or show_widget is False
        if configure_logging and not logger.handlers:
            logger.addHandler(logging.StreamHandler())
            logger.setLevel(logging.INFO)
        self._cluster_timeout = parse_timedelta(cluster_timeout) if cluster_timeout is not None else None
        # A cluster kept on purpose lives to its idle timeout: no no-client stop unless one is asked for.
        self._no_client_timeout = no_client_timeout if no_client_timeout is not None else (
            None if shutdown_on_close else "none")
        self._forward_aws = credentials == "local"
        self._aws_refresh: asyncio.Task | None = None
        self._aws_failing = False
        self._hardware_fields: dict = {}
        self._firewall_fields: dict = {}

        if name and "/" in name:
            workspace, name = name.split("/", 1)
        settings = config.load(server=server, token=token, workspace=workspace)
        self._api = Api.for_settings(settings)
        self._wanted_workspace = settings.workspace
        self._requested_name = name
        if container and software:
            raise ArgumentError(f"Cluster(container={container!r}, software={software!r}): give one of them.")
        if container and package_sync:
            raise ArgumentError(f"Cluster(container={container!r}, package_sync=True): a container environment "
                                "is the image's own packages; give one of them.")
        self._container = (container, not ignore_container_entrypoint) if container else None
        self._software = software
        # Package sync is the default when no environment is named (contract 4.1).
        self._package_sync = package_sync if package_sync is not None else (software is None and not container)
        self._env_id: int | None = None
        self._n_workers = n_workers
        self._idle_timeout = idle_timeout
        self._tags = {k: str(v) for k, v in {**dask.config.get("cumulus.tags", {}), **(tags or {})}.items() if v}
        self._environ = {k: str(v) for k, v in (environ or {}).items()}
        self._worker_options = {**dask.config.get("cumulus.worker-options", {}), **(worker_options or {})}
        self._scheduler_options = {**dask.config.get("cumulus.scheduler-options", {}), **(scheduler_options or {})}
        self._wait_for = dask.config.get("cumulus.wait-for-workers", 0.3) if wait_for_workers is None else wait_for_workers
        self._timeout = parse_timedelta(timeout or dask.config.get("cumulus.timeout", "30 minutes"))
        self.shutdown_on_close = shutdown_on_close
        self.workspace: str | None = None
        self.cluster_id: int | None = None
        self.details: dict = {}
        self.security = None
        self._plan: set = set()
        self._tls: TlsFiles | None = None
        self._created = False
        self._ended_by_server = False
        self._abandoned = False
        self._started_target = 0
        self._asynchronous = asynchronous
        self._progress = Progress(quiet=quiet, verbose=verbose)
        # (step, seconds since the epoch) as the start goes: where its seconds went.
        self._phases: list = [("start", time.time())]
        super().__init__(asynchronous=asynchronous, loop=loop, quiet=quiet, name=name or "(starting)")
        _live.add(self)

        self._loop_runner.start()
        if not asynchronous:
            try:
                self.sync(self._start)
            except BaseException as err:
                # Ctrl+C lands here while the start still runs in the loop's thread.
                with suppress(Exception):
                    self.sync(self._abandon, err)
                if isinstance(err, CumulusError):
                    # The server's (or this client's) own words: one exception, raised here, without
                    # the event loop's frames it passed through.
                    raise err.with_traceback(None) from None
                raise

    def __await__(self):
        async def _():
            if self.status == Status.created:
                try:
                    await self._start()
                except CumulusError as err:
                    raise err.with_traceback(None) from None
            return self

        return _().__await__()

    # --- starting --------------------------------------------------------------------------

    async def _call(self, fn, *args, **kwargs):
        """Runs one blocking API call in a thread, so the event loop keeps serving Dask."""
        return await asyncio.get_running_loop().run_in_executor(None, functools.partial(fn, *args, **kwargs))

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
            if self._forward_aws:
                # Not sent over HTTP either: the scheduler's aws_update_credentials handler takes them.
                await self._forward_aws_credentials()
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

    async def _forward_aws_credentials(self) -> float | None:
        """Sends this machine's AWS credentials to the scheduler and schedules the next refresh;
        answers the seconds until it, or None when there are none to send. A failure only warns
        (once until a send succeeds again): the cluster works on without them."""
        try:
            credentials = await self._call(aws_credentials.credentials_to_forward)
            if credentials is None:
                logger.debug("No local AWS credentials to forward")
                return None
            answer = await self.scheduler_comm.aws_update_credentials(credentials=credentials)
            if answer != "OK":
                raise aws_credentials.CredentialsError(f"the scheduler answered {answer!r}")
        except Exception as err:  # STS refused or is away, or the scheduler is: tried again later
            if not self._aws_failing:
                logger.warning("Your AWS credentials were not forwarded to cluster %s: %s", self.name, err)
            self._aws_failing = True
            delay = aws_credentials.REREAD_SECONDS
        else:
            self._aws_failing = False
            delay = aws_credentials.refresh_delay(credentials)
        if self._aws_refresh:
            self._aws_refresh.cancel()
        self._aws_refresh = asyncio.get_running_loop().create_task(self._refresh_aws_later(delay))
        return delay

    async def _refresh_aws_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._aws_refresh = None
        if self.status not in (Status.closing, Status.closed):
            await self._forward_aws_credentials()

    def refresh_aws_credentials(self) -> float | None:
        """Forwards fresh AWS credentials now (they are also refreshed before they expire); answers
        the seconds until the next automatic refresh."""
        return self.sync(self._forward_aws_credentials)

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
        # The package scan reads every installed distribution's metadata (60-110 ms): it runs while
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
            dask.config.set(_dotted(overrides))

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

    def _body(self, name: str) -> dict:
        """The create call's body (contract 2.2): every key present, cloud-only ones null."""
        scheduler_options = dict(self._scheduler_options)
        idle = self._idle_timeout or dask.config.get("distributed.scheduler.idle-timeout", None)
        if idle:
            scheduler_options["idle_timeout"] = str(idle)
        if self._no_client_timeout is not None:
            # Also over HTTP, so the cluster's page shows it from the start (the keepalive call follows).
            keepalive = str(self._no_client_timeout)
            scheduler_options.setdefault("no_client_timeout", None if keepalive == "none" else keepalive)
        body = dict.fromkeys(
            [
                "worker_instance_types", "scheduler_instance_types", "worker_class", "worker_disk_size",
                "worker_disk_throughput", "worker_disk_config", "scheduler_disk_size", "scheduler_disk_config",
                "private_to_creator", "env_id", "env_name", "extra_worker_on_scheduler", "n_worker_specs_per_host",
                "custom_subdomain", "batch_job_ids", "extra_user_container", "scheduler_sidecars",
                "worker_sidecars", "host_setup_script", "pause_on_exit", "cluster_timeout_seconds",
                "coiled_cloud_env_image", "filestores_to_attach",
            ]
        )
        body.update(
            name=name,
            workers=self._n_workers,
            worker_options=self._worker_options,
            worker_class=self._worker_class,
            scheduler_options=scheduler_options,
            environ=self._environ,
            tags=self._tags,
            dask_config=_shareable_dask_config() if self._send_dask_config else None,
            use_aws_creds_endpoint=False,
            env_id=self._env_id,
            env_name=self._software,
            extra_user_container_ignore_entrypoint=False,
        )
        extra = self._hardware_fields
        walls = self._firewall_fields
        body["worker_options"] = {**extra.get("worker_options", {}), **body["worker_options"]}
        body["scheduler_options"] = {
            **extra.get("scheduler_options", {}), **walls.get("scheduler_options", {}), **body["scheduler_options"]
        }
        for key in ("worker_instance_types", "scheduler_instance_types"):
            if extra.get(key):
                body[key] = extra[key]
        options = {**extra.get("options", {}), **walls.get("options", {})}
        if options:
            body["options"] = options
        if self._cluster_timeout is not None:
            body["cluster_timeout_seconds"] = int(self._cluster_timeout)
        body["local_versions"] = _local_versions()
        return body

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
        scheduler = details["scheduler"]
        instance = scheduler.get("instance") or {}
        public = (details.get("cluster_infra") or {}).get("give_scheduler_public_ip") and self._use_public_ip
        ip = (public and instance.get("public_ip_address")) or instance.get("private_ip_address")
        ip = ip or instance.get("public_ip_address")
        address = f"tls://{ip}:{details.get('scheduler_port', 443)}"
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

    # --- running ---------------------------------------------------------------------------

    async def _check_state(self) -> None:
        """Notices a cluster the server stopped (idle timeout, console, errors) and closes."""
        if self.status != Status.running:
            return
        try:
            answer = await self._call(cluster_api.state, self._api, self.workspace, self.cluster_id)
        except CumulusError as err:
            logger.debug("cluster state check failed: %s", err)
            return
        state = (answer or {}).get("state")
        if state in cluster_api.CLUSTER_STOPPED:
            reason = (answer or {}).get("reason")
            self._log(f"Cluster {self.name} is {state}" + (f": {reason}" if reason else "."))
            self._ended_by_server = True
            await self._close()

    @property
    def plan(self) -> set:
        return set(self._plan)

    @property
    def requested(self) -> set:
        return set(self._plan)

    @property
    def dashboard_link(self) -> str:
        """The server's address for the dashboard, or "" when the scheduler runs without one."""
        return (self.details.get("scheduler") or {}).get("dashboard_address") or ""

    def scale(self, n: int):
        """Asks the server for ``n`` workers in all (contract 2.6)."""
        n = arguments.whole_number("scale", "n", n)
        try:
            return self.sync(self._scale, n)
        except CumulusError as err:
            # The server's (or this client's) own words, without the event loop's frames.
            raise err.with_traceback(None) from None

    async def _scale(self, n: int) -> None:
        n = max(0, int(n))
        self._plan = set(await self._call(cluster_api.live_workers, self._api, self.workspace, self.cluster_id))
        if n > len(self._plan):
            added = await self._call(
                cluster_api.add_workers, self._api, self.workspace, self.cluster_id, n - len(self._plan)
            )
            self._plan |= set(added)
        elif n < len(self._plan):
            await self._scale_down(self._choose_to_close(len(self._plan) - n, await self._closable(n)))

    async def _closable(self, n: int) -> list:
        """Workers the scheduler can lose most cheaply (by name), keeping ``n``."""
        observed = self.observed & self._plan
        if not observed or not self.scheduler_comm:
            return []
        return await self.scheduler_comm.workers_to_close(target=max(0, n - len(self._plan - observed)), attribute="name")

    def _choose_to_close(self, k: int, cheap: list) -> list:
        """Not-yet-arrived workers first, then the scheduler's choice, then any."""
        arriving = sorted(self._plan - self.observed)
        ordered = arriving + [w for w in cheap if w in self._plan] + sorted(self._plan)
        chosen: list = []
        for worker in ordered:
            if worker not in chosen:
                chosen.append(worker)
        return chosen[:k]

    def scale_down(self, workers):
        """Retires ``workers`` (names) on the scheduler, then asks the server to stop them."""
        return self.sync(self._scale_down, list(workers))

    async def _scale_down(self, workers: list) -> None:
        if not workers:
            return
        arrived = [w for w in workers if w in self.observed]
        if arrived and self.scheduler_comm:
            with suppress(OSError):
                await self.scheduler_comm.retire_workers(names=arrived, remove=True, close_workers=True)
        await self._call(cluster_api.remove_workers, self._api, self.workspace, self.cluster_id, self.name, workers)
        self._plan -= set(workers)

    def wait_for_workers(self, n_workers: int | None = None, timeout=None):
        """Blocks until ``n_workers`` (default: all asked for) are connected to the scheduler."""
        return self.sync(self._wait_for_workers, n_workers, timeout)

    async def _wait_for_workers(self, n_workers, timeout) -> None:
        n = len(self._plan) if n_workers is None else int(n_workers)
        limit = parse_timedelta(timeout) if timeout is not None else None
        start = asyncio.get_running_loop().time()
        while len(self.scheduler_info["workers"]) < n:
            if self.status != Status.running:
                raise CumulusError(f"Cluster {self.name} closed while waiting for workers.")
            if limit is not None and asyncio.get_running_loop().time() - start > limit:
                have = len(self.scheduler_info["workers"])
                raise asyncio.TimeoutError(f"Only {have} of {n} workers arrived within {limit} s.")
            await asyncio.sleep(0.1)

    async def _get_logs(self, cluster=True, scheduler=True, workers=True):
        """Logs as the server kept them, so they survive processes that died."""
        logs = Logs()
        if cluster:
            logs["Cluster"] = Log("\n".join(line for _, line in self._cluster_manager_logs))
        details = await self._call(cluster_api.details, self._api, self.workspace, self.cluster_id)
        names = instance_names(details)
        scheduler_name = (details.get("scheduler") or {}).get("name")

        def wanted(name: str) -> bool:
            if name == scheduler_name:
                return bool(scheduler)
            return workers is True or (bool(workers) and not isinstance(workers, bool) and name in workers)

        events = await self._call(lambda: list(cluster_api.better_logs(self._api, self.workspace, self.cluster_id)))
        lines: dict = {}
        for event in events:
            name = source(event, names)
            if wanted(name):
                lines.setdefault(name, []).append(format_event(event, names))
        for name, text in lines.items():
            logs[name] = Log("\n".join(text))
        return logs

    # --- closing ---------------------------------------------------------------------------

    async def _close(self):
        if self.status == Status.closed:
            return
        if self._aws_refresh:
            self._aws_refresh.cancel()
        try:
            await super()._close()
        finally:
            if self._tls:
                self._tls.remove()
        if self.shutdown_on_close and self.cluster_id is not None and not self._ended_by_server:
            try:
                await self._call(
                    cluster_api.delete, self._api, self.workspace, self.cluster_id, "Closed by the Python client"
                )
            except CumulusError as err:
                # Closing goes on (the scheduler connection is closed already): say what is left running.
                logger.warning(
                    "Cluster %s was not stopped: %s. Stop it with `cumulus cluster stop %s` once the server "
                    "answers (its idle timeout also stops it).", self.name, err, self.name,
                )
            else:
                self._log(f"Cluster {self.name} is stopping.")

    def __exit__(self, exc_type, exc_value, traceback):
        super().__exit__(exc_type, exc_value, traceback)
        self._loop_runner.stop()

    def __repr__(self):
        if self.status == Status.running:
            return super().__repr__()
        return f"<{type(self).__name__} {self.name!r} id={self.cluster_id} status={self.status.name}>"


def _check_arguments(given: dict) -> int:
    """Refuses what ``Cluster(...)`` cannot take (ArgumentError); answers n_workers as an int."""
    call = "Cluster"
    name = arguments.optional_text(call, "name", given["name"])
    if name:
        arguments.cluster_name(call, name.split("/", 1)[1] if "/" in name else name)
    n_workers = arguments.whole_number(call, "n_workers", given["n_workers"])
    for param in ("workspace", "software", "server", "token"):
        arguments.optional_text(call, param, given[param])
    for param in ("idle_timeout", "timeout", "cluster_timeout", "no_client_timeout"):
        arguments.optional_duration(call, param, given[param])
    for param in ("tags", "environ", "worker_options", "scheduler_options"):
        arguments.optional_mapping(call, param, given[param])
    arguments.flag(call, "shutdown_on_close", given["shutdown_on_close"])
    arguments.flag(call, "verbose", given["verbose"])
    arguments.flag(call, "package_sync", given["package_sync"], optional=True)
    arguments.workers_to_wait_for(call, given["wait_for_workers"])
    arguments.one_of(call, "credentials", given["credentials"], ("local", "none", None))
    return n_workers


def _local_versions() -> dict:
    """``distributed.versions.get_versions()["packages"]`` read from the installed metadata.

    Dask's own version reads import each package (numpy, pandas: seconds on a busy machine) only
    to ask its version; the metadata says the same without importing anything.
    """
    import sys
    from importlib.metadata import PackageNotFoundError, version

    found: dict = {"python": ".".join(map(str, sys.version_info))}
    for name in ("dask", "distributed", "msgpack", "cloudpickle", "tornado", "toolz", "numpy", "pandas", "lz4"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found


def _dotted(tree: dict, prefix: str = "") -> dict:
    """Nested overrides as dotted keys, so ``dask.config.set`` merges instead of replacing."""
    flat = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(_dotted(value, path + "."))
        else:
            flat[path] = value
    return flat


def _shareable_dask_config():
    """The local Dask config for the cluster, minus what must not or cannot travel.

    The ``cumulus`` section holds the token; non-finite numbers (``distributed.adaptive.maximum``
    is ``inf``) have no JSON form, and the cluster's own defaults stand in for them.
    """
    import json
    import math

    def clean(value):
        if isinstance(value, dict):
            return {str(k): clean(v) for k, v in value.items() if not _non_finite(v)}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value if not _non_finite(v)]
        return value

    def _non_finite(value):
        return isinstance(value, float) and not math.isfinite(value)

    shared = clean({k: v for k, v in dask.config.config.items() if k != "cumulus"})
    try:
        return json.loads(json.dumps(shared, allow_nan=False))
    except (TypeError, ValueError):
        return None


@atexit.register
def _stop_forgotten_clusters() -> None:
    """A script that ends without ``close()`` should not leave its clusters running."""
    for cluster in list(_live):
        if cluster.status == Status.running and cluster.shutdown_on_close and cluster.cluster_id is not None:
            with suppress(Exception):
                cluster._api.request(
                    "DELETE",
                    f"/api/v2/clusters/account/{cluster.workspace}/id/{cluster.cluster_id}",
                    query={"reason": "The Python process exited"},
                    retry=NO_RETRY,
                )


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
