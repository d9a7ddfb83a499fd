"""Scheduler preload: the commands of ``cumulus run``, run on the scheduler's instance.

A command runs in a fresh directory under the scheduler's, with the files sent along, the cluster's
interpreter first on ``PATH`` and ``DASK_SCHEDULER_ADDRESS`` set; its output is kept in the cluster's
logs a line at a time. It is asked for in one of two ways:

- ``cumulus_run`` (this preload's handler, ``dask_setup``): one connection of the client streams the
  output back as messages and the exit code last; the client's ``stop`` or a lost connection ends
  the command. Its messages are plain data, so the client needs no ``distributed``
  (``cumulus/dask_wire.py``): ``cumulus run --name`` on a running cluster starts in a fraction of a
  second.
- ``Client.run_on_scheduler`` of the functions below (``cumulus/run_command.py`` sends this file's
  functions by value): output as Dask events, for an ``--interactive`` terminal and for schedulers
  started without this preload.

Standard library and distributed only.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Awaitable, Callable

if TYPE_CHECKING:
    from distributed import Scheduler
    from distributed.comm import Comm

# After the command's last word, how long the client has to say it read it (then the connection is dropped).
DONE_SECONDS = 30.0

async def cumulus_run_command(run_id: str, command: str, archive: bytes, env: dict, cpus: int | None,
                              terminal: dict | None = None, dask_scheduler: Scheduler | None = None,
                              emit: Callable[[dict], Awaitable[None]] | None = None) -> dict:
    import asyncio, codecs, io, os, sys, time, zipfile
    topic = "cumulus-run-" + run_id
    workdir = os.path.join(os.getcwd(), "runs", run_id)
    os.makedirs(workdir, exist_ok=True)
    if archive:
        zipfile.ZipFile(io.BytesIO(archive)).extractall(workdir)
    private = ("CUMULUS_CLUSTER_TOKEN", "CUMULUS_BACKEND_ID", "CUMULUS_BATCH_ROOT")
    base = {k: v for k, v in os.environ.items() if k not in private}
    # `python` is the cluster's interpreter, whatever the image calls it.
    bindir = os.path.join(os.getcwd(), "runs", ".bin")
    os.makedirs(bindir, exist_ok=True)
    for alias in ("python", "python3"):
        link = os.path.join(bindir, alias)
        if not os.path.lexists(link):
            try:
                os.symlink(sys.executable, link)
            except FileExistsError:
                pass
    base["PATH"] = os.pathsep.join([bindir, os.path.dirname(sys.executable), base.get("PATH", "")])
    base["DASK_SCHEDULER_ADDRESS"] = dask_scheduler.address
    base["PYTHONUNBUFFERED"] = "1"
    base.update(env)

    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:cpus])

    runs = dask_scheduler.__dict__.setdefault("_cumulus_runs", {})
    if terminal is not None:
        # --interactive: the command gets a terminal of its own (a pty, sized as the caller's), its
        # input what cumulus_run_input writes into it, its output one stream.
        import fcntl, struct, termios
        base["TERM"] = terminal.get("term") or "xterm"
        master, slave = os.openpty()
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", terminal["rows"], terminal["cols"], 0, 0))

        def attach() -> None:
            pin() if cpus and hasattr(os, "sched_setaffinity") else None
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        proc = await asyncio.create_subprocess_exec(
            "/bin/bash", "-c", command, cwd=workdir, env=base, stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, preexec_fn=attach,
        )
        os.close(slave)
        dask_scheduler.__dict__.setdefault("_cumulus_terminals", {})[run_id] = master
        for data in dask_scheduler.__dict__.setdefault("_cumulus_typed_ahead", {}).pop(run_id, []):
            os.write(master, data)
    else:
        proc = await asyncio.create_subprocess_exec(
            "/bin/bash", "-c", command, cwd=workdir, env=base, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True,
            preexec_fn=pin if cpus and hasattr(os, "sched_setaffinity") else None,
        )
    runs[run_id] = proc
    sent = [0]
    print(f"[cumulus run {run_id}] started: {command}", flush=True)

    async def pump(stream: Any, name: str) -> None:
        decode = codecs.getincrementaldecoder("utf-8")("replace")
        pending = ""
        while True:
            chunk = await stream.read(65536)
            text = decode.decode(chunk, final=not chunk)
            if text:
                message = {"n": sent[0], "stream": name, "text": text}
                if emit is None:
                    dask_scheduler.log_event(topic, message)
                else:
                    await emit(message)
                sent[0] += 1
                # Kept in the cluster's logs too, a line at a time.
                pending += text
                *lines, pending = pending.split("\n")
                for line in lines:
                    print(f"[cumulus run {run_id} {name}] {line}", flush=True)
            if not chunk:
                if pending:
                    print(f"[cumulus run {run_id} {name}] {pending}", flush=True)
                return

    async def keep_busy() -> None:
        # A command that runs is work: the idle timeout waits for it.
        while True:
            plugin = dask_scheduler.plugins.get("cumulus")
            if plugin is not None and hasattr(plugin, "last_activity"):
                plugin.last_activity = time.monotonic()
            await asyncio.sleep(5)

    class TerminalOutput:
        """The pty's output as a stream: what the command wrote, then b"" once it has gone (EIO)."""

        def __init__(self, fd: int) -> None:
            self.fd = fd
            self.chunks = asyncio.Queue()
            asyncio.get_running_loop().add_reader(fd, self.ready)

        def ready(self) -> None:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                asyncio.get_running_loop().remove_reader(self.fd)
            self.chunks.put_nowait(chunk)

        async def read(self, _n: int) -> bytes:
            return await self.chunks.get()

    busy = asyncio.ensure_future(keep_busy())
    try:
        if terminal is not None:
            await pump(TerminalOutput(master), "stdout")
        else:
            await asyncio.gather(pump(proc.stdout, "stdout"), pump(proc.stderr, "stderr"))
        code = await proc.wait()
    finally:
        busy.cancel()
        runs.pop(run_id, None)
        if terminal is not None:
            dask_scheduler._cumulus_terminals.pop(run_id, None)
            dask_scheduler._cumulus_typed_ahead.pop(run_id, None)
            os.close(master)
    code = code if code >= 0 else 128 - code
    print(f"[cumulus run {run_id}] exited with code {code}", flush=True)
    return {"code": code, "events": sent[0]}


