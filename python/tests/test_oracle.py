"""energy.oracle on a hand-made case. THE NUMBERS ARE MADE UP (synthetic-no-gpu): they
test the table's mechanics, not any GPU."""

import json
import os
import unittest

from energy import dataset, oracle
from tests.util import TempDirTest, run_main

MANIFEST = {
    "format": "energy-sweep-v1",
    "kernels": [
        {"name": "k", "choices": {"energy": "k/b64", "time": "k/b256", "edp": "k/b64"},
         "baseline": {"default_config": "k/b256", "occupancy_config": "k/b1024"}},
        {"name": "unmeasured", "choices": {}, "baseline": {}},
    ],
}
# config -> (time_s, energy_j); b64 is measured twice (median 2.0 J).
MEASURED = [("k/b64", 1.1, 1.9), ("k/b64", 1.1, 2.1), ("k/b256", 1.0, 2.5),
            ("k/b1024", 1.2, 3.0), ("k/b32", 1.5, 2.2)]


def write_rows(path):
    with open(path, "w") as f:
        for config, time_s, energy_j in MEASURED:
            f.write(json.dumps({"kernel": "k", "config": config, "arch": "sm_90",
                                "gpu": "synthetic-no-gpu", "status": "ok",
                                "time_s": time_s, "energy_j": energy_j,
                                "features": {"x": 1.0}}) + "\n")


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

    def test_unmeasured_is_reported_not_guessed(self):
        table = self.table()
        self.assertEqual(table["kernels"][1], {"kernel": "unmeasured", "measured_configs": 0})
        manifest = json.loads(json.dumps(MANIFEST))
        manifest["kernels"][0]["choices"]["energy"] = "k/b999"
        k = oracle.oracle_table(manifest, dataset.load([self.rows]).frame, {})["kernels"][0]
        self.assertEqual(k["plugin"]["energy"], {"config": "k/b999", "measured": False})

    def test_summary_and_cli(self):
        s = self.table()["summary"]
        self.assertEqual(s["plugin_energy_top1"], 1.0)
        self.assertAlmostEqual(s["occupancy_heuristic_energy_vs_best_median"], 1.5)
        out = os.path.join(self.tmp, "oracle.json")
        code, stdout, _ = run_main(oracle.main, [self.manifest, self.rows, "--json", out])
        self.assertEqual(code, 0)
        self.assertIn("plugin top-1 1.000", stdout)
        with open(out) as f:
            self.assertIn("summary", json.load(f))
        code, _, stderr = run_main(oracle.main, [os.path.join(self.tmp, "missing.json"),
                                                 self.rows])
        self.assertEqual(code, 1)
        self.assertTrue(stderr.startswith("error: "))


if __name__ == "__main__":
    unittest.main()
