"""energy.kt_eval and energy.plugin_compile without compiling: metrics, sampling, commands.

The end-to-end run through energy.so is tests/test_kt_eval_smoke.py (ctest kt-eval).
"""

import os
import sys
import unittest
from unittest import mock

import numpy as np

from energy import kt_eval, plugin_compile, ranking, tuning_problem

from tests import util


class MetricsTest(unittest.TestCase):
    def test_hand_computed(self):
        # measured ranks 3 1 2 4, predicted ranks 1 3 2 4: sum d^2 = 8, rho = 1 - 48/60;
        # 3 concordant and 3 discordant pairs: tau = 0.
        m = kt_eval.objective_metrics(measured=[4, 1, 2, 8], predicted=[1, 3, 2, 4],
                                      occupancy=[0.5, 1, 1, 0.25], default_index=3)
        self.assertAlmostEqual(m["spearman"], 0.2)
        self.assertAlmostEqual(m["kendall"], 0.0)
        self.assertAlmostEqual(m["median_predicted_over_measured"], 0.75)
        self.assertEqual((m["plugin_index"], m["best_index"], m["plugin_ties"]), (0, 1, 1))
        picks = m["picks"]
        self.assertAlmostEqual(picks["plugin"]["regret"], 4.0)
        self.assertAlmostEqual(picks["plugin"]["percentile"], 100 * 2 / 3)
        self.assertAlmostEqual(picks["random"]["regret"], 15 / 4)       # mean / best
        self.assertAlmostEqual(picks["random"]["percentile"], 50.0)
        # Occupancy 1 ties between measured 1 and 2: their mean.
        self.assertAlmostEqual(picks["max_occupancy"]["regret"], 1.5)
        self.assertAlmostEqual(picks["max_occupancy"]["percentile"], 100 / 6)
        self.assertAlmostEqual(picks["default"]["regret"], 8.0)
        self.assertAlmostEqual(picks["default"]["percentile"], 100.0)

    def test_tied_predictions_and_no_default(self):
        m = kt_eval.objective_metrics([1, 3, 2], [5, 5, 6], [1, 1, 1], None)
        self.assertEqual(m["plugin_ties"], 2)
        self.assertAlmostEqual(m["picks"]["plugin"]["regret"], 2.0)
        self.assertIsNone(m["picks"]["default"])

    def test_constant_prediction_has_no_correlation(self):
        m = kt_eval.objective_metrics([1, 2, 3], [7, 7, 7], [1, 1, 1], None)
        self.assertIsNone(m["spearman"])
        self.assertIsNone(m["kendall"])


class FreeBlockChoiceTest(unittest.TestCase):
    """The plugin's rule over the default's blocks, on made-up predictions and times."""

    def rows(self, times):
        return [{"config": f"b{i}", "time_s": t} for i, t in enumerate(times)]

    def test_min_gain_keeps_the_default_within_it(self):
        # Incumbent 1 predicted 1.0; the fastest, 0, 0.95: 5% better, within 10%.
        self.assertEqual(ranking.choose_with_min_gain([0.95, 1.0, 1.2], 1, 0.10), (1, True))
        self.assertEqual(ranking.choose_with_min_gain([0.85, 1.0, 1.2], 1, 0.10), (0, False))
        self.assertEqual(ranking.choose_with_min_gain([0.95, 1.0, 1.2], 1, 0.0), (0, False))
        # The incumbent predicted fastest stays, and is no kept-by-min-gain case.
        self.assertEqual(ranking.choose_with_min_gain([1.1, 1.0, 1.2], 1, 0.10), (1, False))

    def test_choice_measured_against_the_default_and_the_fastest_block(self):
        ok = {"ok": True}
        predictions = [dict(ok, time_s=t) for t in (0.5, 1.0, 0.8)]
        choice = kt_eval.free_block_choice(self.rows([3.0, 2.0, 1.0]), predictions, "b1",
                                           0.10)
        self.assertEqual((choice["choice"]["config"], choice["kept_default"]), ("b0", False))
        self.assertAlmostEqual(choice["time_vs_default"], 1.5)     # slower than the default
        self.assertAlmostEqual(choice["time_vs_best_block"], 3.0)
        self.assertAlmostEqual(choice["default_vs_best_block"], 2.0)
        # A block that did not compile is no candidate (b2, 20% better, is chosen); no
        # default, no choice.
        predictions[0] = {"ok": False, "error": "x"}
        choice = kt_eval.free_block_choice(self.rows([3.0, 2.0, 1.0]), predictions, "b1",
                                           0.10)
        self.assertEqual((choice["choice"]["config"], choice["compiled"]), ("b2", 2))
        predictions[1] = {"ok": False, "error": "x"}
        self.assertIsNone(kt_eval.free_block_choice(self.rows([3.0, 2.0, 1.0]),
                                                    predictions, "b1", 0.10))


