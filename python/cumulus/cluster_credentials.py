"""``cumulus.Cluster(credentials="local")``: this machine's AWS credentials, as short-lived STS session
credentials, sent to the scheduler (its ``aws_update_credentials`` handler hands them to every worker)
and sent again before they expire, until the cluster closes."""

from __future__ import annotations

import asyncio
import logging

from distributed.core import Status

from cumulus import aws_credentials

logger = logging.getLogger("cumulus")


class AwsCredentialForwarding:
    """Mixed into ``cumulus.Cluster`` (it has ``_call``, ``scheduler_comm``, ``sync``, ``status``, ``name``,
    ``_aws_refresh`` and ``_aws_failing``)."""

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
