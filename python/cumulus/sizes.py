"""Byte sizes as the client says them: binary units, as the console does (``lib/format.ts``)."""

from __future__ import annotations

MIB = 2**20


def format_mib(n: float) -> str:
    """``12.3 MiB``: an archive, a file or a request body, said in one unit so sizes compare."""
    return f"{n / MIB:.1f} MiB"
