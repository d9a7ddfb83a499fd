"""Calls to the Cumulus API, with the retry and error rules every client of this API shares.

Built on urllib so the client needs nothing beyond the standard library; async callers run the
same code in a thread (``Api.arequest``), which keeps one code path for retries and errors. Calls
outside the API (signed upload and download links, STS, Jupyter's contents API) and the instance
agent's calls go through ``send``, the same attempts under the same rules. The scheduler preloads do
not: each is served as a file of its own and runs in an interpreter that may not have this package.
"""

from __future__ import annotations

import functools
import http.client
import json
import os
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import IO, Any, Callable

from cumulus import __version__

# A busy or restarting server answers these; clients wait rather than fail (contract 0.4).
BUSY_STATUSES = frozenset({429, 502, 503, 504})
GATEWAY_STATUSES = frozenset({502, 503, 504})
RETRY_SECONDS = 300.0
MAX_PAUSE = 15.0
# How long one attempt may wait for the server. Short: every call answers at once (long work is
# done by the server's loops and polled), so a server that says nothing this long is reported,
# not waited for; a few calls that make the server work before answering get the long one.
REQUEST_TIMEOUT = 6.0
SLOW_REQUEST_TIMEOUT = 60.0
# A connection dropped without an answer (a server restarting mid-call) is tried again this long;
# a refused one is reported at once: nothing listens there.
CONNECTION_RETRY_SECONDS = 5.0


class CumulusError(Exception):
    """An answer the server refused, carrying its message as the user should read it."""

    def __init__(self, message: str, status: int | None = None, body: Any = None):
        super().__init__(message)
        self.status = status
        self.body = body


class AuthenticationError(CumulusError):
    pass


class PermissionsError(CumulusError):
    pass


class NotFound(CumulusError):
    pass


class ServerUnreachable(CumulusError):
    pass


class ArgumentError(CumulusError, ValueError):
    """An argument the client refuses before calling the server, named as the caller wrote it."""


class HttpError(CumulusError):
    """An error answer from a URL outside the API (``send``): ``status``, and ``body`` as text."""


class _Failed(Exception):
    """An attempt that will not be tried again: the status (None: no answer), reason and body."""

    def __init__(self, status: int | None, reason: str, body: Any):
        super().__init__(reason)
        self.status, self.reason, self.body = status, reason, body


class Retry:
    """How long to keep trying, and on what.

    ``statuses``: answers that mean "try again later". ``connection``: also retry, briefly, when
    the connection drops without an answer (only safe for idempotent calls). ``seconds``: None
    means forever. ``timeout``: how long one attempt waits for the server (None: ``request_timeout()``).
    """

    def __init__(self, statuses=BUSY_STATUSES, connection=False, seconds: float | None = RETRY_SECONDS,
                 timeout: float | None = None):
        self.statuses = statuses
        self.connection = connection
        self.seconds = seconds
        self.timeout = timeout


NO_RETRY = Retry(statuses=frozenset(), seconds=0)
DEFAULT = Retry()  # contract 0.4 `_do_request`
SLOW = Retry(timeout=SLOW_REQUEST_TIMEOUT)  # creates and uploads the server works on before answering
IDEMPOTENT = Retry(connection=True)  # details, states, logs, DELETE cluster
IDENTITY = Retry(statuses=GATEWAY_STATUSES, seconds=None)  # user/me, memberships, usage


def auth_header(token: str) -> str:
    """Tokens minted by Cumulus are ``<identifier>-<secret>``; session keys have no dash."""
    return f"ApiToken {token}" if "-" in token else f"Token {token}"


def error_message(status: int, reason: str, body: Any) -> str:
    """The one sentence a user should read, from any error body shape the server uses."""
    if isinstance(body, dict):
        for key in ("message", "detail"):
            if isinstance(body.get(key), str) and body[key]:
                return body[key]
        nfe = body.get("non_field_errors")
        if isinstance(nfe, list) and nfe:
            return str(nfe[0])
        parts = []
        for key, value in body.items():
            if key == "code":
                continue
            if isinstance(value, list):
                value = " ".join(str(v) for v in value)
            parts.append(f"{key}={value}")
        if parts:
            return ", ".join(parts)
    if isinstance(body, str) and body.strip():
        return body.strip()
    return f"{status} - {reason}"


def raise_for(status: int, reason: str, body: Any) -> None:
    message = error_message(status, reason, body)
    code = body.get("code") if isinstance(body, dict) else None
    detail = body.get("detail") if isinstance(body, dict) else None
    if code == "PERMISSIONS_ERROR" or (isinstance(detail, str) and "aren't a member" in detail):
        raise PermissionsError(message, status, body)
    if status == 401:
        raise AuthenticationError(message, status, body)
    if status == 404:
        raise NotFound(message, status, body)
    raise CumulusError(message, status, body)


def _decode(raw: bytes, content_type: str) -> Any:
    if not raw:
        return None
    text = raw.decode("utf-8", "replace")
    if "json" in content_type:
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def request_timeout() -> float:
    """How long one attempt of a call waits for the server: ``CUMULUS_REQUEST_TIMEOUT`` seconds (for a
    slow link or a busy server), else 6."""
    try:
        seconds = float(os.environ.get("CUMULUS_REQUEST_TIMEOUT") or REQUEST_TIMEOUT)
    except ValueError:
        return REQUEST_TIMEOUT
    return seconds if 0 < seconds < 86_400 else REQUEST_TIMEOUT


