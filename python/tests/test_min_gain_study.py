"""energy.min_gain_study: the policy's mechanics on made-up predictions and
measurements (labelled so: they test the arithmetic, not the model), and the command
on the real rows of kt_rows_turing.jsonl through the built energy-model-eval (where
ENERGY_MODEL_EVAL names it: the ctest calibrate sets it)."""

import json
import os
import unittest

import numpy as np

from energy import min_gain_study

from tests import util

TOOL = os.environ.get("ENERGY_MODEL_EVAL")
ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kt_rows",
                    "kt_rows_turing.jsonl")


class PolicyTest(unittest.TestCase):
    # Made-up: three configurations; the predicted best (0) is measured slower than 1.
    PAIRS = {("made-up", "board"): (np.array([1.00, 1.05, 2.00]),
                                     np.array([1.50, 1.00, 3.00]))}

    def test_without_a_threshold_every_other_default_is_replaced(self):
        p = min_gain_study.policy(self.PAIRS, 0.0)
        # Default 1 is replaced by 0 (measured slower), default 2 by 0 (faster).
        self.assertAlmostEqual(p["replaced"], 2 / 3)
        self.assertAlmostEqual(p["replaced_by_slower"], 1 / 3)
        self.assertAlmostEqual(p["worst_pair_replaced_by_slower"], 1 / 3)
        expected = np.exp(np.mean(np.log([1.0, 1.5 / 1.0, 1.5 / 3.0])))
        self.assertAlmostEqual(p["geomean_result_over_default"], expected)

    def test_a_threshold_keeps_defaults_predicted_close_to_the_pick(self):
        # 1.00 vs 1.05 is a 4.8% predicted gain: 0.10 keeps default 1.
        p = min_gain_study.policy(self.PAIRS, 0.10)
        self.assertAlmostEqual(p["replaced"], 1 / 3)
        self.assertEqual(p["replaced_by_slower"], 0.0)

    def test_pairwise_order_counts_inversions_per_gain_bin(self):
        bins = {b["low"]: b for b in min_gain_study.pairwise_order(self.PAIRS)}
        # 1.00 vs 1.05 (gain 0.048): inverted; 1.05 vs 2.00 and 1.00 vs 2.00 (0.475,
        # 0.5): in order.
        self.assertEqual((bins[0.02]["pairs"], bins[0.02]["measured_opposite"]), (1, 1.0))
        self.assertEqual((bins[0.30]["pairs"], bins[0.30]["measured_opposite"]), (1, 0.0))
        self.assertEqual((bins[0.50]["pairs"], bins[0.50]["measured_opposite"]), (1, 0.0))
        self.assertIsNone(bins[0.10]["measured_opposite"])


@unittest.skipUnless(TOOL, "ENERGY_MODEL_EVAL is not set (the ctest calibrate sets it)")
class CommandTest(util.TempDirTest):
    def test_study_of_real_rows(self):
        out = os.path.join(self.tmp, "study.json")
        code, stdout, stderr = util.run_main(
            min_gain_study.main, [ROWS, "--tool", TOOL, "--json", out])
        self.assertEqual(code, 0, stderr)
        self.assertIn("| 0.10 |", stdout)
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
        self.assertEqual(result["kernel_board_pairs"], 3)
        self.assertEqual(result["configurations"], 18)
        shares = [p["replaced"] for p in result["policies"]]
        # A higher threshold never replaces more defaults.
        self.assertEqual(shares, sorted(shares, reverse=True))
        self.assertEqual(sum(b["pairs"] for b in result["pairwise_order"]),
                         3 * 6 * 5 // 2 - result["tied_predictions"])

    def test_energy_without_energy_rows_is_an_error(self):
        code, _, stderr = util.run_main(
            min_gain_study.main, [ROWS, "--tool", TOOL, "--objective", "energy"])
        self.assertEqual(code, 1)
        self.assertIn("error: no (kernel, board) pair has two rows measuring energy", stderr)


if __name__ == "__main__":
    unittest.main()
