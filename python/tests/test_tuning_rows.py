"""energy.tuning_rows: a tuning run's measurements as dataset rows, on REAL rows
(python/tests/kt_rows/README.md): their features stand in for the plugin's."""

import json
import os

import numpy as np

from energy import dataset, train, tuning_rows

from tests import util

KT_ROWS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kt_rows")
TURING = os.path.join(KT_ROWS, "kt_rows_turing.jsonl")
CONVOLUTION = os.path.join(KT_ROWS, "kt_convolution_sm75.jsonl")


def read_rows(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def pool_rows(kernel):
    return [r for r in read_rows(TURING) if r["kernel"] == kernel]


class RunRowsTest(util.TempDirTest):
    def write_run(self, steps, **fields):
        return self.write("run.json", json.dumps({"steps": steps, "cache_best_s": 1e-3,
                                                  **fields}))

    def convert(self, argv):
        out = os.path.join(self.tmp, "rows.jsonl")
        code, stdout, stderr = util.run_main(tuning_rows.main, [*argv, "-o", out])
        return code, stdout, stderr, out

    def test_steps_become_rows_with_provenance(self):
        pool = pool_rows("directCoulombSum")
        # Steps give the tunables (as energy.tune writes them) and measured times that
        # differ from the pool's: the rows keep the run's, and the pool's inputs.
        steps = [{"config": pool[i]["params"], "measured_s": pool[i]["time_s"] * 1.5,
                  "best_s": pool[0]["time_s"] * 1.5} for i in (0, 3)]
        run = self.write_run(steps, kernel="directCoulombSum", board="rtx-2080-ti",
                             seed=4, driver="580.00")
        code, stdout, stderr, out = self.convert([run, "--features-from", TURING])
        self.assertEqual(code, 0, stderr)
        self.assertIn("2 row(s) of 1 run(s)", stdout)
        rows = read_rows(out)
        self.assertEqual([r["config"] for r in rows], [pool[0]["config"], pool[3]["config"]])
        for number, (row, source) in enumerate(zip(rows, (pool[0], pool[3]))):
            self.assertEqual(row["time_s"], source["time_s"] * 1.5)
            self.assertEqual(row["features"], source["features"])
            self.assertEqual(row["analytic_time_s"], source["analytic_time_s"])
            self.assertEqual((row["kernel"], row["gpu"], row["arch"], row["status"]),
                             ("directCoulombSum", "rtx-2080-ti", "sm_75", "ok"))
            self.assertEqual(row["tuning_run"], {
                "file": os.path.relpath(run, tuning_rows.REPO_ROOT),
                "sha256": dataset.sha256_of(run), "seed": 4, "kind": "gpu", "step": number})
            self.assertEqual(row["driver"], "580.00")
            self.assertIn("measured by the tuning run on its GPU", row["method"])
            # The pool row's own cache: where the measurement came from.
            self.assertEqual(row["source"], source["source"])
        # energy.train reads them.
        self.assertEqual(len(dataset.load([out]).frame), 2)

    def test_replay_names_its_cache(self):
        pool = pool_rows("cn_pnpoly")
        run = self.write_run([{"config": pool[1]["config"], "measured_s": pool[1]["time_s"],
                               "best_s": pool[1]["time_s"]}])
        code, _, stderr, out = self.convert([run, "--kernel", "cn_pnpoly", "--board",
                                             "rtx-2080-ti", "--cache", TURING,
                                             "--features-from", TURING])
        self.assertEqual(code, 0, stderr)
        row = read_rows(out)[0]
        self.assertEqual(row["tuning_run"]["kind"], "replay")
        self.assertEqual(row["source"], {"file": os.path.relpath(TURING, tuning_rows.REPO_ROOT),
                                         "sha256": dataset.sha256_of(TURING)})

    def test_errors(self):
        pool = pool_rows("cn_pnpoly")
        good = {"config": pool[0]["config"], "measured_s": 1e-3}
        cases = [
            ({"steps": [good]}, [], "the run names no kernel"),
            ({"steps": [good], "kernel": "cn_pnpoly", "board": "titan-rtx"}, [],
             "no rows with features for cn_pnpoly on titan-rtx"),
            ({"steps": [{**good, "config": "0,1,2,3"}], "kernel": "cn_pnpoly",
              "board": "rtx-2080-ti"}, [], 'no row with features for cn_pnpoly on '
                                           'rtx-2080-ti, configuration "0,1,2,3"'),
            ({"steps": [{**good, "measured_s": -1}]}, [],
             "step 0: 'measured_s' must be a positive number"),
            ({"runs": []}, [], "not a tuning run (no 'steps' list)"),
        ]
        for doc, extra, message in cases:
            with self.subTest(message=message):
                run = self.write("bad.json", json.dumps(doc))
                code, _, stderr, _ = self.convert([run, "--features-from", TURING, *extra])
                self.assertEqual(code, 1)
                self.assertTrue(stderr.startswith("error: "), stderr)
                self.assertIn(message, stderr)
        code, _, stderr, _ = self.convert([self.write("x.json", "{"), "--features-from",
                                           TURING])
        self.assertEqual(code, 1)
        self.assertIn("invalid JSON", stderr)


class SimulateTest(util.TempDirTest):
    def simulate(self, *argv):
        out = os.path.join(self.tmp, "sim.jsonl")
        code, _, stderr = util.run_main(tuning_rows.main, [
            "--simulate", "--features-from", TURING, "-o", out, *argv])
        self.assertEqual(code, 0, stderr)
        return read_rows(out)

    def test_predicted_picks_the_predicted_fastest(self):
        rows = self.simulate("--measure", "2")
        self.assertEqual(len(rows), 6)   # 3 pairs x 2
        for kernel in ("convolution_kernel", "directCoulombSum", "cn_pnpoly"):
            pool = sorted(pool_rows(kernel), key=lambda r: r["analytic_time_s"])
            picked = [r for r in rows if r["kernel"] == kernel]
            self.assertEqual([r["config"] for r in picked], [r["config"] for r in pool[:2]])
            self.assertEqual([r["tuning_run"]["step"] for r in picked], [0, 1])
            self.assertEqual(picked[0]["tuning_run"]["kind"], "simulated")
            self.assertEqual(picked[0]["tuning_run"]["pick"], "predicted")
            self.assertEqual(picked[0]["time_s"], pool[0]["time_s"])

    def test_random_pick_follows_the_seed(self):
        first = [r["config"] for r in self.simulate("--measure", "3", "--pick", "random",
                                                     "--kernel", "cn_pnpoly")]
        again = [r["config"] for r in self.simulate("--measure", "3", "--pick", "random",
                                                     "--kernel", "cn_pnpoly")]
        other = [[r["config"] for r in self.simulate("--measure", "3", "--pick", "random",
                                                      "--kernel", "cn_pnpoly", "--seed", s)]
                 for s in ("1", "2", "3")]
        self.assertEqual(first, again)
        self.assertEqual(len(set(first)), 3)
        self.assertTrue(any(o != first for o in other))

    def test_measure_beyond_the_pair_takes_all(self):
        rows = self.simulate("--measure", "50", "--kernel", "cn_pnpoly")
        self.assertEqual(len(rows), 6)
        self.assertEqual(rows[0]["tuning_run"]["candidates"], 6)


class UpdateFromRunsTest(util.TempDirTest):
    """The rows of two tuning runs: a new hybrid model from the first, --update with the
    second (the plugin loading it: test/CostModel/model-update.test)."""

    def test_train_then_update(self):
        first, second = (os.path.join(self.tmp, f"run{n}.jsonl") for n in (1, 2))
        for path, kernel in ((first, "directCoulombSum"), (second, "cn_pnpoly")):
            code, _, stderr = util.run_main(tuning_rows.main, [
                "--simulate", "--features-from", TURING, "--measure", "4",
                "--kernel", kernel, "-o", path])
            self.assertEqual(code, 0, stderr)
        model = os.path.join(self.tmp, "model.json")
        code, _, stderr = util.run_main(train.main, [first, "--variant", "hybrid",
                                                     "--rounds", util.FAST_ROUNDS, "-o", model])
        self.assertEqual(code, 0, stderr)
        code, stdout, stderr = util.run_main(train.main, ["--update", model, second])
        self.assertEqual(code, 0, stderr)
        self.assertIn("8 rows of 2 kernel(s) from 2 file(s)", stdout)
        doc = train.read_model(model)
        self.assertEqual(doc["target"], "ln_time_over_analytic")
        self.assertEqual([os.path.basename(d["path"]) for d in doc["training"]["data"]],
                         ["run1.jsonl", "run2.jsonl"])
        self.assertEqual(doc["training"]["kernels"], ["cn_pnpoly", "directCoulombSum"])
        # The update learned the second run: its rows are predicted closer than the
        # analytic model predicts them (pnpoly's analytic times are ~100x off).
        data = dataset.load([second])
        predicted = train.predict_time(train.load_boosters(doc)["time_model"], data.frame,
                                       data.feature_names, "hybrid")
        measured = data.frame["time_s"].to_numpy()
        analytic = data.frame["analytic_time_s"].to_numpy()
        self.assertLess(np.median(np.abs(np.log(predicted / measured))),
                        np.median(np.abs(np.log(analytic / measured))))


if __name__ == "__main__":
    import unittest
    unittest.main()
