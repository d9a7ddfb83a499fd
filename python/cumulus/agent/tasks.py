"""Batch tasks on an instance: after the jobs' host setup, claims tasks one at a time, runs each
command in its own process group with the job's variables, streams its output into the cluster's
logs (tagged with the task), reports its start and exit code, and stops it when the control plane
says the task is over (cancelled, timed out)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from .backoff import Backoff
from .control import Refused
from .filestores import Filestores

if TYPE_CHECKING:
    from .agent import Agent

# While there is nothing to claim, ask again after this long, growing to the second value.
IDLE_POLL_SECONDS = (0.1, 1.0)
# While a task runs, tell the control plane (and hear whether to stop it) this often.
KEEPALIVE_SECONDS = 2.0
# Between TERM and KILL when a task is stopped.
KILL_GRACE_SECONDS = 5.0
# What a task's command does not inherit from the agent.
PRIVATE_VARIABLES = ("CUMULUS_CLUSTER_TOKEN", "CUMULUS_BATCH_ROOT")


def exit_description(code: int | None) -> str:
    if code == 0:
        return ""
    if code < 0:
        try:
            return f"Killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"Killed by signal {-code}"
    return f"Exited with code {code}"


def python_bin(python: str) -> str:
    """A folder whose `python` is the given interpreter: its own, or (an interpreter such as
    /usr/bin/python3 has no `python` beside it) one made in the work dir, so that `python` in a
    task's command never falls through to another interpreter on PATH."""
    bindir = os.path.dirname(python)
    if os.path.exists(os.path.join(bindir, "python")):
        return bindir
    own = os.path.join(os.getcwd(), "bin")
    os.makedirs(own, exist_ok=True)
    for name in ("python", "python3"):
        link = os.path.join(own, name)
        if not os.path.lexists(link):
            os.symlink(python, link)
    return own


