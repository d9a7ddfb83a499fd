"""``cumulus.Cluster``: a Dask cluster run by a Cumulus server, usable as ``Client(cluster)``.

The server owns the cluster (it starts, watches and stops the scheduler and workers); this class
asks for one, waits for it, connects to its scheduler over mutual TLS, and turns ``scale``,
``adapt`` and ``close`` into the server's calls (contract section 2). Its parts are mixed in from
modules of their own: the arguments checked and kept (``cluster_options``; Coiled's other
arguments refused in ``cluster_arguments``), the start (``cluster_start``), the create call's body
(``cluster_body``), forwarded AWS credentials (``cluster_credentials``), scaling
(``cluster_scaling``) and Coiled's own methods (``cluster_methods``); this module holds the class,
watching a running cluster, its logs and closing.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import logging
import weakref
from contextlib import suppress

from distributed.core import Status
from distributed.deploy.cluster import Cluster as DeployCluster
from distributed.utils import Log, Logs

from cumulus import cluster_api, quiet_timeouts
from cumulus.cluster_body import CreateBody
from cumulus.cluster_credentials import CredentialForwarding
from cumulus.cluster_methods import CoiledMethods
from cumulus.cluster_options import ClusterOptions
from cumulus.cluster_scaling import Scaling
from cumulus.cluster_start import Starting
from cumulus.http import NO_RETRY, ArgumentError, CumulusError
from cumulus.logs import format_event, instance_names, source

logger = logging.getLogger("cumulus")
# A script that used a cluster ends without tornado's orphaned-timeout noise (quiet_timeouts.py).
quiet_timeouts.install()
_live: weakref.WeakSet = weakref.WeakSet()


class Cluster(CoiledMethods, ClusterOptions, Starting, CreateBody, CredentialForwarding, Scaling, DeployCluster):
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
    saved login. ``credentials="local"`` (the default) forwards this machine's credentials for the
    cluster's cloud, short-lived (a Google access token on Compute Engine, STS session credentials
    of AWS elsewhere), to the scheduler and workers and refreshes them until the cluster closes
    (nothing is forwarded when there are none); ``credentials=None`` forwards nothing.
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
        worker_gpu_type: str | None = None,
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
            self._check_options(args)
        except ArgumentError as err:
            raise err.with_traceback(None) from None
        self._keep_options(args)
        super().__init__(asynchronous=asynchronous, loop=loop, quiet=self._progress.quiet,
                         name=self._requested_name or "(starting)")
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

    async def _call(self, fn, *args, **kwargs):
        """Runs one blocking API call in a thread, so the event loop keeps serving Dask."""
        return await asyncio.get_running_loop().run_in_executor(None, functools.partial(fn, *args, **kwargs))

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
        except RuntimeError:
            # The interpreter is exiting (its thread pool shut down) with a cluster kept running on
            # purpose (shutdown_on_close=False): nothing to check, and nothing to print.
            return
        state = (answer or {}).get("state")
        if state in cluster_api.CLUSTER_STOPPED:
            reason = (answer or {}).get("reason")
            self._log(f"Cluster {self.name} is {state}" + (f": {reason}" if reason else "."))
            self._ended_by_server = True
            await self._close()

    @property
    def dashboard_link(self) -> str:
        """The server's address for the dashboard, or "" when the scheduler runs without one."""
        return (self.details.get("scheduler") or {}).get("dashboard_address") or ""

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
        if self._credentials_refresh:
            self._credentials_refresh.cancel()
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
