"""energy.measured_build: the measured build's registers, with a stand-in nvcc.

The ptxas reports below are hand-written in ptxas's -v format; the numbers are made up.
The real nvcc runs in the ctest kt-eval (tests/test_kt_eval_smoke.py).
"""

import os
import stat
import unittest
from unittest import mock

from energy import kt_eval, measured_build, tuning_problem

from tests import util

REPORT = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z15cn_pnpoly_naivePiP6float2i' for 'sm_86'
ptxas info    : Function properties for _Z15cn_pnpoly_naivePiP6float2i
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 18 registers, used 0 barriers, 372 bytes cmem[0]
ptxas info    : Compiling entry function '_Z9cn_pnpolyPiP6float2i' for 'sm_86'
ptxas info    : Function properties for _Z9cn_pnpolyPiP6float2i
    24 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers, 372 bytes cmem[0]
"""


class ParseTest(unittest.TestCase):
    def test_the_kernels_own_entry(self):
        self.assertEqual(measured_build.parse_ptxas(REPORT, "cn_pnpoly"),
                         {"registers": 40, "stack_frame": 24, "spill_stores": 8,
                          "spill_loads": 12})
        self.assertEqual(measured_build.parse_ptxas(REPORT, "cn_pnpoly_naive")["registers"],
                         18)
        self.assertIsNone(measured_build.parse_ptxas(REPORT, "cn"))
        plain = REPORT.replace("_Z9cn_pnpolyPiP6float2i", "cn_pnpoly")   # extern "C"
        self.assertEqual(measured_build.parse_ptxas(plain, "cn_pnpoly")["registers"], 40)

    def test_force_suffix(self):
        found = measured_build.parse_ptxas(REPORT, "cn_pnpoly")
        self.assertEqual(measured_build.force_suffix(found),
                         "registers=40,stack_frame=24,spill_stores=8,spill_loads=12")


class UnrollTest(unittest.TestCase):
    def test_tunable_factors_become_values(self):
        text = ("#pragma unroll F\nfor (;;) {}\n  #pragma unroll G\n#pragma unroll\n"
                "#pragma unroll 4\n#pragma unroll OTHER\n")
        self.assertEqual(measured_build.unroll_by_value(text, {"F": 3, "G": 0}),
                         "#pragma unroll 3\nfor (;;) {}\n  \n#pragma unroll\n"
                         "#pragma unroll 4\n#pragma unroll OTHER\n")


class ResourcesTest(util.TempDirTest):
    def setUp(self):
        super().setUp()
        self.problem = tuning_problem.load("coulomb-sum")
        # Its sources are the public measurements' (../shared), not ours.
        if not all(os.path.exists(s) for s in self.problem.sources):
            self.skipTest("the shared measurements are not here")
        self.log = os.path.join(self.tmp, "calls")

    def fake_nvcc(self, exit_code=0, kernel="_Z16directCoulombSumPK6float4iPff"):
        """A stand-in nvcc that logs its source's unroll pragmas and prints a report."""
        path = os.path.join(self.tmp, "nvcc")
        report = REPORT.replace("_Z9cn_pnpolyPiP6float2i", kernel)
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"#!/bin/sh\nfor a; do last=$a; done\n"
                    f"grep -h 'pragma unroll' \"$last\" >> {self.log}\n"
                    f"cat >&2 <<'EOF'\n{report}EOF\n"
                    f"[ {exit_code} = 0 ] || echo 'x.cu(1): error: broken' >&2\n"
                    f"exit {exit_code}\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        return path

    def calls(self):
        with open(self.log, encoding="utf-8") as f:
            return f.read()

    def test_compiles_once_with_the_factor_in_the_pragma(self):
        config = {"INNER_UNROLL_FACTOR": 2, "Z_ITERATIONS": 8, "USE_SOA": 0}
        nvcc, cache = self.fake_nvcc(), os.path.join(self.tmp, "cache")
        argv = measured_build.command(self.problem, config, "sm_75", nvcc=nvcc)
        self.assertEqual(argv[:2], [nvcc, "-arch=sm_75"])
        self.assertIn("-use_fast_math", argv)   # the spec's measured-build flags
        self.assertIn("-DINNER_UNROLL_FACTOR=2", argv)
        self.assertIn("-I" + os.path.dirname(self.problem.sources[-1]), argv)
        for _ in range(2):
            got = measured_build.resources(self.problem, config, "sm_75", cache, "v1", nvcc)
            self.assertEqual(got, {"ok": True, "registers": 40, "stack_frame": 24,
                                   "spill_stores": 8, "spill_loads": 12})
        self.assertEqual(self.calls().strip(), "#pragma unroll 2")   # once: rerun cached

    def test_failure_and_no_build(self):
        config = {"INNER_UNROLL_FACTOR": 0, "Z_ITERATIONS": 8}
        cache = os.path.join(self.tmp, "cache")
        got = measured_build.resources(self.problem, config, "sm_75", cache, "v1",
                                       self.fake_nvcc(exit_code=1))
        self.assertEqual(got, {"ok": False, "error": "nvcc: x.cu(1): error: broken"})
        got = measured_build.resources(self.problem, config, "sm_86", cache, "v1",
                                       self.fake_nvcc(kernel="other"))
        self.assertEqual(got["error"], "nvcc: no ptxas report for directCoulombSum")
        # No usable nvcc, or a build this module cannot run (the OpenCL driver's).
        self.assertIsNone(measured_build.resources(self.problem, config, "sm_75", cache,
                                                   None, self.fake_nvcc()))
        self.assertIsNone(measured_build.resources(tuning_problem.load("gemm"), {}, "sm_75",
                                                   cache, "v1", self.fake_nvcc()))


