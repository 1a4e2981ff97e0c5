"""Training: weights, the model file and its round trip, --update."""

import json
import os
import shutil

import numpy as np
import pandas as pd

from energy import dataset, train

from tests import util


class WeightTest(util.TempDirTest):
    def test_hand_computed(self):
        # Kernel A: times 1, 2, 4 -> q = 1, .5, .25 (sum 1.75); kernel B: one config.
        # Scaled by N / kernels = 4 / 2.
        frame = pd.DataFrame({"kernel": ["A", "A", "A", "B"], "gpu": "g",
                              "time_s": [1.0, 2.0, 4.0, 3.0]})
        weights = train.kernel_weights(frame, "time_s", floor=0.1)
        np.testing.assert_allclose(weights, [2 / 1.75, 1 / 1.75, 0.5 / 1.75, 2.0])

    def test_groups_are_kernel_gpu_pairs(self):
        # Kernel A on two GPUs is two groups of one config each, B on one GPU a third:
        # each group's best config weighs 1, times N / groups = 4 / 3.
        frame = pd.DataFrame({"kernel": ["A", "A", "B", "B"], "gpu": ["g", "h", "g", "g"],
                              "time_s": [1.0, 5.0, 1.0, 2.0]})
        weights = train.kernel_weights(frame, "time_s", floor=0.1)
        np.testing.assert_allclose(weights, [4 / 3, 4 / 3, 4 / 3 / 1.5, 4 / 3 * 0.5 / 1.5])

    def test_floor(self):
        frame = pd.DataFrame({"kernel": ["A", "A"], "gpu": "g", "time_s": [1.0, 100.0]})
        weights = train.kernel_weights(frame, "time_s", floor=0.1)   # q = 1, .01 -> .1
        np.testing.assert_allclose(weights, [2 / 1.1, 0.2 / 1.1])

    def test_each_kernel_counts_equally(self):
        frame = dataset.load([util.TRAIN_JSONL]).frame
        weights = train.kernel_weights(frame, "energy_j", floor=0.1)
        sums = frame.assign(w=weights).groupby("kernel")["w"].sum()
        np.testing.assert_allclose(sums, len(frame) / 4)
        best = frame.groupby("kernel")["energy_j"].idxmin()
        for kernel, index in best.items():
            self.assertEqual(weights[index], weights[frame["kernel"] == kernel].max())


class TrainTest(util.TempDirTest):
    def train(self, *args):
        return util.run_main(train.main, [*args, "--rounds", "100"])

    def test_model_file_round_trips(self):
        out = os.path.join(self.tmp, "models", "sm_90.json")
        os.makedirs(os.path.dirname(out))
        code, stdout, stderr = self.train(util.TRAIN_JSONL, "-o", out, "--seed", "7")
        self.assertEqual(code, 0, stderr)
        self.assertIn("wrote", stdout)
        self.assertIn("skipped 1 row(s)", stderr)

        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual(doc["format"], "energy-xgboost-v1")
        self.assertEqual(doc["arch"], "sm_90")
        data = dataset.load([util.TRAIN_JSONL])
        self.assertEqual(doc["feature_names"], data.feature_names)
        training = doc["training"]
        self.assertEqual(training["rows"], 61)
        self.assertEqual(training["kernels"],
                         ["syn_compute", "syn_reduce", "syn_stencil", "syn_stream"])
        self.assertEqual(training["gpus"], ["synthetic-no-gpu"])
        self.assertEqual(training["params"]["rounds"], 100)
        self.assertEqual(training["params"]["seed"], 7)
        self.assertEqual(training["targets"]["time_model"], "ln(time_s)")
        [entry] = training["data"]
        self.assertFalse(os.path.isabs(entry["path"]))
        self.assertTrue(os.path.samefile(os.path.join(os.path.dirname(out), entry["path"]),
                                         util.TRAIN_JSONL))
        self.assertEqual(entry["sha256"], data.files[0].sha256)

        boosters = train.load_boosters(train.read_model(out))
        for key, column in train.TARGETS.items():
            learner = doc[key]["learner"]
            self.assertEqual(learner["feature_names"], data.feature_names)
            self.assertEqual(learner["objective"]["name"], "reg:squarederror")
            self.assertEqual(boosters[key].feature_names, data.feature_names)
            predicted = train.predict(boosters[key], data.frame, data.feature_names)
            self.assertTrue(np.all(np.isfinite(predicted)))
            # inplace_predict goes through XGBoosterPredictFromDense, as the plugin does.
            dense = train.feature_matrix(data.frame, data.feature_names).astype(np.float32)
            np.testing.assert_allclose(np.exp(boosters[key].inplace_predict(dense)),
                                       predicted, rtol=1e-6)
            error = np.abs(predicted / data.frame[column].to_numpy() - 1)
            self.assertLess(np.median(error), 0.02, key)
            self.assertLess(error.max(), 0.25, key)

    def test_arch_selection(self):
        other = os.path.join(self.tmp, "other.jsonl")
        with open(util.UPDATE_JSONL, encoding="utf-8") as f:
            text = f.read().replace('"sm_90"', '"sm_80"')
        with open(other, "w", encoding="utf-8") as f:
            f.write(text)
        out = os.path.join(self.tmp, "m.json")
        code, _, stderr = self.train(util.TRAIN_JSONL, other, "-o", out)
        self.assertEqual(code, 1)
        self.assertIn("error: the data holds several architectures (sm_80, sm_90)", stderr)
        code, _, stderr = self.train(util.TRAIN_JSONL, other, "-o", out, "--arch", "sm_80")
        self.assertEqual(code, 0, stderr)
        self.assertIn("ignored 61 row(s) of other architectures (sm_90)", stderr)
        self.assertEqual(train.read_model(out)["training"]["kernels"], ["syn_transpose"])

    def test_not_a_model_file(self):
        other = self.write("other.json", '{"format": "something-else"}\n')
        code, _, stderr = util.run_main(train.main, ["--update", other, util.UPDATE_JSONL])
        self.assertEqual(code, 1)
        self.assertEqual(stderr, f"error: {other}: not a model file "
                                 "(format is not 'energy-xgboost-v1')\n")
        code, _, stderr = util.run_main(train.main, ["--update", util.TRAIN_JSONL])
        self.assertEqual(code, 1)
        self.assertIn("invalid JSON", stderr)


