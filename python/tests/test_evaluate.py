"""Evaluation metrics on hand-made cases with known answers, and the CLI."""

import json
import os

import numpy as np

from energy import dataset, evaluate

from tests import util

CONFIGS = np.array(["a", "b", "c", "d"])


class KernelMetricsTest(util.TempDirTest):
    def test_perfect_predictor(self):
        time = [4.0, 2.0, 1.0, 3.0]
        energy = [1.0, 3.0, 2.0, 5.0]
        m = evaluate.kernel_metrics(CONFIGS, time, energy, time, energy)
        self.assertEqual(m["time_mape"], 0.0)
        self.assertEqual(m["energy_mape"], 0.0)
        self.assertEqual(m["spearman_time"], 1.0)
        self.assertEqual(m["spearman_energy"], 1.0)
        self.assertTrue(m["top1"])
        self.assertTrue(m["top3"])
        self.assertEqual((m["chosen"], m["best"]), ("a", "a"))
        self.assertEqual(m["energy_vs_best"], 1.0)
        self.assertEqual(m["time_vs_fastest"], 4.0)   # a is the slowest config

    def test_reversed_predictor(self):
        energy = [1.0, 2.0, 3.0, 4.0]
        predicted = [4.0, 3.0, 2.0, 1.0]
        m = evaluate.kernel_metrics(CONFIGS, energy, energy, predicted, predicted)
        # |4-1|/1 + |3-2|/2 + |2-3|/3 + |1-4|/4 = 3 + .5 + 1/3 + .75
        self.assertAlmostEqual(m["energy_mape"], (3 + 0.5 + 1 / 3 + 0.75) / 4)
        self.assertAlmostEqual(m["spearman_energy"], -1.0)
        self.assertFalse(m["top1"])
        self.assertFalse(m["top3"])           # predicted top 3 are d, c, b
        self.assertEqual((m["chosen"], m["best"]), ("d", "a"))
        self.assertEqual(m["energy_vs_best"], 4.0)

    def test_best_in_top3_and_ties(self):
        energy = [2.0, 1.0, 1.0, 3.0]          # b and c tie for best
        predicted = [1.0, 5.0, 3.0, 2.0]       # ranking a, d, c, b
        m = evaluate.kernel_metrics(CONFIGS, energy, energy, predicted, predicted)
        self.assertFalse(m["top1"])
        self.assertTrue(m["top3"])
        self.assertEqual(m["energy_vs_best"], 2.0)

    def test_constant_prediction_has_no_rank_correlation(self):
        m = evaluate.kernel_metrics(CONFIGS, [1, 2, 3, 4], [1, 2, 3, 4], [1] * 4, [1] * 4)
        self.assertIsNone(m["spearman_energy"])
        self.assertTrue(m["top1"])             # stable order: first config, a, is chosen

    def test_summary(self):
        perfect = evaluate.kernel_metrics(CONFIGS, [1, 2, 3, 4], [1, 2, 3, 4],
                                          [1, 2, 3, 4], [1, 2, 3, 4])
        reversed_ = evaluate.kernel_metrics(CONFIGS[:2], [1, 2], [1, 2], [2, 1], [2, 1])
        s = evaluate.summarize({"p": perfect, "r": reversed_})
        self.assertEqual((s["kernels"], s["configs"]), (2, 6))
        # Pooled APEs: four zeros, then |2-1|/1 and |1-2|/2.
        self.assertAlmostEqual(s["energy_mape"], 1.5 / 6)
        self.assertAlmostEqual(s["spearman_energy_mean"], 0.0)
        self.assertEqual((s["top1"], s["top3"]), (0.5, 1.0))
        self.assertEqual(s["energy_vs_best_median"], 1.5)
        self.assertEqual(s["energy_vs_best_max"], 2.0)


