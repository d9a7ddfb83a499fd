"""``cumulus notebook start|stop|list``: the command line of notebooks.py."""

from __future__ import annotations

import os

from cumulus import hardware


def add_notebook_commands(sub) -> None:
    notebook = sub.add_parser("notebook", help="Jupyter on a cluster: start, stop, list")
    nsub = notebook.add_subparsers(metavar="ACTION")
    notebook.set_defaults(run=lambda _args: notebook.print_help() or 2)

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
    start.add_argument("--workspace", help="workspace slug or name (default: your default workspace)")
    hardware.add_cli_options(start, "the notebook's instance")
    start.set_defaults(run=_start)

    stop = nsub.add_parser("stop", help="stop a notebook (bringing back changed files if started with --sync)")
    stop.add_argument("name")
    stop.add_argument("--workspace", help="workspace slug or name (default: your default workspace)")
    stop.set_defaults(run=_stop)

    ls = nsub.add_parser("list", help="running notebooks and their addresses")
    ls.add_argument("--workspace", help="workspace slug or name (default: your default workspace)")
    ls.set_defaults(run=_list)


def _start(args) -> None:
    from cumulus import notebooks

    notebook = notebooks.start(
        args.name, software=args.software, n_workers=args.workers, workspace=args.workspace,
        idle_timeout=args.idle_timeout, sync=os.getcwd() if args.sync else None,
        **hardware.from_cli(args, "scheduler"),
    )
    print(f"{notebooks.describe(notebook)} (open it in your browser; the link is yours alone):")
    print(notebook.url)


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
