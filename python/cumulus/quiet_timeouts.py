"""Tornado's ``gen.with_timeout`` answers a new future and, when its time is up, fails it with
``TimeoutError('Timeout')`` even when whoever awaited it has gone (Dask's batched sends wait on
one; at shutdown their coroutine is dropped with the event loop). asyncio then prints "Future
exception was never retrieved ... TimeoutError: Timeout" as the script ends: nothing was lost, but
it reads like a failure. This drops that record and only it: a timeout anyone awaited is raised
to them as before, and every other unretrieved exception is still reported."""

from __future__ import annotations

import asyncio
import logging

_ORPHANED = "Future exception was never retrieved"


class OrphanedTornadoTimeout(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str) or not record.msg.startswith(_ORPHANED):
            return True
        error = record.exc_info[1] if record.exc_info else None
        return not (isinstance(error, asyncio.TimeoutError) and error.args == ("Timeout",))


def install() -> None:
    """Adds the filter to asyncio's logger, once."""
    log = logging.getLogger("asyncio")
    if not any(isinstance(f, OrphanedTornadoTimeout) for f in log.filters):
        log.addFilter(OrphanedTornadoTimeout())
