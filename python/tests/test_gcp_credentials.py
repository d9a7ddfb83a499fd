"""``credentials="local"`` with Google: the user's access token reaches the cluster and is refreshed.

The Google Cloud SDK (``gcloud``, real) is signed in with a service account key whose ``token_uri``
is a token endpoint of this test's own: gcloud signs a JWT with the key and exchanges it there, as
it would at oauth2.googleapis.com, and the endpoint hands out numbered tokens. A real server
starts a real cluster on the local backend; the client is told to treat that backend as Compute
Engine (the one thing not played: which backends get Google's token, a tuple).
"""

from __future__ import annotations

import base64
import datetime
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse
from unittest import mock

import cloudpickle
import dask
from distributed import Client

import cumulus
from cumulus import cluster_credentials, gcp_credentials
from cumulus.http import CumulusError
from tests.harness import CumulusServer, start_as_new_user, wait_until

cloudpickle.register_pickle_by_value(sys.modules[__name__])
server: CumulusServer
token: str
workspace: str
START = 600  # seconds: a cluster starting on a loaded two-core machine
CLIENT_EMAIL = "cumulus-test@proj-1.iam.gserviceaccount.com"


class TokenEndpoint(http.server.ThreadingHTTPServer):
    """Google's OAuth2 token endpoint as a service account key's JWT-bearer grant meets it."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), TokenHandler)
        self.issued = 0
        self.lifetime = 1000  # seconds: under gcloud's min-expiry, so each config-helper call gets a new one
        self.refuse = False
        self.url = f"http://127.0.0.1:{self.server_address[1]}/token"


class TokenHandler(http.server.BaseHTTPRequestHandler):
    server: TokenEndpoint

    def do_POST(self) -> None:
        form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        header, claims, _ = form["assertion"][0].split(".")
        claims = json.loads(base64.urlsafe_b64decode(claims + "=="))
        # The audience is Google's token URL whatever the key's token_uri says (as gcloud signs it).
        good = (form["grant_type"] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
                and json.loads(base64.urlsafe_b64decode(header + "=="))["alg"] == "RS256"
                and claims["iss"] == CLIENT_EMAIL and claims["aud"] == "https://oauth2.googleapis.com/token")
        if self.server.refuse or not good:
            self.answer(400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
            return
        self.server.issued += 1
        answer = {"access_token": f"ya29.cumulus-test-{self.server.issued}", "expires_in": self.server.lifetime,
                  "token_type": "Bearer"}
        if "target_audience" in claims:
            # gcloud asks for an identity token beside the access token: an unsigned one will do for it.
            part = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")  # noqa: E731
            identity = {"iss": "https://accounts.google.com", "aud": claims["target_audience"],
                        "email": CLIENT_EMAIL, "iat": claims["iat"], "exp": claims["iat"] + 3600}
            answer["id_token"] = f"{part({'alg': 'RS256', 'typ': 'JWT'})}.{part(identity)}.c2ln"
        self.answer(200, answer)

    def answer(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


endpoint: TokenEndpoint
gcloud_config: str


def setUpModule():
    global server, token, workspace, endpoint, gcloud_config
    if shutil.which("gcloud") is None:
        raise unittest.SkipTest("needs the Google Cloud SDK (gcloud)")
    endpoint = TokenEndpoint()
    threading.Thread(target=endpoint.serve_forever, daemon=True).start()
    unittest.addModuleCleanup(endpoint.shutdown)
    folder = tempfile.mkdtemp(prefix="cumulus-gcloud-")
    unittest.addModuleCleanup(shutil.rmtree, folder, True)
    gcloud_config = os.path.join(folder, "config")
    key = subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"],
                         capture_output=True, text=True, check=True).stdout
    key_file = os.path.join(folder, "key.json")
    with open(key_file, "w", encoding="utf-8") as f:
        json.dump({"type": "service_account", "project_id": "proj-1", "private_key_id": "k1", "private_key": key,
                   "client_email": CLIENT_EMAIL, "client_id": "1", "token_uri": endpoint.url}, f)
    subprocess.run(["gcloud", "auth", "activate-service-account", f"--key-file={key_file}"], check=True,
                   capture_output=True, env={**os.environ, "CLOUDSDK_CONFIG": gcloud_config})
    server, token, workspace = start_as_new_user()
    unittest.addModuleCleanup(server.close)
    dask.config.set({"cumulus.cluster-state-check-interval": "1s"})


def google_environ():
    import os

    return os.environ.get("CLOUDSDK_AUTH_ACCESS_TOKEN"), os.environ.get("GOOGLE_ACCESS_TOKEN_EXPIRY")


def variable(name):
    import os

    return os.environ.get(name)


class GcloudTokenTest(unittest.TestCase):
    def test_token_and_its_expiry_come_from_gcloud(self):
        with mock.patch.dict(os.environ, {"CLOUDSDK_CONFIG": gcloud_config}):
            before = endpoint.issued
            found = gcp_credentials.token_to_forward()
        self.assertEqual(found["source"], "gcloud")
        self.assertGreater(endpoint.issued, before)
        self.assertEqual(found["token"], f"ya29.cumulus-test-{endpoint.issued}")
        left = (found["expiry"] - datetime.datetime.now(datetime.timezone.utc)).total_seconds()
        self.assertTrue(900 < left <= 1000, left)
        environ = gcp_credentials.environ_of(found)
        self.assertEqual(environ["GOOGLE_ACCESS_TOKEN_EXPIRY"], str(int(found["expiry"].timestamp())))

    def test_no_account_is_nothing_to_forward_and_a_refusal_is_an_error(self):
        empty = tempfile.mkdtemp(prefix="cumulus-gcloud-empty-")
        self.addCleanup(shutil.rmtree, empty, True)
        with mock.patch.dict(os.environ, {"CLOUDSDK_CONFIG": empty}):
            self.assertIsNone(gcp_credentials.token_to_forward())
        endpoint.refuse = True
        self.addCleanup(setattr, endpoint, "refuse", False)
        with mock.patch.dict(os.environ, {"CLOUDSDK_CONFIG": gcloud_config}):
            with self.assertRaisesRegex(gcp_credentials.CredentialsError, "gcloud could not give an access token"):
                gcp_credentials.token_to_forward()

    def test_refreshes_at_three_quarters_of_the_life_left(self):
        now = datetime.datetime(2026, 1, 1, 12, 0, tzinfo=datetime.timezone.utc)
        self.assertEqual(gcp_credentials.refresh_delay({"expiry": now + datetime.timedelta(hours=1)}, now), 2700)
        self.assertEqual(gcp_credentials.refresh_delay({"expiry": now + datetime.timedelta(seconds=10)}, now),
                         gcp_credentials.MIN_REFRESH_SECONDS)
        self.assertEqual(gcp_credentials.refresh_delay({"expiry": None}, now), gcp_credentials.REREAD_SECONDS)


SHIPPED = """
import datetime, json, os
from cumulus.credentials.google import CoiledShippedCredentials, CumulusShippedCredentials
assert CoiledShippedCredentials is CumulusShippedCredentials
credentials = CumulusShippedCredentials()
seen = [credentials.token, credentials.expiry.isoformat(), credentials.valid]
os.environ["CLOUDSDK_AUTH_ACCESS_TOKEN"] = "ya29.second"
os.environ["GOOGLE_ACCESS_TOKEN_EXPIRY"] = str(int(datetime.datetime(2030, 1, 1).timestamp()))
credentials.refresh(None)
seen += [credentials.token, credentials.expiry.isoformat()]
del os.environ["CLOUDSDK_AUTH_ACCESS_TOKEN"]
try:
    credentials.refresh(None)
