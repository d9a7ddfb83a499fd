"""``credentials="local"``: the user's AWS credentials reach the cluster as STS session credentials.

A real server starts a real cluster; moto (``moto_server``) stands in for STS and S3. moto accepts
any signature, so what these tests show is that the right credentials travel to the right
processes and that a worker signs with them, not that AWS would accept the signatures (the signer
itself is checked against AWS's published test vector).
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
import unittest
import urllib.request
from unittest import mock

import cloudpickle
import dask
from distributed import Client

import cumulus
from cumulus import aws_credentials
from cumulus.http import ArgumentError
from tests.harness import CumulusServer, call, free_port, start_as_new_user, wait_until

server: CumulusServer
token: str
workspace: str
moto: subprocess.Popen
MOTO_URL = ""
START = 600  # seconds: a cluster starting on a loaded two-core machine
BUCKET, KEY, CONTENT = "cumulus-credentials-test", "greeting.txt", b"hello from moto's S3"
# The user's long-term keys: what must NOT be on the cluster.
# The functions below run on workers, which cannot import this test module: sent by value.
cloudpickle.register_pickle_by_value(sys.modules[__name__])
LONG_TERM = {"AWS_ACCESS_KEY_ID": "AKIALONGTERMUSERKEY", "AWS_SECRET_ACCESS_KEY": "long-term-user-secret"}


def setUpModule():
    global server, token, workspace, moto, MOTO_URL
    port = free_port()
    MOTO_URL = f"http://127.0.0.1:{port}"
    moto = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: urllib.request.urlopen(MOTO_URL + "/moto-api/", timeout=2).status == 200, 60, "moto_server")
    for url, body in ((f"{MOTO_URL}/{BUCKET}", b""), (f"{MOTO_URL}/{BUCKET}/{KEY}", CONTENT)):
        # A Content-Type of its own: urllib's default (a form) would have moto read the body as one.
        headers = aws_credentials.sign("PUT", url, region="us-east-1", service="s3", access_key="test",
                                       secret_key="test", body=body, sign_payload=True,
                                       headers={"Content-Type": "text/plain"})
        urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers, method="PUT"), timeout=10)
    server, token, workspace = start_as_new_user()
    dask.config.set({"cumulus.cluster-state-check-interval": "1s"})


def tearDownModule():
    try:
        status, clusters = call(f"{server.url}/api/v2/clusters/account/{workspace}/?limit=100", token=token, scheme="ApiToken")
        for c in clusters if status < 400 else []:
            if c["current_state"]["state"] not in ("stopped", "error"):
                call(f"{server.url}/api/v2/clusters/account/{workspace}/id/{c['id']}?reason=tests+done", "DELETE",
                     token=token, scheme="ApiToken")
    finally:
        server.close()
        moto.terminate()
        moto.wait(10)


def read_object(url: str):
    """Run on a worker: GET the object signed with the AWS credentials in the worker's environment."""
    import os
    import urllib.request

    from cumulus.aws_credentials import sign

    headers = sign("GET", url, region=os.environ["AWS_DEFAULT_REGION"], service="s3",
                   access_key=os.environ["AWS_ACCESS_KEY_ID"], secret_key=os.environ["AWS_SECRET_ACCESS_KEY"],
                   session_token=os.environ.get("AWS_SESSION_TOKEN"), sign_payload=True)
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as res:
        return res.read(), headers["x-amz-security-token"], os.environ["AWS_ACCESS_KEY_ID"]


def aws_token():
    import os

    return os.environ.get("AWS_SESSION_TOKEN")


class SignerTest(unittest.TestCase):
    def test_matches_aws_published_test_vector(self):
        # AWS's Signature Version 4 test suite, "get-vanilla".
        headers = aws_credentials.sign(
            "GET", "https://example.amazonaws.com/", region="us-east-1", service="service",
            access_key="AKIDEXAMPLE", secret_key="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            now=datetime.datetime(2015, 8, 30, 12, 36, 0),
        )
        self.assertEqual(
            headers["authorization"],
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
        )

    def test_refreshes_at_three_quarters_of_the_life_left(self):
        now = datetime.datetime(2026, 1, 1, 12, 0, tzinfo=datetime.timezone.utc)
        self.assertEqual(aws_credentials.refresh_delay({"Expiration": "2026-01-01T13:00:00Z"}, now), 2700)
        self.assertEqual(aws_credentials.refresh_delay({"Expiration": "2026-01-01T12:00:10Z"}, now),
                         aws_credentials.MIN_REFRESH_SECONDS)
        self.assertEqual(aws_credentials.refresh_delay({}, now), aws_credentials.REREAD_SECONDS)

    def test_unreachable_sts_is_one_error_naming_it(self):
        closed = f"http://127.0.0.1:{free_port()}"
        with mock.patch.dict(os.environ, {**LONG_TERM, "AWS_ENDPOINT_URL_STS": closed}):
            os.environ.pop("AWS_SESSION_TOKEN", None)
            with self.assertRaisesRegex(aws_credentials.CredentialsError, f"STS GetSessionToken at {closed}/ failed"):
                aws_credentials.credentials_to_forward()

    def test_unknown_credentials_choice_is_refused(self):
        with self.assertRaisesRegex(ArgumentError, r"credentials must be one of 'local', 'none', None"):
            cumulus.Cluster(credentials="mine")


