"""A warm process: an instance agent started before any cluster asks for one (the local backend keeps
a few, ``CUMULUS_WARM_PROCESSES``), so a cluster's start skips Python's start-up and Dask's imports.

``python -m cumulus.agent.warm`` imports the agent and Dask, says ``ready`` on stdout, and waits for
one line on stdin: the instance it becomes (its uid and gid, work dir, environment). It then drops
to that uid, leaves the server's pipes for the instance's ``agent.log``, forks the *Dask zygote*
(a child that waits for the Dask command: Dask starts in it without importing anything) and runs
the agent. Each warm process serves one instance and is never handed back: what it holds was
imported as no tenant, and nothing of one tenant is ever in another's process. If the server goes
before it is given an instance (stdin ends), it exits.

On an SSH host (compute/ssh/warm.ts) the pool is a directory, ``~/.cumulus/warm/<pool>/``, with a
directory per warm process: it is told its instance through the FIFO there (``CUMULUS_WARM_FIFO``),
the instance having first moved that directory to its own name (a ``mv``: one taker wins). It
leaves the pool by itself once no server has kept it for ``CUMULUS_WARM_IDLE_SECONDS``.

Its ``/proc/<pid>/environ`` keeps the id it was started with (the backend finds an instance's
processes by it, and records it in the instance's backend data): a process cannot rewrite it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

# What a cluster's first seconds need, imported before it is asked for (each ~0.1-0.4 s of CPU).
import distributed  # noqa: F401
import distributed.cli.dask_scheduler  # noqa: F401
import distributed.cli.dask_worker  # noqa: F401
import dask.config

from . import agent as agent_module


class Zygote:
    """The forked child that becomes the instance's Dask process when told its command: it was
    forked before the agent started a thread, with Dask imported, as the instance's uid."""

    def __init__(self) -> None:
        command_r, self.command_w = os.pipe()
        self.output_r, output_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(self.command_w)
            os.close(self.output_r)
            sys.exit(_become_dask(command_r, output_w))
        os.close(command_r)
        os.close(output_w)

    def offer(self, args: list[str], env: dict[str, str], cwd: str) -> "ForkedProcess | None":
        """Runs ``args`` (``PYTHON -m MODULE ...``) in the zygote where it can be that interpreter;
        else None (the zygote exits: the caller starts a process as it would without one)."""
        usable, site_dir = fork_site_dir(args[0])
        if not usable or args[1:2] != ["-m"]:
            self.discard()
            return None
        with os.fdopen(self.command_w, "w") as pipe:
            json.dump({"args": args, "env": env, "cwd": cwd, "site_dir": site_dir}, pipe)
        return ForkedProcess(self.pid, self.output_r)

    def discard(self) -> None:
        """Not wanted (the instance's Dask runs from an interpreter it cannot be): it exits."""
        os.close(self.command_w)
        os.close(self.output_r)
        os.waitpid(self.pid, 0)


