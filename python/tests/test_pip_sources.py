"""pip's configuration read without starting pip (cumulus/pip_sources.py): the same settings as
``pip config list`` says, for each place pip looks, in pip's order."""

from __future__ import annotations

import os
import tempfile
import unittest
from unittest import mock

from cumulus import pip_sources


def write(path: str, text: str) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


class PipFilesTest(unittest.TestCase):
    def setUp(self):
        self.home = tempfile.mkdtemp()
        self.env = {"HOME": self.home, "XDG_CONFIG_HOME": os.path.join(self.home, "xdg")}
        for name in ("PIP_CONFIG_FILE", "XDG_CONFIG_DIRS", "PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL"):
            self.env[name] = ""

    def same_as_pip(self, **env) -> dict:
        variables = {k: v for k, v in {**self.env, **env}.items() if v}
        with mock.patch.dict(os.environ, variables, clear=False):
            for name in [k for k, v in {**self.env, **env}.items() if not v]:
                os.environ.pop(name, None)
            read = pip_sources._files_read()
            listed = {k: v for k, v in pip_sources._pip_config_list().items() if k[0] != ":env:"}
        self.assertEqual(read, listed)
        return read

    def test_user_files_then_site_then_the_named_file_as_pip_orders_them(self):
        write(os.path.join(self.home, ".pip", "pip.conf"), "[global]\nindex-url = https://legacy.example/simple\n")
        write(os.path.join(self.home, "xdg", "pip", "pip.conf"),
              "[global]\nindex-url = https://user.example/simple\nextra-index-url =\n  https://a.example/simple\n"
              "  https://b.example/simple\n[install]\nfind_links = /srv/wheels\n")
        read = self.same_as_pip()
        self.assertEqual(read[("global", "index-url")], "https://user.example/simple")
        self.assertEqual(read[("install", "find-links")], "/srv/wheels")
        named = write(os.path.join(self.home, "named.conf"), "[global]\nindex-url = https://named.example/simple\n")
        # A named file that exists: pip reads no user file, and the named one last.
        read = self.same_as_pip(PIP_CONFIG_FILE=named)
        self.assertEqual(read[("global", "index-url")], "https://named.example/simple")
        self.assertNotIn(("install", "find-links"), read)

    def test_the_null_device_reads_no_file(self):
        write(os.path.join(self.home, "xdg", "pip", "pip.conf"), "[global]\nindex-url = https://user.example/simple\n")
        self.assertEqual(self.same_as_pip(PIP_CONFIG_FILE=os.devnull), {})

    def test_configuration_directories_in_their_order(self):
        first = os.path.join(self.home, "dirs", "first")
        second = os.path.join(self.home, "dirs", "second")
        write(os.path.join(first, "pip", "pip.conf"), "[global]\nfind-links = /first\n")
        write(os.path.join(second, "pip", "pip.conf"), "[global]\nfind-links = /second\nno-index = true\n")
        read = self.same_as_pip(XDG_CONFIG_DIRS=f"{first}:{second}")
        self.assertIn(("global", "no-index"), read)


if __name__ == "__main__":
    unittest.main()
