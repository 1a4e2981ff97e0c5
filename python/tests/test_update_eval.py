"""energy.update_eval on REAL rows (python/tests/kt_rows/README.md): three kernels of the
RTX 2080 Ti, six configurations each, and the committed report's analytic figures."""

import json
import os
from unittest import mock

import numpy as np

from energy import crossval, dataset, update_eval
from energy.tuning_cache import REPO_ROOT

from tests import util

TURING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kt_rows",
                      "kt_rows_turing.jsonl")
REPORT = os.path.join(REPO_ROOT, "data", "model-update", "update-eval.json")


class UpdateEvalTest(util.TempDirTest):
    def run_eval(self, *argv):
        out, md = os.path.join(self.tmp, "eval.json"), os.path.join(self.tmp, "eval.md")
        code, stdout, stderr = util.run_main(update_eval.main, [
            TURING, "--base", TURING, "--measure", "3", "--seeds", "0", "1", "--rounds", "5",
            "--json", out, "--markdown", md, *argv])
        self.assertEqual(code, 0, stderr)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        with open(md, encoding="utf-8") as f:
            self.assertEqual(f.read(), stdout)
        return report, stdout

    def test_report(self):
        report, stdout = self.run_eval()
        self.assertEqual(report["format"], update_eval.FORMAT)
        self.assertEqual(report["kernels"], ["cn_pnpoly", "convolution_kernel",
                                             "directCoulombSum"])
        # predicted (one seed: it draws nothing), random with seeds 0 and 1.
        self.assertEqual(report["settings"], [{"measure": 3, "pick": "predicted", "seed": 0},
                                              {"measure": 3, "pick": "random", "seed": 0},
                                              {"measure": 3, "pick": "random", "seed": 1}])
        pairs = report["pairs"]
        # analytic and base once per pair, update and base+update per setting.
        self.assertEqual(len(pairs), 3 * (2 + 2 * 3))
        frame = dataset.load([TURING]).frame
        for p in (p for p in pairs if p["model"] == "analytic"):
            rows = frame[frame["kernel"] == p["kernel"]]
            expected = crossval.pair_metrics(rows["time_s"], rows["analytic_time_s"])
            self.assertEqual(p["spearman"], expected["spearman"])
            self.assertEqual(p["regret"], expected["regret"])
            self.assertEqual(p["configs"], 6)
        analytic = next(s for s in report["summary"]
                        if s["model"] == "analytic" and s["set"] == "all")
        regrets = [p["regret"] for p in pairs if p["model"] == "analytic"]
        self.assertEqual(analytic["regret_median"], float(np.median(regrets)))
        self.assertEqual(analytic["regret_worst"], max(regrets))
        self.assertIn("| analytic | - | all | 3 |", stdout)
        self.assertIn("| update | 3 random, seed 1 | kt_rows_turing.jsonl | 3 |", stdout)

    def test_parallel_folds_give_the_same_report(self):
        serial, _ = self.run_eval("--pick", "random")
        parallel, _ = self.run_eval("--pick", "random", "-j", "2")
        for key in ("pairs", "summary", "settings"):
            self.assertEqual(serial[key], parallel[key])

    def test_the_held_out_kernel_is_never_trained_on(self):
        seen = []
        real = update_eval.fitted_predictions

        def spy(training, held, names, params):
            seen.append((set(training["kernel"]), set(held["kernel"]), len(training)))
            return real(training, held, names, params)

        with mock.patch.object(update_eval, "fitted_predictions", spy):
            self.run_eval("--pick", "predicted")
        self.assertEqual(len(seen), 3 * 3)   # base, update, base+update per kernel
        for trained, held, rows in seen:
            self.assertEqual(len(held), 1)
            self.assertFalse(trained & held)
            self.assertEqual(len(trained), 2)
        # update: the other two kernels' 3 measured configurations each; base: their 12
        # rows; base+update: both.
        self.assertEqual(sorted({rows for _, _, rows in seen}), [6, 12, 18])

    def test_one_kernel_is_an_error(self):
        with open(TURING, encoding="utf-8") as f:
            rows = self.write("one.jsonl", "".join(l for l in f if '"cn_pnpoly"' in l))
        code, _, stderr = util.run_main(update_eval.main, [rows, "--measure", "2"])
        self.assertEqual(code, 1)
        self.assertIn("error: leave-one-kernel-out needs at least 2 kernels, the data has 1",
                      stderr)


class CommittedReportTest(util.TempDirTest):
    """The committed evaluation (docs/model-update.md) scores the analytic model on the
    committed rows as they are now: the analytic figures it quotes still hold."""

    def test_analytic_pairs_reproduce(self):
        with open(REPORT, encoding="utf-8") as f:
            report = json.load(f)
        for entry in report["data"]:
            path = os.path.join(REPO_ROOT, entry["path"])
            if dataset.sha256_of(path) != entry["sha256"]:
                self.skipTest(f"{entry['path']} changed since the report (rerun the "
                              f"command of docs/model-update.md)")
        frame = dataset.load([os.path.join(REPO_ROOT, e["path"]) for e in report["data"]]).frame
        analytic = [p for p in report["pairs"] if p["model"] == "analytic"]
        self.assertEqual(len(analytic), frame.groupby(["kernel", "gpu"]).ngroups)
        for p in analytic:
            rows = frame[(frame["kernel"] == p["kernel"]) & (frame["gpu"] == p["gpu"])]
            expected = crossval.pair_metrics(rows["time_s"], rows["analytic_time_s"])
            self.assertAlmostEqual(p["regret"], expected["regret"], places=12)


if __name__ == "__main__":
    import unittest
    unittest.main()