class ForkedProcess:
    """What DaskProcess uses of a ``subprocess.Popen``, for the zygote (a child of this process)."""

    def __init__(self, pid: int, output_fd: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdout = os.fdopen(output_fd, "r", errors="replace")

    def poll(self) -> int | None:
        if self.returncode is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired("dask", timeout)
            time.sleep(0.02)
        return self.returncode

    def _signal(self, sig: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)


def _prctl(option: int, value: int | bytes) -> None:
    """prctl(2) where libc has it (Linux); nothing elsewhere."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


PR_SET_NAME = 15
PR_SET_DUMPABLE = 4


def _become_dask(command_r: int, output_w: int) -> int:
    """In the zygote: waits for the command, then runs it here (``python -m MODULE ARGS``)."""
    with os.fdopen(command_r) as pipe:
        text = pipe.read()
    if not text:
        return 0
    spec = json.loads(text)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(output_w, 1)
    os.dup2(output_w, 2)
    os.close(devnull)
    os.close(output_w)
    os.chdir(spec["cwd"])
    os.environ.clear()
    os.environ.update(spec["env"])
    tempfile.tempdir = None
    python, _m, module, *rest = spec["args"]
    # Its command line is the warm process's: its name says what it is (ps -o comm, /proc/PID/comm).
    _prctl(PR_SET_NAME, module.rsplit(".", 1)[-1].replace("_", "-").encode())
    if spec["site_dir"]:
        # The environment's own packages first, as its interpreter would have them.
        import site
        before = list(sys.path)
        site.addsitedir(spec["site_dir"])
        sys.path[:] = [p for p in sys.path if p not in before] + before
        sys.prefix = sys.exec_prefix = os.path.dirname(os.path.dirname(python))
    sys.executable = python
    # The cluster's Dask config (DASK_INTERNAL_INHERIT_CONFIG and DASK_* in the new environment).
    dask.config.refresh()
    if module == "distributed.cli.dask_worker":
        _quick_scheduler_file()
    import importlib
    sys.argv = [module, *rest]
    main = getattr(importlib.import_module(module), "main", None)
    if main is None:  # not one of Dask's commands (imported above): run the module as `-m` would
        import runpy
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    # Dask's commands are click commands: they read sys.argv and end the process themselves.
    main()
    return 0


def _quick_scheduler_file() -> None:
    """A worker started before its scheduler is up waits for the scheduler file its agent writes
    (dask_process.py); Dask looks for it every 0.1 s, which a start here would mostly spend
    waiting. This looks every 5 ms, the same way (the file is written whole, then renamed)."""
    import distributed.worker

    def json_load_robust(fn: str, load: Callable[[Any], Any] = json.load, timeout: float | None = None) -> Any:
        deadline = None if timeout is None else time.monotonic() + timeout
        while deadline is None or time.monotonic() < deadline:
            try:
                with open(fn) as f:
                    found = load(f)
                if found:
                    return found
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.005)
        raise TimeoutError(f"Could not load file after {timeout}s.")

    distributed.worker.json_load_robust = json_load_robust


def fork_site_dir(python: str) -> tuple[bool, str | None]:
    """Whether the zygote can be ``python`` (this interpreter, or a virtual environment of it that
    sees its packages and shadows none already imported here), and the environment's site dir."""
    if os.path.realpath(python) != os.path.realpath(sys.executable):
        return False, None
    if os.path.abspath(python) == os.path.abspath(sys.executable):
        return True, None
    venv = os.path.dirname(os.path.dirname(os.path.abspath(python)))
    try:
        with open(os.path.join(venv, "pyvenv.cfg")) as f:
            cfg = dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)
    except OSError:
        return False, None
    if {k.strip(): v.strip() for k, v in cfg.items()}.get("include-system-site-packages") != "true":
        return False, None
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    site_dir = os.path.join(venv, "lib", version, "site-packages")
    try:
        entries = os.listdir(site_dir)
    except OSError:
        return False, None
    imported = {name.split(".", 1)[0] for name in sys.modules}
    for entry in entries:
        name = entry[:-3] if entry.endswith(".py") else entry
        if entry.endswith((".dist-info", ".egg-info", ".pth")) or name.startswith("__"):
            continue
        if name.split(".", 1)[0] in imported:
            return False, None
    return True, site_dir


def _home_relative(value: str) -> str:
    """``~/...`` is the account's home: what a server reaching a host over SSH says it as."""
    return os.path.expanduser(value) if value.startswith("~/") else value