class FreeChoiceWiringTest(unittest.TestCase):
    """--free-choice on a real cache, predictions made up (no compile): which blocks are
    compiled, and where the choice lands in the result."""

    def test_the_defaults_blocks_are_compiled_and_scored(self):
        problem = tuning_problem.load("pnpoly")
        if not os.path.exists(problem.caches[0]):
            self.skipTest("the shared measurements are not here")
        e = kt_eval.CacheEvaluation(problem, problem.caches[0], kt_eval.load_boards(), 6, 0,
                                    free_choice=True)
        fixed = {k: v for k, v in problem.default.items()
                 if k not in problem.block_size_names}
        self.assertGreater(len(e.block_rows), 1)
        self.assertTrue(all(all(r[k] == v for k, v in fixed.items()) for r in e.block_rows))
        self.assertIn(e.default_key, [r["config"] for r in e.block_rows])
        jobs = e.jobs()
        self.assertEqual(len(jobs), len(e.sample) + len(e.block_rows))
        # Made up: every configuration predicted at its block size in ms, so the smallest
        # block is the predicted fastest, far beyond min-gain.
        for i, (_, params) in enumerate(jobs):
            e.predictions[i] = {"ok": True, "time_s": params["block_size_x"] * 1e-3,
                                "energy_j": 1.0, "occupancy": 1.0, "resources_from": "clang"}
        result = e.result()
        choice = result["free_block_choice"]
        smallest = min(r["block_size_x"] for r in e.block_rows)
        self.assertEqual(choice["choice"]["block_size_x"], smallest)
        self.assertFalse(choice["kept_default"])
        self.assertEqual(choice["compiled"], len(e.block_rows))
        self.assertIn("free_block_choice", kt_eval.summarize([result]))
        self.assertIn("| pnpoly |", kt_eval.format_free_table([result]))


class SampleTest(unittest.TestCase):
    def test_keeps_and_is_seeded(self):
        def draw(seed):
            return kt_eval.sample_indices(100, 6, np.random.default_rng(seed), [7, 2, 7])
        first = draw(1)
        self.assertEqual(len(first), 6)
        self.assertEqual(len(set(first)), 6)
        self.assertTrue({2, 7} <= set(first))
        self.assertEqual(first, draw(1))
        self.assertEqual(kt_eval.sample_indices(3, 6, np.random.default_rng(0), [1]), [0, 1, 2])


class CompileCommandTest(unittest.TestCase):
    def tools(self, gpu_option):
        return plugin_compile.Toolchain(plugin="/p/energy.so", clang="/c/clang++",
                                        cuda_path="/cuda", has_gpu_option=gpu_option,
                                        identity="x")

    def test_cuda(self):
        problem = tuning_problem.load("convolution")
        config = {"block_size_x": 32, "block_size_y": 4, "tile_size_x": 2, "tile_size_y": 3}
        argv = plugin_compile.compile_command(self.tools(True), problem, config,
                                              "rtx-3090", "sm_86")
        self.assertIn("--cuda-gpu-arch=sm_86", argv)
        self.assertIn("-Dtile_size_y=3", argv)
        self.assertIn("-energy-force-config=convolution_kernel:32x4x1,grid=64x342x1", argv)
        self.assertIn("-energy-gpu=rtx-3090", argv)
        self.assertEqual(argv[-3:], [problem.sources[0], "-o", plugin_compile.OUTPUT])

    def test_opencl_and_arch_fallback(self):
        problem = tuning_problem.load("gemm")
        config = {"MWG": 64, "NWG": 32, "MDIMC": 16, "NDIMC": 8}
        argv = plugin_compile.compile_command(self.tools(False), problem, config,
                                              "rtx-2080-ti", "sm_75")
        self.assertEqual(argv[argv.index("-x") + 1], "cl")
        self.assertIn("-energy-arch=sm_75", argv)
        self.assertIn("-energy-force-config=Xgemm:16x8x1,grid=64x128x1", argv)
        includes = [argv[i + 1] for i, a in enumerate(argv) if a == "-include"]
        self.assertEqual(includes, [plugin_compile.OPENCL_COMPAT, *problem.sources[:3]])
        self.assertIn("-energy-default-extent=4096", argv)


class PredictionTest(unittest.TestCase):
    def report(self, **extra):
        # A hand-written report of one forced kernel (made up, for the mechanics).
        kernel = {"objective": "forced",
                  "choice": {"block": [16, 8, 1], "grid_blocks": 64 * 128, "time_s": 2e-3,
                             "energy_j": 0.5, "occupancy": 0.5},
                  "features": {}, "choice_model_inputs": [1.0], **extra}
        return {"model_input_names": ["instructions"], "kernels": [kernel]}

    def test_kept_calls_come_from_the_report(self):
        problem = tuning_problem.load("gemm")
        config = {"MWG": 64, "NWG": 32, "MDIMC": 16, "NDIMC": 8}
        kept = [{"callee": "XgemmBody", "ir_name": "XgemmBody", "call_sites": 1,
                 "local_bytes_passed": 512}]
        got = plugin_compile._prediction(self.report(kept_calls=kept), problem, config)
        self.assertTrue(got["ok"], got)
        self.assertEqual(got["kept_calls"], ["XgemmBody"])
        # No field: the build inlined everything (or the plugin predates the check).
        got = plugin_compile._prediction(self.report(), problem, config)
        self.assertEqual(got["kept_calls"], [])


class CommandLineTest(unittest.TestCase):
    def test_plot_needs_matplotlib(self):
        with mock.patch.dict(sys.modules, {"matplotlib": None}):
            code, out, err = util.run_main(kt_eval.main, ["pnpoly", "--plot", "x.png"])
        self.assertEqual(code, 1)
        self.assertEqual(err, "error: --plot needs matplotlib "
                              "(apt-get install python3-matplotlib)\n")

    def test_missing_plugin(self):
        code, _, err = util.run_main(kt_eval.main, ["pnpoly", "--plugin", "/no/energy.so"])
        self.assertEqual(code, 1)
        self.assertEqual(err, "error: /no/energy.so: plugin not found\n")

    def test_min_gain_must_be_a_fraction(self):
        with self.assertRaises(SystemExit) as caught:
            util.run_main(kt_eval.main, ["pnpoly", "--free-choice", "--min-gain", "1"])
        self.assertEqual(caught.exception.code, 2)
