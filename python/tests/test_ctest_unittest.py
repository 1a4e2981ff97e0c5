"""tests.ctest_unittest: the exit code ctest reads for a Python group."""

import contextlib
import io
import unittest

from tests import ctest_unittest


def exit_code(name):
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        return ctest_unittest.main(["tests.skip_cases." + name])


class CtestUnittestTest(unittest.TestCase):
    def test_every_test_skipped_is_a_skip(self):
        self.assertEqual(exit_code("AllSkip"), ctest_unittest.SKIP_CODE)

    def test_one_test_run_is_a_pass(self):
        self.assertEqual(exit_code("OnePasses"), 0)

    def test_a_failure_is_a_failure(self):
        self.assertEqual(exit_code("OneFails"), 1)
