"""The preload the agent gives every Dask process: it reads the package versions a worker's
registration needs before the registration waits for them, once however often Dask imports it."""

from __future__ import annotations

import subprocess
import sys
import unittest

from cumulus.agent.agent import WARM_IMPORTS

# Imports the preload twice, as Dask does (or not at all: sys.argv[1] == "0"), then reports what
# the reading thread left behind: which of the packages a registration reports are imported.
SCRIPT = f"""
import importlib.util, sys, threading
import distributed
def load():
    spec = importlib.util.spec_from_file_location("preload_warm", {WARM_IMPORTS!r})
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
if sys.argv[1] == "1":
    load(); load()
readers = [t for t in threading.enumerate() if t.name == "cumulus-read-versions"]
print(len(readers))
for t in readers:
    t.join(60)
import distributed.versions as v
wanted = [name for name, _ in v.required_packages + v.optional_packages if importlib.util.find_spec(name)]
print(all(name in sys.modules for name in wanted))
"""


class WarmImportsTest(unittest.TestCase):
    def test_reads_the_versions_once_in_the_background(self):
        def run(preload: str) -> list[str]:
            out = subprocess.run([sys.executable, "-c", SCRIPT, preload], capture_output=True, text=True, timeout=120)
            self.assertEqual(out.returncode, 0, out.stderr)
            return out.stdout.split()

        self.assertEqual(run("1"), ["1", "True"])
        # Without it, importing distributed leaves some of them to the first registration.
        self.assertEqual(run("0"), ["0", "False"])


if __name__ == "__main__":
    unittest.main()
