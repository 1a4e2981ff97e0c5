"""energy.calibrate and build/bin/energy-model-eval on real measured rows.

The fixture kt_rows_turing.jsonl holds 18 rows cut from `python3 -m energy.kt_eval --rows`
(public Kernel Tuner / KTT measurements on an RTX 2080 Ti, see each row's `source`): six
configurations each of convolution, CoulombSum and pnpoly, so that a leave-one-kernel-out
fit exists. Its analytic predictions are those of the plugin that wrote it; that the tool
reproduces the current plugin is checked in test_kt_eval_smoke. Runs only where
ENERGY_MODEL_EVAL names the tool: the ctest `calibrate` sets it.
"""

import json
import math
import os
import subprocess
import unittest

from energy import calibrate

from tests import util

TOOL = os.environ.get("ENERGY_MODEL_EVAL")
ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kt_rows",
                    "kt_rows_turing.jsonl")


def read_rows():
    with open(ROWS, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


class ShipDecisionTest(unittest.TestCase):
    """The rule on made-up held-out summaries (its mechanics, not measured figures)."""

    def summary(self, loss, spearman, regret):
        return {"mean_loss": loss, "median_spearman": spearman, "median_regret": regret}

    def test_lower_loss_and_no_worse_medians_ship(self):
        ships, why = calibrate.ship_decision(self.summary(1.0, 0.6, 1.3),
                                             self.summary(0.9, 0.6, 1.2))
        self.assertTrue(ships)
        self.assertEqual(why, "held-out loss 0.900 vs 1.000 with the defaults")

    def test_higher_loss_keeps_the_defaults(self):
        ships, why = calibrate.ship_decision(self.summary(1.0, 0.6, 1.3),
                                             self.summary(1.1, 0.7, 1.1))
        self.assertFalse(ships)
        self.assertIn("no better out of sample", why)

    def test_lower_loss_with_a_worse_median_keeps_the_defaults(self):
        # Turing's refit of 2026-11-27: loss 1.045 -> 0.999, Spearman 0.66 -> 0.49.
        ships, why = calibrate.ship_decision(self.summary(1.045, 0.66, 1.31),
                                             self.summary(0.999, 0.49, 1.32))
        self.assertFalse(ships)
        self.assertIn("median Spearman 0.49 vs 0.66 and median regret 1.32 vs 1.31", why)


@unittest.skipUnless(TOOL, "ENERGY_MODEL_EVAL is not set (the ctest calibrate sets it)")
class CalibrateTest(util.TempDirTest):
    def test_serve_answers_each_line(self):
        rows = read_rows()
        lines = json.dumps({}) + "\n" + json.dumps({"KernelLaunchSeconds": 1e-3}) + "\n"
        done = subprocess.run([TOOL, ROWS, "--serve"], input=lines, capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        first, second = (json.loads(line) for line in done.stdout.splitlines())
        self.assertEqual(len(first), len(rows))
        # A launch overhead of 1 ms instead of 2 us adds 998 us to every launch.
        for a, b in zip(first, second):
            self.assertAlmostEqual(b - a, 1e-3 - 2e-6, places=9)

    def test_bounds_defaults_are_the_plugins(self):
        # calibrate.BOUNDS repeats CostModel.h's defaults: the fit starts from them and
        # scores "the defaults" with them, so they must predict what the plugin does.
        # `{}` leaves every constant at CostModel.h's default.
        lines = json.dumps({}) + "\n" + json.dumps(calibrate.defaults()) + "\n"
        done = subprocess.run([TOOL, ROWS, "--serve"], input=lines, capture_output=True,
                              text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        plugin, bounds = (json.loads(line) for line in done.stdout.splitlines())
        self.assertEqual(sorted(calibrate.BOUNDS), sorted(calibrate.defaults()))
        for a, b in zip(plugin, bounds):
            self.assertAlmostEqual(a, b, delta=1e-12 * a)

    def test_bad_constants_are_errors(self):
        for constants in ({"NoSuchConstant": 1}, {"DramLatencyNs": -1}):
            done = subprocess.run([TOOL, ROWS, "--serve"], input=json.dumps(constants) + "\n",
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 1)
            self.assertIn("error:", done.stderr)

    def test_leave_one_kernel_out_fit(self):
        report_path = os.path.join(self.tmp, "calibration.json")
        inc_path = os.path.join(self.tmp, "constants.inc")
        code, out, err = util.run_main(calibrate.main, [
            ROWS, "--tool", TOOL, "--iterations", "2", "--json", report_path,
            "--inc", inc_path])
        self.assertEqual(code, 0, err)
        self.assertIn("turing:", out)
        with open(report_path, encoding="utf-8") as f:
            report = json.load(f)
        self.assertEqual(report["format"], calibrate.FORMAT)
        family = report["families"]["turing"]
        kernels = sorted({r["kernel"] for r in read_rows()})
        self.assertEqual(family["kernels"], kernels)
        held = family["leave_one_kernel_out"]
        # Every (kernel, board) pair was scored held out, with both sets of constants.
        self.assertEqual(sorted(p.split("@")[0] for p in held["per_pair"]), kernels)
        for pair in held["per_pair"].values():
            for which in ("defaults", "calibrated"):
                m = pair[which]
                self.assertTrue(-1 <= m["spearman"] <= 1)
                self.assertTrue(math.isfinite(m["regret"]) and m["regret"] >= 1)
        for name, value in family["constants"].items():
            _, low, high = calibrate.BOUNDS[name]
            self.assertTrue(low * (1 - 1e-9) <= value <= high * (1 + 1e-9), (name, value))
        # The decision follows the held-out figures, and the .inc says what was decided.
        better, _ = calibrate.ship_decision(held["defaults"], held["calibrated"])
        self.assertEqual(family["shipped"], better)
        with open(inc_path, encoding="utf-8") as f:
            inc = f.read()
        self.assertIn('ENERGY_CALIBRATED("turing"' if better else "// turing: defaults", inc)
        self.assertEqual(report["data"][0]["sha256"], calibrate.sha256_of(ROWS))

    def test_the_prior_pulls_toward_the_defaults(self):
        # A prior this strong outweighs any loss the rows can give back: the fit keeps
        # every default. Without it (the default), the same two generations move the
        # constants.
        fitted = {}
        for weight in ("1e6", "0"):
            report_path = os.path.join(self.tmp, f"prior{weight}.json")
            code, _, err = util.run_main(calibrate.main, [
                ROWS, "--tool", TOOL, "--iterations", "2", "--prior-weight", weight,
                "--json", report_path])
            self.assertEqual(code, 0, err)
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
            if float(weight) > 0:
                self.assertIn(f"{float(weight)} x mean (ln(c/default)", report["objective"])
            else:
                self.assertNotIn("ln(c/default)", report["objective"])
            fitted[weight] = report["families"]["turing"]["constants"]
        defaults = calibrate.defaults()
        for name, value in fitted["1e6"].items():
            self.assertAlmostEqual(value / defaults[name], 1, places=9, msg=name)
        self.assertTrue(any(abs(value / defaults[name] - 1) > 1e-3
                            for name, value in fitted["0"].items()))

    def test_missing_rows_file(self):
        code, _, err = util.run_main(calibrate.main, [os.path.join(self.tmp, "none.jsonl"),
                                                      "--tool", TOOL])
        self.assertEqual(code, 1)
        self.assertIn("error:", err)


if __name__ == "__main__":
    unittest.main()