class KtEvalResourcesTest(unittest.TestCase):
    def test_stated_where_built_else_clang(self):
        problem = tuning_problem.load("coulomb-sum")
        made = {"ok": True, "time_s": 1.0}
        with mock.patch.object(measured_build, "resources",
                               return_value={"ok": True, "registers": 40, "stack_frame": 0,
                                             "spill_stores": 0, "spill_loads": 0}), \
                mock.patch.object(kt_eval.plugin_compile, "predict",
                                  return_value=made) as predict:
            got = kt_eval.predict(None, problem, {}, "rtx-2080-ti", "sm_75", "/c", "v1")
        self.assertEqual(got, {**made, "resources_from": "nvrtc"})
        self.assertEqual(predict.call_args.args[-1],
                         "registers=40,stack_frame=0,spill_stores=0,spill_loads=0")
        with mock.patch.object(measured_build, "resources",
                               return_value={"ok": False, "error": "nvcc: no sm_61"}), \
                mock.patch.object(kt_eval.plugin_compile, "predict",
                                  return_value=made) as predict:
            got = kt_eval.predict(None, problem, {}, "gtx-1070", "sm_61", "/c", "v1")
        self.assertEqual(got["resources_from"], "clang (nvcc: no sm_61)")
        self.assertEqual(len(predict.call_args.args), 6)   # no stated resources

    def test_registers_check(self):
        rows = [{"registers": 40.0}, {"registers": 38.0}, {"registers": float("nan")}]
        predictions = [{"model_inputs": {"register_estimate": 40}},
                       {"model_inputs": {"register_estimate": 44}},
                       {"model_inputs": {"register_estimate": 255}}]
        self.assertEqual(kt_eval.registers_check(rows, predictions),
                         {"configs": 2, "equal": 1, "median_abs_difference": 3.0,
                          "max_abs_difference": 6.0})
        self.assertIsNone(kt_eval.registers_check(rows[2:], predictions[2:]))
        self.assertEqual(kt_eval._sources({"nvcc": 3}), "nvcc")
        self.assertEqual(kt_eval._sources({"nvcc": 3, "clang (nvcc: x)": 1, "clang": 2}),
                         "clang 3, nvcc 3")


if __name__ == "__main__":
    unittest.main()
