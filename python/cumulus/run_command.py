"""``cumulus run``: a command on a cluster's instance, its output streamed back, its exit code kept.

The command runs on the scheduler's instance of a cluster of kind ``run`` (tag
``cumulus-cluster-type: run``; no workers unless asked), made through the control plane like any
cluster, so limits, usage and logs count it. The working directory's files go along (zipped, at
most ``directory_upload.MAX_UPLOAD_BYTES``); the command runs in a fresh directory with them, with
the cluster's software environment first on ``PATH`` and ``DASK_SCHEDULER_ADDRESS`` set, so
``Client()`` in it computes on the same cluster. Its stdout and stderr come back as they are written (Dask events to
this client), and are kept in the cluster's logs too. ``name=`` reuses a running run cluster of
that name (and leaves it running for the next run, until its idle timeout); without it the
cluster is made for the one command and stopped after it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field

from cumulus import hardware
from cumulus.batch_jobs import forwarded_google_env
from cumulus.directory_upload import pack_directory
from cumulus.http import ArgumentError

RUN_TAG = {"cumulus-cluster-type": "run"}
# After the command ends, how long to wait for output still on its way.
DRAIN_SECONDS = 15.0


@dataclass
class RunResult:
    """What ``cumulus.run`` answers: the command's exit code and its output."""

    code: int
    stdout: str = ""
    stderr: str = ""
    cluster_name: str = ""
    chunks: list = field(default_factory=list, repr=False)

    @property
    def output(self) -> str:
        """stdout and stderr interleaved as they were written."""
        return "".join(text for _, text in self.chunks)


# The functions run on the scheduler (``Client.run_on_scheduler``): the preload ``runs.py`` of this
# package, made functions of ``__main__`` below so that Dask sends them by value (a scheduler started
# without that preload needs nothing of this package).
REMOTE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "preloads", "runs.py")


def _remote_functions():
    namespace: dict = {"__name__": "__main__"}
    with open(REMOTE) as f:
        exec(compile(f.read(), "<cumulus run>", "exec"), namespace)
    return (namespace["cumulus_run_command"], namespace["cumulus_stop_command"], namespace["cumulus_subscribed"],
            namespace["cumulus_forget"], namespace["cumulus_run_input"])


@contextlib.contextmanager
def _in_callers_words(words: dict):
    """An argument error of the cluster made for the run, in the caller's words."""
    from cumulus.arguments import reworded

    try:
        yield
    except ArgumentError as err:
        raise reworded(err, words).with_traceback(None) from None


