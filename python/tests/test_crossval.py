"""Time-model variants out of sample: metrics on hand-made cases, splits, the CLI.

The multi-board rows here are the SYNTHETIC fixtures copied under a second made-up board
name ("synthetic-no-gpu-2") with made-up times: they test the mechanics only.
"""

import json
import os

import numpy as np

from energy import crossval, dataset, evaluate, train

from tests import util


def two_board_rows(tmp, drop_energy=False, second_board=True):
    """The synthetic fixture on two made-up boards; the second one 1.5x slower."""
    lines = []
    with open(util.TRAIN_JSONL, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if drop_energy:
                row.pop("energy_j", None)
            lines.append(json.dumps(row))
            if row["status"] == "ok" and second_board:
                row = dict(row, gpu="synthetic-no-gpu-2", time_s=row["time_s"] * 1.5)
                lines.append(json.dumps(row))
    path = os.path.join(tmp, "two-boards.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


class PairMetricsTest(util.TempDirTest):
    def test_hand_computed(self):
        m = crossval.pair_metrics([1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 3.0, 4.0])
        self.assertEqual(m["configs"], 4)
        self.assertAlmostEqual(m["spearman"], 0.8)     # 1 - 6 * 2 / (4 * 15)
        self.assertEqual(m["regret"], 2.0)             # picks the config measured at 2
        self.assertAlmostEqual(m["mape"], (1 + 0.5) / 4)

    def test_ties_count_by_their_mean_and_scores_have_no_mape(self):
        m = crossval.pair_metrics([1.0, 3.0, 2.0], [0.5, 0.5, 9.0], times=False)
        self.assertEqual(m["regret"], 2.0)             # mean of 1 and 3, over 1
        self.assertIsNone(m["mape"])

    def test_summary_is_median_over_defined(self):
        pairs = [{"configs": 3, "spearman": 1.0, "regret": 1.0, "mape": None},
                 {"configs": 2, "spearman": None, "regret": 3.0, "mape": None},
                 {"configs": 4, "spearman": 0.0, "regret": 2.0, "mape": None}]
        s = crossval.summarize(pairs)
        self.assertEqual((s["pairs"], s["configs"]), (3, 9))
        self.assertEqual((s["spearman_median"], s["regret_median"]), (0.5, 2.0))
        self.assertIsNone(s["mape_median"])


class SplitTest(util.TempDirTest):
    def test_held_out_group_is_never_trained_on(self):
        frame = dataset.load([two_board_rows(self.tmp)]).frame
        for split, column in crossval.SPLITS.items():
            seen = []

            def fit_predict(training, held):
                self.assertFalse(set(training[column]) & set(held[column]))
                seen.append(held[column].iloc[0])
                return {"pred": np.full(len(held), 1.0)}
            out = crossval.held_out_predictions(frame, split, fit_predict)
            self.assertEqual(sorted(seen), sorted(frame[column].unique()))
            self.assertTrue((out["pred"] == 1.0).all())

    def test_one_board_cannot_be_left_out(self):
        code, _, stderr = util.run_main(evaluate.main, [util.TRAIN_JSONL, "--split", "board"])
        self.assertEqual(code, 1)
        self.assertIn("error: leave-one-board-out needs at least 2 boards, the data has 1",
                      stderr)

    def test_hybrid_needs_analytic_times(self):
        data = dataset.load([util.TRAIN_JSONL])
        data.frame.loc[5, "analytic_time_s"] = np.nan
        with self.assertRaisesRegex(dataset.DatasetError,
                                    r"synthetic_train.jsonl:6: the hybrid variant needs "
                                    r"analytic_time_s on every row \(1 row\(s\) lack it\)"):
            train.fit_booster(data.frame, data.feature_names, "time_s",
                              train.training_params(rounds=2), "hybrid")


class CompareCliTest(util.TempDirTest):
    def test_both_splits_all_variants_time_only(self):
        path = two_board_rows(self.tmp, drop_energy=True)
        out, md = os.path.join(self.tmp, "eval.json"), os.path.join(self.tmp, "eval.md")
        code, stdout, stderr = util.run_main(evaluate.main, [
            path, "--split", "kernel", "--split", "board", "--json", out, "--markdown", md,
            "--rounds", util.FAST_ROUNDS])
        self.assertEqual(code, 0, stderr)
        self.assertIn("| split | model | pairs | Spearman | top-1 regret | MAPE |", stdout)
        with open(out, encoding="utf-8") as f:
            report = json.load(f)
        with open(md, encoding="utf-8") as f:
            self.assertEqual(f.read(), stdout.split("wrote")[0].rstrip("\n") + "\n")
        self.assertEqual(report["format"], "energy-eval-variants-v1")
        self.assertEqual(list(report["splits"]), ["kernel", "board"])
        self.assertEqual(report["splits"]["board"]["method"], "leave-one-board-out")
        for split in report["splits"].values():
            models = split["models"]
            self.assertEqual(list(models), ["regression", "rank", "hybrid", "analytic"])
            for name, scored in models.items():
                s = scored["summary"]
                self.assertEqual((s["pairs"], s["configs"]), (8, 120), name)
                self.assertGreaterEqual(s["regret_median"], 1.0)
                self.assertEqual(s["mape_median"] is None, name == "rank")
                self.assertEqual({(p["kernel"], p["gpu"]) for p in scored["per_pair"]},
                                 {(k, g) for k in report["kernels"] for g in report["gpus"]})

    def test_energy_report_needs_energy(self):
        path = two_board_rows(self.tmp, drop_energy=True)
        code, _, stderr = util.run_main(evaluate.main, [path])
        self.assertEqual(code, 1)
        self.assertIn("error: the energy report needs energy_j on every row (122 of 122 "
                      "lack it): compare time models with --split", stderr)
        code, _, stderr = util.run_main(evaluate.main, [two_board_rows(self.tmp)])
        self.assertEqual(code, 1)
        self.assertIn("error: the energy report scores each kernel on one GPU", stderr)


class VariantTrainingTest(util.TempDirTest):
    def test_time_only_hybrid_model(self):
        # One board: the synthetic features do not tell the two made-up boards apart.
        path = two_board_rows(self.tmp, drop_energy=True, second_board=False)
        out = os.path.join(self.tmp, "m.json")
        code, stdout, stderr = util.run_main(train.main, [path, "-o", out, "--variant", "hybrid",
                                                          "--rounds", "100"])
        self.assertEqual(code, 0, stderr)
        self.assertIn("hybrid time model (not every row has an energy)", stdout)
        doc = train.read_model(out)
        self.assertEqual(doc["target"], "ln_time_over_analytic")
        self.assertNotIn("energy_model", doc)
        self.assertEqual(doc["training"]["targets"],
                         {"time_model": "ln(time_s / analytic_time_s)"})
        self.assertEqual(doc["training"]["params"]["variant"], "hybrid")
        # The booster learned the measured / analytic ratio: analytic x exp(prediction).
        frame = dataset.load([path]).frame
        booster = train.load_boosters(doc)["time_model"]
        ratio = train.predict(booster, frame, doc["feature_names"])
        predicted = train.predict_time(booster, frame, doc["feature_names"], "hybrid")
        np.testing.assert_allclose(predicted, ratio * frame["analytic_time_s"])
        error = np.abs(predicted / frame["time_s"] - 1)
        self.assertLess(np.median(error), 0.02)

    def test_regression_records_its_target(self):
        out = os.path.join(self.tmp, "m.json")
        code, _, stderr = util.run_main(train.main, [util.TRAIN_JSONL, "-o", out,
                                                     "--rounds", util.FAST_ROUNDS])
        self.assertEqual(code, 0, stderr)
        doc = train.read_model(out)
        self.assertEqual(doc["target"], "ln_time")
        self.assertIn("energy_model", doc)

    def test_rank_is_not_a_model_variant(self):
        with self.assertRaises(SystemExit):
            util.run_main(train.main, [util.TRAIN_JSONL, "-o", "m.json", "--variant", "rank"])
        with self.assertRaisesRegex(dataset.DatasetError, "scores are not times"):
            train.train([util.TRAIN_JSONL], os.path.join(self.tmp, "m.json"),
                        params=train.training_params(variant="rank"))

    def test_several_architectures_with_all(self):
        with open(util.UPDATE_JSONL, encoding="utf-8") as f:
            other = self.write("other.jsonl", f.read().replace('"sm_90"', '"sm_80"'))
        out = os.path.join(self.tmp, "m.json")
        code, _, stderr = util.run_main(train.main, [util.TRAIN_JSONL, other, "-o", out,
                                                     "--arch", "all", "--rounds", "5"])
        self.assertEqual(code, 0, stderr)
        doc = train.read_model(out)
        self.assertEqual(doc["arch"], "all")
        self.assertEqual(doc["training"]["rows"], 61 + 15)
