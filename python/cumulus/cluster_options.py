"""What ``cumulus.Cluster(...)`` was given: every argument checked before anything is called or printed
(an ``ArgumentError`` naming it), Coiled's names for them settled (``cumulus.cluster_arguments``),
then kept on the cluster object with the Dask config's ``cumulus.*`` defaults for what was left out,
and the server to ask (``config.load``: the arguments, the environment, the saved login)."""

from __future__ import annotations

import asyncio

import logging
import time

import dask.config
from dask.utils import parse_timedelta

from cumulus import arguments, cluster_arguments, config, firewall, hardware
from cumulus.http import Api, ArgumentError
from cumulus.progress import Progress

logger = logging.getLogger("cumulus")
# What the caller wrote (beside n_workers and the hardware and firewall arguments), to name it if the
# server refuses it.
GIVEN = ("name", "tags", "environ", "worker_options", "scheduler_options", "idle_timeout", "software",
         "package_sync", "cluster_timeout", "worker_class")


class ClusterOptions:
    """Mixed into ``cumulus.Cluster``: its ``__init__`` hands ``locals()`` to ``_check_options``, then to
    ``_keep_options``."""

    def _check_options(self, args: dict) -> None:
        """Refuses what ``Cluster(...)`` cannot take (ArgumentError); Coiled's names (``account``,
        ``compute_purchase_option``) become ours in ``args``; keeps ``n_workers`` as an int, the
        adaptive range, the hardware and the firewall asked for."""
        cluster_arguments.refuse_coiled_only(args.pop("coiled_only"))
        args["workspace"] = cluster_arguments.renamed(
            "Cluster", "workspace", args["workspace"], "account", args["account"])
        args["spot_policy"] = cluster_arguments.renamed(
            "Cluster", "spot_policy", args["spot_policy"], "compute_purchase_option", args["compute_purchase_option"])
        args["n_workers"], self._adaptive_range = cluster_arguments.adaptive_range("Cluster", args["n_workers"])
        for flag in ("send_dask_config", "use_scheduler_public_ip", "show_widget", "configure_logging"):
            arguments.flag("Cluster", flag, args[flag], optional=flag != "send_dask_config")
        self._n_workers = _check_arguments(args)
        self._hardware = hardware.check("Cluster", args)
        self._firewall = firewall.check("Cluster", args)
        container, software, package_sync = args["container"], args["software"], args["package_sync"]
        if container and software:
            raise ArgumentError(f"Cluster(container={container!r}, software={software!r}): give one of them.")
        if container and package_sync:
            raise ArgumentError(f"Cluster(container={container!r}, package_sync=True): a container environment "
                                "is the image's own packages; give one of them.")

    def _keep_options(self, args: dict) -> None:
        """Keeps the checked ``args`` as the attributes the start, the create call and closing read."""
        self._given = {"n_workers": self._n_workers, **{p: args[p] for p in GIVEN + hardware.PARAMS + firewall.PARAMS}}
        self._worker_class = args["worker_class"] or dask.config.get("cumulus.worker.class", None)
        self._send_dask_config = args["send_dask_config"]
        public_ip = args["use_scheduler_public_ip"]
        self._use_public_ip = dask.config.get("cumulus.use_scheduler_public_ip", True) if public_ip is None else public_ip
        if args["configure_logging"] and not logger.handlers:
            logger.addHandler(logging.StreamHandler())
            logger.setLevel(logging.INFO)
        cluster_timeout, no_client_timeout = args["cluster_timeout"], args["no_client_timeout"]
        self._cluster_timeout = parse_timedelta(cluster_timeout) if cluster_timeout is not None else None
        # A cluster kept on purpose lives to its idle timeout: no no-client stop unless one is asked for.
        self._no_client_timeout = no_client_timeout if no_client_timeout is not None else (
            None if args["shutdown_on_close"] else "none")
        self._forward_credentials_local = args["credentials"] == "local"
        self._credentials_refresh = None
        self._credentials_failing = False
        self._credentials_lock: asyncio.Lock | None = None
        self._hardware_fields: dict = {}
        self._firewall_fields: dict = {}
        self._keep_server(args)
        self._keep_request(args)
        self.shutdown_on_close = args["shutdown_on_close"]
        self.workspace: str | None = None
        self.cluster_id: int | None = None
        self.details: dict = {}
        self.security = None
        self._plan: set = set()
        self._tls = None
        self._created = False
        self._ended_by_server = False
        self._abandoned = False
        self._started_target = 0
        self._asynchronous = args["asynchronous"]
        self._progress = Progress(quiet=args["quiet"] or args["show_widget"] is False, verbose=args["verbose"])
        # (step, seconds since the epoch) as the start goes: where its seconds went.
        self._phases: list = [("start", time.time())]

    def _keep_server(self, args: dict) -> None:
        """The server and workspace to ask, and the cluster name asked for (``workspace/name`` picks both)."""
        name, workspace = args["name"], args["workspace"]
        if name and "/" in name:
            workspace, name = name.split("/", 1)
        settings = config.load(server=args["server"], token=args["token"], workspace=workspace)
        self._api = Api.for_settings(settings)
        self._wanted_workspace = settings.workspace
        self._requested_name = name

    def _keep_request(self, args: dict) -> None:
        """What the cluster runs and how it starts, with the Dask config's ``cumulus.*`` defaults."""
        container, software, package_sync = args["container"], args["software"], args["package_sync"]
        self._container = (container, not args["ignore_container_entrypoint"]) if container else None
        self._software = software
        # Package sync is the default when no environment is named (contract 4.1).
        self._package_sync = package_sync if package_sync is not None else (software is None and not container)
        self._env_id: int | None = None
        self._idle_timeout = args["idle_timeout"]
        tags = {**dask.config.get("cumulus.tags", {}), **(args["tags"] or {})}
        self._tags = {k: str(v) for k, v in tags.items() if v}
        self._environ = {k: str(v) for k, v in (args["environ"] or {}).items()}
        self._worker_options = {**dask.config.get("cumulus.worker-options", {}), **(args["worker_options"] or {})}
        self._scheduler_options = {**dask.config.get("cumulus.scheduler-options", {}),
                                   **(args["scheduler_options"] or {})}
        wait_for_workers = args["wait_for_workers"]
        self._wait_for = dask.config.get("cumulus.wait-for-workers", 0.3) if wait_for_workers is None else wait_for_workers
        self._timeout = parse_timedelta(args["timeout"] or dask.config.get("cumulus.timeout", "30 minutes"))


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
