"""energy.report's command line: a missing matplotlib is an error line, not a traceback."""

import importlib.util
import os
import unittest
from unittest import mock

from energy import report

from tests import util


class ReportCliTest(util.TempDirTest):
    def test_plot_without_matplotlib(self):
        real = importlib.util.find_spec

        def without_matplotlib(name, *args, **kwargs):
            return None if name == "matplotlib" else real(name, *args, **kwargs)

        path = self.write("report.json", '{"format": "energy-report-v1", "kernels": []}')
        with mock.patch.object(importlib.util, "find_spec", without_matplotlib):
            code, out, err = util.run_main(report.main,
                                           [path, "--plot", os.path.join(self.tmp, "png")])
        self.assertEqual(code, 1)
        self.assertEqual(err.strip(),
                         "error: --plot needs matplotlib (apt-get install python3-matplotlib)")
        self.assertEqual(out, "")

    def test_unreadable_report(self):
        code, _, err = util.run_main(report.main, [os.path.join(self.tmp, "none.json")])
        self.assertEqual(code, 1)
        self.assertTrue(err.startswith("error: "), err)


if __name__ == "__main__":
    unittest.main()
