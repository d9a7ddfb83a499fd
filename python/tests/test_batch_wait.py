"""`cumulus batch wait` (and `batch run`'s wait) while the server is out of reach: the job runs on,
so the wait says so once and goes on, and gives up only after its patience."""

from __future__ import annotations

import json
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cumulus import batch
from cumulus.http import Api, ServerUnreachable
from tests.harness import free_port

DONE = {"id": 3, "job_state": "done", "n_tasks_succeeded": 2, "n_tasks_failed": 0, "n_tasks": 2,
        "tasks": [{"state": "done"}, {"state": "done"}]}


class Answers(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        body = json.dumps(DONE).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class BatchWaitTest(unittest.TestCase):
    def test_waits_through_a_server_out_of_reach_and_says_so_once(self):
        port = free_port()
        # Nothing listens on the port for the first 1.5 s: a server restarting.
        late = threading.Timer(1.5, lambda: self._serve(port))
        late.start()
        lines: list[str] = []
        try:
            job = batch.wait(Api(f"http://127.0.0.1:{port}", "id-secret"), 3, report=lines.append, poll=0.2,
                             patience=30)
        finally:
            late.join()
            self.server.shutdown()
            self.server.server_close()
        self.assertEqual(job["job_state"], "done")
        lost = [line for line in lines if "Cannot reach the Cumulus server" in line]
        self.assertEqual(len(lost), 1, lines)
        self.assertIn("job 3 runs on; still waiting for it", lost[0])
        self.assertTrue(any(line.startswith("The Cumulus server answers again after") for line in lines), lines)
        self.assertEqual(lines[-1], "job 3: done — 2 done, 0 failed, 0 running of 2")

    def test_gives_up_after_its_patience(self):
        port = free_port()
        lines: list[str] = []
        started = time.monotonic()
        with self.assertRaises(ServerUnreachable):
            batch.wait(Api(f"http://127.0.0.1:{port}", "id-secret"), 3, report=lines.append, poll=0.1, patience=1)
        self.assertGreaterEqual(time.monotonic() - started, 1)
        self.assertEqual(len(lines), 1, lines)

    def _serve(self, port: int) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Answers)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


if __name__ == "__main__":
    unittest.main()