class TaskRunner(threading.Thread):
    def __init__(self, agent: Agent, batch: dict, scheduler_address: str, env: dict[str, str],
                 python: str) -> None:
        super().__init__(name="cumulus-tasks", daemon=True)
        self.agent = agent
        self.control = agent.control
        self.batch = batch
        self.scheduler_address = scheduler_address
        self.base_env = {k: v for k, v in env.items() if k not in PRIVATE_VARIABLES}
        # `python` in a task's command is the cluster's software environment.
        bindir = python_bin(python)
        self.base_env["PATH"] = bindir + os.pathsep + (self.base_env.get("PATH") or os.defpath)
        self.root = os.environ.get("CUMULUS_BATCH_ROOT")
        self.stopping = threading.Event()
        self.current = None
        self.lock = threading.Lock()
        self.filestores = Filestores(self.control, agent.role, self.say)
        self.inputs_synced = False

    def say(self, message: str, task_id: str | None = None) -> None:
        self.agent.logs.add(f"[cumulus-agent] {message}", "system", task_id)

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> None:
        try:
            self.host_setup()
            idle = IDLE_POLL_SECONDS[0]
            away = self.agent.backoff()
            ended = None  # the last task's end, said with the next claim
            while not self.stopping.is_set():
                try:
                    task = self.claim(ended)
                except Refused:
                    return
                except Exception:
                    # The control plane is away: ask again, backing off (the agent decides when to give up).
                    self.stopping.wait(away.next())
                    continue
                away.reset()
                ended = None
                if task is None:
                    self.stopping.wait(idle)
                    idle = min(idle * 2, IDLE_POLL_SECONDS[1])
                    continue
                idle = IDLE_POLL_SECONDS[0]
                ended = self.run_task(task)
            if ended is not None:  # stopping: the end is still said
                self.report(ended.pop("task_id"), ended.pop("state"), **ended)
        except Exception as e:  # pragma: no cover - reported, the instance goes on with Dask
            self.say(f"the task runner failed: {e!r}")

    def claim(self, ended: dict | None) -> dict | None:
        """The next task, already running: the last task's end goes with the claim (one call per
        task; the agent ships with its control plane, which always knows the call)."""
        return self.until_reached(self.control.next_task, ended)["task"]

    def host_setup(self) -> None:
        for i, script in enumerate(self.batch.get("host_setup") or []):
            self.say(f"running host setup script {i + 1}")
            proc = subprocess.Popen(["/bin/bash", "-c", script], cwd=self.agent.workdir, env=self.base_env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
            for raw in proc.stdout:
                self.agent.logs.add(raw.decode("utf-8", "replace").rstrip("\n"), "dask")
            code = proc.wait()
            self.say(f"host setup script {i + 1} {'finished' if code == 0 else exit_description(code).lower()}")

    def stop(self) -> None:
        """Stops claiming, and the running task (TERM, then KILL)."""
        self.stopping.set()
        with self.lock:
            proc = self.current
        if proc is not None:
            kill(proc)

    # -- one task ---------------------------------------------------------------------------

    def workdir(self, task: dict) -> str:
        base = self.root or task.get("workdir") or os.path.join(self.agent.workdir, "batch")
        os.makedirs(base, exist_ok=True)
        return base

    def run_task(self, task: dict) -> dict | None:
        """Runs the task; answers its end (``{task_id, state, exit_code?, reason?}``) for the caller
        to report, or None when there is nothing to say (it was stopped)."""
        task_id = task["id"]
        label = f"task {task['array_task_id']}"
        try:
            cwd = self.workdir(task)
            for f in task.get("user_files") or []:
                path = os.path.join(cwd, f["path"].lstrip("/"))
                os.makedirs(os.path.dirname(path) or cwd, exist_ok=True)
                with open(path, "w") as out:
                    out.write(f["content"])
            if not self.inputs_synced:
                self.filestores.sync_inputs(cwd)
                self.inputs_synced = True
        except Exception as e:
            return {"task_id": task_id, "state": "error", "reason": f"Cannot prepare the work directory: {e}"}
        env = dict(self.base_env)
        env.update({str(k): str(v) for k, v in (task.get("env") or {}).items()})
        if self.scheduler_address:
            env["CUMULUS_BATCH_SCHEDULER_ADDRESS"] = self.scheduler_address
        if task.get("state") != "running":  # claimed by the separate call: say it starts
            answer = self.report(task_id, "running")
            if answer is None or answer.get("stop_task"):
                return None
        output_path = os.path.join(cwd, f"cumulus-task-{task['array_task_id']}.log") if task.get("pipe_to_files") else None
        started = time.monotonic()
        started_at = time.time() - 1
        # Only the names of variables are ever logged, never their values.
        self.say(f"{label} started: {task['command']}", task_id)
        try:
            proc = subprocess.Popen(["/bin/bash", "-c", task["command"]], cwd=cwd, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as e:
            return {"task_id": task_id, "state": "error", "reason": f"Cannot start the command: {e}"}
        with self.lock:
            self.current = proc
        reader = threading.Thread(target=self.stream, args=(proc, task_id, output_path), daemon=True)
        reader.start()
        stopped_because = None
        while not self.stopping.is_set():
            try:
                proc.wait(KEEPALIVE_SECONDS)  # returns as soon as the command ends (or stop() kills it)
                break
            except subprocess.TimeoutExpired:
                pass
            answer = self.report(task_id, "running", persist=False)
            if answer and answer.get("stop_task"):
                stopped_because = answer.get("reason") or "the job ended"
                self.say(f"{label} stopped: {stopped_because}", task_id)
                kill(proc)
                break
        code = proc.wait()
        end_group(proc)  # what the command left running in the background ends with it
        reader.join(5)
        with self.lock:
            self.current = None
        seconds = time.monotonic() - started
        if output_path and os.path.exists(output_path):
            try:
                self.until_reached(self.control.upload_task_output, task_id, output_path)
            except Exception as e:
                self.say(f"{label}: cannot keep its output file: {e}", task_id)
        if stopped_because or self.stopping.is_set():
            return None
        try:
            self.filestores.sync_outputs(cwd, started_at)
        except Exception as e:
            self.say(f"{label}: cannot keep its output files: {e}", task_id)
        description = exit_description(code)
        self.say(f"{label} {'succeeded' if code == 0 else 'failed: ' + description} after {seconds:.1f} s", task_id)
        # Its output is heard before its end: a task shown finished has its log lines.
        self.agent.logs.flush()
        exit_code = code if code >= 0 else 128 - code
        return {"task_id": task_id, "state": "done" if code == 0 else "error", "exit_code": exit_code,
                "reason": description}

    def stream(self, proc: subprocess.Popen, task_id: str, output_path: str) -> None:
        out = open(output_path, "w") if output_path else None
        try:
            for raw in proc.stdout:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                self.agent.logs.add(line, "dask", task_id)
                if out:
                    out.write(line + "\n")
        finally:
            if out:
                out.close()

    def report(self, task_id: str, state: str, persist: bool = True, **fields: Any) -> dict | None:
        """Tells the control plane of the task. A start and an end are said until the control plane
        hears them (it may be away: the result is kept meanwhile); a keepalive (``persist=False``)
        is tried once. None when it cannot be said."""
        try:
            return self.until_reached(self.control.task_state, task_id, state, attempts=None if persist else 1,
                                      **fields)
        except Refused as e:
            if e.status == 409:  # it ended meanwhile (cancelled, timed out)
                return {"stop_task": True}
            return None
        except Exception:
            return None

    def until_reached(self, fn: Callable[..., Any], *args: Any, attempts: int | None = None,
                      **kwargs: Any) -> Any:
        """Calls the control plane until it answers, backing off while it cannot be reached, for as
        long as the agent keeps trying (then, or when the instance stops, the last error is raised)."""
        backoff = self.agent.backoff()
        tried = 0
        while True:
            try:
                result = fn(*args, **kwargs)
            except Refused:
                raise
            except Exception as e:
                tried += 1
                self.agent.unreachable(e)
                if (attempts is not None and tried >= attempts) or self.stopping.wait(backoff.next()):
                    raise
                continue
            self.agent.reached()
            return result


def kill(proc: subprocess.Popen) -> None:
    """TERM to the task's process group, then KILL to what is left after the grace period."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(KILL_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        pass
    end_group(proc)


def end_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
