"""``cumulus.Cluster``'s workers: how many it asks the server for (``scale``, which ``adapt`` calls too),
which it retires first, and waiting until they are connected to the scheduler (contract 2.6)."""

from __future__ import annotations

import asyncio
from contextlib import suppress

from dask.utils import parse_timedelta
from distributed.core import Status

from cumulus import arguments, cluster_api
from cumulus.http import CumulusError


class Scaling:
    """Mixed into ``cumulus.Cluster`` (it has ``_call``, ``_api``, ``workspace``, ``cluster_id``, ``_plan``,
    ``observed``, ``scheduler_comm``, ``scheduler_info`` and ``sync``)."""

    @property
    def plan(self) -> set:
        return set(self._plan)

    @property
    def requested(self) -> set:
        return set(self._plan)

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
        """The scheduler moves the workers' data elsewhere and gives them no more tasks, then the server
        stops them: a worker ends only by the server's stop, never by itself first (its agent would
        see Dask exit on its own and report a failure before the server heard it was no longer wanted,
        and the server would replace it). Should the server not hear it, the scheduler closes them."""
        if not workers:
            return
        arrived = [w for w in workers if w in self.observed]
        if arrived and self.scheduler_comm:
            with suppress(OSError):
                await self.scheduler_comm.retire_workers(names=arrived, remove=False, close_workers=False)
        try:
            await self._call(cluster_api.remove_workers, self._api, self.workspace, self.cluster_id, self.name, workers)
        except BaseException:
            if arrived and self.scheduler_comm:
                with suppress(OSError):
                    await self.scheduler_comm.retire_workers(names=arrived, remove=True, close_workers=True)
            raise
        self._plan -= set(workers)

    def wait_for_workers(self, n_workers: int | None = None, timeout=None):
        """Blocks until ``n_workers`` (default: all asked for) are connected to the scheduler."""
        return self.sync(self._wait_for_workers, n_workers, timeout)

    def _update_worker_status(self, op, msg):
        # Dask's watch of the scheduler's workers: a waiter hears of each change as it comes.
        super()._update_worker_status(op, msg)
        for waiter in list(getattr(self, "_worker_waiters", ())):
            if not waiter.done():
                waiter.set_result(None)

    async def _worker_change(self, seconds: float) -> None:
        """Until the scheduler's workers change, or ``seconds`` went by."""
        waiter = asyncio.get_running_loop().create_future()
        waiters = self.__dict__.setdefault("_worker_waiters", set())
        waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter, seconds)
        except asyncio.TimeoutError:
            pass
        finally:
            waiters.discard(waiter)

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
            # Woken by the scheduler's news of a worker; the status and the time limit looked at 4 times a second.
            await self._worker_change(0.25)