except Exception as err:
    seen.append(type(err).__name__ + ": " + str(err)[:40])
print(json.dumps(seen))
"""


class ShippedCredentialsTest(unittest.TestCase):
    def test_google_auth_credentials_of_the_forwarded_token_refresh_from_the_newest(self):
        target = tempfile.mkdtemp(prefix="cumulus-google-auth-")
        self.addCleanup(shutil.rmtree, target, True)
        # google-auth alone, from the machine's package index (not a dependency of cumulus).
        pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--retries", "0", "--target", target,
                              "google-auth"], capture_output=True, text=True, timeout=300)
        if pip.returncode != 0:
            self.skipTest(f"google-auth could not be installed here: {pip.stderr.strip()[-200:]}")
        python = os.path.dirname(os.path.dirname(os.path.abspath(cumulus.__file__)))
        env = {**os.environ, "PYTHONPATH": f"{target}:{python}", "CLOUDSDK_AUTH_ACCESS_TOKEN": "ya29.first",
               "GOOGLE_ACCESS_TOKEN_EXPIRY": str(int(datetime.datetime(2029, 6, 1, 12, tzinfo=datetime.timezone.utc)
                                                     .timestamp()))}
        done = subprocess.run([sys.executable, "-c", SHIPPED], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        seen = json.loads(done.stdout)
        self.assertEqual(seen[:3], ["ya29.first", "2029-06-01T12:00:00", True])
        self.assertEqual(seen[3], "ya29.second")
        self.assertEqual(seen[4][:4], "2030")
        self.assertTrue(seen[5].startswith("RefreshError: No Google access token"), seen[5])


class ForwardedTokenTest(unittest.TestCase):
    def test_workers_get_the_token_refreshed_ones_and_variables_coileds_client_sets(self):
        as_google = mock.patch.object(cluster_credentials, "GOOGLE_BACKENDS", ("vm_gcp", "in_process"))
        with as_google, mock.patch.dict(os.environ, {"CLOUDSDK_CONFIG": gcloud_config}):
            with cumulus.Cluster(n_workers=1, quiet=True, timeout=START, credentials="local") as cluster, \
                    Client(cluster) as client:
                first = f"ya29.cumulus-test-{endpoint.issued}"
                (worker_token, expiry), = client.run(google_environ).values()
                self.assertEqual(worker_token, first)
                self.assertTrue(expiry and expiry.isdigit())
                self.assertEqual(client.run_on_scheduler(google_environ)[0], first)

                # The next refresh comes by itself, timed from the token just sent.
                with mock.patch.object(gcp_credentials, "refresh_delay", lambda found, now=None: 1.0):
                    self.assertEqual(cluster.refresh_credentials(), 1.0)
                    issued = endpoint.issued
                    wait_until(lambda: endpoint.issued > issued + 1, 60, "the automatic refresh")
                # Sent now, the next refresh is due at 3/4 of this token's life (1000 s). A refresh already
                # under way when it was asked ends after it (sends are one at a time): let it settle.
                self.assertGreater(cluster.refresh_credentials(), 700)

                def settled() -> bool:
                    before = endpoint.issued
                    time.sleep(3)
                    return endpoint.issued == before

                wait_until(settled, 30, "the refreshes under way to end")
                newest = f"ya29.cumulus-test-{endpoint.issued}"
                wait_until(lambda: [t for t, _ in client.run(google_environ).values()] == [newest], 30,
                           "the newest token on the worker")

                # A worker that arrives later has it before its first task.
                cluster.scale(2)
                client.wait_for_workers(2, timeout=START)
                self.assertEqual({t for t, _ in client.run(google_environ).values()}, {newest})

                # Coiled's client sets and unsets variables the same way; the agent's own are refused.
                scheduler = client.scheduler
                self.assertEqual(client.sync(scheduler.coiled_update_env_vars, env={"TEAM_BUCKET": "gs://b"}), "OK")
                self.assertEqual(set(client.run(variable, "TEAM_BUCKET").values()), {"gs://b"})
                self.assertEqual(client.sync(scheduler.coiled_unset_env_vars, unset=["TEAM_BUCKET"]), "OK")
                self.assertEqual(set(client.run(variable, "TEAM_BUCKET").values()), {None})
                refused = client.sync(scheduler.coiled_update_env_vars, env={"CUMULUS_CLUSTER_TOKEN": "x"})
                self.assertTrue(refused.startswith("refused: CUMULUS_CLUSTER_TOKEN"), refused)
                self.assertNotEqual(set(client.run(variable, "CUMULUS_CLUSTER_TOKEN").values()), {"x"})


class RunForwardGcpAdcTest(unittest.TestCase):
    def test_the_command_gets_the_token_and_a_machine_without_one_is_refused(self):
        import io

        empty = tempfile.mkdtemp(prefix="cumulus-gcloud-empty-")
        self.addCleanup(shutil.rmtree, empty, True)
        with mock.patch.dict(os.environ, {"CLOUDSDK_CONFIG": empty}):
            with self.assertRaisesRegex(CumulusError, r"forward_gcp_adc=True\): this machine has no Google credentials"):
                cumulus.run("true", forward_gcp_adc=True, directory=None, quiet=True)
        out = io.StringIO()
        with mock.patch.dict(os.environ, {"CLOUDSDK_CONFIG": gcloud_config}):
            result = cumulus.run('echo "token=$CLOUDSDK_AUTH_ACCESS_TOKEN"', forward_gcp_adc=True, directory=None,
                                 quiet=True, stdout=out)
        self.assertEqual(result.code, 0, out.getvalue())
        self.assertIn(f"token=ya29.cumulus-test-{endpoint.issued}", out.getvalue())


if __name__ == "__main__":
    unittest.main()
