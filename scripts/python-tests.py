"""The Python suite (unittest discover over python/tests), then the classes that took longest.

Each test's wall time runs from the end of the one before it, so a class's figure includes its
setUpClass and the previous class's tearDownClass: the time CI spends on it.
"""

import sys
import time
import unittest
from collections import defaultdict

spent: dict[str, float] = defaultdict(float)
last = [time.monotonic()]


class TimedResult(unittest.TextTestResult):
    def stopTest(self, test):
        now = time.monotonic()
        spent[type(test).__module__ + "." + type(test).__qualname__] += now - last[0]
        last[0] = now
        super().stopTest(test)


def main(names: list[str]) -> int:
    """Every test under python/tests, or the modules/tests named (``tests.test_cluster``)."""
    loader = unittest.defaultTestLoader
    suite = loader.discover("python/tests", top_level_dir="python")
    if names:
        suite = loader.loadTestsFromNames(names)
    started = time.monotonic()
    result = unittest.TextTestRunner(resultclass=TimedResult, verbosity=1).run(suite)
    print(f"\nPython suite: {time.monotonic() - started:.0f} s; slowest classes:", file=sys.stderr)
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1])[:15]:
        print(f"  {seconds:6.1f} s  {name}", file=sys.stderr)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