def _env(call: str, name: str, value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ArgumentError(f"{call}({name}={value!r}): {name} must be a dict of names to values, or None.")
    return {str(k): str(v) for k, v in value.items()}


def run(command=None, /, **kwargs):
    """``cumulus.run`` in both of its forms.

    Coiled's: ``@cumulus.run(memory="8 GiB")`` over a function, or ``cumulus.run(fn, **options)``,
    makes the function run remotely, as ``@cumulus.function`` with the same options does (calling it
    answers its result). Cumulus's: ``cumulus.run("python train.py", ...)`` (a string or a list of
    words) runs a command on a run cluster and answers a ``RunResult`` (``run_command``)."""
    if callable(command):
        from cumulus.functions import function

        return function(command, **kwargs)
    if command is None and "command" not in kwargs:
        from cumulus.functions import function

        return function(**kwargs)
    if command is None:
        command = kwargs.pop("command")
    return run_command(command, **kwargs)


def run_command(
    command,
    *,
    name: str | None = None,
    software: str | None = None,
    container: str | None = None,
    ignore_container_entrypoint: bool = False,
    env: dict | None = None,
    secret_env: dict | None = None,
    workspace: str | None = None,
    directory: str | None = ".",
    n_workers: int = 0,
    idle_timeout: str | None = "20 minutes",
    tags: dict | None = None,
    stream: bool = True,
    stdout=None,
    stderr=None,
    quiet: bool = False,
    server: str | None = None,
    token: str | None = None,
    interactive: bool = False,
    credentials: str | None = "local",
    forward_gcp_adc: bool = False,
    **hardware_args,
) -> RunResult:
    """Runs ``command`` (a shell string or a list of words) on a run cluster; answers its exit code
    and output. ``directory`` is sent along (None: nothing); ``env`` and ``secret_env`` are the
    command's variables (the secret ones travel only over the cluster's TLS connection, never to
    the server); ``tags`` are the cluster's. ``container`` runs it in that image
    (``Cluster(container=...)``: the image's environment, made once and checked for Dask). Hardware
    arguments are ``cumulus.Cluster``'s; the command runs on the scheduler's instance, so
    ``scheduler_vm_types``/``scheduler_cpu``/``scheduler_memory`` size it (``cpu``, ``memory`` and
    ``vm_types`` are accepted as short names for them). ``interactive``: the command gets a terminal
    joined to this one (``run_terminal``), its output one stream, kept in ``stdout``. ``credentials``
    is ``Cluster``'s: ``"local"`` forwards this machine's credentials for the cluster's cloud, None
    nothing. ``forward_gcp_adc`` (Coiled's ``--forward-gcp-adc``) gives the command this machine's
    Google access token (``CLOUDSDK_AUTH_ACCESS_TOKEN``) as a secret variable on any backend."""
    import shlex

    call = "cumulus.run"
    if isinstance(command, (list, tuple)):
        if not command or not all(isinstance(w, str) for w in command):
            raise ArgumentError(f"{call}(command={command!r}): give the command as a string or a list of words.")
        command = shlex.join(command)
    if not isinstance(command, str) or not command.strip():
        raise ArgumentError(f"{call}(command={command!r}): give the command to run.")
    variables = {**_env(call, "env", env), **_env(call, "secret_env", secret_env)}
    if forward_gcp_adc:
        variables.update(forwarded_google_env(f"{call}(forward_gcp_adc=True)"))
    # How the caller named each argument, for an error about it (Cluster's names are not theirs).
    words = {p: f"{call}({p}={v!r})" for p, v in hardware_args.items()}
    for short, full in (("cpu", "scheduler_cpu"), ("memory", "scheduler_memory"), ("vm_types", "scheduler_vm_types")):
        if short in hardware_args:
            words[full] = words[short]
            hardware_args[full] = hardware_args.pop(short)
    unknown = set(hardware_args) - set(hardware.PARAMS)
    if unknown:
        raise ArgumentError(f"{call}() got unexpected arguments: {', '.join(sorted(unknown))}.")
    archive, n_files = (b"", 0)
    if directory is not None:
        archive, n_files = pack_directory(directory)
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    say = (lambda _m: None) if quiet else (lambda m: print(m, file=err, flush=True))

    run_id = uuid.uuid4().hex[:12]
    if name and not interactive:
        # A running run cluster of that name takes the command without Dask's client (run_reuse.py).
        from cumulus.run_reuse import reused_run

        reused = RunResult(code=-1, cluster_name=name)

        def output(which: str, text: str) -> None:
            reused.chunks.append((which, text))
            if stream:
                target = out if which == "stdout" else err
                target.write(text)
                target.flush()

        sent = [f"Sent {n_files} file(s) from {os.path.abspath(directory)}."] if n_files else []
        code = reused_run(command, name=name, workspace=workspace, server=server, token=token, archive=archive,
                          variables=variables, cpus=_pinned_cpus(hardware_args), credentials=credentials,
                          run_id=run_id, on_output=output, say=say, preamble=sent)
        if code is not None:
            reused.code = code
            return _finished(reused)

    from distributed import Client

    from cumulus.cluster import Cluster

    # The cluster's progress goes where the command's stderr goes: stdout is the command's own.
    with contextlib.redirect_stdout(err), _in_callers_words(words):
        cluster = Cluster(
            name=name,
            n_workers=n_workers,
            workspace=workspace,
            software=software,
            container=container,
            ignore_container_entrypoint=ignore_container_entrypoint,
            idle_timeout=idle_timeout,
            tags={**_env(call, "tags", tags), **RUN_TAG},
            # A named run cluster waits for the next run without a client; its idle timeout stops it.
            scheduler_options={"no_client_timeout": None} if name else None,
            shutdown_on_close=name is None,
            wait_for_workers=False if n_workers == 0 else None,
            server=server,
            token=token,
            quiet=quiet,
            credentials=credentials,
            **hardware_args,
        )
    result = RunResult(code=-1, cluster_name=cluster.name)
    topic = f"cumulus-run-{run_id}"
    received = []
    arrived = threading.Condition()

    def on_event(event):
        _, message = event
        text, which = message["text"], message["stream"]
        with arrived:
            if message["n"] in received:
                return
            received.append(message["n"])
            result.chunks.append((which, text))
            arrived.notify_all()
        if stream:
            target = out if which == "stdout" else err
            target.write(text)
            target.flush()

    remote_run, remote_stop, subscribed, forget, remote_input = _remote_functions()
    cpus = _pinned_cpus(hardware_args)
    try:
        with Client(cluster) as client:
            client.subscribe_topic(topic, on_event)
            # The subscription travels on another connection than the call: the first output must not beat it.
            deadline = time.monotonic() + DRAIN_SECONDS
            while not client.run_on_scheduler(subscribed, topic, client.id) and time.monotonic() < deadline:
                time.sleep(0.05)
            if n_files:
                say(f"Sent {n_files} file(s) from {os.path.abspath(directory)}.")
            say(f"Running on {cluster.name}: {command}")
            try:
                if interactive:
                    answer = _joined_run(client, remote_run, remote_input, run_id, command, archive, variables, cpus)
                else:
                    answer = client.run_on_scheduler(remote_run, run_id, command, archive, variables, cpus)
            except KeyboardInterrupt:
                client.run_on_scheduler(remote_stop, run_id)
                raise
            deadline = time.monotonic() + DRAIN_SECONDS
            with arrived:
                while len(received) < answer["events"] and time.monotonic() < deadline:
                    arrived.wait(0.1)
            if len(received) < answer["events"]:  # late or missed: the scheduler kept them
                for event in sorted(client.get_events(topic), key=lambda e: e[1]["n"]):
                    on_event(event)
            client.unsubscribe_topic(topic)
            client.run_on_scheduler(forget, topic)
            result.code = int(answer["code"])
    finally:
        with contextlib.redirect_stdout(err):
            cluster.close()
    return _finished(result)


def _finished(result: RunResult) -> RunResult:
    result.stdout = "".join(t for s, t in result.chunks if s == "stdout")
    result.stderr = "".join(t for s, t in result.chunks if s == "stderr")
    return result


def _joined_run(client, remote_run, remote_input, run_id, command, archive, variables, cpus) -> dict:
    """The command run in a terminal of its own, joined to this one until it ends."""
    from cumulus import run_terminal

    def send(data: bytes, rows, cols) -> bool:
        try:
            return bool(client.run_on_scheduler(remote_input, run_id, data, rows, cols))
        except Exception:  # noqa: BLE001 - the run has ended and its client closed: nothing to type into
            return False

    with run_terminal.joined(send):
        return client.run_on_scheduler(remote_run, run_id, command, archive, variables, cpus, run_terminal.size())


def _pinned_cpus(args: dict) -> int | None:
    cpu = args.get("scheduler_cpu")
    if cpu is None:
        return None
    if isinstance(cpu, (list, tuple)):
        cpu = cpu[0] or cpu[1]
    return int(cpu)
