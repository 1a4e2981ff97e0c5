"""energy.tune --program: a kernel tuned inside a program, built per candidate and timed
per launch inside it. The build and the program are STAND-INS
(tuner_fixtures/standin_build.py, standin_program.py): no compiler, no GPU; their report
and times are made up for the mechanics (candidates from the report, budget, resume, no
repeats, failures, statistics, energy notes), not measurements. The timer itself is
tested in test/CUDA/launch-timing.cu (against a fake CUDA runtime) and
test/CUDA/launch-timing-build.test (built with nvcc and energy-cuda).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from energy import tune_program
from energy.tuning_cache import REPO_ROOT
from tests import util

PLUGIN = os.environ.get("ENERGY_PLUGIN")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tuner_fixtures")


def standin_time(block, items):
    """The stand-in program's made-up time per launch (after warm-up)."""
    return 1e-3 * (1 + abs(block.bit_length() - 8) * 0.3) * (1 + 0.2 * abs(
        items.bit_length() - 3))


class ProgramTuneTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="energy-tune-program-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.out = os.path.join(self.tmp, "tune.json")

    def tune(self, *extra, env=None, out=None, build=None):
        py = sys.executable
        build = build or (f"{py} {FIXTURES}/standin_build.py {self.tmp} {{force_config}}")
        argv = [py, "-m", "energy.tune", "--program", "--build", build,
                "--run", f"{py} {FIXTURES}/standin_program.py {self.tmp}",
                "--kernel", "scale", "--json", out or self.out, *extra]
        done = subprocess.run(argv, capture_output=True, text=True,
                              env={**os.environ, **(env or {}),
                                   "PYTHONPATH": os.path.join(REPO_ROOT, "python")})
        result = None
        if os.path.exists(out or self.out):
            with open(out or self.out) as f:
                result = json.load(f)
        return done, result

    def log(self):
        with open(os.path.join(self.tmp, "log")) as f:
            return [line.split(" ", 1) for line in f.read().splitlines()]

    def test_candidates_from_the_report_and_the_best_found(self):
        done, result = self.tune("--budget", "30", "--noise", "0")
        self.assertEqual(done.returncode, 0, done.stderr)
        # 18 in the report, one pruned by the plugin.
        self.assertEqual(result["candidates"], 17)
        steps = result["steps"]
        self.assertEqual(steps[0]["key"], "scale:256x1x1,ITEMS=1")   # predicted fastest
        self.assertEqual(steps[0]["predicted_s"], 1e-3 * 1.05)
        self.assertNotIn("scale:1024x1x1,ITEMS=4", [s["key"] for s in steps])
        self.assertEqual(result["best"]["config"],
                         {"block_size_x": 128, "block_size_y": 1, "block_size_z": 1,
                          "ITEMS": 4})
        # The warm-up launch (5x slower) is dropped: the median of the 8 timed launches.
        for step in steps:
            config = step["config"]
            self.assertAlmostEqual(step["measured_s"],
                                   standin_time(config["block_size_x"], config["ITEMS"]))
            self.assertEqual((step["launches"], step["warmup"]), (9, 1))
            self.assertEqual(step["time_spread"], 0)
        # Each candidate built once and run once, after one report build; then the best
        # built again, so that the program is left with it.
        builds = [rest for kind, rest in self.log() if kind == "build"]
        runs = [rest for kind, rest in self.log() if kind == "run"]
        self.assertTrue(builds[0].startswith("--energy-report="))
        self.assertEqual(len(runs), len(steps))
        self.assertEqual(len(set(runs)), len(runs))
        self.assertEqual(builds[1:-1], ["--energy-force-config=" + r for r in runs])
        self.assertEqual(builds[-1], "--energy-force-config=scale:128x1x1,ITEMS=4")

    def test_budget_and_resume(self):
        done, whole = self.tune("--budget", "7", "--noise", "0",
                                out=os.path.join(self.tmp, "whole.json"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(whole["steps"]), 7)
        self.assertIn("budget of 7", whole["stopped"])
        os.remove(os.path.join(self.tmp, "log"))
        done, first = self.tune("--budget", "3", "--noise", "0")
        self.assertEqual(len(first["steps"]), 3)
        done, resumed = self.tune("--budget", "7", "--noise", "0")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual([s["key"] for s in resumed["steps"]],
                         [s["key"] for s in whole["steps"]])
        runs = [rest for kind, rest in self.log() if kind == "run"]
        self.assertEqual(len(runs), 7)               # 3, then only the 4 left
        self.assertEqual(len(set(runs)), 7)

    def test_failures_recorded_never_retried(self):
        env = {"STANDIN_FAIL_BUILD": "scale:256x1x1,ITEMS=1",
               "STANDIN_CRASH": "scale:256x1x1,ITEMS=2",
               "STANDIN_SKIP": "scale:128x1x1,ITEMS=1",
               "STANDIN_LAUNCH_ERROR": "scale:256x1x1,ITEMS=4"}
        done, result = self.tune("--budget", "30", "--noise", "0", env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        failed = {s["key"]: s["failed"] for s in result["steps"] if "failed" in s}
        self.assertEqual(failed, {
            "scale:256x1x1,ITEMS=1": "the build failed (exit 1): app.cu:3:1: error: "
                                     "stand-in compile error for scale:256x1x1,ITEMS=1",
            "scale:256x1x1,ITEMS=2": "the program failed (exit 3): Segmentation fault "
                                     "(stand-in)",
            "scale:128x1x1,ITEMS=1": "the program never launched 'scale' through "
                                     "ENERGY_LAUNCH",
            "scale:256x1x1,ITEMS=4": "a launch of 'scale' failed: "
                                     "cudaErrorInvalidConfiguration"})
        self.assertTrue(all(s["measured_s"] is None for s in result["steps"]
                            if "failed" in s))
        builds = [rest for kind, rest in self.log() if kind == "build"][1:-1]
        self.assertEqual(len(builds), len(set(builds)))
        self.assertEqual(len(builds), len(result["steps"]))

    def test_spread_remeasures_once(self):
        noisy = "scale:256x1x1,ITEMS=1"
        done, result = self.tune("--budget", "1", env={"STANDIN_NOISY": noisy})
        self.assertEqual(done.returncode, 0, done.stderr)
        step = result["steps"][0]
        self.assertEqual(step["key"], noisy)
        self.assertTrue(step["remeasured"])
        self.assertGreater(step["first_time_spread"], 0.05)
        self.assertEqual(step["time_spread"], 0)
        self.assertAlmostEqual(step["measured_s"], standin_time(256, 1))
        self.assertEqual([kind for kind, _ in self.log()],
                         ["build", "build", "run", "run", "build"])

    def test_energy_only_where_the_counter_can_measure(self):
        done, result = self.tune("--budget", "1")
        step = result["steps"][0]
        self.assertIsNone(step["energy_j"])
        self.assertEqual(step["energy_note"],
                         "no energy: NVML unavailable: libnvidia-ml.so.1 not found")
        env = {"STANDIN_NVML": "ok", "STANDIN_JOULES": "0.25"}
        done, result = self.tune("--budget", "1", env=env,
                                 out=os.path.join(self.tmp, "short.json"))
        self.assertIn("too short for NVML's counter", result["steps"][0]["energy_note"])
        done, result = self.tune("--budget", "1", "--min-energy-seconds", "0", env=env,
                                 out=os.path.join(self.tmp, "counted.json"))
        self.assertEqual(result["steps"][0]["energy_j"], 0.25)
        self.assertNotIn("energy_note", result["steps"][0])
        env["STANDIN_JOULES"] = "0"
        done, result = self.tune("--budget", "1", "--min-energy-seconds", "0", env=env,
                                 out=os.path.join(self.tmp, "still.json"))
        self.assertIn("counter did not move", result["steps"][0]["energy_note"])

    def test_outputs(self):
        force, header = (os.path.join(self.tmp, n) for n in ("best.force", "choices.h"))
        done, result = self.tune("--budget", "30", "--noise", "0", "--force-config", force,
                                 "--header", header, "--board", "rtx-3090")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(force) as f:
            self.assertEqual(f.read(), "--energy-force-config=scale:128x1x1,ITEMS=4\n")
        with open(header) as f:
            self.assertEqual(f.read(), "// stand-in header\n")
        builds = [rest for kind, rest in self.log() if kind == "build"]
        self.assertTrue(all(b.startswith("--energy-gpu=rtx-3090 ") for b in builds))
        self.assertEqual(builds[-1], "--energy-gpu=rtx-3090 --energy-force-config="
                                     f"scale:128x1x1,ITEMS=4 --energy-header={header}")
        # {force_file}: the same options, one a line, in a file.
        done, result = self.tune(
            "--budget", "2", out=os.path.join(self.tmp, "file.json"),
            build=f"{sys.executable} {FIXTURES}/standin_build.py {self.tmp} "
                  f"$(cat {{force_file}})")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(result["steps"]), 2)

    def test_errors(self):
        cases = [
            (dict(env={"STANDIN_NO_TIMER": "scale:256x1x1,ITEMS=1"}),
             "error: the program wrote no launch timing: build it with "
             "-DENERGY_TIME_LAUNCHES and launch 'scale' through ENERGY_LAUNCH"),
            (dict(env={"STANDIN_LAUNCHES": "4"}),
             "error: the program launched 'scale' 4 time(s); a measurement needs at "
             "least 5 (1 warm-up, 4 timed)"),
            (dict(build=f"{sys.executable} {FIXTURES}/standin_build.py {self.tmp}"),
             "error: --build must contain {force_config}"),
            (dict(build="false {force_config}"),
             "error: the report build (--energy-report) failed: the build failed (exit 1)"),
            (dict(build="true {force_config}"), "error: the build wrote no report"),
        ]
        for kwargs, message in cases:
            done, _ = self.tune("--budget", "2", out=os.path.join(self.tmp, "e.json"),
                                **kwargs)
            self.assertEqual(done.returncode, 1, message)
            self.assertIn(message, done.stderr)
            self.assertNotIn("Traceback", done.stderr)
        for kernel, message in (("nothing", "error: the plugin's report has no kernel "
                                            "'nothing' (kernels: plain, scale)"),
                                ("plain", "error: kernel 'plain' is not opted in")):
            done = subprocess.run(
                [sys.executable, "-m", "energy.tune", "--program", "--build",
                 f"{sys.executable} {FIXTURES}/standin_build.py {self.tmp} {{force_config}}",
                 "--run", "true", "--kernel", kernel, "--budget", "1", "--json",
                 os.path.join(self.tmp, "k.json")], capture_output=True, text=True,
                env={**os.environ, "PYTHONPATH": os.path.join(REPO_ROOT, "python")})
            self.assertEqual(done.returncode, 1)
            self.assertIn(message, done.stderr)
        usage = subprocess.run([sys.executable, "-m", "energy.tune", "--program",
                                "--kernel", "scale", "--budget", "1", "--json", self.out],
                               capture_output=True, text=True,
                               env={**os.environ,
                                    "PYTHONPATH": os.path.join(REPO_ROOT, "python")})
        self.assertEqual(usage.returncode, 2)
        self.assertIn("--program needs --build CMD, --run CMD and --kernel NAME",
                      usage.stderr)


@unittest.skipUnless(PLUGIN, "ENERGY_PLUGIN is not set (the ctest tune sets it)")
class EnergyCudaBuildTest(unittest.TestCase):
    """The candidates from the real plugin's report, each built by energy-cuda with the
    forced launch and the launch timer (test/CUDA/launch-timing.cu's program); the runs
    are the stand-in program's (no GPU)."""

    def test_report_and_forced_builds_through_energy_cuda(self):
        driver = util.energy_cuda_beside(self, PLUGIN)
        tmp = tempfile.mkdtemp(prefix="energy-tune-program-")
        self.addCleanup(shutil.rmtree, tmp)
        source = os.path.join(REPO_ROOT, "test", "CUDA", "launch-timing.cu")
        build = (f"{driver} -c -DENERGY_TIME_LAUNCHES {{force_config}} {source} "
                 f"-o {tmp}/app.o && echo {{force_config}} > {tmp}/app.config")
        out = os.path.join(tmp, "tune.json")
        done = subprocess.run(
            [sys.executable, "-m", "energy.tune", "--program", "--build", build, "--run",
             f"{sys.executable} {FIXTURES}/standin_program.py {tmp}", "--kernel", "scale",
             "--budget", "3", "--json", out, "--force-config", f"{tmp}/best.force"],
            capture_output=True, text=True,
            env={**os.environ, "PYTHONPATH": os.path.join(REPO_ROOT, "python")})
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as f:
            result = json.load(f)
        # scale's 32 blocks, 32 to 1024 (the plugin's candidates, none pruned).
        self.assertEqual(result["candidates"], 32)
        steps = result["steps"]
        self.assertEqual(len(steps), 3)
        # Each forced build succeeded (energy-cuda rejects a force it cannot apply).
        self.assertTrue(all(s["measured_s"] > 0 for s in steps), steps)
        # The first is the plugin's predicted fastest; the screened-out have no time.
        predicted = [s["predicted_s"] for s in steps if s["predicted_s"] is not None]
        self.assertEqual(steps[0]["predicted_s"], min(predicted))
        best = min(steps, key=lambda s: s["measured_s"])
        with open(f"{tmp}/best.force") as f:
            self.assertEqual(f.read(), f"--energy-force-config={best['key']}\n")


class ReportTest(unittest.TestCase):
    def test_candidates_in_the_plugins_order(self):
        """Predicted candidates first; the screened-out after them, in the screen's
        order, without a prediction; pruned ones left out."""
        tmp = tempfile.mkdtemp(prefix="energy-tune-program-")
        self.addCleanup(shutil.rmtree, tmp)
        build = f"{sys.executable} {FIXTURES}/standin_build.py {tmp} {{force_config}}"
        candidates, report = tune_program.report_candidates(build, "scale", tmp, None)
        self.assertEqual(len(candidates), 17)
        self.assertEqual([c["key"] for c in candidates[-3:]],
                         ["scale:32x1x1,ITEMS=4", "scale:32x1x1,ITEMS=2",
                          "scale:32x1x1,ITEMS=1"])
        self.assertTrue(all(c["predicted_s"] is None for c in candidates[-3:]))
        self.assertTrue(all(c["predicted_s"] > 0 for c in candidates[:-3]))
        self.assertEqual(candidates[0]["config"], {"block_size_x": 1024, "block_size_y": 1,
                                                   "block_size_z": 1, "ITEMS": 1})
        self.assertEqual(report["board"], "h100-sxm")


class StatisticsTest(unittest.TestCase):
    def test_quarter_spread(self):
        self.assertEqual(tune_program.quarter_spread([1.0] * 8), 0)
        # quarters 1, 1, 1, 2: (2 - 1) / median 1
        self.assertEqual(tune_program.quarter_spread([1, 1, 1, 1, 1, 1, 2, 2]), 1.0)


if __name__ == "__main__":
    unittest.main()
