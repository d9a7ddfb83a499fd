"""``cumulus.Cluster(credentials="local")``: this machine's cloud credentials on the cluster, short-lived,
sent to the scheduler (which hands them to every worker, workers that join later too) and sent
again before they expire, until the cluster closes. Which cloud's: Google's on Compute Engine
(``vm_gcp``: an OAuth2 access token, ``gcp_credentials.py``), AWS's elsewhere (STS session
credentials, ``aws_credentials.py``), as Coiled forwards the credentials of the cloud the cluster
runs in."""

from __future__ import annotations

import asyncio
import logging

from distributed.core import Status

from cumulus import aws_credentials, gcp_credentials

logger = logging.getLogger("cumulus")

GOOGLE_BACKENDS = gcp_credentials.GOOGLE_BACKENDS


class CredentialForwarding:
    """Mixed into ``cumulus.Cluster`` (it has ``_call``, ``scheduler_comm``, ``sync``, ``status``, ``name``,
    ``details``, ``_credentials_refresh``, ``_credentials_failing`` and ``_credentials_lock``)."""

    def _forwards_google(self) -> bool:
        return (self.details or {}).get("backend_type") in GOOGLE_BACKENDS

    async def _send_aws(self) -> float | None:
        credentials = await self._call(aws_credentials.credentials_to_forward)
        if credentials is None:
            logger.debug("No local AWS credentials to forward")
            return None
        answer = await self.scheduler_comm.aws_update_credentials(credentials=credentials)
        if answer != "OK":
            raise aws_credentials.CredentialsError(f"the scheduler answered {answer!r}")
        return aws_credentials.refresh_delay(credentials)

    async def _send_google(self) -> float | None:
        found = await self._call(gcp_credentials.token_to_forward)
        if found is None:
            logger.debug("No local Google credentials to forward")
            return None
        # Coiled's client sends the token the same way (contract 3: coiled_update_env_vars).
        answer = await self.scheduler_comm.coiled_update_env_vars(env=gcp_credentials.environ_of(found))
        if answer != "OK":
            raise gcp_credentials.CredentialsError(f"the scheduler answered {answer!r}")
        return gcp_credentials.refresh_delay(found)

    async def _forward_credentials(self) -> float | None:
        """Sends this machine's credentials for the cluster's cloud to the scheduler and schedules the
        next refresh; answers the seconds until it, or None when there are none to send. A failure
        only warns (once until a send succeeds again): the cluster works on without them. One at a
        time: a send started later never lands before an earlier one (older credentials last)."""
        if self._credentials_lock is None:
            self._credentials_lock = asyncio.Lock()
        async with self._credentials_lock:
            return await self._forward_credentials_now()

    async def _forward_credentials_now(self) -> float | None:
        google = self._forwards_google()
        try:
            delay = await (self._send_google() if google else self._send_aws())
            if delay is None:
                return None
        except Exception as err:  # the token service refused or is away, or the scheduler is: tried again later
            if not self._credentials_failing:
                logger.warning("Your %s credentials were not forwarded to cluster %s: %s",
                               "Google" if google else "AWS", self.name, err)
            self._credentials_failing = True
            delay = gcp_credentials.REREAD_SECONDS if google else aws_credentials.REREAD_SECONDS
        else:
            self._credentials_failing = False
        if self._credentials_refresh:
            self._credentials_refresh.cancel()
        self._credentials_refresh = asyncio.get_running_loop().create_task(self._refresh_credentials_later(delay))
        return delay

    async def _refresh_credentials_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._credentials_refresh = None
        if self.status not in (Status.closing, Status.closed):
            await self._forward_credentials()

    def refresh_credentials(self) -> float | None:
        """Forwards fresh credentials now (they are also refreshed before they expire); answers the
        seconds until the next automatic refresh, or None when this machine has none to send."""
        return self.sync(self._forward_credentials)

    # The name Cumulus's earlier releases had (AWS's credentials were the only ones forwarded).
    refresh_aws_credentials = refresh_credentials
