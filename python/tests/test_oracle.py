"""energy.oracle on a hand-made case. THE NUMBERS ARE MADE UP (synthetic-no-gpu): they
test the table's mechanics, not any GPU. The rows and the baselines file are in
energy-bench's format (config names without the kernel: `b64`), the manifest in the
sweep's (ids: `k/b64`), as they are in a real sweep."""

import json
import os
import unittest

from energy import dataset, oracle
from tests.util import TempDirTest, run_main

MANIFEST = {
    "format": "energy-sweep-v1",
    "kernels": [
        {"name": "k", "choices": {"energy": "k/b64", "time": "k/b256", "edp": "k/b64"},
         "baseline": {"default_config": "k/b256", "occupancy_config": "k/b1024"},
         # The plugin's predictions (time_s, energy_j): time ranks b1024 and b32 the
         # wrong way round, energy b64 and b32; k/b16 was never measured.
         "configs": [{"id": "k/" + config, "analytic_time_s": time_s,
                      "analytic_energy_j": energy_j}
                     for config, time_s, energy_j in (
                         ("b64", 1.1, 2.0), ("b256", 1.0, 2.6), ("b1024", 1.3, 2.9),
                         ("b32", 1.2, 1.9), ("b16", 0.1, 0.1))]},
        {"name": "unmeasured", "choices": {}, "baseline": {}},
    ],
}
# config -> (time_s, energy_j); b64 is measured twice (median 2.0 J).
MEASURED = [("b64", 1.1, 1.9), ("b64", 1.1, 2.1), ("b256", 1.0, 2.5),
            ("b1024", 1.2, 3.0), ("b32", 1.5, 2.2)]


def write_rows(path, gpu="synthetic-no-gpu", measured=MEASURED):
    with open(path, "a") as f:
        for config, time_s, energy_j in measured:
            f.write(json.dumps({"kernel": "k", "config": config, "arch": "sm_90",
                                "gpu": gpu, "status": "ok",
                                "time_s": time_s, "energy_j": energy_j,
                                "features": {"x": 1.0}}) + "\n")


def write_baselines(path, config, gpu="synthetic-no-gpu"):
    with open(path, "a") as f:
        f.write(json.dumps({"kernel": "k", "arch": "sm_90", "gpu": gpu,
                            "default_config": "b256", "plugin_occupancy_config": "b1024",
                            "method": "cuOccupancyMaxPotentialBlockSize",
                            "block_threads": 32, "config": config}) + "\n")


class OracleTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.rows = os.path.join(self.tmp, "rows.jsonl")
        write_rows(self.rows)
        self.manifest = self.write("manifest.json", json.dumps(MANIFEST))

    def table(self, heuristic=None):
        return oracle.oracle_table(MANIFEST, dataset.load([self.rows]).frame, heuristic or {})

    def test_optima_and_ratios(self):
        k = self.table()["kernels"][0]
        self.assertEqual(k["measured_configs"], 4)
        self.assertEqual(k["energy_optimal"]["config"], "k/b64")   # median 2.0 J
        self.assertEqual(k["time_optimal"]["config"], "k/b256")
        self.assertAlmostEqual(k["plugin"]["energy"]["energy_vs_best"], 1.0)
        self.assertAlmostEqual(k["plugin"]["energy"]["time_vs_best"], 1.1)
        self.assertAlmostEqual(k["occupancy_heuristic"]["energy_vs_best"], 1.5)  # 3.0 / 2.0
        self.assertAlmostEqual(k["default"]["energy_vs_best"], 1.25)             # 2.5 / 2.0

    def test_baselines_file_overrides_the_emulated_heuristic(self):
        k = self.table({"k": "k/b32"})["kernels"][0]
        self.assertEqual(k["occupancy_heuristic"]["config"], "k/b32")
        self.assertAlmostEqual(k["occupancy_heuristic"]["energy_vs_best"], 1.1)

    def test_cli_joins_the_runners_names_with_the_manifests_ids(self):
        write_baselines(os.path.join(self.tmp, "rows.baselines.jsonl"), "b32")
        out = os.path.join(self.tmp, "oracle.json")
        code, stdout, _ = run_main(oracle.main, [self.manifest, self.rows, "--json", out])
        self.assertEqual(code, 0)
        with open(out) as f:
            k = json.load(f)["kernels"][0]
        for column in (k["plugin"]["energy"], k["plugin"]["time"], k["occupancy_heuristic"],
                       k["default"]):
            self.assertTrue(column["measured"], column)
        self.assertEqual(k["occupancy_heuristic"]["config"], "k/b32")
        self.assertAlmostEqual(k["default"]["energy_vs_best"], 1.25)
        line = next(l for l in stdout.splitlines() if l.startswith("k "))
        self.assertNotIn("n/a", line)

    def test_rows_of_several_gpus_need_gpu(self):
        write_rows(self.rows, gpu="other-gpu", measured=[("b64", 9.0, 9.0)])
        write_baselines(os.path.join(self.tmp, "rows.baselines.jsonl"), "b1024", "other-gpu")
        code, _, stderr = run_main(oracle.main, [self.manifest, self.rows])
        self.assertEqual(code, 1)
        self.assertIn("error: the rows come from 2 GPUs", stderr)
        out = os.path.join(self.tmp, "oracle.json")
        code, _, _ = run_main(oracle.main, [self.manifest, self.rows, "--gpu",
                                            "synthetic-no-gpu", "--json", out])
        self.assertEqual(code, 0)
        with open(out) as f:
            k = json.load(f)["kernels"][0]
        self.assertAlmostEqual(k["plugin"]["energy"]["energy_j"], 2.0)
        self.assertEqual(k["occupancy_heuristic"]["config"], "k/b1024")  # the manifest's

    def test_rows_of_sweeps_with_other_features_combine(self):
        # A sweep resumed by a later plugin: its rows carry another feature set, which a
        # training set would refuse; the oracle reads only what was measured.
        later = os.path.join(self.tmp, "later.jsonl")
        with open(later, "w") as f:
            f.write(json.dumps({"kernel": "k", "config": "b128", "arch": "sm_90",
                                "gpu": "synthetic-no-gpu", "status": "ok", "time_s": 0.5,
                                "energy_j": 1.0, "features": {"x": 1.0, "y": 2.0}}) + "\n")
        out = os.path.join(self.tmp, "oracle.json")
        code, _, stderr = run_main(oracle.main, [self.manifest, self.rows, later,
                                                 "--json", out])
        self.assertEqual(code, 0, stderr)
        with open(out) as f:
            k = json.load(f)["kernels"][0]
        self.assertEqual(k["measured_configs"], 5)
        self.assertEqual(k["time_optimal"]["config"], "k/b128")

    def test_unmeasured_is_reported_not_guessed(self):
        table = self.table()
        self.assertEqual(table["kernels"][1], {"kernel": "unmeasured", "measured_configs": 0})
        manifest = json.loads(json.dumps(MANIFEST))
        manifest["kernels"][0]["choices"]["energy"] = "k/b999"
        k = oracle.oracle_table(manifest, dataset.load([self.rows]).frame, {})["kernels"][0]
        self.assertEqual(k["plugin"]["energy"], {"config": "k/b999", "measured": False})

    def test_predictions_are_scored_over_the_measured_configs(self):
        p = self.table()["kernels"][0]["prediction"]
        self.assertEqual(p["configs"], 4)                 # k/b16 has no measurement
        self.assertAlmostEqual(p["time_spearman"], 0.8)   # 1 - 6 * 2 / (4 * 15)
        self.assertAlmostEqual(p["energy_spearman"], 0.8)
        self.assertAlmostEqual(p["time_regret"], 1.0)     # b256, the measured best
        self.assertAlmostEqual(p["energy_regret"], 1.1)   # b32: 2.2 J against b64's 2.0
        manifest = json.loads(json.dumps(MANIFEST))
        del manifest["kernels"][0]["configs"]
        k = oracle.oracle_table(manifest, dataset.load([self.rows]).frame, {})["kernels"][0]
        self.assertIsNone(k["prediction"])

    def test_summary_and_cli(self):
        s = self.table()["summary"]
        self.assertEqual(s["plugin_energy_top1"], 1.0)
        self.assertAlmostEqual(s["occupancy_heuristic_energy_vs_best_median"], 1.5)
        out = os.path.join(self.tmp, "oracle.json")
        code, stdout, _ = run_main(oracle.main, [self.manifest, self.rows, "--json", out])
        self.assertEqual(code, 0)
        self.assertIn("plugin top-1 1.000", stdout)
        self.assertIn("Spearman time 0.800, energy 0.800", stdout)
        self.assertIn("time 1.000, energy 1.100", stdout)
        with open(out) as f:
            self.assertIn("summary", json.load(f))
        code, _, stderr = run_main(oracle.main, [os.path.join(self.tmp, "missing.json"),
                                                 self.rows])
        self.assertEqual(code, 1)
        self.assertTrue(stderr.startswith("error: "))


if __name__ == "__main__":
    unittest.main()
