"""Software environments: package sync of the local environment, and named environments.

Package sync (contract section 4.1) makes a cluster run what this Python has: it scans the
installed distributions, asks the server which versions clusters need (``approximate-packages``),
builds local and editable packages into wheels and uploads them, creates the spec and waits for its
build. Named environments are made from a requirements file, a conda environment.yml or an image.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from importlib.metadata import distributions
from typing import Callable
from urllib.parse import quote

from cumulus.http import IDEMPOTENT, NO_RETRY, SLOW_REQUEST_TIMEOUT, Api, CumulusError, Retry, send
from cumulus.pip_sources import pip_sources

# Creating an environment is not repeated (it is not idempotent); the server checks it before answering.
SLOW_ONCE = Retry(statuses=frozenset(), seconds=0, timeout=SLOW_REQUEST_TIMEOUT)

CRITICAL = 100
BUILD_POLL_SECONDS = 2.0
DONE = {"built", "error"}
# The end of a failed build's log, shown when its log was not shown as it came.
FAILED_LOG_LINES = 30


def _base(ws: str) -> str:
    return f"/api/v2/software-environment/account/{ws}"


def scan() -> dict:
    """What this interpreter has: every distribution once (the first on sys.path), local ones marked."""
    packages, seen = [], set()
    for dist in distributions():
        name, version = _name_and_version(dist)
        if not name or name.lower() in seen:
            continue
        seen.add(name.lower())
        wheel_target = None
        direct = dist.read_text("direct_url.json")
        if direct:
            with _ignored():
                info = json.loads(direct)
                if info.get("url", "").startswith("file://") and "dir_info" in info:
                    wheel_target = info["url"][len("file://"):]
        packages.append({
            "name": name, "version": version, "source": "pip", "channel_url": None, "channel": None,
            "subdir": None, "conda_name": None, "wheel_target": wheel_target,
            "requested": dist.read_text("REQUESTED") is not None, "priority_override": None,
            "python_major_version": None, "python_minor_version": None, "python_patch_version": None,
        })
    major, minor, patch = platform.python_version_tuple()
    index_urls, find_links = pip_sources()
    # No conda python here: the contract's pseudo package says which Python this is.
    packages.append({
        "name": "python", "version": platform.python_version(), "source": "conda", "channel": "ANY-AVAILABLE",
        "channel_url": "ANY-AVAILABLE", "subdir": None, "conda_name": "python", "wheel_target": None,
        "requested": True, "priority_override": None, "python_major_version": major,
        "python_minor_version": minor, "python_patch_version": patch,
    })
    return {
        "architecture": "aarch64" if platform.machine() in ("arm64", "aarch64") else "x86_64",
        "packages": packages,
        "metadata": {"base_prefix": sys.base_prefix, "platform": sys.platform, "prefix": sys.prefix, "sys_path": sys.path},
        "index_urls": index_urls,
        "find_links": find_links,
        "pip_check_errors": None,
        "gpu_enabled": False,
        "lockfile_name": None,
        "lockfile_content": None,
    }


_HEADER = re.compile(r"^(Name|Version):[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def _name_and_version(dist) -> tuple[str | None, str | None]:
    """A distribution's name and version from its metadata's header lines: what
    ``dist.metadata`` answers, without parsing the whole file as an email (a tenth of the time,
    for the hundreds of distributions a system Python has)."""
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO")
    if text:
        header = _HEADER.findall(text.split("\n\n", 1)[0])
        found = {}
        for key, value in header:
            found.setdefault(key, value)
        if found.get("Name") and found.get("Version"):
            return found["Name"], found["Version"]
    return dist.metadata["Name"], dist.version


class _ignored:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], (ValueError, KeyError, TypeError))


def spec_md5(spec: dict | None) -> str:
    """The contract's md5 (4.2): of the sorted-keys JSON of the spec, or of ``null``."""
    return hashlib.md5(json.dumps(spec, sort_keys=True).encode()).hexdigest()


