"""Dask's config module without the rest of Dask: what ``cumulus.config`` reads a login through.

``import dask.config`` runs ``dask/__init__``, which imports Dask's collections and graph machinery
(about 0.1-0.2 s), before the commands that never compute (``cumulus run --name`` on a running
cluster, ``cumulus login``) have done anything. Dask's ``config.py`` depends only on the standard
library and yaml, so it is loaded from Dask's own directory as the module ``dask.config``: the same
files, ``DASK_*`` variables and rules. When Dask is imported later in the process, its
``from dask import config`` takes this very module (Python falls back to ``sys.modules`` for it),
so settings made here are Dask's too.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType


def dask_config() -> ModuleType:
    """``dask.config``: the one already imported, else loaded alone from Dask's package directory."""
    found = sys.modules.get("dask.config")
    if found is not None:
        return found
    spec = importlib.machinery.PathFinder.find_spec("dask")
    locations = list(spec.submodule_search_locations or []) if spec else []
    path = os.path.join(locations[0], "config.py") if locations else ""
    if not os.path.isfile(path):
        import dask.config  # an unusual install: the whole package, as before

        return dask.config
    alone = importlib.util.spec_from_file_location("dask.config", path)
    module = importlib.util.module_from_spec(alone)
    sys.modules["dask.config"] = module
    try:
        alone.loader.exec_module(module)
    except BaseException:
        del sys.modules["dask.config"]
        raise
    return module
