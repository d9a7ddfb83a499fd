"""Every function and method of the agent (cumulus/agent/*.py) annotates its parameters and its
return type (issue 38): an `ast` check, nothing imported or run."""

from __future__ import annotations

import ast
import pathlib
import tempfile
import unittest

AGENT = pathlib.Path(__file__).resolve().parent.parent / "cumulus" / "agent"


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
        for index, arg in enumerate([*positional, *args.kwonlyargs]):
            if index == 0 and arg in positional and arg.arg in ("self", "cls"):
                continue
            if arg.annotation is None:
                found.append(f"{where}: parameter {arg.arg}")
    return found


class AgentTypeHints(unittest.TestCase):
    def test_every_agent_signature_is_annotated(self) -> None:
        files = sorted(AGENT.glob("*.py"))
        self.assertTrue(files)
        missing: list[str] = []
        for path in files:
            missing += unannotated(path.read_text(), path.name)
            self.assertIn("from __future__ import annotations", path.read_text(), path.name)
        self.assertEqual(missing, [], "\n".join(missing))

    def test_the_check_finds_a_missing_hint(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "sample.py"
            path.write_text("class A:\n    def m(self, x: int):\n        return x\n\ndef f(y) -> None:\n    pass\n")
            self.assertEqual(
                unannotated(path.read_text(), "sample.py"),
                ["sample.py:2 m: return type", "sample.py:5 f: parameter y"],
            )


if __name__ == "__main__":
    unittest.main()