def builds_environments(api: Api, ws: str) -> str | None:
    """None when the workspace's clusters run built environments; else the backend that does not."""
    answer = api.request("GET", f"/api/v1/{quote(ws, safe='')}/backend_options/", retry=IDEMPOTENT)
    return None if answer["capabilities"]["builds"] else answer["backend"]


def no_builds_text(ws: str, backend: str) -> str:
    return (f"clusters of workspace {ws} run on {backend}, whose machines run their image's Python and "
            "distributed: this server builds no software environments there, so your packages are not synced")


def package_sync(api: Api, ws: str, say: Callable[[str], None] = print, *, status: Callable[[str], None] | None = None,
                 show_log: bool = True, mark: Callable[[str], None] | None = None,
                 scan_result: Callable[[], dict] = scan) -> dict:
    """Reproduces this environment on the server; answers the alias once its build is done.

    ``say`` prints lasting lines, ``status`` passing ones; the build's log is printed only with
    ``show_log`` (or its end, when the build fails). ``mark`` is told when each step ends.
    ``scan_result`` answers what ``scan()`` does (a caller may have started the scan earlier).
    """
    mark = mark or (lambda _step: None)
    levels = {p["name"]: p["level"] for p in api.request("GET", "/api/v2/packages/", query={"account": ws}) or []}
    scanned = scan_result()
    mark("package scan")
    approximated = api.request("POST", "/api/v2/software-environment/approximate-packages", json_body=scanned)
    critical = [p for p in approximated if p.get("error") and (levels.get(p["name"], 0) >= CRITICAL or p["name"] == "python")]
    if critical:
        lines = "\n".join(f"  {p['name']}: {p['error']}" for p in critical)
        raise CumulusError(f"Your environment cannot be reproduced on this server's clusters:\n{lines}")
    for p in approximated:
        if p.get("error"):
            say(f"  warning: {p['name']}: {p['error']}")
    targets = {p["name"]: p.get("wheel_target") for p in scanned["packages"] if p.get("wheel_target")}
    packages = []
    for p in approximated:
        file_id = None
        if p["include"] and targets.get(p["name"]):
            say(f"  building {p['name']} from {targets[p['name']]} into a wheel")
            file_id = upload_wheel(api, ws, build_wheel(targets[p["name"]]))
        packages.append({
            "name": p["name"], "source": "conda" if p.get("conda_name") and p["name"] == "python" else "pip",
            "channel": None, "conda_name": p.get("conda_name"), "specifier": p["specifier"] or "",
            "include": bool(p["include"]), "client_version": p.get("client_version"), "file": file_id,
        })
    # The same packages found in another order are the same environment (the same md5).
    packages.sort(key=lambda p: p["name"].lower())
    spec = {"packages": packages, "raw_pip": None, "raw_conda": None, "lockfile_name": None, "lockfile_content": None}
    sources = {"index_urls": scanned.get("index_urls") or [], "find_links": scanned.get("find_links") or []}
    # Where pip looks is part of what is built: other indexes are another environment.
    identity = spec_md5({**spec, **sources}) if any(sources.values()) else spec_md5(spec)
    body = {**spec, "name": None, "md5": identity, "force_rebuild": False, "architecture": scanned["architecture"],
            "gpu_enabled": False, "container": None, "use_entrypoint": None, "region_name": None,
            "enable_experimental_installer": False,
            "scan": {"platform": sys.platform, "base_prefix": sys.base_prefix, "prefix": sys.prefix, **sources,
                     "packages": [_scan_row(p) for p in scanned["packages"]], "errored_packages": []}}
    alias = api.request("POST", _base(ws), json_body=body, retry=SLOW_ONCE)
    mark("sync request")
    included = sum(1 for p in packages if p["include"])
    built = _latest_build(alias).get("state") == "built"
    say(f"Package sync: {included} of {len(packages)} packages of this environment go to the cluster "
        f"(software environment {alias['name']}{', built already' if built else ''}).")
    alias = wait_for_build(api, ws, alias, say, status=status, show_log=show_log)
    mark("build ready" if not built else "build reused")
    return alias