def cumulus_subscribed(topic: str, client_id: str, dask_scheduler: Scheduler | None = None) -> bool:
    return client_id in dask_scheduler.event_subscriber.get(topic, ())


def cumulus_forget(topic: str, dask_scheduler: Scheduler | None = None) -> None:
    dask_scheduler.events.pop(topic, None)
    dask_scheduler.event_counts.pop(topic, None)


def cumulus_run_input(run_id: str, data: bytes, rows: int | None = None, cols: int | None = None,
                      dask_scheduler: Scheduler | None = None) -> bool:
    """Keys for an --interactive command's terminal (and its new size, when the caller's changed)."""
    import fcntl, os, struct, termios
    master = getattr(dask_scheduler, "_cumulus_terminals", {}).get(run_id)
    if master is None:
        # Typed before the command has started: kept for it (cumulus_run_command writes it first).
        dask_scheduler.__dict__.setdefault("_cumulus_typed_ahead", {}).setdefault(run_id, []).append(data)
        return True
    if rows and cols:
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    while data:
        data = data[os.write(master, data):]
    return True


async def cumulus_stop_command(run_id: str, dask_scheduler: Scheduler | None = None) -> bool:
    import os, signal
    proc = getattr(dask_scheduler, "_cumulus_runs", {}).get(run_id)
    if proc is None:
        return False
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    return True


async def serve_run(comm: Comm, scheduler: Scheduler, run_id: str, command: str, archive: bytes, env: dict,
                    cpus: int | None = None) -> Any:
    """``cumulus_run``: the command's output as ``{"n", "stream", "text"}`` messages on the caller's
    connection, then ``{"code", "events"}``. Meanwhile the caller may send ``{"stop": True}``
    (Ctrl-C); after the code it sends ``{"done": True}``. A connection lost before then stops the
    command: no output is left running for no one."""
    from distributed.core import Status

    lost = asyncio.Event()

    async def emit(message: dict) -> None:
        if lost.is_set():
            return
        try:
            await comm.write(message)
        except Exception:  # noqa: BLE001 - the caller went away: the command is stopped below
            lost.set()

    async def listen() -> None:
        try:
            while True:
                message = await comm.read()
                if isinstance(message, dict) and message.get("done"):
                    return
                if isinstance(message, dict) and message.get("stop"):
                    await cumulus_stop_command(run_id, dask_scheduler=scheduler)
        except Exception:  # noqa: BLE001 - closed: the same as a stop
            lost.set()

    async def stop_when_lost() -> None:
        await lost.wait()
        await cumulus_stop_command(run_id, dask_scheduler=scheduler)

    listening = asyncio.ensure_future(listen())
    stopper = asyncio.ensure_future(stop_when_lost())
    try:
        answer = await cumulus_run_command(run_id, command, archive, dict(env), cpus, dask_scheduler=scheduler,
                                           emit=emit)
        await emit({"code": answer["code"], "events": answer["events"]})
        if not lost.is_set():
            await asyncio.wait_for(asyncio.shield(listening), DONE_SECONDS)
    except asyncio.TimeoutError:
        comm.abort()
    finally:
        stopper.cancel()
        if not listening.done():
            # A read given up aborts the connection (distributed's TCP.read): nothing is left half-read.
            listening.cancel()
    # Read to its end by `listen`: what comes next on the connection is Dask's (the caller's close).
    return Status.dont_reply


async def dask_setup(scheduler: Scheduler) -> None:
    async def cumulus_run(comm: Comm, run_id: str, command: str, archive: bytes = b"", env: dict | None = None,
                          cpus: int | None = None) -> Any:
        return await serve_run(comm, scheduler, run_id, command, archive, env or {}, cpus)

    scheduler.handlers["cumulus_run"] = cumulus_run
