"""``cumulus.dask_wire`` against a real Dask scheduler running the ``runs`` preload: Dask's framing
spoken without ``distributed`` on the client side (``cumulus run --name`` on a running cluster).
The TLS side is the product's path, covered end to end by ``test_everyday.RunTest``."""

from __future__ import annotations

import asyncio
import os
import socket
import tempfile
import threading
import unittest

from distributed import Scheduler

from cumulus.dask_wire import SchedulerWire, WireError
from cumulus.http import CumulusError
from cumulus.preloads import runs


class DaskWireTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.home = os.getcwd()
        cls.workdir = tempfile.TemporaryDirectory()
        os.chdir(cls.workdir.name)  # the preload runs commands under the scheduler's directory
        cls.loop = asyncio.new_event_loop()
        up = threading.Event()

        async def start():
            cls.scheduler = await Scheduler(host="127.0.0.1", port=0, dashboard=False)
            await runs.dask_setup(cls.scheduler)
            up.set()

        def serve():
            cls.loop.run_until_complete(start())
            cls.loop.run_forever()

        threading.Thread(target=serve, daemon=True).start()
        if not up.wait(60):
            raise RuntimeError("the scheduler did not start")

    @classmethod
    def tearDownClass(cls):
        asyncio.run_coroutine_threadsafe(cls.scheduler.close(), cls.loop).result(30)
        cls.loop.call_soon_threadsafe(cls.loop.stop)
        os.chdir(cls.home)
        cls.workdir.cleanup()

    def run_command(self, command: str, env: dict | None = None) -> tuple[list, dict]:
        with SchedulerWire(self.scheduler.address, None) as wire:
            wire.call("cumulus_run", run_id="t" + os.urandom(4).hex(), command=command, archive=b"",
                      env=env or {}, cpus=None)
            chunks = []
            while True:
                message = wire.read()
                if "code" in message:
                    wire.write({"done": True})
                    return chunks, message
                chunks.append((message["stream"], message["text"]))

    def test_a_command_streams_its_output_and_ends_with_its_code(self):
        chunks, end = self.run_command("echo out; echo err >&2; echo $CUMULUS_WIRE_TEST; exit 3",
                                       {"CUMULUS_WIRE_TEST": "variable"})
        self.assertEqual(end["code"], 3)
        self.assertEqual(end["events"], len(chunks))
        self.assertEqual("".join(t for s, t in chunks if s == "stdout"), "out\nvariable\n")
        self.assertEqual("".join(t for s, t in chunks if s == "stderr"), "err\n")

    def test_the_same_connection_reads_dask_s_own_answers(self):
        # After the handshake, any plain-data operation of the scheduler answers as to Dask's client.
        with SchedulerWire(self.scheduler.address, None) as wire:
            wire.call("identity")
            self.assertEqual(wire.read()["type"], "Scheduler")
            # An operation the scheduler lacks answers None: how an older scheduler says it has no runs.
            wire.call("cumulus_no_such_operation")
            self.assertIsNone(wire.read())

    def test_a_closed_connection_is_a_cumulus_error(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        threading.Thread(target=lambda: listener.accept()[0].close(), daemon=True).start()
        with self.assertRaises(WireError) as caught:
            SchedulerWire(f"tcp://127.0.0.1:{port}", None)
        self.assertIsInstance(caught.exception, CumulusError)
        listener.close()

    def test_only_the_cluster_s_schemes_are_spoken(self):
        with self.assertRaises(WireError):
            SchedulerWire("ws://127.0.0.1:1", None)
        with self.assertRaises(WireError):
            SchedulerWire(self.scheduler.address.replace("tcp://", "tls://"), None)


if __name__ == "__main__":
    unittest.main()
