"""A real SMTP server that keeps what it receives, so tests can read the server's emails."""

from __future__ import annotations

import asyncio
import re
import threading
import time


class SmtpSink:
    def __init__(self):
        self.messages: list[str] = []
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.port = 0

    def start(self) -> "SmtpSink":
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._session, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        server.close()
        self._loop.run_until_complete(server.wait_closed())
        self._loop.close()

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        async def reply(line: str) -> None:
            writer.write((line + "\r\n").encode())
            await writer.drain()

        await reply("220 sink ESMTP")
        try:
            while True:
                line = (await reader.readline()).decode(errors="replace").strip()
                if not line:
                    break
                verb = line.split(" ", 1)[0].upper()
                if verb == "EHLO":
                    await reply("250-sink")
                    await reply("250 8BITMIME")
                elif verb == "DATA":
                    await reply("354 end with .")
                    lines = []
                    while True:
                        data = (await reader.readline()).decode(errors="replace")
                        if data.rstrip("\r\n") == ".":
                            break
                        lines.append(data[1:] if data.startswith("..") else data)
                    with self._lock:
                        self.messages.append("".join(lines))
                    await reply("250 kept")
                elif verb == "QUIT":
                    await reply("221 bye")
                    break
                else:  # HELO, MAIL, RCPT, RSET, NOOP
                    await reply("250 ok")
        finally:
            writer.close()

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match:
        """The first match of ``pattern`` in any message, waiting for the mail to arrive."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                for message in self.messages:
                    # Quoted-printable soft line breaks would split long links.
                    match = re.search(pattern, message.replace("=\r\n", "").replace("=\n", ""))
                    if match:
                        return match
            time.sleep(0.2)
        raise AssertionError(f"no email matching {pattern!r} within {timeout}s")