def _latest_build(alias: dict) -> dict:
    return ((alias.get("latest_spec") or {}).get("latest_build")) or {}


def _scan_row(p: dict) -> dict:
    return {"name": p["name"], "version": p["version"], "source": p["source"], "channel": p.get("channel"),
            "wheel_target": p.get("wheel_target"), "requested": p.get("requested", False)}


def build_wheel(target: str) -> str:
    """A wheel of a local or editable package, built with pip into a temporary folder."""
    out = tempfile.mkdtemp(prefix="cumulus-wheel-")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", out, target],
                            capture_output=True, text=True)
    wheels = [f for f in os.listdir(out) if f.endswith(".whl")]
    if result.returncode != 0 or not wheels:
        raise CumulusError(f"Could not build a wheel of {target}: {result.stderr.strip().splitlines()[-1:] or result.returncode}")
    return os.path.join(out, wheels[0])


def upload_wheel(api: Api, ws: str, path: str) -> int:
    """Announces a wheel and, unless the server has it already, sends it to the signed link."""
    with open(path, "rb") as f:
        content = f.read()
    digest = hashlib.md5(content)
    answer = api.request("POST", f"{_base(ws)}/package-upload", json_body={
        "name": os.path.basename(path), "md5": digest.hexdigest(),
        "wheel_md5": base64.b64encode(digest.digest()).decode(), "region_name": None,
    })
    if answer["should_upload"]:
        send("PUT", answer["upload_url"], data=content, timeout=600, retry=IDEMPOTENT, what="the wheel's upload link",
             headers={"Content-Type": "binary/octet-stream", "content-md5": base64.b64encode(digest.digest()).decode()})
    return int(answer["id"])


def create(api: Api, ws: str, name: str, *, pip: str | None = None, conda: str | None = None,
           container: str | None = None, force: bool = False, **fields) -> dict:
    """A named environment from a requirements file, a conda environment.yml or an image (``fields``:
    the create call's others, ``use_entrypoint``, ``gpu_enabled``, ``architecture``)."""
    raw_pip = raw_conda = None
    if pip:
        with open(pip) as f:
            raw_pip = [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]
    if conda:
        raw_conda = _read_conda(conda)
    return create_raw(api, ws, name, raw_pip=raw_pip, raw_conda=raw_conda, container=container, force=force, **fields)


def container_env_name(image: str, use_entrypoint: bool = True) -> str:
    """The environment a cluster of this image runs (``Cluster(container=...)``): one per image."""
    words = re.sub(r"[^a-z0-9]+", "-", image.lower()).strip("-")
    digest = hashlib.sha256(f"{image} {use_entrypoint}".encode()).hexdigest()[:8]
    return f"image-{words[:40].strip('-')}-{digest}"


def container_env(api: Api, ws: str, image: str, use_entrypoint: bool = True, say: Callable[[str], None] = print,
                  *, status: Callable[[str], None] | None = None, show_log: bool = False) -> str:
    """The workspace's environment of an image (``container_env_name``; created once), its build
    (the pull and the check that the image runs Dask) waited for; answers its name. A build that
    fails raises its reason (an image without Dask, a private image without the credentials...)."""
    name = container_env_name(image, use_entrypoint)
    alias = create_raw(api, ws, name, container=image, use_entrypoint=use_entrypoint)
    wait_for_build(api, ws, alias, say, status=status, show_log=show_log)
    return name


def split_container(image: str) -> tuple[str, bool]:
    """Coiled's image words: a trailing ``!`` ignores the image's entrypoint. Answers (image, use_entrypoint)."""
    return (image[:-1], False) if image.endswith("!") else (image, True)


