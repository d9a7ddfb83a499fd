"""Which Jupyter a notebook cluster opens: JupyterLab wherever the cluster's Python can import it,
the classic Notebook only where that alone is installed (issue 37: docs and CLI said JupyterLab while
the classic UI opened). Real interpreters, real imports: a JupyterLab package placed on the path is
found the way an environment's would be."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import unittest

from cumulus.agent.jupyter import command, flavour


class FlavourTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="cumulus-jupyter-flavour-")
        self.addCleanup(shutil.rmtree, self.root, True)

    def env(self, *packages):
        for name in packages:
            os.makedirs(os.path.join(self.root, name), exist_ok=True)
            with open(os.path.join(self.root, name, "__init__.py"), "w") as f:
                f.write("")
        return {**os.environ, "PYTHONPATH": self.root}

    def test_jupyterlab_wins_wherever_it_is_importable(self):
        self.assertEqual(flavour(sys.executable, self.env("jupyterlab")), "lab")

    def test_the_classic_notebook_only_without_jupyterlab(self):
        self.assertEqual(flavour(sys.executable, self.env("notebook")), "tree")

    def test_lab_is_started_as_jupyterlab_with_its_server_settings(self):
        settings = {"base_url": "/c/1/jupyter/", "token": "t", "allow_origin": "*"}
        lab = command("/p/python", "lab", "127.0.0.1", 9999, settings, "/home/x")
        self.assertEqual(lab[1:3], ["-m", "jupyterlab"])
        self.assertIn("--ServerApp.root_dir=/home/x", lab)
        tree = command("/p/python", "tree", "127.0.0.1", 9999, settings, "/home/x")
        self.assertEqual(tree[1:3], ["-m", "notebook"])
        self.assertIn("--NotebookApp.notebook_dir=/home/x", tree)


if __name__ == "__main__":
    unittest.main()
