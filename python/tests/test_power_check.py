"""energy.power_check on the public energy measurements.

The measurement analysis runs wherever ../shared/data/public-measurements is (skipped
elsewhere). The compiled part runs only where ENERGY_PLUGIN names the plugin: the ctest
`power-check` sets it to the built one.
"""

import json
import math
import os
import unittest

from energy import power_check, tuning_problem
from energy.dataset import DatasetError
from energy.tuning_cache import read_tuning_cache

from tests import util

DATA = power_check.DEFAULT_DATA
PLUGIN = os.environ.get("ENERGY_PLUGIN")
TUNERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tuner_fixtures")


def data(relative):
    return os.path.join(DATA, relative)


class StatisticsTest(unittest.TestCase):
    def test_hand_computed(self):
        self.assertAlmostEqual(power_check.mape([100, 200], [110, 180]), 10.0)
        self.assertAlmostEqual(power_check.cv([1, 2, 3]), 50.0)   # sd 1 / mean 2
        self.assertEqual(power_check.spread([2, 4, 8])["max_over_min"], 4.0)
        self.assertIsNone(power_check.spearman([1, 2, 3], [5, 5, 5]))   # constant
        self.assertIsNone(power_check.spearman([1, 2], [1, 2]))        # too few

    def test_a_cache_without_energy_is_an_error(self):
        cache = read_tuning_cache(os.path.join(TUNERS, "kernel_tuner_closed.json"))
        with self.assertRaisesRegex(DatasetError, "kernel_tuner_closed.json: not every "
                                                  "valid entry has a measured energy_j"):
            power_check.noise_floor(cache)


@unittest.skipUnless(os.path.isdir(DATA), "the shared measurements are not here")
class MeasuredTest(util.TempDirTest):
    @classmethod
    def setUpClass(cls):
        cls.noise = power_check.noise_floor(read_tuning_cache(data(power_check.XGEMM_CACHE)))
        cls.expdist_cache = read_tuning_cache(data(power_check.EXPDIST_CACHE))
        cls.expdist = power_check.expdist_measured(
            cls.expdist_cache, tuning_problem.load("expdist"), cls.noise)

    def test_noise_floor_is_in_the_power_not_the_time(self):
        noise = self.noise
        self.assertEqual(noise["repeats"], 1000)
        self.assertEqual(noise["repeat_parameter"], "REPEAT")
        # CUDA events repeat to 0.02%; the NVML power reading varies by about 2.4%.
        self.assertLess(noise["cv_percent"]["time"], 0.1)
        self.assertTrue(1 < noise["cv_percent"]["power"] < 5, noise["cv_percent"])
        self.assertAlmostEqual(noise["cv_percent"]["energy"], noise["cv_percent"]["power"],
                               delta=0.1)

    def test_expdist_energy_follows_time_at_nearly_constant_power(self):
        ex = self.expdist
        self.assertEqual(ex["configurations"], 1505)
        self.assertEqual(ex["clock_mhz"], [1560.0])
        self.assertGreater(ex["spearman_energy_vs_time"], 0.9)
        # Slower configurations draw less power, but far less than they lose in time.
        self.assertLess(ex["spearman_power_vs_time"], -0.5)
        self.assertLess(ex["power_w"]["max_over_min"], 1.5)
        self.assertGreater(ex["time_s"]["max_over_min"], 4)
        # Well below the board's 140 W.
        self.assertTrue(50 < ex["power_w"]["median"] < 65, ex["power_w"])

    def test_expdist_energy_best_is_not_the_time_best_but_within_noise(self):
        ex = self.expdist
        self.assertFalse(ex["energy_best_is_time_best"])
        self.assertTrue(1 < ex["energy_regret_of_time_best"] < 1.1)
        self.assertTrue(ex["energy_regret_within_noise"])
        near = ex["near_best_time"]
        self.assertGreater(near["configurations"], 100)
        # Most of the near-best set cannot be told apart by energy.
        self.assertGreater(near["within_noise_of_least_energy"], near["configurations"] / 2)

    def test_expdist_fewer_blocks_than_sms_draw_less_power(self):
        groups = self.expdist["power_by_busy_sms"]
        below, rest = groups["blocks_below_sms"], groups["blocks_at_least_sms"]
        self.assertGreater(below["configurations"], 0)
        self.assertLess(below["median_power_w"], rest["median_power_w"])
        self.assertGreater(below["median_time_s"], rest["median_time_s"])
        self.assertGreater(self.expdist["near_best_time"]["spearman_power_vs_threads"], 0.5)

    def test_fp32_power_rises_with_clock_and_energy_has_an_inner_minimum(self):
        for relative in power_check.FP32:
            _, fp = power_check.fp32_measured(data(relative))
            self.assertEqual(len(fp["clocks"]), 10)
            self.assertEqual(fp["launch"], {"block_size_x": 1024, "nr_outer": 64,
                                            "nr_inner": 1024})
            slope = fp["power_vs_clock"]
            self.assertGreater(slope["spearman"], 0.9)
            # Power rises faster at the top of the clock range (voltage rises too).
            self.assertGreater(slope["upper_half_slope_w_per_mhz"], slope["slope_w_per_mhz"])
            clocks = [c["clock_mhz"] for c in fp["clocks"]]
            self.assertTrue(min(clocks) < fp["least_energy_clock_mhz"] < max(clocks))

    def test_expdist_model_errors_from_rows(self):
        """--rows: errors computed against rows with known predictions."""
        frame = self.expdist_cache.frame.head(4)
        rows = self.write("rows.jsonl", "".join(json.dumps({
            "kernel": "expdist", "config": r["config"], "arch": "sm_86",
            "gpu": "synthetic-no-gpu", "synthetic": True, "status": "ok",
            "time_s": r["time_s"], "energy_j": r["energy_j"],
            # Half the time at the same energy: twice the power.
            "analytic_time_s": r["time_s"] / 2, "analytic_energy_j": r["energy_j"],
            "features": {"x": 1.0}}) + "\n" for r in frame.to_dict("records"))
            # Other kernels' rows, with or without energy, are not read.
            + json.dumps({"kernel": "pnpoly", "config": "1", "status": "ok"}) + "\n")
        model = power_check.expdist_model(rows, self.expdist_cache)
        self.assertEqual(model["configurations"], 4)
        self.assertAlmostEqual(model["power"]["mape_percent"], 100.0)
        self.assertAlmostEqual(model["time"]["mape_percent"], 50.0)
        self.assertAlmostEqual(model["energy"]["mape_percent"], 0.0)
        self.assertAlmostEqual(model["power"]["median_predicted_over_measured"], 2.0)
        self.assertAlmostEqual(model["power"]["spearman"], 1.0)

    def test_rows_of_an_unknown_configuration_are_an_error(self):
        rows = self.write("rows.jsonl", json.dumps({
            "kernel": "expdist", "config": "1,2,3", "arch": "sm_86", "gpu": "x",
            "status": "ok", "time_s": 1.0, "energy_j": 1.0, "analytic_time_s": 1.0,
            "analytic_energy_j": 1.0, "features": {"x": 1.0}}) + "\n")
        with self.assertRaisesRegex(DatasetError, "rows.jsonl: configuration 1,2,3 is not in"):
            power_check.expdist_model(rows, self.expdist_cache)

    def test_an_expdist_row_without_energy_is_an_error(self):
        rows = self.write("rows.jsonl", "\n" + json.dumps({
            "kernel": "expdist", "config": "1,2,3", "status": "ok", "time_s": 1.0,
            "analytic_time_s": 1.0, "analytic_energy_j": 1.0}) + "\n")
        with self.assertRaisesRegex(DatasetError, "rows.jsonl:2: field 'energy_j' must be "
                                                  "a positive number, found null"):
            power_check.expdist_model(rows, self.expdist_cache)

    def test_measured_only_command(self):
        out = os.path.join(self.tmp, "power.json")
        code, stdout, err = util.run_main(power_check.main,
                                          ["--measured-only", "--json", out])
        self.assertEqual(code, 0, err)
        self.assertIn("## ExpDist on the NVIDIA RTX A4000: measured only", stdout)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        self.assertEqual(report["format"], power_check.FORMAT)
        self.assertNotIn("vector_add", report)

    def test_missing_data_is_an_error(self):
        code, _, err = util.run_main(power_check.main, ["--measured-only", "--data",
                                                        os.path.join(self.tmp, "none")])
        self.assertEqual(code, 1)
        self.assertRegex(err, r"^error: .*none/expdist/caches/.*: cannot read")