def create_raw(api: Api, ws: str, name: str, *, raw_pip: list | None = None, raw_conda: dict | None = None,
               container: str | None = None, force: bool = False, **fields) -> dict:
    """A named environment from pip lines, a conda {channels, dependencies} and/or an image."""
    spec = None if container and not (raw_pip or raw_conda) else {
        "packages": [], "raw_pip": raw_pip, "raw_conda": raw_conda, "lockfile_name": None, "lockfile_content": None}
    body = {"name": name, "container": container, "force_rebuild": force, "md5": spec_md5(spec), "packages": [],
            "raw_pip": raw_pip, "raw_conda": raw_conda, "architecture": "x86_64", "gpu_enabled": False, **fields}
    return api.request("POST", _base(ws), json_body=body, retry=SLOW_ONCE)


def _read_conda(path: str) -> dict:
    """channels and dependencies of an environment.yml, read without a YAML library (flat lists only)."""
    channels, dependencies, section = [], [], None
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            if not line.startswith((" ", "-")):
                section = line.split(":", 1)[0].strip()
                continue
            item = line.strip()
            if item.startswith("- ") and raw.startswith(("  - ", "- ")) and section in ("channels", "dependencies"):
                (channels if section == "channels" else dependencies).append(item[2:].strip())
    return {"channels": channels, "dependencies": dependencies}


def wait_for_build(api: Api, ws: str, alias: dict, say: Callable[[str], None] = print, *,
                   status: Callable[[str], None] | None = None, show_log: bool = True) -> dict:
    """Polls the alias's latest build until it is built.

    A build that was built already is not waited for and its old log is not shown again. The log
    of a build that runs now is shown as it comes with ``show_log``; without it, only the end of
    the log of a build that fails.
    """
    build = _latest_build(alias)
    if not build or build.get("state") == "built":
        return alias
    status = status or say
    token, shown, delay = None, None, 0.1
    while True:
        current = api.request("GET", f"{_base(ws)}/build/{build['id']}", retry=IDEMPOTENT)
        if current["state"] != shown:
            status(f"  build {build['id']} of {alias['name']}: {current['state']}")
            shown = current["state"]
        events = []
        if show_log:
            logs = api.request("GET", f"{_base(ws)}/build/logs/{build['id']}",
                               query={"limit": 500, **({"pageToken": token} if token else {})}, retry=IDEMPOTENT)
            events, token = logs["events"], logs["nextToken"]
            for event in events:
                say(f"    {event['message']}")
        if current["state"] in DONE and not events:
            if current["state"] == "error":
                if not show_log:
                    for line in build_log(api, ws, build["id"])[-FAILED_LOG_LINES:]:
                        say(f"    {line}")
                raise CumulusError(f"Software environment {alias['name']} failed to build: {current['reason']}")
            return alias
        time.sleep(delay)
        # A build that is done in a second is seen at once; a long one is not asked about too often.
        delay = min(delay * 2, BUILD_POLL_SECONDS)


def list_aliases(api: Api, ws: str) -> list:
    answer = api.request("GET", f"{_base(ws)}/alias", query={"include_package_sync": "true", "limit": 500})
    return answer["items"]


def get_alias(api: Api, ws: str, name: str) -> dict:
    return api.request("GET", f"{_base(ws)}/alias/name/{quote(name, safe='')}")


def delete_alias(api: Api, ws: str, name: str) -> None:
    api.request("DELETE", f"{_base(ws)}/alias/name/{quote(name, safe='')}", retry=NO_RETRY)


def build_log(api: Api, ws: str, build_id: int) -> list:
    lines, token = [], None
    while True:
        page = api.request("GET", f"{_base(ws)}/build/logs/{build_id}", query={"limit": 5000, **({"pageToken": token} if token else {})})
        lines.extend(event["message"] for event in page["events"])
        if len(page["events"]) < 5000:
            return lines
        token = page["nextToken"]
