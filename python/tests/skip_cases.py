"""Cases for test_ctest_unittest: not collected by discover (no test_ prefix)."""

import unittest


class AllSkip(unittest.TestCase):
    def test_needs_data(self):
        self.skipTest("the data is not here")


class OnePasses(unittest.TestCase):
    def test_skips(self):
        self.skipTest("the data is not here")

    def test_passes(self):
        self.assertEqual(1 + 1, 2)


class OneFails(unittest.TestCase):
    def test_skips(self):
        self.skipTest("the data is not here")

    def test_fails(self):
        self.assertEqual(1 + 1, 3)