@unittest.skipUnless(PLUGIN, "ENERGY_PLUGIN is not set (the ctest power-check sets it)")
@unittest.skipUnless(os.path.isdir(DATA), "the shared measurements are not here")
class CompiledTest(util.TempDirTest):
    def test_own_kernels_at_the_measured_launches(self):
        out = os.path.join(self.tmp, "power.json")
        code, stdout, err = util.run_main(power_check.main, [
            "--plugin", PLUGIN, "--cache-dir", os.path.join(self.tmp, "cache"),
            "--json", out])
        self.assertEqual(code, 0, err)
        self.assertIn("## vector_add on the NVIDIA RTX 4000 Ada Generation", stdout)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        va = report["vector_add"]
        self.assertEqual(va["problem_size"], 80000000)
        self.assertEqual([c["block_size_x"] for c in va["configs"]],
                         list(range(128, 1025, 64)))
        # A streaming kernel: the roofline time is the DRAM time, close to the measured.
        self.assertLess(va["time"]["mape_percent"], 25)
        for c in va["configs"]:
            # Between the board's idle power and its 130 W.
            self.assertTrue(10 < c["predicted"]["power_w"] < 130, c)
        self.assertEqual([fp["board"] for fp in report["fp32"]],
                         ["a100-pcie-40gb", "rtx-a4000"])
        for fp in report["fp32"]:
            self.assertEqual(fp["grid"], fp["problem_size"] + [1])
            self.assertTrue(all(math.isfinite(c["power_error_percent"]) for c in fp["clocks"]))
            # These sweeps set the two boards' launch floor (GpuBoard::LaunchFloorW: the
            # measured power at the model's clock minus the model's events for this loop),
            # so the loop's predicted power there is the measured one. A change to the
            # events moves this: recompute the floor (lib/CostModel/EventEnergies.cpp).
            # (With the zero-clock floor, 17% of TDP, it was 20.6% and 26.6% low.)
            self.assertLess(abs(fp["at_model_clock"]["power_error_percent"]), 1.0,
                            fp["at_model_clock"])


if __name__ == "__main__":
    unittest.main()
