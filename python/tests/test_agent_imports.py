"""The agent is every instance's first process, started beside Dask's on a start's busy cores
(issue 43): it imports no more than it uses. asyncio (a third of its import time) is not among it."""

from __future__ import annotations

import os
import subprocess
import sys
import unittest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class AgentImports(unittest.TestCase):
    def test_the_agent_does_not_import_asyncio(self):
        script = "import sys, cumulus.agent.agent; print(sorted(m for m in ('asyncio', 'distributed') if m in sys.modules))"
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONPATH": PYTHON_DIR})
        self.assertEqual(out.stdout.strip(), "[]")


if __name__ == "__main__":
    unittest.main()