class LocalCredentialsTest(unittest.TestCase):
    def test_worker_reads_s3_with_forwarded_session_credentials_and_gets_refreshed_ones(self):
        user_env = {**LONG_TERM, "AWS_ENDPOINT_URL": MOTO_URL, "AWS_DEFAULT_REGION": "eu-west-1"}
        with mock.patch.dict(os.environ, user_env):
            for name in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION", "AWS_ENDPOINT_URL_STS"):
                os.environ.pop(name, None)
            sts = aws_credentials.credentials_to_forward()
            self.assertNotEqual(sts["AccessKeyId"], LONG_TERM["AWS_ACCESS_KEY_ID"])
            with cumulus.Cluster(n_workers=1, quiet=True, timeout=START, credentials="local",
                                 environ={"AWS_ENDPOINT_URL": MOTO_URL}) as cluster, Client(cluster) as client:
                body, token_used, key_used = client.submit(read_object, f"{MOTO_URL}/{BUCKET}/{KEY}", pure=False).result()
                self.assertEqual(body, CONTENT)
                self.assertEqual(token_used, sts["SessionToken"])
                self.assertEqual(key_used, sts["AccessKeyId"])
                self.assertEqual(client.run_on_scheduler(aws_token), sts["SessionToken"])

                # The user's credentials change (here: session credentials, forwarded as they are).
                os.environ.update(AWS_ACCESS_KEY_ID="ASIAUSERSESSIONTWO", AWS_SECRET_ACCESS_KEY="session-secret-2",
                                  AWS_SESSION_TOKEN="user-session-token-2")
                with mock.patch.object(aws_credentials, "REREAD_SECONDS", 1.0):
                    self.assertEqual(cluster.refresh_aws_credentials(), 1.0)
                    self.assertEqual(set(client.run(aws_token).values()), {"user-session-token-2"})
                    # The next refresh comes by itself, timed from the credentials just sent.
                    os.environ.update(AWS_SESSION_TOKEN="user-session-token-3")
                    wait_until(lambda: set(client.run(aws_token).values()) == {"user-session-token-3"}, 30,
                               "the automatic refresh")
                    os.environ.update(AWS_SESSION_TOKEN="user-session-token-4")
                    wait_until(lambda: set(client.run(aws_token).values()) == {"user-session-token-4"}, 30,
                               "the next automatic refresh")

                # A worker that arrives later has the newest credentials before its first task.
                cluster.scale(2)
                client.wait_for_workers(2, timeout=START)
                workers = list(client.scheduler_info()["workers"])
                self.assertEqual(len(workers), 2)
                for address in workers:
                    _, token_used, _ = client.submit(read_object, f"{MOTO_URL}/{BUCKET}/{KEY}", pure=False,
                                                     workers=[address]).result()
                    self.assertEqual(token_used, "user-session-token-4")

    def test_cluster_starts_and_warns_when_sts_is_unreachable(self):
        closed = f"http://127.0.0.1:{free_port()}"
        with mock.patch.dict(os.environ, {**LONG_TERM, "AWS_ENDPOINT_URL_STS": closed}):
            os.environ.pop("AWS_SESSION_TOKEN", None)
            with self.assertLogs("cumulus", "WARNING") as logs:
                cluster = cumulus.Cluster(n_workers=1, quiet=True, timeout=START)
            with cluster, Client(cluster) as client:
                self.assertEqual(client.submit(lambda: 6 * 7).result(), 42)
                self.assertEqual(set(client.run(aws_token).values()), {None})
        self.assertEqual(len(logs.output), 1)
        self.assertIn("Your AWS credentials were not forwarded", logs.output[0])
        self.assertIn(f"STS GetSessionToken at {closed}/ failed", logs.output[0])
        self.assertNotIn(LONG_TERM["AWS_SECRET_ACCESS_KEY"], logs.output[0])


if __name__ == "__main__":
    unittest.main()
