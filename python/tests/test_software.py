"""Software environments from the client: package sync, local packages as wheels, ``cumulus env``."""

from __future__ import annotations

import os
import tempfile
import textwrap
import unittest

import distributed
from distributed import Client

import cumulus
from cumulus import software
from cumulus.http import Api
from tests.harness import call, client_env, run_cli, start_as_new_user

START = 600


def setUpModule():
    global server, token, workspace
    server, token, workspace = start_as_new_user()


def tearDownModule():
    server.close()


def stop(cluster_id: int) -> None:
    call(f"{server.url}/api/v2/clusters/account/{workspace}/id/{cluster_id}", "DELETE", token=token, scheme="ApiToken")


class PackageSyncTest(unittest.TestCase):
    def test_a_cluster_runs_what_this_python_has(self):
        lines = []
        with cumulus.Cluster(n_workers=1, server=server.url, token=token, workspace=workspace, quiet=True,
                             timeout=START) as cluster:
            lines = [line for _, line in cluster._cluster_manager_logs]
            self.assertTrue(cluster.details["senv_alias"]["name"].startswith("package-sync-"))
            with Client(cluster) as client:
                versions = client.run(lambda: __import__("distributed").__version__)
            self.assertEqual(set(versions.values()), {distributed.__version__})
        self.assertTrue(any("Package sync:" in line for line in lines), lines)
        # The same environment again is the same spec: no second build.
        api = Api(server.url, token)
        synced = [a for a in software.list_aliases(api, workspace) if a["name"].startswith("package-sync-")]
        self.assertEqual(len(synced), 1)
        self.assertEqual(synced[0]["spec_count"], 1)

    def test_a_local_package_becomes_a_wheel_the_workers_import(self):
        project = tempfile.mkdtemp()
        os.makedirs(os.path.join(project, "cumulus_localpkg"))
        with open(os.path.join(project, "cumulus_localpkg", "__init__.py"), "w") as f:
            f.write("VALUE = 'made locally'\n")
        with open(os.path.join(project, "pyproject.toml"), "w") as f:
            f.write(textwrap.dedent("""\
                [build-system]
                requires = ["setuptools"]
                build-backend = "setuptools.build_meta"
                [project]
                name = "cumulus-localpkg"
                version = "0.3.0"
                """))
        api = Api(server.url, token)
        wheel = software.build_wheel(project)
        file_id = software.upload_wheel(api, workspace, wheel)
        # Uploading the same wheel again sends nothing.
        self.assertEqual(software.upload_wheel(api, workspace, wheel), file_id)
        spec = {"packages": [{"name": "cumulus-localpkg", "source": "pip", "channel": None, "conda_name": None,
                              "specifier": "", "include": True, "client_version": "0.3.0", "file": file_id}],
                "raw_pip": None, "raw_conda": None, "lockfile_name": None, "lockfile_content": None}
        alias = api.request("POST", f"/api/v2/software-environment/account/{workspace}",
                            json_body={**spec, "name": "local-packages", "md5": software.spec_md5(spec)})
        software.wait_for_build(api, workspace, alias, say=lambda _line: None)
        with cumulus.Cluster(n_workers=1, software="local-packages", server=server.url, token=token,
                             workspace=workspace, quiet=True, timeout=START) as cluster:
            with Client(cluster) as client:
                values = client.run(lambda: __import__("cumulus_localpkg").VALUE)
            self.assertEqual(set(values.values()), {"made locally"})


class EnvCliTest(unittest.TestCase):
    def test_create_list_inspect_logs_delete(self):
        home = tempfile.mkdtemp()
        env = client_env(server, home, CUMULUS_API_TOKEN=token)
        requirements = os.path.join(home, "requirements.txt")
        with open(requirements, "w") as f:
            f.write("# what the project needs\nsix\n")
        created = run_cli(["env", "create", "cli-env", "--pip", requirements, "--workspace", workspace], env, timeout=600)
        self.assertEqual(created.returncode, 0, created.stderr)
        self.assertIn("Software environment cli-env is built.", created.stdout)
        listed = run_cli(["env", "list", "--workspace", workspace], env)
        self.assertIn("cli-env", listed.stdout)
        self.assertIn("built", listed.stdout)
        inspected = run_cli(["env", "inspect", "cli-env", "--workspace", workspace], env)
        self.assertIn("pip: six", inspected.stdout)
        logs = run_cli(["env", "logs", "cli-env", "--workspace", workspace], env)
        self.assertIn("Installing 1 requirement with pip", logs.stdout)
        deleted = run_cli(["env", "delete", "cli-env", "--workspace", workspace], env)
        self.assertEqual(deleted.returncode, 0, deleted.stderr)
        missing = run_cli(["env", "inspect", "cli-env", "--workspace", workspace], env)
        self.assertEqual(missing.returncode, 1)
        self.assertIn("Software environment not found.", missing.stderr)


if __name__ == "__main__":
    unittest.main()