class UpdateTest(util.TempDirTest):
    def setUp(self):
        super().setUp()
        # Copies, so that a test may change or remove the training data.
        self.data = os.path.join(self.tmp, "data", "train.jsonl")
        os.makedirs(os.path.dirname(self.data))
        shutil.copy(util.TRAIN_JSONL, self.data)
        self.model = os.path.join(self.tmp, "models", "sm_90.json")
        os.makedirs(os.path.dirname(self.model))
        code, _, stderr = util.run_main(train.main, [self.data, "-o", self.model,
                                                     "--rounds", util.FAST_ROUNDS])
        self.assertEqual(code, 0, stderr)

    def update(self, *args):
        return util.run_main(train.main, ["--update", self.model, *args])

    def test_update_adds_rows(self):
        before = train.read_model(self.model)
        self.assertEqual(before["training"]["data"][0]["path"], "../data/train.jsonl")
        code, _, stderr = self.update(util.UPDATE_JSONL)
        self.assertEqual(code, 0, stderr)
        after = train.read_model(self.model)
        self.assertEqual(after["training"]["rows"], 61 + 15)
        self.assertIn("syn_transpose", after["training"]["kernels"])
        self.assertEqual(len(after["training"]["data"]), 2)
        self.assertEqual(after["training"]["params"]["rounds"], int(util.FAST_ROUNDS))
        self.assertNotEqual(after["time_model"], before["time_model"])

    def test_update_to_other_output(self):
        out = os.path.join(self.tmp, "updated.json")
        code, _, stderr = self.update(util.UPDATE_JSONL, "-o", out, "--rounds", "5")
        self.assertEqual(code, 0, stderr)
        self.assertEqual(train.read_model(self.model)["training"]["rows"], 61)
        updated = train.read_model(out)
        self.assertEqual(updated["training"]["rows"], 76)
        self.assertEqual(updated["training"]["params"]["rounds"], 5)
        self.assertEqual(updated["training"]["data"][0]["path"], "data/train.jsonl")

    def test_same_data_is_not_counted_twice(self):
        code, _, stderr = self.update(self.data)
        self.assertEqual(code, 0, stderr)
        self.assertIn("already in the model's training data", stderr)
        self.assertEqual(train.read_model(self.model)["training"]["rows"], 61)

    def test_missing_training_data(self):
        os.remove(self.data)
        code, _, stderr = self.update(util.UPDATE_JSONL)
        self.assertEqual(code, 1)
        self.assertTrue(stderr.startswith(f"error: {self.model}: training data "
                                          "'../data/train.jsonl' not found"), stderr)

    def test_changed_training_data_warns(self):
        with open(self.data, "a", encoding="utf-8") as f:
            f.write("\n")
        code, _, stderr = self.update(util.UPDATE_JSONL)
        self.assertEqual(code, 0, stderr)
        self.assertIn("warning:", stderr)
        self.assertIn("sha256 differs", stderr)
        entry = train.read_model(self.model)["training"]["data"][0]
        self.assertEqual(entry["sha256"], dataset.sha256_of(self.data))

    def test_wrong_arch(self):
        code, _, stderr = self.update(util.UPDATE_JSONL, "--arch", "sm_80")
        self.assertEqual(code, 1)
        self.assertIn("model is for sm_90, not --arch sm_80", stderr)
