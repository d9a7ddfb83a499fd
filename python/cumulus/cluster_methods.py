"""``Cluster`` methods Coiled's users call that Dask's ``Cluster`` does not have: ``shutdown``,
``send_private_envs`` and ``details_url``."""

from __future__ import annotations

from urllib.parse import quote


class CoiledMethods:
    """Mixed into ``cumulus.Cluster`` (it has ``_api``, ``workspace``, ``cluster_id``, ``shutdown_on_close``)."""

    def shutdown(self) -> None:
        """Stops the cluster and closes this object, whatever ``shutdown_on_close`` says."""
        self.shutdown_on_close = True
        self.close()

    @property
    def details_url(self) -> str:
        """The cluster's page in the Cumulus console."""
        return f"{self._api.server}/clusters/{self.cluster_id}?account={quote(self.workspace or '', safe='')}"

    def send_private_envs(self, env: dict) -> None:
        """Sets environment variables on the scheduler and every worker, present and future, without
        storing them on the server (they travel over the cluster's TLS connection only)."""
        from distributed import Client
        from distributed.diagnostics.plugin import WorkerPlugin

        values = {str(k): str(v) for k, v in dict(env).items()}

        # Defined here, so they travel by value: the cluster's Python need not have cumulus installed.
        class PrivateEnvs(WorkerPlugin):
            name = "cumulus-private-envs"

            def __init__(self, values):
                self.values = values

            def setup(self, worker):
                import os

                os.environ.update(self.values)

        def on_scheduler(values, dask_scheduler=None):
            import os

            os.environ.update(values)

        with Client(self, set_as_default=False) as client:
            client.run_on_scheduler(on_scheduler, values)
            client.register_worker_plugin(PrivateEnvs(values), name=PrivateEnvs.name)
