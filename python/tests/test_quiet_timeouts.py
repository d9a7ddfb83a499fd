"""A script that used a cluster ends quietly: tornado's orphaned timeouts are not reported as
errors, every other unretrieved exception still is (cumulus/quiet_timeouts.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import unittest

ORPHAN = """
import asyncio, gc, tornado.gen
{imports}
async def main():
    fut = asyncio.get_running_loop().create_future()
    tornado.gen.with_timeout(0.01, fut)  # awaited by no one, as a dropped batched send's
    other = asyncio.get_running_loop().create_future()
    other.set_exception(ValueError("kept"))
    del other
    await asyncio.sleep(0.05)
asyncio.run(main())
gc.collect()
"""


def run(imports: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
    done = subprocess.run([sys.executable, "-c", ORPHAN.format(imports=imports)], env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return done.stderr


class QuietTimeoutsTest(unittest.TestCase):
    def test_orphaned_tornado_timeouts_are_dropped_and_other_errors_kept(self):
        # Without the client, Python reports both (what a user saw at the end of a script).
        bare = run("")
        self.assertIn("TimeoutError: Timeout", bare)
        self.assertIn("ValueError: kept", bare)
        quiet = run("from cumulus import Cluster")
        self.assertNotIn("TimeoutError", quiet)
        self.assertIn("ValueError: kept", quiet)


if __name__ == "__main__":
    unittest.main()
