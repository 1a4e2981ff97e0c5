"""--update with time-only rows, on REAL measurements (python/tests/kt_rows/README.md):
a model trained on the Turing boards' rows is refitted with the Ampere boards' rows."""

import os
import shutil

import numpy as np

from energy import dataset, evaluate, train

from tests import util

KT_ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kt_rows")
TURING = os.path.join(KT_ROWS, "kt_convolution_sm75.jsonl")
AMPERE = os.path.join(KT_ROWS, "kt_convolution_sm86.jsonl")


class UpdateRealRowsTest(util.TempDirTest):
    def setUp(self):
        super().setUp()
        self.data = os.path.join(self.tmp, "data", os.path.basename(TURING))
        os.makedirs(os.path.dirname(self.data))
        shutil.copy(TURING, self.data)
        self.model = os.path.join(self.tmp, "model.json")
        code, stdout, stderr = util.run_main(train.main, [
            self.data, "-o", self.model, "--arch", "all", "--variant", "hybrid",
            "--rounds", util.FAST_ROUNDS])
        self.assertEqual(code, 0, stderr)
        self.assertIn("hybrid time model (not every row has an energy) for all", stdout)

    def test_update_with_time_only_rows(self):
        before = train.read_model(self.model)
        self.assertEqual(before["training"]["gpus"], ["rtx-2080-ti", "titan-rtx"])
        self.assertNotIn("energy_model", before)
        code, _, stderr = util.run_main(train.main, ["--update", self.model, AMPERE])
        self.assertEqual(code, 0, stderr)
        after = train.read_model(self.model)
        self.assertEqual(after["training"]["rows"], 24)
        self.assertEqual(after["training"]["gpus"],
                         ["rtx-2080-ti", "rtx-3060-laptop", "rtx-3090", "titan-rtx"])
        self.assertEqual([os.path.basename(d["path"]) for d in after["training"]["data"]],
                         [os.path.basename(TURING), os.path.basename(AMPERE)])
        # The variant, its target and the rounds carry over; still no energy model.
        self.assertEqual((after["arch"], after["target"]), ("all", "ln_time_over_analytic"))
        self.assertEqual(after["training"]["params"]["rounds"], int(util.FAST_ROUNDS))
        self.assertNotIn("energy_model", after)
        self.assertNotEqual(after["time_model"], before["time_model"])
        # The refitted model has learned the new boards' rows.
        data = dataset.load([AMPERE])
        booster = train.load_boosters(after)["time_model"]
        predicted = train.predict_time(booster, data.frame, data.feature_names, "hybrid")
        self.assertTrue(np.all(np.isfinite(predicted)))
        error = np.abs(np.log(predicted / data.frame["time_s"]))
        self.assertLess(np.median(error), np.log(1.25))

    def test_both_splits_on_real_rows(self):
        code, stdout, stderr = util.run_main(evaluate.main, [
            TURING, AMPERE, "--arch", "all", "--split", "board", "--rounds", "5"])
        self.assertEqual(code, 0, stderr)
        self.assertIn("| board | analytic | 4 |", stdout)
        code, _, stderr = util.run_main(evaluate.main, [TURING, AMPERE, "--arch", "all",
                                                        "--split", "kernel"])
        self.assertEqual(code, 1)
        self.assertIn("error: leave-one-kernel-out needs at least 2 kernels, the data has 1",
                      stderr)
