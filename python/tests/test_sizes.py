import unittest

from cumulus.sizes import MIB, format_mib


class FormatMib(unittest.TestCase):
    def test_says_sizes_in_mib_with_one_decimal(self):
        self.assertEqual(format_mib(0), "0.0 MiB")
        self.assertEqual(format_mib(MIB), "1.0 MiB")
        self.assertEqual(format_mib(int(2.45 * MIB)), "2.4 MiB")
        self.assertEqual(format_mib(100 * MIB), "100.0 MiB")


if __name__ == "__main__":
    unittest.main()
