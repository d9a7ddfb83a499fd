"""``cumulus setup aws`` (Coiled's ``coiled setup aws``): this machine's AWS credentials go into the
workspace and the account is set up, against a real server whose AWS is moto (``moto_server``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest
import urllib.parse
import urllib.request
from unittest import mock
import xml.etree.ElementTree as ET

from cumulus import aws_credentials
from cumulus.http import Api
from tests.harness import CumulusServer, client_env, free_port, wait_until

KEYS = {"aws_access_key_id": "AKIAPROFILEKEYWORK01", "aws_secret_access_key": "work-profile-secret"}
AWS_VARIABLES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
                 "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE")

server: CumulusServer
moto: subprocess.Popen
MOTO_URL = ""


def setUpModule():
    global server, moto, MOTO_URL
    port = free_port()
    MOTO_URL = f"http://127.0.0.1:{port}"
    moto = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until(lambda: urllib.request.urlopen(MOTO_URL + "/moto-api/", timeout=2).status == 200, 60, "moto_server")
    server = CumulusServer({"AWS_ENDPOINT_URL": MOTO_URL}).start()


def tearDownModule():
    server.close()
    moto.terminate()
    moto.wait(60)


def register_image(region: str, name: str) -> str:
    """An image in moto's EC2 that the server finds by name (CUMULUS_AWS_AMI_NAME: cumulus-instance-*)."""
    body = urllib.parse.urlencode({"Action": "RegisterImage", "Version": "2016-11-15", "Name": name,
                                   "RootDeviceName": "/dev/xvda", "Architecture": "x86_64"}).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}
    headers.update(aws_credentials.sign("POST", MOTO_URL + "/", region=region, service="ec2", access_key="test",
                                        secret_key="test", body=body, headers=headers))
    with urllib.request.urlopen(urllib.request.Request(MOTO_URL + "/", data=body, headers=headers), timeout=60) as r:
        return next(e.text for e in ET.fromstring(r.read()).iter() if e.tag.endswith("imageId"))


def write_profile(home: str, profile: str, region: str) -> None:
    os.makedirs(os.path.join(home, ".aws"))
    with open(os.path.join(home, ".aws", "credentials"), "w") as f:
        f.write(f"[{profile}]\naws_access_key_id = {KEYS['aws_access_key_id']}\n"
                f"aws_secret_access_key = {KEYS['aws_secret_access_key']}\n")
    with open(os.path.join(home, ".aws", "config"), "w") as f:
        f.write(f"[{'default' if profile == 'default' else 'profile ' + profile}]\nregion = {region}\n")


class SetupAwsTest(unittest.TestCase):
    def setUp(self):
        self.user = server.register()
        self.token = server.api_token(self.user)
        self.api = Api(server.url, self.token)
        self.home = tempfile.mkdtemp()
        self.env = client_env(server, self.home, CUMULUS_API_TOKEN=self.token)
        for name in AWS_VARIABLES:
            self.env.pop(name, None)

    def cli(self, *args, env=None, stdin=""):
        return subprocess.run([sys.executable, "-m", "cumulus", "setup", "aws", *args], env=env or self.env,
                              input=stdin, capture_output=True, text=True, timeout=180)

    def test_stores_the_profiles_keys_and_sets_up_the_region(self):
        image = register_image("us-west-2", "cumulus-instance-setup-cli")
        write_profile(self.home, "work", "us-west-2")
        # Keys in the environment are not the named profile's: --profile reads ~/.aws alone, as the AWS CLI does.
        env = {**self.env, "AWS_ACCESS_KEY_ID": "AKIANOTTHEPROFILES01", "AWS_SECRET_ACCESS_KEY": "other"}
        # Coiled's --use-access-key (an access key rather than role delegation) is what this command does.
        done = self.cli("--profile", "work", "--workspace", self.user.workspace, "--yes", "--use-access-key", env=env)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertEqual(done.stderr, "")
        lines = done.stdout.splitlines()
        self.assertEqual(lines[0], "Found AWS credentials AKIA…RK01 in profile work.")
        self.assertIn("Stored: AWS account 123456789012", done.stdout)
        self.assertRegex(done.stdout, r"security group sg-[0-9a-f]+ in vpc-[0-9a-f]+, Dask's ports open to 127\.0\.0\.1/32")
        self.assertIn(f"image {image}", done.stdout)
        self.assertEqual(lines[-1], f"Done: new clusters of workspace {self.user.workspace} run in your AWS account, "
                                    "in us-west-2.")

        ws = self.user.workspace
        stored = self.api.request("GET", f"/api/v2/cloud-credentials/{ws}/aws")
        self.assertEqual((stored["configured"], stored["default_region"]), (True, "us-west-2"))
        self.assertEqual(stored["summary"]["aws_access_key_id"], "AKIA…RK01")
        regions = self.api.request("GET", f"/api/v2/setup/account/{ws}/aws/regions")["regions"]
        self.assertEqual([(r["region"], r["default"], r["ami_id"]) for r in regions], [("us-west-2", True, image)])
        self.assertEqual(self.api.request("GET", f"/api/v1/{ws}/backend_options/")["backend"], "vm_aws")

    def test_environment_keys_region_flag_and_the_missing_image(self):
        env = {**self.env, "AWS_ACCESS_KEY_ID": "AKIAENVIRONMENTKEY01", "AWS_SECRET_ACCESS_KEY": "env-secret"}
        done = self.cli("--region", "eu-north-1", "-y", env=env)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("Found AWS credentials AKIA…EY01 in the environment (AWS_ACCESS_KEY_ID).", done.stdout)
        # No image named cumulus-instance-* in that region: said in one line, with where to set one.
        self.assertRegex(done.stderr, r"^Error: AWS is connected, but clusters cannot start in eu-north-1 yet: "
                                      r"No machine image for eu-north-1: .*/settings/setup\)\n$")

    def test_asks_first_and_changes_nothing_without_a_yes(self):
        write_profile(self.home, "default", "us-east-2")
        done = self.cli(stdin="n\n")
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn(f"Store them in workspace {self.user.workspace} and set up us-east-2 for its clusters? [y/N]",
                      done.stdout)
        self.assertEqual(done.stderr, "Error: Not confirmed: nothing was changed. Run with --yes to go ahead without "
                                      "asking.\n")
        stored = self.api.request("GET", f"/api/v2/cloud-credentials/{self.user.workspace}/aws")
        self.assertFalse(stored["configured"])

    def test_wrong_keys_no_keys_and_refused_options_are_one_line_errors(self):
        done = self.cli("--yes")
        self.assertEqual(done.returncode, 1)
        self.assertRegex(done.stderr, r"^Error: No AWS credentials found \(AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY "
                                      r"or ~/.aws\): run `aws configure`.*\n$")
        done = self.cli("--profile", "missing", "--yes")
        self.assertIn("No AWS credentials found (profile missing in ~/.aws)", done.stderr)
        bad = {**self.env, "AWS_ACCESS_KEY_ID": "not a key", "AWS_SECRET_ACCESS_KEY": "x"}
        done = self.cli("--yes", env=bad)
        self.assertEqual(done.returncode, 1)
        self.assertRegex(done.stderr, r"^Error: .*access key id.*\n$")
        for option in (["--quotas"], ["--iam-user", "coiled"], ["--cloudshell-link"], ["--manual-final-setup"]):
            with self.subTest(option=option[0]):
                done = self.cli(*option)
                self.assertEqual(done.returncode, 1)
                self.assertRegex(done.stderr, rf"^Error: {re.escape(option[0])} cannot apply here: \S.*\n$")