def _pause(attempt: int) -> float:
    return min(MAX_PAUSE, (2**attempt) * 0.25 * (1 + random.random()))


def _unreachable(err: BaseException, timeout: float) -> tuple[str, bool]:
    """Why the server could not be reached, in a few words, and whether trying again may help
    (a dropped connection may; nothing listening, or no answer in time, will not soon)."""
    reason = getattr(err, "reason", err)
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused (is the server running?)", False
    if isinstance(reason, (socket.timeout, TimeoutError)) or "timed out" in str(reason):
        return f"no answer within {timeout:g} s", False
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror[:1].lower() + reason.strerror[1:], True
    return str(reason) or type(reason).__name__, True


def _may_retry(retry: Retry, started: float, attempt: int) -> bool:
    if retry.seconds is None:
        return True
    return time.monotonic() - started + _pause(attempt) < retry.seconds


def _attempts(method: str, url: str, data: Any, headers: dict, retry: Retry, timeout: float,
              read: Callable[[Any], Any], decode_errors: bool = True) -> Any:
    """``read(response)`` of the first attempt answered, trying again under ``retry``'s rules; else
    ``_Failed``. A body that is a file is read again from its start at each attempt."""
    started = time.monotonic()
    attempt = 0
    while True:
        if hasattr(data, "seek"):
            data.seek(0)
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                return read(response)
        except urllib.error.HTTPError as err:
            raw = err.read()
            body = _decode(raw, err.headers.get("Content-Type", "")) if decode_errors else raw.decode("utf-8", "replace")
            failure = _Failed(err.code, err.reason, body)
            retryable = err.code in retry.statuses and _may_retry(retry, started, attempt)
        except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
            reason, transient = _unreachable(err, timeout)
            failure = _Failed(None, reason, None)
            retryable = (retry.connection and transient
                         and time.monotonic() - started + _pause(attempt) < CONNECTION_RETRY_SECONDS)
        if not retryable:
            raise failure
        time.sleep(_pause(attempt))
        attempt += 1


def send(method: str, url: str, *, data: Any = None, headers: dict | None = None, timeout: float,
         retry: Retry = NO_RETRY, into: IO[bytes] | None = None, what: str | None = None) -> bytes | None:
    """A call to a URL outside the API: the answer's bytes, or with ``into`` the answer streamed into
    that file (None). An error answer raises ``HttpError`` naming ``what`` was called (default: the
    host), no answer ``ServerUnreachable``."""
    name = what or urllib.parse.urlsplit(url).netloc

    def read(response) -> bytes | None:
        if into is None:
            return response.read()
        into.seek(0)
        into.truncate()
        while chunk := response.read(1 << 20):
            into.write(chunk)
        return None

    try:
        return _attempts(method, url, data, dict(headers or {}), retry, timeout, read, decode_errors=False)
    except _Failed as failed:
        if failed.status is None:
            raise ServerUnreachable(f"Cannot reach {name}: {failed.reason}") from None
        raise HttpError(f"{name} answered {failed.status}: {str(failed.body).strip()[:300] or failed.reason}",
                        failed.status, failed.body) from None


class Api:
    """One server and one token; every call of the client goes through ``request``."""

    def __init__(self, server: str, token: str | None = None, auth_hint: str = ""):
        self.server = server
        self.token = token
        # Said after a refused token: where the token came from and what to do (config.Settings).
        self.auth_hint = auth_hint

    @classmethod
    def for_settings(cls, settings) -> "Api":
        return cls(settings.server, settings.token, settings.auth_hint)

    def url(self, path: str, query: dict | None = None) -> str:
        url = self.server + path
        if query:
            items = {k: v for k, v in query.items() if v is not None}
            url += "?" + urllib.parse.urlencode(items, doseq=True)
        return url

    def request(
        self,
        method: str,
        path: str,
        *,
        query: dict | None = None,
        json_body: Any = None,
        form: dict | None = None,
        raw: bytes | None = None,
        auth: bool = True,
        retry: Retry = DEFAULT,
    ) -> Any:
        headers = {
            "Accept": "application/json",
            "Client-Version": __version__,
            "User-Agent": f"cumulus-python/{__version__}",
        }
        data = None
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif json_body is not None:
            data = json.dumps(json_body, allow_nan=False).encode()
            headers["Content-Type"] = "application/json"
        elif raw is not None:
            data = raw
            headers["Content-Type"] = "application/octet-stream"
        if auth:
            if not self.token:
                raise AuthenticationError("Not signed in: run `cumulus login` or set CUMULUS_API_TOKEN.")
            headers["Authorization"] = auth_header(self.token)
        url = self.url(path, query)

        timeout = max(retry.timeout or 0, request_timeout())

        def read(response) -> Any:
            return _decode(response.read(), response.headers.get("Content-Type", ""))

        try:
            return _attempts(method, url, data, headers, retry, timeout, read)
        except _Failed as failed:
            status, reason, body = failed.status, failed.reason, failed.body
        if status is None:
            raise ServerUnreachable(f"Cannot reach the Cumulus server at {self.server}: {reason}")
        try:
            raise_for(status, reason, body)
        except AuthenticationError as refused:
            if not (auth and self.auth_hint):
                raise
            raise AuthenticationError(f"{refused} {self.auth_hint}", status, body) from None

    async def arequest(self, method: str, path: str, **kwargs) -> Any:
        # Imported here: the agent (every instance's first process) never calls this, and asyncio
        # is a third of its import time on a start's busy cores.
        import asyncio

        call = functools.partial(self.request, method, path, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(None, call)
