"""A scheduler's comm spoken without ``distributed``: for calls whose messages are plain data.

Importing ``distributed`` costs 0.4-0.8 s of CPU; ``cumulus run --name`` on a running cluster needs
one call of the scheduler (a handler of Cumulus's preload, ``preloads/runs.py``) whose arguments and
answers are strings, numbers, bytes, lists and dicts. Those travel in Dask's TCP/TLS framing as one
msgpack frame each (``distributed.comm.tcp``: an 8-byte total length, the frame count and lengths,
then the frames; ``distributed.protocol.dumps`` with nothing to serialize out of band), after both
ends exchange their handshake (``Comm.handshake_info``). The connection is mutual TLS with the
cluster's certificate, as ``distributed.security.Security`` makes it (its own CA; no host name
check: the certificate is the cluster's, not a host's). ``tests/test_dask_wire.py`` holds this to a
real scheduler.
"""

from __future__ import annotations

import socket
import ssl
import struct
import sys
from typing import Any

import msgpack  # a dependency of distributed: present wherever a cluster can be used

from cumulus.http import CumulusError

# Dask's msgpack options (distributed.protocol.utils.msgpack_opts).
_UNPACK = {"raw": False, "strict_map_key": False, "use_list": False}


def _plain(obj: dict) -> Any:
    return None if "__Serialized__" in obj or "__Pickled__" in obj else obj


class WireError(CumulusError):
    """The scheduler closed the connection, or answered what this module cannot read."""


def tls_context(cert_file: str, key_file: str) -> ssl.SSLContext:
    """The client side of a cluster's mutual TLS (``Security(tls_ca_file=cert, tls_client_cert=cert, ...)``)."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=cert_file)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_cert_chain(cert_file, key_file)
    return context


class SchedulerWire:
    """One connection to a scheduler: ``call`` an operation, then ``read`` what its handler writes."""

    def __init__(self, address: str, context: ssl.SSLContext | None, timeout: float = 10.0):
        scheme, _, rest = address.partition("://")
        if scheme not in ("tls", "tcp") or (scheme == "tls") != (context is not None):
            raise WireError(f"{address}: only tls:// (with the cluster's certificate) and tcp:// are spoken here")
        host, _, port = rest.rpartition(":")
        raw = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            self.sock = context.wrap_socket(raw) if context is not None else raw
        except BaseException:
            raw.close()
            raise
        self.sock.settimeout(None)
        self.write({"compression": None, "python": tuple(sys.version_info)[:3], "pickle-protocol": 5})
        self.remote = self.read()

    def write(self, message: Any) -> None:
        frame = msgpack.dumps(message, use_bin_type=True)
        prelude = struct.pack("QQ", 1, len(frame))
        self.sock.sendall(struct.pack("Q", len(prelude) + len(frame)) + prelude + frame)

    def _exactly(self, n: int) -> bytes:
        view = memoryview(bytearray(n))
        got = 0
        while got < n:
            try:
                step = self.sock.recv_into(view[got:], n - got)
            except OSError as err:
                raise WireError(f"the connection to the scheduler failed: {err}") from None
            if not step:
                raise WireError("the scheduler closed the connection")
            got += step
        return bytes(view)

    def read(self) -> Any:
        (total,) = struct.unpack("Q", self._exactly(8))
        body = memoryview(self._exactly(total))
        (count,) = struct.unpack_from("Q", body)
        lengths = struct.unpack_from(f"{count}Q", body, 8)
        start = 8 * (1 + count)
        # Objects serialized out of band (an error's exception and traceback) stay unread: None.
        return msgpack.loads(body[start:start + lengths[0]], object_hook=_plain, **_UNPACK)

    def call(self, op: str, **arguments: Any) -> None:
        """Sends one operation; its handler's messages and answer are then ``read``."""
        self.write({"op": op, "reply": True, **arguments})

    def close(self) -> None:
        try:
            self.write({"op": "close", "reply": False})
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self) -> "SchedulerWire":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
