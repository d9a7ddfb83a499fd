"""The client's transport rules (contract 0.4, 0.5) against a scripted HTTP server.

A real server cannot be made to answer 503 or odd error bodies on demand, so these few cases use
a tiny one that plays back answers; everything else runs against the real Cumulus server.
"""

from __future__ import annotations

import io
import json
import os
import socket
import tempfile
import threading
import time
import unittest
import unittest.mock
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cumulus.http import (
    DEFAULT,
    IDEMPOTENT,
    HttpError,
    NO_RETRY,
    Api,
    AuthenticationError,
    CumulusError,
    NotFound,
    PermissionsError,
    ServerUnreachable,
    auth_header,
    send,
)
from tests.harness import free_port


class Script:
    """Answers to play back, one per request; the last one repeats."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.requests: list = []

    def next(self):
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def serve(script: Script, port: int = 0) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def _answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            script.requests.append((self.command, self.path, dict(self.headers), self.rfile.read(length)))
            status, body, content_type = script.next()
            raw = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        do_GET = do_POST = do_DELETE = do_PUT = _answer

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return httpd


JSON = "application/json"


class TransportTest(unittest.TestCase):
    def api(self, *answers) -> tuple[Api, Script]:
        script = Script(*answers)
        httpd = serve(script)
        self.addCleanup(httpd.server_close)
        self.addCleanup(httpd.shutdown)
        return Api(f"http://127.0.0.1:{httpd.server_address[1]}", "abc-123"), script

    def test_busy_answers_are_retried_until_the_server_recovers(self):
        api, script = self.api((503, {"detail": "busy"}, JSON), (429, {}, JSON), (200, {"ok": True}, JSON))
        self.assertEqual(api.request("GET", "/x", retry=DEFAULT), {"ok": True})
        self.assertEqual(len(script.requests), 3)

    def test_without_retries_the_servers_message_is_raised(self):
        api, script = self.api((503, {"detail": "Down for maintenance."}, JSON))
        with self.assertRaises(CumulusError) as caught:
            api.request("GET", "/x", retry=NO_RETRY)
        self.assertEqual((str(caught.exception), caught.exception.status), ("Down for maintenance.", 503))
        self.assertEqual(len(script.requests), 1)

    def test_error_bodies_become_one_readable_message(self):
        cases = [
            ((400, {"message": "m", "detail": "d"}, JSON), CumulusError, "m"),
            ((400, {"non_field_errors": ["Bad pair."]}, JSON), CumulusError, "Bad pair."),
            ((400, {"name": ["Too long."], "workers": ["Too many."]}, JSON), CumulusError, "name=Too long., workers=Too many."),
            ((403, {"detail": "No.", "code": "PERMISSIONS_ERROR"}, JSON), PermissionsError, "No."),
            ((403, {"detail": "You aren't a member of x"}, JSON), PermissionsError, "You aren't a member of x"),
            ((401, {"detail": "Invalid token."}, JSON), AuthenticationError, "Invalid token."),
            ((404, {"detail": "Not found."}, JSON), NotFound, "Not found."),
            ((500, b"upstream exploded", "text/plain"), CumulusError, "upstream exploded"),
            ((500, b"", "text/plain"), CumulusError, "500 - Internal Server Error"),
        ]
        for answer, kind, message in cases:
            with self.subTest(answer=answer):
                api, _ = self.api(answer)
                with self.assertRaises(kind) as caught:
                    api.request("GET", "/x")
                self.assertEqual(str(caught.exception), message)

    def test_headers_and_bodies(self):
        api, script = self.api((201, {"id": 1}, JSON))
        api.request("POST", "/form", form={"label": "me@host"}, auth=False)
        api.request("POST", "/json", json_body={"a": [1]}, query={"name": ["x", "y"], "skip": None})
        (_, _, form_headers, form_body), (_, path, json_headers, json_body) = script.requests
        self.assertNotIn("Authorization", form_headers)
        self.assertEqual(form_headers["Content-Type"], "application/x-www-form-urlencoded")
        self.assertEqual(form_body, b"label=me%40host")
        self.assertEqual(json_headers["Authorization"], "ApiToken abc-123")
        self.assertEqual(json.loads(json_body), {"a": [1]})
        self.assertEqual(path, "/json?name=x&name=y")
        self.assertEqual(auth_header("sessionkey"), "Token sessionkey")

    def test_a_refused_connection_fails_at_once_and_a_dropped_one_is_tried_again(self):
        port = free_port()
        api = Api(f"http://127.0.0.1:{port}", "abc-123")
        began = time.monotonic()
        with self.assertRaises(ServerUnreachable) as caught:
            api.request("GET", "/x", retry=IDEMPOTENT)
        self.assertLess(time.monotonic() - began, 1)
        self.assertEqual(
            str(caught.exception),
            f"Cannot reach the Cumulus server at http://127.0.0.1:{port}: connection refused (is the server running?)",
        )

        # A server restarting mid-call drops the connection without an answer: tried again.
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(4)

            def drop_then_answer():
                conn, _ = listener.accept()
                conn.close()
                conn, _ = listener.accept()
                conn.recv(65536)
                body = b'{"back": true}'
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                             + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
                conn.close()

            threading.Thread(target=drop_then_answer, daemon=True).start()
            api = Api(f"http://127.0.0.1:{listener.getsockname()[1]}", "abc-123")
            self.assertEqual(api.request("GET", "/x", retry=IDEMPOTENT), {"back": True})

    def test_a_server_that_does_not_answer_is_reported_within_the_timeout(self):
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(4)  # accepted by the kernel, never answered: a hung server
            api = Api(f"http://127.0.0.1:{listener.getsockname()[1]}", "abc-123")
            for retry in (IDEMPOTENT, DEFAULT, NO_RETRY):
                began = time.monotonic()
                with self.assertRaises(ServerUnreachable) as caught:
                    api.request("GET", "/x", retry=retry)
                self.assertLess(time.monotonic() - began, 9)
                self.assertTrue(str(caught.exception).endswith(": no answer within 6 s"), str(caught.exception))

    def test_the_wait_for_an_answer_is_the_users_to_set(self):
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(4)
            api = Api(f"http://127.0.0.1:{listener.getsockname()[1]}", "abc-123")
            with unittest.mock.patch.dict(os.environ, {"CUMULUS_REQUEST_TIMEOUT": "1.5"}):
                began = time.monotonic()
                with self.assertRaises(ServerUnreachable) as caught:
                    api.request("GET", "/x", retry=DEFAULT)
                self.assertLess(time.monotonic() - began, 4)
                self.assertTrue(str(caught.exception).endswith(": no answer within 1.5 s"), str(caught.exception))


class SendTest(unittest.TestCase):
    """Calls outside the API (signed links, STS, Jupyter) and the agent's go through ``send``: the same
    attempts, a file body sent whole again on each, an answer streamed into a file, errors named."""

    def url(self, *answers) -> tuple[str, Script]:
        script = Script(*answers)
        httpd = serve(script)
        self.addCleanup(httpd.server_close)
        self.addCleanup(httpd.shutdown)
        return f"http://127.0.0.1:{httpd.server_address[1]}/signed?sig=1", script

    def test_a_file_is_sent_whole_again_when_a_busy_answer_is_retried(self):
        url, script = self.url((503, b"busy", "text/plain"), (200, b"stored", "text/plain"))
        with tempfile.TemporaryFile() as f:
            f.write(b"x" * 100_000)
            f.flush()
            answer = send("PUT", url, data=f, headers={"Content-Length": "100000"}, timeout=5, retry=IDEMPOTENT)
        self.assertEqual(answer, b"stored")
        self.assertEqual([(r[0], len(r[3])) for r in script.requests], [("PUT", 100_000), ("PUT", 100_000)])

    def test_an_answer_streams_into_a_file_and_errors_name_what_was_called(self):
        url, script = self.url((200, b"y" * 3_000_000, "application/octet-stream"),
                               (403, b"<Error><Message>Expired</Message></Error>", "application/xml"))
        out = io.BytesIO(b"left over from an earlier attempt")
        self.assertIsNone(send("GET", url, into=out, timeout=5))
        self.assertEqual(out.getvalue(), b"y" * 3_000_000)
        with self.assertRaises(HttpError) as caught:
            send("GET", url, timeout=5, what="the download link")
        self.assertEqual((caught.exception.status, caught.exception.body),
                         (403, "<Error><Message>Expired</Message></Error>"))
        self.assertEqual(str(caught.exception), "the download link answered 403: <Error><Message>Expired</Message></Error>")
        self.assertEqual(len(script.requests), 2)  # no retry by default: a signed link refused stays refused

    def test_no_answer_is_server_unreachable_naming_the_host(self):
        port = free_port()
        with self.assertRaises(ServerUnreachable) as caught:
            send("GET", f"http://127.0.0.1:{port}/x", timeout=2)
        self.assertEqual(str(caught.exception),
                         f"Cannot reach 127.0.0.1:{port}: connection refused (is the server running?)")
