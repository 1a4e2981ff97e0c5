"""Run unittest modules for ctest, which counts a skip only by exit code.

`python -m tests.ctest_unittest MODULE...` (or `discover` for the whole suite) exits 0
when the tests pass and at least one ran, SKIP_CODE when every test was skipped (ctest's
SKIP_RETURN_CODE: the group needs what is absent, such as ../shared's public
measurements, and must not read as passed), 1 on a failure.
"""

import sys
import unittest

SKIP_CODE = 77


def main(argv):
    loader = unittest.TestLoader()
    if argv == ["discover"]:
        suite = loader.discover("python/tests", top_level_dir="python")
    else:
        suite = loader.loadTestsFromNames(argv)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if not result.wasSuccessful():
        return 1
    ran = result.testsRun - len(result.skipped)
    if ran == 0:
        reasons = sorted({reason for _, reason in result.skipped})
        print("every test skipped: " + "; ".join(reasons))
        return SKIP_CODE
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
