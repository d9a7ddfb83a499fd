"""``cumulus run`` and ``cumulus notebook``: the command line of run_command.py and notebooks.py."""

from __future__ import annotations

import argparse
import os
import sys

from cumulus import hardware


def add_everyday_commands(sub) -> None:
    run = sub.add_parser(
        "run", help="run a command on a fresh instance, its output streamed here, exiting with its code",
        description="Runs COMMAND on the instance of a cluster made for it (or the running one named with "
                    "--name, kept for the next run until its idle timeout), with this directory's files sent "
                    "along. Its stdout and stderr are printed as they are written; `cumulus run` exits with "
                    "the command's exit code.",
    )
    run.add_argument("--name", help="run on this run cluster, started if needed and kept for reuse")
    run.add_argument("--software", metavar="ENV", help="the software environment the command runs with")
    run.add_argument("--env", action="append", default=[], metavar="K=V", help="a variable for the command")
    run.add_argument("--secret-env", action="append", default=[], metavar="K=V",
                     help="a variable sent only to the instance (over TLS), never stored or logged")
    run.add_argument("--workspace", help="workspace slug or name (default: your default workspace)")
    run.add_argument("--idle-timeout", default="20 minutes", metavar="DURATION",
                     help='how long a --name cluster waits for the next run (default "20 minutes")')
    run.add_argument("--no-files", action="store_true", help="send nothing of this directory")
    hardware.add_cli_options(run, "the instance")
    run.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]")
    run.set_defaults(run=_run)

    from cumulus.notebook_cli import add_notebook_commands

    add_notebook_commands(sub)


def _run(args) -> int:
    from cumulus.arguments import reworded
    from cumulus.cli import _pairs as pairs
    from cumulus.http import ArgumentError, CumulusError
    from cumulus.run_command import run

    words = list(args.command)
    if words and words[0] == "--":
        words = words[1:]
    if not words:
        raise CumulusError("Give the command to run after --, e.g. `cumulus run -- python train.py`.")
    # One word is a command line as typed (`cumulus run -- "make && ./a.out"`); several are words.
    command = words[0] if len(words) == 1 else words
    try:
        result = run(
            command, name=args.name, software=args.software, env=pairs(args.env, "--env"),
            secret_env=pairs(args.secret_env, "--secret-env"), workspace=args.workspace,
            directory=None if args.no_files else os.getcwd(), idle_timeout=args.idle_timeout,
            **hardware.from_cli(args, "scheduler"),
        )
    except ArgumentError as err:
        # In the flags typed here, not the Python parameters they became.
        raise reworded(err, hardware.cli_words(args, "scheduler")) from None
    if result.code:
        print(f"cumulus run: the command exited with code {result.code}", file=sys.stderr)
    return result.code