class AlreadySetUpTest(unittest.TestCase):
    """Set up again while a cluster runs in AWS: the server's 409 confirm is asked (a no changes
    nothing), then, confirmed, its 409 retry is waited through while the cluster stops."""

    def setUp(self):
        SetupAwsTest.setUp(self)

    cli = SetupAwsTest.cli

    def test_the_409_confirm_is_asked_and_a_yes_stops_the_clusters_first(self):
        register_image("us-west-2", "cumulus-instance-setup-again")
        write_profile(self.home, "default", "us-west-2")
        ws = self.user.workspace
        first = self.cli("--yes")
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        made = self.api.request("POST", f"/api/v2/clusters/account/{ws}/", json_body={"name": "in-aws", "workers": 0})
        details = f"/api/v2/clusters/account/{ws}/id/{made['id']}"
        def state():
            return (self.api.request("GET", details).get("current_state") or {}).get("state")

        question = "1 cluster (in-aws) run in AWS with these credentials. Replacing the AWS credentials stops it first."

        def asked():
            # The question comes once the cluster's machine is launched (moto's EC2 answers at once).
            done = self.cli(stdin="y\nn\n")
            return done if question in done.stdout else None

        refused = wait_until(asked, 120, "the 409 confirm of a second setup")
        self.assertIn("Go ahead? [y/N]", refused.stdout)
        self.assertEqual(refused.returncode, 1, refused.stdout + refused.stderr)
        self.assertEqual(refused.stderr, "Error: Not confirmed: nothing was changed.\n")
        self.assertNotIn(state(), ("stopping", "stopped"))

        again = self.cli("--yes")
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertIn(question, again.stdout)
        self.assertRegex(again.stdout, r"Waiting: Stopping 1 cluster \(in-aws\) before the change")
        self.assertIn("Stored: AWS account 123456789012", again.stdout)
        self.assertEqual(again.stdout.splitlines()[-1],
                         f"Done: new clusters of workspace {ws} run in your AWS account, in us-west-2.")
        self.assertIn(state(), ("stopping", "stopped"))


class LocalCredentialsProfileTest(unittest.TestCase):
    def test_a_named_profile_is_read_without_the_environments_keys(self):
        with tempfile.TemporaryDirectory() as home:
            write_profile(home, "work", "ap-south-1")
            with open(os.path.join(home, ".aws", "config"), "a") as f:
                f.write(textwrap.dedent("[default]\nregion = us-east-2\n"))
            env = {"HOME": home, "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "e"}
            with mock.patch.dict(os.environ, env):
                for name in ("AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_CONFIG_FILE",
                             "AWS_SHARED_CREDENTIALS_FILE"):
                    os.environ.pop(name, None)
                named = aws_credentials.local_credentials("work")
                plain = aws_credentials.local_credentials()
        self.assertEqual((named["access_key"], named["region"], named["source"]),
                         ("AKIAPROFILEKEYWORK01", "ap-south-1", "profile work"))
        self.assertEqual((plain["access_key"], plain["region"]), ("AKIAENV", "us-east-2"))


if __name__ == "__main__":
    unittest.main()