def _become(assignment: dict) -> None:
    """Takes the instance's identity, directory and environment; leaves the server's pipes.

    ``inherit``: the environment it was started with stays under the assignment's (an SSH host's
    warm process was started by the same account's session; its pool's own variables go)."""
    uid, gid = assignment.get("uid"), assignment.get("gid")
    if uid is not None and os.getuid() == 0:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        # A process that changed its uid is not dumpable: its /proc files stay root's, and the
        # instance could not read its own (metrics read /proc/PID/io). It is the uid's alone now.
        _prctl(PR_SET_DUMPABLE, 1)
    cwd = _home_relative(assignment["cwd"])
    # Where it was started: on an SSH host its directory was moved to the instance's, so the
    # path `python -m` put first on sys.path names a directory that is no longer there.
    started_in = {os.getcwd(), os.environ.get("CUMULUS_WARM_DIR", ""), ""}
    os.chdir(cwd)
    # `python -m` put the directory it started in first on the path: the instance's, as when its
    # agent is started there (the pool's directory is nothing of the instance's).
    sys.path[:] = [cwd if p in started_in else p for p in sys.path]
    env = {k: _home_relative(str(v)) for k, v in assignment["env"].items()}
    kept = {k: v for k, v in os.environ.items() if not k.startswith("CUMULUS_WARM_") and k != "CUMULUS_BACKEND_ID"}
    os.environ.clear()
    if assignment.get("inherit"):
        os.environ.update(kept)
    os.environ.update(env)
    tempfile.tempdir = None
    # The server waits for this: the process is the instance's now (its uid, its directory). A
    # server that died since it asked recorded the take first: the next one adopts this instance.
    try:
        os.write(1, b"taken\n")
    except OSError:
        pass
    log = os.open(os.path.join(cwd, "agent.log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    devnull = os.open(os.devnull, os.O_RDONLY)
    sys.stdout.flush()
    os.dup2(devnull, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(devnull)
    os.close(log)


WAITING_NAME = b"cumulus-warm"


def _open_fifo() -> int | None:
    """An SSH host's warm process (compute/ssh/warm.ts) is told its instance through the FIFO
    ``CUMULUS_WARM_FIFO`` in its directory, opened read-write: no end of file while it waits."""
    fifo = os.environ.get("CUMULUS_WARM_FIFO")
    return os.open(fifo, os.O_RDWR) if fifo else None


def _read_fifo(fd: int) -> str:
    """The assignment's line, or "" once the pool has not been kept for CUMULUS_WARM_IDLE_SECONDS
    (its ``.kept`` file untouched: no server fills it) and this process left the pool."""
    import select
    idle = float(os.environ.get("CUMULUS_WARM_IDLE_SECONDS", "900"))
    text = b""
    while b"\n" not in text:
        ready, _, _ = select.select([fd], [], [], min(idle, 30.0))
        if ready:
            text += os.read(fd, 65536)
        elif _unkept(idle) and _leave_pool():
            return ""
    os.close(fd)
    return text.split(b"\n", 1)[0].decode()


def _unkept(idle: float) -> bool:
    try:
        return time.time() - os.stat(os.environ["CUMULUS_WARM_KEPT"]).st_mtime > idle
    except (KeyError, OSError):
        return True


def _leave_pool() -> bool:
    """Moves its directory out of the pool and removes it: False when it is no longer there to move
    (an instance took it in the meantime: its assignment is on the way)."""
    import shutil
    here = os.environ["CUMULUS_WARM_DIR"]
    gone = os.path.join(os.path.dirname(here), "expired-" + os.path.basename(here))
    try:
        os.rename(here, gone)
    except OSError:
        return False
    shutil.rmtree(gone, ignore_errors=True)
    return True


def _own_name() -> bytes:
    try:
        with open("/proc/self/comm", "rb") as f:
            return f.read().strip()
    except OSError:
        return b"python3"


def main() -> int:
    # Until it is an instance, a signal ends it (the server's pool stopping it). Ready, it is named
    # so (ps -o comm, /proc/PID/comm); an instance has its name back.
    name = _own_name()
    _prctl(PR_SET_NAME, WAITING_NAME)
    fifo = _open_fifo()
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    line = sys.stdin.readline() if fifo is None else _read_fifo(fifo)
    if not line.strip():
        return 0
    assignment = json.loads(line)
    _prctl(PR_SET_NAME, name)
    _become(assignment)
    agent_module.DASK_STARTER = Zygote()
    return agent_module.main()


if __name__ == "__main__":
    sys.exit(main())
