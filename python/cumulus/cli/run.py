"""``cumulus run``: the command line of run_command.py."""

from __future__ import annotations

import argparse
import os
import sys

from cumulus import hardware
from cumulus.cli.common import add_workspace, command_words, pairs, refuse
from cumulus.http import ArgumentError, CumulusError


_PACKAGE_SYNC = "the command runs in --software (or the workspace's default environment); nothing is synced from here"
# Coiled's `run` options that cannot apply here, and why (`common.refuse`).
REFUSED = {
    "--file": "this directory's files are all sent along (--no-files: none); name no files one by one",
    "-f": "this directory's files are all sent along (--no-files: none); name no files one by one",
    "--detach": "the command's output streams here until it ends; `cumulus batch run` leaves a command running",
    "--sync": "this directory is sent along, but nothing comes back from the instance",
    "--port": "an instance opens no ports of the command's; dashboards are served through the Cumulus server",
    "--expose": "an instance opens no ports of the command's; dashboards are served through the Cumulus server",
    "--sync-ignore": "there is no --sync here: nothing comes back from the instance",
    "--mount-bucket": "instances mount no buckets; they reach them with the forwarded AWS credentials",
    "--docker-shm-size": "the command's shared memory is its instance's (/dev/shm), set by no option",
    "--filestore": "no filestore is attached to a run; this directory is sent along "
                   "(`cumulus batch run --upload/--download` moves files both ways)",
    "--allow-ssh-from": "a run cluster opens no SSH port of its own choosing; use `cumulus cluster ssh`",
    "--disk-size": "instances use their instance type's disk",
    "--root": "the command runs as the instance's user",
    "--subdomain": "the instance is reached through the Cumulus server, on no subdomain of its own",
    "--allow-cross-zone": "the server places a run's instance; a run does not choose zones",
    "--host-setup-script": "a run's instance is set up by its software environment only",
    "--package-sync-strict": _PACKAGE_SYNC,
    "--package-sync-conda-extras": _PACKAGE_SYNC,
    "--package-sync-ignore": _PACKAGE_SYNC,
}
REFUSED_SWITCHES = ("--detach", "--sync", "--root", "--allow-cross-zone",
                    "--package-sync-strict")


def add_commands(sub) -> None:
    run = sub.add_parser(
        "run", help="run a command on a fresh instance, its output streamed here, exiting with its code",
        description="Runs COMMAND on the instance of a cluster made for it (or the running one named with "
                    "--name, kept for the next run until its idle timeout), with this directory's files sent "
                    "along. Its stdout and stderr are printed as they are written; `cumulus run` exits with "
                    "the command's exit code.",
    )
    run.add_argument("--name", help="run on this run cluster, started if needed and kept for reuse")
    run.add_argument("--software", metavar="ENV", help="the software environment the command runs with")
    run.add_argument("--container", metavar="IMAGE",
                     help="run the command in this container image (its environment, made once; IMAGE! or "
                          "--ignore-container-entrypoint: without the image's entrypoint)")
    run.add_argument("--ignore-container-entrypoint", "--skip-entrypoint", action="store_true",
                     help="run the --container image without its entrypoint")
    run.add_argument("--env", "-e", action="append", default=[], metavar="K=V", help="a variable for the command")
    run.add_argument("--secret-env", action="append", default=[], metavar="K=V",
                     help="a variable sent only to the instance (over TLS), never stored or logged")
    add_workspace(run)
    run.add_argument("--tag", "-t", action="append", default=[], metavar="K=V", help="a tag of the run's cluster")
    run.add_argument("--idle-timeout", "--keepalive", default=None, metavar="DURATION",
                     help='how long a --name cluster waits for the next run (default "20 minutes")')
    run.add_argument("--no-files", action="store_true", help="send nothing of this directory")
    run.add_argument("--no-credential-forwarding", action="store_true",
                     help="send the instance none of this machine's AWS credentials (by default they are forwarded "
                          "as short-lived session credentials)")
    run.add_argument("--forward-gcp-adc", action="store_true",
                     help="send the command this machine's Google access token (CLOUDSDK_AUTH_ACCESS_TOKEN, from "
                          "application default credentials or gcloud) on any backend; clusters on Compute Engine "
                          "get it anyway")
    run.add_argument("--interactive", "-it", action="store_true",
                     help="give the command a terminal joined to this one (`cumulus run -it -- bash`): what you "
                          "type goes to it, Ctrl-C included")
    hardware.add_cli_options(run, "the instance")
    refuse(run, REFUSED, REFUSED_SWITCHES)
    run.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]")
    run.set_defaults(run=_run)


def _container(args) -> tuple[str | None, bool]:
    """--container IMAGE (IMAGE! ignores its entrypoint, as Coiled writes it) with --ignore-container-entrypoint."""
    from cumulus.software import split_container

    if not args.container:
        if args.ignore_container_entrypoint:
            raise CumulusError("--ignore-container-entrypoint goes with --container IMAGE.")
        return None, True
    image, use_entrypoint = split_container(args.container)
    if args.software:
        raise CumulusError(f"--container {args.container} and --software {args.software}: give one of them.")
    return image, use_entrypoint and not args.ignore_container_entrypoint


def _run(args) -> int:
    from cumulus.arguments import reworded
    from cumulus.run_command import run_command

    words = command_words(args.command)
    if not words:
        raise CumulusError("Give the command to run after --, e.g. `cumulus run -- python train.py`.")
    # One word is a command line as typed (`cumulus run -- "make && ./a.out"`); several are words.
    command = words[0] if len(words) == 1 else words
    if args.idle_timeout is not None and not args.name:
        raise CumulusError("--keepalive/--idle-timeout keep a named run cluster for the next run: give --name NAME "
                           "(an unnamed run's cluster stops when its command ends).")
    container, use_entrypoint = _container(args)
    try:
        result = run_command(
            command, name=args.name, software=args.software, container=container,
            ignore_container_entrypoint=not use_entrypoint, env=pairs(args.env, "--env"),
            secret_env=pairs(args.secret_env, "--secret-env"), workspace=args.workspace,
            directory=None if args.no_files else os.getcwd(), idle_timeout=args.idle_timeout or "20 minutes",
            tags=pairs(args.tag, "--tag"), interactive=args.interactive,
            credentials=None if args.no_credential_forwarding else "local", forward_gcp_adc=args.forward_gcp_adc,
            **hardware.from_cli(args, "scheduler"),
        )
    except ArgumentError as err:
        # In the flags typed here, not the Python parameters they became.
        raise reworded(err, hardware.cli_words(args, "scheduler")) from None
    if result.code:
        print(f"cumulus run: the command exited with code {result.code}", file=sys.stderr)
    return result.code
