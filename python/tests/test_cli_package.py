"""The CLI is its own package, ``cumulus/cli/``, one module per command group: no import cycle runs
through it, a group imports no other group (only ``common``), and each module imports on its own."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import unittest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = "cumulus.cli"


def modules() -> dict[str, str]:
    """Every module of the ``cumulus`` package, by dotted name, with its file."""
    found = {}
    for folder, _dirs, files in os.walk(os.path.join(PYTHON_DIR, "cumulus")):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, PYTHON_DIR)[:-3].replace(os.sep, ".")
                found[name.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: str, known: dict, top_level: bool = False) -> set[str]:
    """The package's modules ``name`` imports, anywhere in it (a function-level import too), or with
    ``top_level`` those importing it imports: its module-level statements' (under ``if`` or ``try``
    too), not those inside functions (the package's lazy ``__getattr__`` among them)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    if top_level:
        statements = [n for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom, ast.If, ast.Try))
                      for n in ast.walk(s)]
    else:
        statements = list(ast.walk(tree))
    out = set()
    for node in statements:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            for a in node.names:
                if f"{base}.{a.name}" in known:
                    out.add(f"{base}.{a.name}")
                elif base in known:
                    out.add(base)
    out.discard(name)
    return out


def cycle_through(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """An import path from ``start`` back to itself, if there is one."""
    stack = [(start, [start])]
    seen = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


class CliPackageTest(unittest.TestCase):
    def setUp(self):
        known = modules()
        self.graph = {name: imports(name, path, known) for name, path in known.items()}
        self.cli = sorted(n for n in known if n == CLI or n.startswith(f"{CLI}.") or n.endswith("_cli"))

    def test_no_import_cycle_runs_through_the_cli(self):
        for name in self.cli:
            with self.subTest(module=name):
                self.assertIsNone(cycle_through(name, self.graph), f"{name} is on an import cycle")

    def test_a_command_group_imports_only_common(self):
        groups = [n for n in self.cli if n.startswith(f"{CLI}.") and n not in (f"{CLI}.main", f"{CLI}.common")]
        self.assertGreaterEqual(len(groups), 6, self.cli)
        for name in groups:
            with self.subTest(module=name):
                self.assertLessEqual({m for m in self.graph[name] if m.startswith(CLI)}, {f"{CLI}.common"})

    def test_each_module_imports_on_its_own(self):
        for name in self.cli:
            with self.subTest(module=name):
                done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=PYTHON_DIR,
                                      capture_output=True, text=True, timeout=60)
                self.assertEqual(done.returncode, 0, done.stderr)

    def test_the_sdk_never_imports_the_cli(self):
        # The CLI is built on the SDK (Cluster, batch, run, the Coiled-compatible functions), never the
        # other way round: no module outside cumulus/cli imports it, at its top or inside a function.
        sdk = sorted(n for n in self.graph if n not in self.cli and not n.endswith("__main__"))
        self.assertGreaterEqual(len(sdk), 30, sdk)
        for name in sdk:
            with self.subTest(module=name):
                self.assertEqual({m for m in self.graph[name] if m in self.cli}, set())

    def test_each_sdk_module_imports_on_its_own_without_the_cli(self):
        # In a fresh interpreter each: an import that only works after another module was loaded
        # fails here, and importing any SDK module loads no part of the CLI.
        sdk = sorted(n for n in self.graph if n not in self.cli and not n.endswith("__main__"))
        probe = ("import importlib, sys; importlib.import_module(sys.argv[1]); "
                 "print(' '.join(sorted(m for m in sys.modules if m == 'cumulus.cli' or m.startswith('cumulus.cli.'))))")
        for name in sdk:
            with self.subTest(module=name):
                done = subprocess.run([sys.executable, "-c", probe, name], cwd=PYTHON_DIR, capture_output=True,
                                      text=True, timeout=60)
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertEqual(done.stdout.strip(), "", f"importing {name} loaded the CLI")

    def test_the_entry_points_reach_main(self):
        with open(os.path.join(PYTHON_DIR, "pyproject.toml"), encoding="utf-8") as f:
            self.assertIn('cumulus = "cumulus.cli:main"', f.read())
        for argv in (["-m", "cumulus", "--help"], ["-c", "import sys; from cumulus.cli import main; sys.exit(main(['--help']))"]):
            done = subprocess.run([sys.executable, *argv], cwd=PYTHON_DIR, capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("usage: cumulus", done.stdout)


if __name__ == "__main__":
    unittest.main()
