"""The build machine's agent: builds one software environment and reports it to the control plane.

Run as `python -m cumulus.agent.build` with `CUMULUS_SERVER` (the control plane's address),
`CUMULUS_BUILD_TOKEN` (the build's bearer token) and `CUMULUS_BUILD_ROOT` (where environments go).
It asks for the spec, makes a virtual environment from this interpreter (its packages stay
visible), installs the requirements and wheels with pip while its output goes to the build's log,
uploads the environment as a gzip tar archive and reports the lockfile. See PROTOCOL.md.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tarfile
import threading
from typing import Any, Callable
from cumulus.http import CumulusError, send

from .control import ControlPlane, Refused

BOOTSTRAP = {"pip", "setuptools", "wheel", "distribute"}
FLUSH_SECONDS = 0.5
FLUSH_LINES = 500


def normalise(name: str) -> str:
    out, dash = [], False
    for ch in name.lower():
        if ch in "-_.":
            dash = True
            continue
        if dash and out:
            out.append("-")
        dash = False
        out.append(ch)
    return "".join(out)


class BuildLog:
    """Ships log lines to the build's phone-home in batches, from a thread of its own."""

    def __init__(self, report: Callable[[dict], object]) -> None:
        self.report = report
        self.lines = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def add(self, line: str) -> None:
        print(line, flush=True)
        with self.lock:
            self.lines.append(line[:10000])
            full = len(self.lines) >= FLUSH_LINES
        if full:
            self.flush()

    def flush(self) -> None:
        with self.lock:
            batch, self.lines = self.lines[:2000], self.lines[2000:]
        if batch:
            try:
                self.report({"logs": batch})
            except (OSError, CumulusError) as e:
                print(f"could not send log lines: {e}", file=sys.stderr)

    def _run(self) -> None:
        while not self.done.wait(FLUSH_SECONDS):
            self.flush()

    def close(self) -> None:
        self.done.set()
        self.thread.join()
        self.flush()


def run(args: list[str], log: BuildLog, env: dict[str, str] | None = None) -> tuple:
    """Runs a command, each output line to the log; answers its exit code and the lines' tail."""
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    tail = []
    for line in proc.stdout:
        line = line.rstrip("\n")
        log.add(line)
        tail = (tail + [line])[-60:]
    return proc.wait(), tail


def failure(name: str, code: int, tail: list[str]) -> str:
    errors = [line[len("ERROR:"):].strip() for line in tail if line.startswith("ERROR:")]
    why = " ".join(errors) or next((line for line in reversed(tail) if line.strip()), "")
    return f"{name} exited with code {code}" + (f": {why}" if why else "")


def download(control: ControlPlane, url: str, target: str) -> None:
    with open(target, "wb") as out:
        send("GET", url, headers={"Authorization": f"Bearer {control.token}"}, timeout=300, into=out)


def upload(url: str, path: str) -> Any:
    size = os.path.getsize(path)
    with open(path, "rb") as body:
        answer = send("PUT", url, data=body, timeout=3600,
                      headers={"Content-Type": "application/gzip", "Content-Length": str(size)})
    # The control plane answers the size it kept; Cloud Storage (a signed link into the workspace's
    # bucket, vm_gcp) an empty body.
    return json.loads(answer) if answer else None


