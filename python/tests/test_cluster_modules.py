"""``cumulus.Cluster`` is assembled in cluster.py from parts in modules of their own (issue 38): the
parts sit below the class (none imports cluster.py, at its top or inside a function), no import
cycle runs through them, and the class is still where its users import it from."""

from __future__ import annotations

import subprocess
import sys
import unittest

from tests.test_cli_package import PYTHON_DIR, cycle_through, imports, modules

CLASS = "cumulus.cluster"
# The modules whose classes cluster.py mixes into Cluster.
PARTS = ("cumulus.cluster_methods", "cumulus.cluster_options", "cumulus.cluster_start", "cumulus.cluster_body",
         "cumulus.cluster_credentials", "cumulus.cluster_scaling")


class ClusterModulesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.known = modules()

    def test_the_parts_are_below_the_class(self) -> None:
        for part in (*PARTS, "cumulus.cluster_arguments"):
            with self.subTest(module=part):
                self.assertNotIn(CLASS, imports(part, self.known[part], self.known))

    def test_no_import_cycle_runs_through_the_cluster_modules(self) -> None:
        graph = {name: imports(name, path, self.known, top_level=True) for name, path in self.known.items()}
        self.assertLessEqual(set(PARTS), graph[CLASS])
        for name in (CLASS, *PARTS, "cumulus.cluster_arguments"):
            with self.subTest(module=name):
                self.assertIsNone(cycle_through(name, graph), f"{name} is on an import cycle")

    def test_the_class_is_where_its_users_import_it_from(self) -> None:
        probe = ("import cumulus; from cumulus.cluster import Cluster; assert cumulus.Cluster is Cluster; "
                 "print(' '.join(c.__module__ for c in Cluster.__mro__ if c.__module__.startswith('cumulus')))")
        done = subprocess.run([sys.executable, "-c", probe], cwd=PYTHON_DIR, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.split(), [CLASS, *PARTS])


if __name__ == "__main__":
    unittest.main()
