"""End to end: energy.tuning_rows compiles a tuning run's configurations through energy.so.

Runs where ENERGY_PLUGIN names the plugin (the ctest `kt-eval` sets it) and the public
measurements of ../shared are present; skips otherwise. coulomb-sum is the cheapest
problem to compile.
"""

import json
import os
import unittest

from energy import dataset, train, tuning_problem, tuning_rows

from tests import util

PLUGIN = os.environ.get("ENERGY_PLUGIN")
PROBLEM = "coulomb-sum"


@unittest.skipUnless(PLUGIN, "ENERGY_PLUGIN is not set (the ctest kt-eval sets it)")
class PluginRowsTest(util.TempDirTest):
    def setUp(self):
        super().setUp()
        self.problem = tuning_problem.load(PROBLEM)
        if not all(os.path.exists(p) for p in self.problem.sources + self.problem.caches):
            self.skipTest("the shared measurements are not here")
        # The RTX 2080 Ti's cache (the GTX 1070 has no nvcc build).
        self.cache = next(c for c in self.problem.caches if "2080" in c)
        self.compiles = os.path.join(self.tmp, "compiles")

    def rows(self, argv, name):
        out = os.path.join(self.tmp, name)
        code, stdout, stderr = util.run_main(tuning_rows.main, [
            *argv, "--problem", PROBLEM, "--plugin", PLUGIN, "--cache-dir", self.compiles,
            "-o", out])
        self.assertEqual(code, 0, stderr)
        with open(out, encoding="utf-8") as f:
            return [json.loads(line) for line in f], out

    def test_simulated_run_then_its_run_file(self):
        simulated, _ = self.rows(["--simulate", "--cache", self.cache, "--measure", "2",
                                  "--pick", "random", "--seed", "3"], "sim.jsonl")
        self.assertEqual(len(simulated), 2)
        for row in simulated:
            self.assertEqual((row["kernel"], row["gpu"], row["arch"], row["status"]),
                             ("directCoulombSum", "rtx-2080-ti", "sm_75", "ok"))
            self.assertEqual(row["source"]["repository"], "HiPerCoRe/KTT")
            self.assertEqual(row["tuning_run"]["kind"], "simulated")
            self.assertEqual(row["resources_from"], "nvrtc")
            self.assertGreater(row["analytic_time_s"], 0)
            self.assertEqual(row["launch"]["block"][2], row["params"]["WORK_GROUP_SIZE_Z"])
        # The same configurations as a tuning run's steps (energy.tune's shape, problem
        # and board on the command line): the rows carry the run's times.
        steps = [{"config": r["params"], "measured_s": r["time_s"] * 2,
                  "best_s": r["time_s"] * 2} for r in simulated]
        run = self.write("run.json", json.dumps({"steps": steps, "cache_best_s": 1e-4}))
        replayed, out = self.rows([run, "--board", "rtx-2080-ti", "--cache", self.cache],
                                  "run.jsonl")
        for row, before in zip(replayed, simulated):
            self.assertEqual(row["time_s"], before["time_s"] * 2)
            self.assertEqual(row["features"], before["features"])
            self.assertEqual(row["config"], before["config"])
            self.assertEqual(row["tuning_run"]["kind"], "replay")
        # The plugin's own model inputs: a model trained on them names them.
        model = os.path.join(self.tmp, "model.json")
        code, _, stderr = util.run_main(train.main, [out, "--variant", "hybrid",
                                                     "--rounds", "5", "-o", model])
        self.assertEqual(code, 0, stderr)
        self.assertEqual(train.read_model(model)["feature_names"],
                         dataset.load([out]).feature_names)

    def test_unknown_board(self):
        run = self.write("run.json", json.dumps({"steps": [
            {"config": {"WORK_GROUP_SIZE_X": 16}, "measured_s": 1e-3}]}))
        code, _, stderr = util.run_main(tuning_rows.main, [
            run, "--problem", PROBLEM, "--board", "no-such-board", "--plugin", PLUGIN,
            "--cache-dir", self.compiles, "-o", os.path.join(self.tmp, "x.jsonl")])
        self.assertEqual(code, 1)
        self.assertIn("error: unknown board 'no-such-board'", stderr)


if __name__ == "__main__":
    unittest.main()
