"""The create call's body (contract 2.2) for ``cumulus.Cluster``: every key present, cloud-only ones
null, with the versions of this machine's Dask and the part of its Dask config that may travel."""

from __future__ import annotations

import dask.config


class CreateBody:
    """Mixed into ``cumulus.Cluster`` (it has the options ``_keep_options`` kept and the fields
    ``hardware.fields_for`` and ``firewall.fields_for`` answered)."""

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
            dask_config=shareable_dask_config() if self._send_dask_config else None,
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
        body["local_versions"] = local_versions()
        return body


def local_versions() -> dict:
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


def dotted(tree: dict, prefix: str = "") -> dict:
    """Nested overrides as dotted keys, so ``dask.config.set`` merges instead of replacing."""
    flat = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(dotted(value, path + "."))
        else:
            flat[path] = value
    return flat


def shareable_dask_config():
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
