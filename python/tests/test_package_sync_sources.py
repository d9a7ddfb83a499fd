"""Package sync builds look where pip looks: the server's pip configuration and the client's own.

Three packages exist only in one place each: a wheel folder of the server's pip configuration
(as named builds are configured), the workspace's own package index (in the client's pip
configuration file, with an API token in its URL) and a wheel folder of the client's PIP_FIND_LINKS.
A Python that installed all three syncs them, and the token is in no log line nor answer.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile

from tests.harness import PYTHON_DIR, call, start_as_new_user

from cumulus import software
from cumulus.http import Api

SYSTEM_PYTHON = "/usr/bin/python3"
scratch = tempfile.mkdtemp(prefix="cumulus-sync-sources-")


def folder(name: str) -> str:
    path = os.path.join(scratch, name)
    os.makedirs(path)
    # Builds run as a uid of their own: a machine's wheel folder is readable to them.
    os.chmod(path, 0o755)
    return path


def make_wheel(where: str, project: str, version: str) -> str:
    """A pure-Python wheel made with the standard library: module ``project`` with ``VALUE``."""
    module = project.replace("-", "_")
    dist = f"{module}-{version}.dist-info"
    files = {
        f"{module}/__init__.py": f"VALUE = {project!r}\n",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {project}\nVersion: {version}\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: cumulus-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    path = os.path.join(where, f"{module}-{version}-py3-none-any.whl")
    record = []
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(text.encode())}")
        z.writestr(f"{dist}/RECORD", "\n".join([*record, f"{dist}/RECORD,,"]) + "\n")
    os.chmod(path, 0o644)
    return path


# Neither pip looks at pypi.org (none here): their index is an empty folder.
EMPTY_INDEX = f"file://{folder('empty-index')}"
server_links = folder("server-links")
make_wheel(server_links, "cumulus-from-server", "0.1.0")


def pip_conf(name: str, **settings: str) -> str:
    """A pip configuration file (readable by builds) whose [global] section has these settings."""
    path = os.path.join(scratch, name)
    with open(path, "w") as f:
        f.write("[global]\n" + "".join(f"{key.replace('_', '-')} = {value}\n" for key, value in settings.items()))
    os.chmod(path, 0o644)
    return path


server_pip_conf = pip_conf("server-pip.conf", index_url=EMPTY_INDEX, find_links=server_links)
os.chmod(scratch, 0o755)


def setUpModule():
    global server, token, workspace
    # The server's pip configuration is a file, as a machine's is (PIP_FIND_LINKS would override it).
    server, token, workspace = start_as_new_user({"PIP_CONFIG_FILE": server_pip_conf, "PIP_FIND_LINKS": None})


def tearDownModule():
    server.close()
    shutil.rmtree(scratch, ignore_errors=True)


class PipSourcesTest(unittest.TestCase):
    def test_a_package_from_any_configured_index_or_folder_syncs_and_no_token_is_shown(self):
        api = Api(server.url, token)
        # The workspace's own index: a wheel uploaded to it, pip reads it with the API token.
        uploads = folder("uploads")
        software.upload_wheel(api, workspace, make_wheel(uploads, "cumulus-from-index", "0.2.0"))
        index = f"{server.url.replace('://', f'://__token__:{token}@')}/api/v2/packages/index/{workspace}/simple/"
        client_links = folder("client-links")
        make_wheel(client_links, "cumulus-from-links", "0.3.0")
        client_pip_conf = pip_conf("client-pip.conf", index_url=EMPTY_INDEX, extra_index_url=index)
        # The user's Python: the system's Dask, and the three packages pip installed from where it is configured.
        venv = os.path.join(scratch, "venv")
        subprocess.run([SYSTEM_PYTHON, "-m", "venv", "--system-site-packages", "--without-pip", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        user_env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "CUMULUS_"))}
        user_env.update(PIP_CONFIG_FILE=client_pip_conf, PIP_FIND_LINKS=client_links,
                        PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONPATH=PYTHON_DIR)
        subprocess.run([SYSTEM_PYTHON, "-m", "pip", "--python", python, "install", "--quiet",
                        "--find-links", server_links, "cumulus-from-server", "cumulus-from-index",
                        "cumulus-from-links"], env=user_env, check=True)

        sync = subprocess.run([python, "-c", f"""
import json
from cumulus import software
from cumulus.http import Api
alias = software.package_sync(Api({server.url!r}, {token!r}), {workspace!r}, say=lambda line: None, show_log=False)
print(json.dumps(alias))
"""], env={**user_env, "CUMULUS_REQUEST_TIMEOUT": "60"}, capture_output=True, text=True, timeout=600)
        self.assertEqual(sync.returncode, 0, sync.stderr[-3000:])
        alias = json.loads(sync.stdout.strip().splitlines()[-1])
        base = f"{server.url}/api/v2/software-environment/account/{workspace}"
        build_id = alias["latest_spec"]["latest_build"]["id"]
        status, build = call(f"{base}/build/{build_id}", token=token, scheme="ApiToken")
        self.assertEqual((status, build["state"]), (200, "built"), build)
        installed = {(p["name"], p["version"]) for p in build["packages"]}
        for package in (("cumulus-from-server", "0.1.0"), ("cumulus-from-index", "0.2.0"), ("cumulus-from-links", "0.3.0")):
            self.assertIn(package, installed)

        # The token went to pip, and nowhere a reader sees: the build's log, the spec's scan.
        log = "\n".join(software.build_log(api, workspace, build_id))
        self.assertIn("__token__:****@", log)
        status, spec = call(f"{base}/spec/{alias['latest_spec']['id']}", token=token, scheme="ApiToken")
        self.assertEqual(status, 200, spec)
        scan = spec["scan_result"]
        self.assertIn(index.replace(token, "****"), scan["index_urls"])
        self.assertIn(client_links, scan["find_links"])
        for shown in (log, json.dumps(spec), json.dumps(alias)):
            self.assertNotIn(token, shown)


if __name__ == "__main__":
    unittest.main()
