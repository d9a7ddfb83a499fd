"""The preload the agent gives every Dask process: a registration's package versions are the ones
Dask itself reads, found without importing the packages nothing else has imported."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import unittest

from cumulus.agent.agent import PACKAGE_VERSIONS

# Loads the preload twice as Dask does, the second time a reload (or not at all: sys.argv[1] == "0"),
# then prints the versions a registration would carry and which of their packages the reading imported.
SCRIPT = f"""
import importlib.util, json, sys
import distributed
from distributed.versions import get_versions
from distributed.utils import import_file
if sys.argv[1] == "1":
    import_file({PACKAGE_VERSIONS!r}); import_file({PACKAGE_VERSIONS!r})
before = set(sys.modules)
packages = get_versions()["packages"]
print(json.dumps({{"packages": packages, "imported": sorted(n for n in packages if n in sys.modules and n not in before)}}))
"""


def read(preload: str) -> dict:
    out = subprocess.run([sys.executable, "-c", SCRIPT, preload], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise AssertionError(out.stderr)
    return json.loads(out.stdout)


@unittest.skipUnless(importlib.util.find_spec("pandas"), "pandas is not installed here")
class PackageVersionsTest(unittest.TestCase):
    def test_the_versions_are_dasks_own_without_importing_what_nothing_imported(self):
        dasks, ours = read("0"), read("1")
        self.assertEqual(ours["packages"], dasks["packages"])
        self.assertEqual(ours["imported"], [])
        # Dask's own reading imports pandas, which nothing else at a start does (the cost avoided).
        self.assertIn("pandas", dasks["imported"])
        self.assertIsNotNone(ours["packages"]["pandas"])


if __name__ == "__main__":
    unittest.main()