class EvaluateTest(util.TempDirTest):
    def test_analytic_equal_to_measured_scores_perfectly(self):
        # Hand-made SYNTHETIC rows whose analytic columns equal the made-up measurements:
        # the analytic model is then a perfect predictor, known to score MAPE 0, top-1 1.0.
        rows = []
        for kernel, scale in (("k1", 1.0), ("k2", 3.0), ("k3", 0.5)):
            for block, time, energy in ((64, 3.0, 2.0), (128, 2.0, 1.0), (256, 1.0, 1.5)):
                rows.append(json.dumps({
                    "kernel": kernel, "config": f"b{block}", "arch": "sm_90",
                    "gpu": "synthetic-no-gpu", "status": "ok",
                    "time_s": time * scale, "energy_j": energy * scale,
                    "analytic_time_s": time * scale, "analytic_energy_j": energy * scale,
                    "features": {"scale": scale, "block_threads": block}}))
        path = self.write("hand.jsonl", "\n".join(rows) + "\n")
        report, merged, _ = evaluate.evaluate(dataset.load([path]),
                                              params=evaluate.training_params(rounds=5))
        analytic = report["models"]["analytic"]["summary"]
        self.assertEqual(analytic["kernels"], 3)
        self.assertEqual(analytic["time_mape"], 0.0)
        self.assertEqual(analytic["energy_mape"], 0.0)
        self.assertEqual(analytic["top1"], 1.0)
        self.assertEqual(analytic["spearman_energy_mean"], 1.0)
        self.assertEqual(analytic["energy_vs_best_median"], 1.0)
        self.assertEqual(set(report["models"]["xgboost"]["per_kernel"]), {"k1", "k2", "k3"})
        self.assertEqual(len(merged), 9)

    def test_repeats_are_merged_by_median(self):
        data = dataset.load([util.TRAIN_JSONL])
        frame = data.frame.assign(pred_time_s=1.0, pred_energy_j=1.0)
        merged = evaluate.merge_repeats(frame)
        self.assertEqual(len(merged), 60)
        repeated = frame[(frame["kernel"] == "syn_stream") & (frame["config"] == "b256.ITEMS=1")]
        self.assertEqual(len(repeated), 2)
        row = merged[(merged["kernel"] == "syn_stream") & (merged["config"] == "b256.ITEMS=1")]
        self.assertAlmostEqual(row["time_s"].item(), repeated["time_s"].median())

    def test_analytic_missing_for_a_kernel(self):
        data = dataset.load([util.TRAIN_JSONL])
        data.frame.loc[data.frame["kernel"] == "syn_reduce", "analytic_time_s"] = np.nan
        report, _, _ = evaluate.evaluate(data, params=evaluate.training_params(rounds=5))
        self.assertEqual(len(report["models"]["xgboost"]["per_kernel"]), 4)
        self.assertNotIn("syn_reduce", report["models"]["analytic"]["per_kernel"])
        self.assertEqual(report["models"]["analytic"]["summary"]["kernels"], 3)

    def test_needs_two_kernels(self):
        path = os.path.join(self.tmp, "one.jsonl")
        with open(util.TRAIN_JSONL, encoding="utf-8") as f:
            lines = [line for line in f if '"syn_stream"' in line]
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)
        code, _, stderr = util.run_main(evaluate.main, [path])
        self.assertEqual(code, 1)
        self.assertIn("error: leave-one-kernel-out needs at least 2 kernels", stderr)

    def test_cli_writes_json_and_plots(self):
        out = os.path.join(self.tmp, "eval.json")
        plots = os.path.join(self.tmp, "plots")
        code, stdout, stderr = util.run_main(evaluate.main, [
            util.TRAIN_JSONL, util.UPDATE_JSONL, "--json", out, "--plots", plots,
            "--rounds", util.FAST_ROUNDS])
        self.assertEqual(code, 0, stderr)
        self.assertIn("leave-one-kernel-out on sm_90 (synthetic-no-gpu): 5 kernels", stdout)
        self.assertIn("top-1 energy-optimal", stdout)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        self.assertEqual(report["format"], "energy-eval-v1")
        self.assertEqual(set(report["models"]), {"xgboost", "analytic"})
        summary = report["models"]["xgboost"]["summary"]
        self.assertEqual((summary["kernels"], summary["configs"]), (5, 75))
        for key in ("time_mape", "energy_mape", "spearman_time_mean", "top1", "top3",
                    "energy_vs_best_median"):
            self.assertTrue(np.isfinite(summary[key]), key)
        self.assertGreaterEqual(summary["energy_vs_best_median"], 1.0)
        expected = ["pred_vs_measured.png"] + [f"pareto_{k}.png" for k in (
            "syn_compute", "syn_reduce", "syn_stencil", "syn_stream", "syn_transpose")]
        self.assertEqual(sorted(os.listdir(plots)), sorted(expected))
        for name in expected:
            with open(os.path.join(plots, name), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
