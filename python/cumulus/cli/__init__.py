"""The ``cumulus`` command: one module per command group (``account``, ``cluster``, ``env``, ``batch``,
``run``, ``notebook``, ``setup``), each adding its commands with ``add_commands(subparsers)``; ``main`` builds the
parser from them and dispatches. Groups share only ``common``; none imports another or ``main``."""

from cumulus.cli.main import main, parser

__all__ = ["main", "parser"]
