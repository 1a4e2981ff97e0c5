"""Helpers shared by the tests."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
TRAIN_JSONL = os.path.join(FIXTURES, "synthetic_train.jsonl")
TRAIN_CSV = os.path.join(FIXTURES, "synthetic_train.csv")
UPDATE_JSONL = os.path.join(FIXTURES, "synthetic_update.jsonl")
# Few rounds keep the suite fast; the synthetic relations are easy.
FAST_ROUNDS = "30"


def energy_cuda_beside(test, plugin):
    """The energy-cuda driver of `plugin`'s build tree (bin/ beside lib/); skips `test`
    where that build has none, so a missing driver never reads as a pass."""
    driver = os.path.join(os.path.dirname(os.path.dirname(plugin)), "bin", "energy-cuda")
    if not os.path.exists(driver):
        test.skipTest(f"{driver} is not here")
    return driver


def run_main(main, argv):
    """(exit code, stdout, stderr) of an in-process CLI run."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


class TempDirTest(unittest.TestCase):
    """A fresh temporary directory per test, as self.tmp."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="energy-test-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path
