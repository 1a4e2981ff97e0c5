"""energy.bench_rows on a hand-made sweep. THE NUMBERS ARE MADE UP (synthetic-no-gpu):
they test the join's mechanics, not any GPU. Rows are in energy-bench's format (config
names without the kernel), the manifest in the sweep's (ids `k/b64`)."""

import json
import os
import unittest

from energy import bench_rows
from energy.dataset import DatasetError
from tests.util import TempDirTest, run_main

MANIFEST = {
    "arch": "sm_90",
    "model_input_names": ["instructions", "block_x"],
    "kernels": [{"name": "k", "configs": [
        {"id": "k/b64", "block": [64, 1, 1], "grid": [8, 2, 1], "tunables": {"T": 2},
         "model_inputs": [100.0, 64.0], "analytic_time_s": 1.5, "analytic_energy_j": 3.0},
        {"id": "k/b128", "block": [128, 1, 1], "grid": [4, 2, 1], "tunables": {"T": 2},
         "model_inputs": [90.0, 128.0], "analytic_time_s": 1.0, "analytic_energy_j": 2.0},
    ]}],
}


def row(config, time_s, energy_j, status="ok", gpu="synthetic-no-gpu"):
    return {"kernel": "k", "config": config, "gpu": gpu, "status": status,
            "time_s": time_s, "energy_j": energy_j}


class BenchRowsTest(TempDirTest):
    def test_medians_features_and_launch_come_from_the_manifest(self):
        measured = [row("b64", 1.0, 2.0), row("b64", 3.0, 4.0), row("b64", 2.0, 9.0),
                    row("b128", 5.0, 5.0), row("b128", 0.1, 0.1, status="wrong_result"),
                    row("b32", 1.0, 1.0)]
        rows, missing = bench_rows.bench_rows(MANIFEST, measured, "h100-sxm")
        self.assertEqual(missing, ["k/b32"])
        by_config = {r["config"]: r for r in rows}
        b64 = by_config["b64"]
        self.assertEqual((b64["time_s"], b64["energy_j"], b64["runs"]), (2.0, 4.0, 3))
        self.assertEqual(b64["gpu"], "h100-sxm")
        self.assertEqual(b64["device_name"], "synthetic-no-gpu")
        self.assertEqual(b64["features"], {"instructions": 100.0, "block_x": 64.0})
        self.assertEqual(b64["launch"], {"block": [64, 1, 1], "grid": [8, 2, 1],
                                         "grid_blocks": 16})
        self.assertEqual(b64["analytic_time_s"], 1.5)
        self.assertEqual(b64["params"], {"T": 2})
        self.assertEqual(by_config["b128"]["runs"], 1)   # the failed run is left out

    def test_rows_of_several_gpus_need_gpu(self):
        measured = [row("b64", 1.0, 2.0), row("b64", 9.0, 9.0, gpu="other")]
        with self.assertRaises(DatasetError):
            bench_rows.bench_rows(MANIFEST, measured, "h100-sxm")
        rows, _ = bench_rows.bench_rows(MANIFEST, measured, "h100-sxm", gpu="other")
        self.assertEqual(rows[0]["time_s"], 9.0)

    def test_cli(self):
        manifest = self.write("manifest.json", json.dumps(MANIFEST))
        measured = self.write("rows.jsonl", "\n".join(json.dumps(r) for r in (
            row("b64", 1.0, 2.0), row("b128", 2.0, 3.0))) + "\n")
        out = os.path.join(self.tmp, "out.jsonl")
        code, stdout, _ = run_main(bench_rows.main, [manifest, measured, "--board",
                                                     "h100-sxm", "-o", out])
        self.assertEqual(code, 0)
        self.assertIn("2 configs of 1 kernels", stdout)
        with open(out) as f:
            self.assertEqual(len(f.read().splitlines()), 2)
        empty = self.write("empty.jsonl", json.dumps(row("b32", 1.0, 1.0)) + "\n")
        code, _, stderr = run_main(bench_rows.main, [manifest, empty, "--board", "h100-sxm",
                                                     "-o", out])
        self.assertEqual(code, 1)
        self.assertTrue(stderr.startswith("error: no measured config"))


if __name__ == "__main__":
    unittest.main()
