"""``cumulus`` on the command line: the parser made of every command group, and the dispatch."""

from __future__ import annotations

import argparse
import os
import sys

from cumulus.cli import account, batch, cluster, env, notebook, run, setup, slurm, ssh_hosts
from cumulus.cli.common import check_refused
from cumulus.http import CumulusError

# Each group adds its commands to the top-level subparsers, in the order `cumulus --help` lists them.
GROUPS = (account, cluster, env, batch, run, notebook, setup, ssh_hosts, slurm)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    try:
        check_refused(args)
        return args.run(args) or 0
    except CumulusError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cumulus", description="Cumulus: Dask clusters on your own control plane.")
    sub = p.add_subparsers(metavar="COMMAND")
    for group in GROUPS:
        group.add_commands(sub)
    return p
