"""End to end: energy.kt_eval compiles a small sample through energy.so.

Runs only where ENERGY_PLUGIN names the plugin: the ctest `kt-eval` sets it to the built
one, and `python` (the whole suite) skips this. coulomb-sum is the cheapest problem to
compile; its GTX 1070 cache also exercises a board the plugin may not have tables for.
"""

import json
import math
import os
import subprocess
import unittest

from energy import kt_eval, measured_build, tuning_problem

from tests import util

PLUGIN = os.environ.get("ENERGY_PLUGIN")
MODEL_EVAL = os.environ.get("ENERGY_MODEL_EVAL")
PROBLEM = "coulomb-sum"


def files_under(folder):
    return sorted(os.path.join(r, n) for r, _, names in os.walk(folder) for n in names)


@unittest.skipUnless(PLUGIN, "ENERGY_PLUGIN is not set (the ctest kt-eval sets it)")
class KtEvalSmokeTest(util.TempDirTest):
    def setUp(self):
        super().setUp()
        problem = tuning_problem.load(PROBLEM)
        if not all(os.path.exists(p) for p in problem.sources + problem.caches):
            self.skipTest("the shared measurements are not here")

    def run_eval(self, name):
        out, cache = os.path.join(self.tmp, name + ".json"), os.path.join(self.tmp, "cache")
        argv = [PROBLEM, "--sample", "6", "--plugin", PLUGIN, "--cache-dir", cache,
                "--json", out]
        if name == "first":
            argv += ["--plot", os.path.join(self.tmp, "plot.png"),
                     "--rows", os.path.join(self.tmp, "rows.jsonl")]
        code, stdout, err = util.run_main(kt_eval.main, argv)
        self.assertEqual(code, 0, err)
        self.assertIn("| problem | board |", stdout)
        with open(out, encoding="utf-8") as f:
            return json.load(f), files_under(cache)

    def test_sample_through_the_plugin(self):
        report, cached = self.run_eval("first")
        self.assertEqual(report["format"], kt_eval.FORMAT)
        self.assertGreater(os.path.getsize(os.path.join(self.tmp, "plot.png")), 0)
        results = report["results"]
        self.assertEqual(len(results), len(tuning_problem.load(PROBLEM).caches))
        for r in results:
            self.assertEqual(r["cache"]["repository"], "HiPerCoRe/KTT")
            self.assertEqual(r["sample"]["size"], 6)
            self.assertTrue("skipped" in r or "time" in r, r)
        evaluated = [r for r in results if "time" in r]
        self.assertTrue(evaluated, [r.get("skipped") for r in results])
        for r in evaluated:
            m = r["time"]
            for key in ("spearman", "kendall"):
                self.assertTrue(math.isfinite(m[key]) and -1 <= m[key] <= 1, (key, m[key]))
            self.assertTrue(math.isfinite(m["median_predicted_over_measured"]))
            for strategy in ("plugin", "random", "max_occupancy"):
                pick = m["picks"][strategy]
                self.assertTrue(math.isfinite(pick["regret"]) and pick["regret"] >= 1)
                self.assertTrue(0 <= pick["percentile"] <= 100)
            self.assertEqual(len(r["configs"]), r["compiled"])
            self.assertIn(m["best_config"], [c["config"] for c in r["configs"]])
            # Registers as KTT's NVRTC build has them, where nvcc can build for the board
            # (CUDA 13 has no sm_61: the GTX 1070 keeps clang's).
            if r["arch"] == "sm_75" and measured_build.nvcc_identity():
                self.assertEqual(r["resources_from"], {"nvrtc": r["compiled"]})
            for c in r["configs"]:
                self.assertTrue(c["resources_from"] == "nvrtc" or
                                c["resources_from"].startswith("clang"), c)
        self.assertIn("time", report["summary"])
        self.check_rows(evaluated)

        # A rerun is answered from the compile cache, with the same figures.
        again, cached_again = self.run_eval("second")
        self.assertEqual(cached_again, cached)
        self.assertEqual(again["results"], results)

    def check_rows(self, evaluated):
        """--rows: one training row per compiled configuration, loadable as a dataset."""
        path = os.path.join(self.tmp, "rows.jsonl")
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f]
        self.assertEqual(len(rows), sum(r["compiled"] for r in evaluated))
        measured = {(r["board"], json.dumps(c["config"], sort_keys=True)): c["measured_time_s"]
                    for r in evaluated for c in r["configs"]}
        for row in rows:
            self.assertEqual(row["kernel"], "directCoulombSum")
            self.assertEqual(row["problem"], PROBLEM)
            self.assertEqual(row["status"], "ok")
            self.assertIn("resources_from", row)
            self.assertEqual(row["source"]["repository"], "HiPerCoRe/KTT")
            key = (row["gpu"], json.dumps(row["params"], sort_keys=True))
            self.assertEqual(row["time_s"], measured[key])
            # The features are the plugin's model inputs for that launch.
            self.assertIn("block_x", row["features"])
            self.assertEqual(row["features"]["block_x"] * row["features"]["block_y"] *
                             row["features"]["block_z"], row["features"]["block_threads"])
            self.assertAlmostEqual(math.log(row["analytic_time_s"]),
                                   row["features"]["analytic_ln_time"], places=4)
        if MODEL_EVAL:
            self.check_model_eval(path, rows)

    def check_model_eval(self, path, rows):
        """energy-model-eval rebuilds each row's query: same predictions as the plugin."""
        done = subprocess.run([MODEL_EVAL, path], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        predicted = [json.loads(line) for line in done.stdout.splitlines()]
        self.assertEqual(len(predicted), len(rows))
        # The rows carry the query as float32 model inputs (the occupancy fraction,
        # for one), so the rebuilt query agrees to float precision, not exactly.
        for row, p in zip(rows, predicted):
            self.assertAlmostEqual(p["time_s"] / row["analytic_time_s"], 1, places=6)
            self.assertAlmostEqual(p["energy_j"] / row["analytic_energy_j"], 1, places=6)
