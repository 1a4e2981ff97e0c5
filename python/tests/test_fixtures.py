"""The committed SYNTHETIC fixtures are exactly what make_synthetic.py generates."""

import os
import unittest

from tests import make_synthetic, util


class FixtureTest(util.TempDirTest):
    def test_generator_reproduces_fixtures(self):
        make_synthetic.main(["make_synthetic.py", self.tmp])
        for name in sorted(os.listdir(self.tmp)):
            with open(os.path.join(self.tmp, name), "rb") as new, \
                    open(os.path.join(util.FIXTURES, name), "rb") as committed:
                self.assertEqual(new.read(), committed.read(), name)
        self.assertEqual(sorted(os.listdir(self.tmp)), sorted(os.listdir(util.FIXTURES)))

    def test_rows_say_they_are_synthetic(self):
        with open(util.TRAIN_JSONL, encoding="utf-8") as f:
            for line in f:
                self.assertIn('"gpu": "synthetic-no-gpu"', line)
                self.assertIn('"synthetic": true', line)


if __name__ == "__main__":
    unittest.main()
