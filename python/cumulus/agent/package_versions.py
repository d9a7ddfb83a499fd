"""A Dask preload the agent gives every scheduler and worker it starts (by path: the cluster's own
environment need not have this package).

A worker's registration carries its package versions (``distributed.versions.get_versions``), and
the scheduler reads its own at the first registration. Dask finds each version by importing the
package, and pandas is not imported by anything else at a start: importing it costs a fresh
process about 0.2 s of CPU, paid by the scheduler and every worker at once, while the cluster
starts on the same cores. A package that is not imported yet says its version from its installed
metadata instead (the same string: it is what the package's ``__version__`` is built from), and
is imported when a task first needs it, as it would be in any Python.
"""

from __future__ import annotations

import sys
from importlib import metadata
from typing import Any, Iterable

import distributed.versions as versions

# Dask imports a preload file twice, the second time by reloading it into the same module: Dask's
# own reading is kept aside once, where a second run of this file finds it.
if not hasattr(versions, "_import_for_version"):
    versions._import_for_version = versions.get_package_info


def get_package_info(pkgs: Iterable[Any]) -> dict:
    """Dask's own reading for every package already imported (or without installed metadata); the
    installed metadata's version for the others, without importing them."""
    by_import, found = [], {}
    for pkg in pkgs:
        name = pkg[0] if isinstance(pkg, (tuple, list)) else pkg
        if name not in sys.modules:
            try:
                found[name] = metadata.version(name)
                continue
            except (metadata.PackageNotFoundError, ValueError):
                pass
        by_import.append(pkg)
    return {**versions._import_for_version(by_import), **found}


versions.get_package_info = get_package_info
