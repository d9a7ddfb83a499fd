"""``cumulus notebook start|stop|list``: the command line of notebooks.py."""

from __future__ import annotations

import os

from cumulus import hardware
from cumulus.cli.common import add_workspace, group, pairs, refuse

# Coiled's `notebook start` options that cannot apply here, and why (`common.refuse`).
REFUSED = {
    "--container": "make an environment of the image (`cumulus env create NAME --container IMAGE`) and give --software",
    "--disk-size": "instances use their instance type's disk",
    "--vs-code": "the notebook serves Jupyter only, through the Cumulus server",
    "--mount-bucket": "buckets are not mounted on instances; read them with your cloud library",
    "--block": "the command answers the notebook's address once Jupyter serves; `cumulus notebook stop NAME` stops it",
    "--allow-ssh-from": "a notebook opens no SSH port of its own choosing; use `cumulus cluster ssh`",
    "--allow-sync-from": "--sync copies files through the Cumulus server, over no SSH port of the notebook's",
    "--allow-ingress-from": "Jupyter and the dashboard are reached through the Cumulus server, which checks who "
                            "asks; no port of the notebook is opened to addresses",
    "--disk-config": "instances use their instance type's disk",
    "--host-setup-script": "make an environment with what the notebook needs and give --software",
    "--resumable": "a stopped notebook is stopped, not paused; --sync brings its changed files back first",
}
REFUSED_SWITCHES = ("--vs-code", "--block", "--resumable")


def add_commands(sub) -> None:
    _notebook, nsub = group(sub, "notebook", "Jupyter on a cluster: start, stop, list")

    start = nsub.add_parser(
        "start", help="start a notebook cluster running Jupyter and print its address",
        description="Starts a notebook cluster (or finds the running one of that name) whose scheduler's "
                    "instance runs JupyterLab (Jupyter Notebook where only that is installed), with "
                    "Client() connecting to the cluster and its workers, and prints which UI and its "
                    "address (yours alone: it carries your pass) on a line of its own.",
    )
    start.add_argument("--name", help="the notebook's name (default: notebook-<random>)")
    start.add_argument("--software", metavar="ENV", help="the software environment Jupyter and Dask run with")
    # Without workers a notebook's Client().submit(...) would wait for ever: one by default.
    start.add_argument("--workers", type=int, default=1, metavar="N",
                       help="Dask workers beside it, which Client() in the notebook computes on (default 1)")
    start.add_argument("--sync", action="store_true",
                       help="copy this directory in now, and bring back what changed at `cumulus notebook stop`")
    start.add_argument("--idle-timeout", default="20 minutes", metavar="DURATION",
                       help='stop after this long without a kernel working (default "20 minutes")')
    start.add_argument("--env", "-e", action="append", default=[], metavar="K=V",
                       help="a variable of the notebook's kernels and workers (repeatable)")
    start.add_argument("--tag", "-t", action="append", default=[], metavar="K=V", help="a tag of the notebook's cluster")
    start.add_argument("--sync-ignore", action="append", default=[], metavar="PATH",
                       help="with --sync: leave out what matches (a name or glob: data, *.csv, out/*; repeatable)")
    start.add_argument("--include-vcs", action="store_true",
                       help="with --sync: copy version control directories (.git, .hg, .svn) too")
    start.add_argument("--no-block", action="store_true",
                       help="answer once Jupyter serves (what `cumulus notebook start` always does)")
    start.add_argument("--open", action="store_true",
                       help="open the notebook's link in a browser once Jupyter serves (where one is at hand)")
    start.add_argument("--private", action="store_true",
                       help="the notebook's Jupyter is its creator's alone (what every notebook here is)")
    add_workspace(start)
    hardware.add_cli_options(start, "the notebook's instance")
    refuse(start, REFUSED, REFUSED_SWITCHES)
    start.set_defaults(run=_start)

    stop = nsub.add_parser("stop", help="stop a notebook (bringing back changed files if started with --sync)")
    stop.add_argument("name")
    add_workspace(stop)
    stop.set_defaults(run=_stop)

    ls = nsub.add_parser("list", help="running notebooks and their addresses")
    add_workspace(ls)
    ls.set_defaults(run=_list)


def _start(args) -> None:
    from cumulus import notebooks
    from cumulus.http import CumulusError
    from cumulus.login import open_in_browser

    for flag, given in (("--sync-ignore", args.sync_ignore), ("--include-vcs", args.include_vcs)):
        if given and not args.sync:
            raise CumulusError(f"{flag} says what --sync copies: give it with --sync.")
    notebook = notebooks.start(
        args.name, software=args.software, n_workers=args.workers, workspace=args.workspace,
        idle_timeout=args.idle_timeout, sync=os.getcwd() if args.sync else None, sync_ignore=args.sync_ignore,
        include_vcs=args.include_vcs, tags=pairs(args.tag, "--tag"),
        environ=pairs(args.env, "--env") or None, **hardware.from_cli(args, "scheduler"),
    )
    print(f"{notebooks.describe(notebook)} (open it in your browser; the link is yours alone):")
    print(notebook.url)
    if args.open and not open_in_browser(notebook.url):
        print("--open: no browser is at hand here (no DISPLAY or BROWSER); open the link above.")


def _stop(args) -> None:
    from cumulus import notebooks

    notebooks.stop(args.name, workspace=args.workspace)


def _list(args) -> None:
    from cumulus import notebooks

    rows = notebooks.list_notebooks(args.workspace)
    if not rows:
        print("No running notebooks.")
        return
    for n in rows:
        if n["url"]:
            where = n["url"]
        elif not n["yours"]:
            # A notebook runs code as its creator: its link is theirs alone.
            where = f"({n['creator'] or 'another member'}'s: only its creator can open it)"
        else:
            where = "(Jupyter not serving yet)"
        print(f"{n['name']}  {n['state']}  {where}")
