"""energy.kt_eval and energy.plugin_compile without compiling: metrics, sampling, commands.

The end-to-end run through energy.so is tests/test_kt_eval_smoke.py (ctest kt-eval).
"""

import sys
import unittest
from unittest import mock

import numpy as np

from energy import kt_eval, plugin_compile, tuning_problem

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
