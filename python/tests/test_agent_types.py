"""Every function and method of the agent (cumulus/agent/*.py) and of the preloads it hands to Dask
(cumulus/preloads/*.py) annotates its parameters (``*args`` and ``**kwargs`` too) and its return type
(issue 38): an `ast` check, nothing imported or run."""

from __future__ import annotations

import ast
import pathlib
import tempfile
import unittest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "cumulus"
AGENT = PACKAGE / "agent"
PRELOADS = PACKAGE / "preloads"


def unannotated(source: str, name: str) -> list[str]:
    """`file:line function: what` for each signature missing a hint."""
    found: list[str] = []
    functions = [node for node in ast.walk(ast.parse(source, filename=name))
                 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in sorted(functions, key=lambda node: node.lineno):
        where = f"{name}:{node.lineno} {node.name}"
        if node.returns is None:
            found.append(f"{where}: return type")
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        starred = [arg for arg in (args.vararg, args.kwarg) if arg is not None]
        for index, arg in enumerate([*positional, *args.kwonlyargs, *starred]):
            if index == 0 and arg in positional and arg.arg in ("self", "cls"):
                continue
            if arg.annotation is None:
                found.append(f"{where}: parameter {arg.arg}")
    return found


class AgentTypeHints(unittest.TestCase):
    def assert_annotated(self, folder: pathlib.Path) -> None:
        files = sorted(folder.glob("*.py"))
        self.assertTrue(files)
        missing: list[str] = []
        for path in files:
            missing += unannotated(path.read_text(), f"{folder.name}/{path.name}")
            self.assertIn("from __future__ import annotations", path.read_text(), path.name)
        self.assertEqual(missing, [], "\n".join(missing))

    def test_every_agent_signature_is_annotated(self) -> None:
        self.assert_annotated(AGENT)

    def test_every_preload_signature_is_annotated(self) -> None:
        # The preloads run inside dask-scheduler and dask-worker: their hints name Dask's classes
        # under TYPE_CHECKING only, so a preload imports nothing more than it did.
        self.assertGreaterEqual(len(list(PRELOADS.glob("*.py"))), 7)
        self.assert_annotated(PRELOADS)

    def test_the_check_finds_a_missing_hint(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "sample.py"
            path.write_text("class A:\n    def m(self, x: int):\n        return x\n\ndef f(y) -> None:\n    pass\n\n"
                            "def g(*args, z: int = 0, **kwargs: int) -> None:\n    pass\n")
            self.assertEqual(
                unannotated(path.read_text(), "sample.py"),
                ["sample.py:2 m: return type", "sample.py:5 f: parameter y", "sample.py:8 g: parameter args"],
            )


if __name__ == "__main__":
    unittest.main()
