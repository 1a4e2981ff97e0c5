"""energy.select_defaults: its grid parsing, and a held-out selection over the real rows
of kt_rows_turing.jsonl (three kernels on an RTX 2080 Ti, a family on the default
constants) through the built energy-model-eval (where ENERGY_MODEL_EVAL names it: the
ctest calibrate sets it)."""

import json
import os
import unittest

from energy import calibrate, select_defaults
from energy.dataset import DatasetError

from tests import util

TOOL = os.environ.get("ENERGY_MODEL_EVAL")
ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kt_rows",
                    "kt_rows_turing.jsonl")


class GridTest(unittest.TestCase):
    def test_values_per_constant(self):
        grid = select_defaults.parse_grid(
            ["DependentIssueCycles=4,6.5", "PipeOverlapNorm=2"], calibrate.BOUNDS)
        self.assertEqual(grid, {"DependentIssueCycles": [4.0, 6.5],
                                "PipeOverlapNorm": [2.0]})

    def test_bad_grids_are_errors(self):
        for specs, message in [
                (["Nothing=1"], "no constant named 'Nothing'"),
                (["DependentIssueCycles=1", "DependentIssueCycles=2"],
                 "'DependentIssueCycles' given twice"),
                (["DependentIssueCycles=one"], "values must be numbers"),
                (["DependentIssueCycles=0"], "values must be positive"),
                ([], "no --grid given")]:
            with self.assertRaises(DatasetError) as caught:
                select_defaults.parse_grid(specs, calibrate.BOUNDS)
            self.assertIn(message, str(caught.exception))


@unittest.skipUnless(TOOL, "ENERGY_MODEL_EVAL is not set (the ctest calibrate sets it)")
class SelectTest(util.TempDirTest):
    def test_held_out_selection_on_real_rows(self):
        out = os.path.join(self.tmp, "select.json")
        code, stdout, stderr = util.run_main(select_defaults.main, [
            ROWS, "--tool", TOOL, "--grid", "DependentIssueCycles=4,6", "--json", out])
        self.assertEqual(code, 0, stderr)
        self.assertIn("held out by kernel:", stdout)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        self.assertEqual(report["rows"], 18)
        self.assertEqual(len(report["chosen_per_held_out_kernel"]), 3)
        # Each pair is scored once, held out, under the point chosen without its kernel.
        self.assertEqual(report["leave_one_kernel_out"]["pairs"], 3)
        self.assertEqual(len(report["per_pair"]), 3)

    def test_a_grid_of_the_current_default_reproduces_it(self):
        out = os.path.join(self.tmp, "select.json")
        default = calibrate.BOUNDS["DependentIssueCycles"][0]
        code, _, stderr = util.run_main(select_defaults.main, [
            ROWS, "--tool", TOOL, "--grid", f"DependentIssueCycles={default}", "--json", out])
        self.assertEqual(code, 0, stderr)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        self.assertEqual(report["leave_one_kernel_out"], report["current_defaults"])
        self.assertEqual(report["in_sample"], report["current_defaults"])

    def test_rows_of_one_kernel_are_an_error(self):
        rows = os.path.join(self.tmp, "one.jsonl")
        with open(ROWS, encoding="utf-8") as f, open(rows, "w", encoding="utf-8") as o:
            o.writelines(line for line in f if '"pnpoly"' in line)
        code, _, stderr = util.run_main(select_defaults.main, [
            rows, "--tool", TOOL, "--grid", "DependentIssueCycles=4,6"])
        self.assertEqual(code, 1)
        self.assertIn("error: rows of at least two kernels", stderr)


if __name__ == "__main__":
    unittest.main()