def build(control: ControlPlane, root: str, log: BuildLog) -> dict:
    spec = control.request("GET", "/software-environment/spec")
    build_id = spec["build_id"]
    if spec["kind"] != "pip":
        raise RuntimeError(f"This build machine builds pip environments, not {spec['kind']} ones.")
    env_dir = os.path.join(root, f"build-{build_id}")
    wheels_dir = os.path.join(root, f"wheels-{build_id}")
    os.makedirs(wheels_dir, exist_ok=True)
    log.add(f"Creating a virtual environment from {sys.executable} (its packages stay visible)")
    code, tail = run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", "--clear", env_dir], log)
    if code:
        raise RuntimeError(failure("venv", code, tail))
    python = os.path.join(env_dir, "bin", "python")
    wheels = []
    for wheel in spec["wheels"]:
        target = os.path.join(wheels_dir, os.path.basename(wheel["file_name"]))
        log.add(f"Downloading {wheel['file_name']}")
        download(control, wheel["url"], target)
        wheels.append(target)
    if spec["lockfile"]:
        lines = [line for line in spec["lockfile"].splitlines() if line.strip() and not line.startswith("#")]
    else:
        lines = spec["requirements"] + wheels
    report_path = os.path.join(root, f"report-{build_id}.json")
    if lines:
        requirements = os.path.join(root, f"requirements-{build_id}.txt")
        with open(requirements, "w") as f:
            f.write("\n".join(lines) + "\n")
        log.add(f"Installing {len(lines)} requirement{'' if len(lines) == 1 else 's'} with pip")
        args = [python, "-m", "pip", "install", "--progress-bar", "off", "-r", requirements, "--report", report_path]
        if wheels:
            args += ["--find-links", wheels_dir]
        if spec["lockfile"]:
            args.append("--no-deps")
        env = dict(os.environ, PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONUNBUFFERED="1")
        code, tail = run(args, log, env)
        if code:
            raise RuntimeError(failure("pip", code, tail))
    else:
        log.add("Nothing to install beyond the interpreter and its packages")
    packages = locked_packages(python, report_path)
    header = f"# cumulus lockfile: Python {platform.python_version()} {machine()} ({sys.executable}, its own packages visible)"
    lockfile = header + "\n" + "".join(f"{p['name']}=={p['version']}\n" for p in packages)
    archive = os.path.join(root, f"build-{build_id}.tar.gz")
    log.add("Packing the environment")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(env_dir, arcname=".")
    link = control.request("POST", f"/software-environment/build/{build_id}/start-upload")
    log.add(f"Uploading the environment ({os.path.getsize(archive) / 2**20:.1f} MiB)")
    upload(link["upload_url"], archive)
    return {"state": "built", "lockfile": lockfile, "packages": packages}


def machine() -> str:
    """This machine's architecture (x86_64, aarch64), which the lockfile names: the control plane
    keeps an environment for the machines of that architecture only. CUMULUS_MACHINE_ARCH says it
    where platform.machine() cannot (the tests' EC2 rig plays arm64 machines on x86_64)."""
    return os.environ.get("CUMULUS_MACHINE_ARCH") or platform.machine()


def locked_packages(python: str, report_path: str) -> list:
    listed = json.loads(subprocess.check_output([python, "-m", "pip", "list", "--local", "--format=json"], text=True))
    hashes = {}
    try:
        with open(report_path) as f:
            for item in json.load(f).get("install", []):
                name = (item.get("metadata") or {}).get("name")
                info = item.get("download_info") or {}
                archive = info.get("archive_info") or {}
                digest = (archive.get("hashes") or {}).get("sha256") or (archive.get("hash") or "").replace("sha256=", "") or None
                if name:
                    hashes[normalise(name)] = (digest, (info.get("url") or "").startswith("file:"))
    except (OSError, ValueError):
        pass
    out = []
    for p in listed:
        name = normalise(p["name"])
        if name in BOOTSTRAP:
            continue
        digest, is_file = hashes.get(name, (None, False))
        out.append({"name": name, "version": p["version"], "source": "file" if is_file else "index", "sha256": digest})
    return sorted(out, key=lambda p: p["name"])


def main() -> int:
    server = os.environ["CUMULUS_SERVER"]
    control = ControlPlane(server, os.environ["CUMULUS_BUILD_TOKEN"], backend_id=None, timeout=30)
    root = os.environ.get("CUMULUS_BUILD_ROOT") or os.path.join(os.getcwd(), "cumulus-builds")
    os.makedirs(root, exist_ok=True)
    build_id = None

    def report(body: dict) -> Any:
        return control.request("PATCH", f"/software-environment/build/{build_id}", body)

    try:
        build_id = control.request("GET", "/software-environment/spec")["build_id"]
    except Refused as e:
        print(f"the control plane refused this build: {e}", file=sys.stderr)
        return 2
    log = BuildLog(report)
    report({"state": "building"})
    try:
        outcome = build(control, root, log)
    except Refused as e:
        print(f"the control plane refused this build: {e}", file=sys.stderr)
        log.done.set()
        return 2
    except Exception as e:  # noqa: BLE001 - every failure is the build's reason
        log.add(f"The build failed: {e}")
        log.close()
        report({"state": "error", "reason": str(e)[:4000]})
        return 1
    log.close()
    report(outcome)
    return 0


if __name__ == "__main__":
    sys.exit(main())
