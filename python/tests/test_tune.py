"""The tuning loop's mechanics (energy.tune, energy.tune_search) on replayed caches.

The cache and predictions below are SYNTHETIC (made-up times for the mechanics only:
sequences, budget, stop rule, resume, failures); no figure of them is a measurement.
The header build and the energy-bench path run where the ctest `tune` names the built
plugin (ENERGY_PLUGIN) and runner (ENERGY_BENCH).
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

from energy import tune, tune_search
from energy.tuning_cache import REPO_ROOT
from tests import util

PLUGIN = os.environ.get("ENERGY_PLUGIN")
BENCH = os.environ.get("ENERGY_BENCH")
NVCC = "/usr/local/cuda/bin/nvcc"
CLANG = "/usr/lib/llvm-19/bin/clang++"


def synthetic_space(failed=()):
    """A 2-parameter space: time has a minimum at block 128, tile 4; the prediction is
    right about the block and wrong about the tile (its minimum at tile 1)."""
    candidates, times = [], {}
    for block in (32, 64, 128, 256, 512, 1024):
        for tile in (1, 2, 4, 8):
            key = f"{block},{tile}"
            shape = abs((block.bit_length() - 8)) * 0.3 + 1
            candidates.append({"config": {"block_size_x": block, "tile": tile}, "key": key,
                               "predicted_s": 1e-3 * shape * (1 + 0.1 * tile)})
            if key not in failed:
                times[key] = 1e-3 * shape * (1 + 0.2 * abs(tile.bit_length() - 3))
    return candidates, times


def counting(measure):
    calls = []

    def wrapped(candidate):
        calls.append(candidate["key"])
        return measure(candidate)
    return wrapped, calls


class LoopTest(unittest.TestCase):
    def run_loop(self, strategy, seed=0, budget=10, **kwargs):
        candidates, times = synthetic_space(kwargs.pop("failed", ()))
        measure, calls = counting(tune.replay_measure(times))
        steps, reason = tune.tune(candidates, strategy, measure, budget, seed, 0.02, **kwargs)
        return steps, reason, calls

    def test_fixed_seed_fixed_sequence(self):
        for strategy in tune_search.STRATEGIES:
            first = [s["key"] for s in self.run_loop(strategy, seed=3)[0]]
            again = [s["key"] for s in self.run_loop(strategy, seed=3)[0]]
            self.assertEqual(first, again, strategy)
        self.assertNotEqual([s["key"] for s in self.run_loop("random", seed=3)[0]],
                            [s["key"] for s in self.run_loop("random", seed=4)[0]])

    def test_guided_starts_at_the_prediction_and_finds_the_best(self):
        steps, _, _ = self.run_loop("guided", budget=24, use_stop_rule=False)
        self.assertEqual(steps[0]["key"], "128,1")       # the predicted fastest
        best = min(synthetic_space()[1].values())
        self.assertEqual(steps[-1]["best_s"], best)
        # The correction learns that the tile matters: the best within 6 measurements.
        self.assertEqual(steps[5]["best_s"], best)

    def test_budget_and_no_repeats(self):
        for strategy in tune_search.STRATEGIES:
            steps, reason, calls = self.run_loop(strategy, budget=7, use_stop_rule=False)
            self.assertEqual(len(steps), 7, strategy)
            self.assertIn("budget", reason)
            self.assertEqual(len(calls), 7)
            steps, reason, calls = self.run_loop(strategy, budget=100, use_stop_rule=False)
            self.assertEqual(len(steps), 24, strategy)       # every candidate, once
            self.assertEqual(len(set(calls)), 24)
            self.assertEqual(len(calls), 24)

    def test_stop_rule(self):
        """With predictions exactly right, the loop stops before the budget, and only
        when no candidate left can beat the best by more than the noise."""
        candidates, _ = synthetic_space()
        times = {c["key"]: c["predicted_s"] for c in candidates}
        steps, reason = tune.tune(candidates, "guided", tune.replay_measure(times), 24, 0,
                                  0.02)
        self.assertLess(len(steps), 24)
        self.assertIn("no remaining candidate can beat", reason)
        self.assertEqual(steps[-1]["best_s"], min(times.values()))
        search = tune_search.GuidedSearch(candidates, 0, 0.02)
        index = {c["key"]: i for i, c in enumerate(candidates)}
        for step in steps:
            search.observe(index[step["key"]], step["measured_s"])
        mean, sd = search.posterior()
        left = search.unmeasured()
        bound = min(mean[i] - tune_search.STOP_Z * sd[i] for i in left)
        self.assertGreaterEqual(bound, math.log(steps[-1]["best_s"] * 0.98))

    def test_residual_shape_by_marginal_likelihood(self):
        """A model wrong by one parameter's value alone (a main effect, as the plugin on
        pnpoly's between_method on Turing boards) is fitted with the additive kernel; an
        error from two parameters together (their product, no main effect), with the
        joint one."""
        grid = [{"a": a, "b": b, "c": c, "d": d} for a in range(4) for b in range(4)
                for c in range(4) for d in range(4)]
        candidates = [{"config": g, "key": str(i), "predicted_s": 1.0}
                      for i, g in enumerate(grid)]

        def fitted(error):
            search = tune_search.GuidedSearch(candidates, 0, 0.02)
            rng = np.random.default_rng(1)
            for i in rng.choice(len(grid), 16, replace=False):
                search.observe(int(i), math.exp(error(grid[i])))
            measured = list(search.values)
            residual = np.log([search.values[i] for i in measured])
            centred = residual - residual.mean()
            return search._shape(np.array(measured), centred, 0.5, 0.02 ** 2)[0]
        self.assertEqual(fitted(lambda g: 0.8 * (g["a"] == 2)), "additive")
        self.assertEqual(fitted(lambda g: 0.8 * (g["a"] - 1.5) * (g["b"] - 1.5) / 2.25),
                         "joint")

    def test_failed_configs_recorded_never_retried(self):
        steps, _, calls = self.run_loop("guided", budget=24, use_stop_rule=False,
                                        failed=("128,1", "128,2"))
        failed = [s for s in steps if "failed" in s]
        self.assertEqual(sorted(s["key"] for s in failed), ["128,1", "128,2"])
        self.assertTrue(all(s["measured_s"] is None for s in failed))
        self.assertEqual(len(calls), len(set(calls)))
        self.assertIsNone(steps[0]["best_s"])             # the first one failed

    def test_resume_measures_only_what_is_left(self):
        for strategy in tune_search.STRATEGIES:
            whole, _, _ = self.run_loop(strategy, seed=2, budget=9, use_stop_rule=False)
            candidates, times = synthetic_space()
            saved = []
            measure, calls = counting(tune.replay_measure(times))

            def interrupted(candidate):
                if len(calls) == 4:
                    raise KeyboardInterrupt
                return measure(candidate)
            with self.assertRaises(KeyboardInterrupt):
                tune.tune(candidates, strategy, interrupted, 9, 2, 0.02,
                          save=lambda steps: saved.append([dict(s) for s in steps]),
                          use_stop_rule=False)
            self.assertEqual(len(saved[-1]), 4)
            measure2, calls2 = counting(tune.replay_measure(times))
            resumed, _ = tune.tune(candidates, strategy, measure2, 9, 2, 0.02,
                                   recorded=saved[-1], use_stop_rule=False)
            self.assertEqual([s["key"] for s in resumed], [s["key"] for s in whole], strategy)
            self.assertEqual(len(calls2), 5)
            self.assertFalse(set(calls2) & {s["key"] for s in saved[-1]})


def write_fixture(folder, failed=()):
    """A problem spec, a Kernel Tuner cache and prediction rows of the synthetic space."""
    candidates, times = synthetic_space()
    cache = {"device_name": "NVIDIA GeForce RTX 3090", "kernel_name": "synthetic",
             "problem_size": [4096], "tune_params_keys": ["block_size_x", "tile"],
             "cache": {}}
    for c in candidates:
        time = "RuntimeFailedConfig" if c["key"] in failed else times[c["key"]] * 1e3
        cache["cache"][c["key"]] = {**c["config"], "time": time}
    problem = {"name": "synthetic", "transcribes": "synthetic", "language": "cuda",
               "sources": [os.path.relpath(os.path.join(REPO_ROOT, "tools", "energy-bench",
                                                        "corpus", "saxpy.cu"), REPO_ROOT)],
               "kernel": "saxpy", "problem_size": [4096],
               "grid_div_x": ["block_size_x", "tile"], "restrictions": [],
               "flags": ["-I" + os.path.join(REPO_ROOT, "include")],
               "caches": []}
    paths = {name: os.path.join(folder, name) for name in
             ("problem.json", "cache.json", "rows.jsonl", "out.json")}
    for name, doc in (("problem.json", problem), ("cache.json", cache)):
        with open(paths[name], "w") as f:
            json.dump(doc, f)
    with open(paths["rows.jsonl"], "w") as f:
        for c in candidates:
            f.write(json.dumps({"problem": "synthetic", "gpu": "rtx-3090", "config": c["key"],
                                "analytic_time_s": c["predicted_s"]}) + "\n")
    return paths


class CommandTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="energy-tune-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_tune(self, paths, *extra):
        argv = ["--replay", paths["problem.json"], "--cache", paths["cache.json"],
                "--predictions", paths["rows.jsonl"], "--json", paths["out.json"], *extra]
        return subprocess.run([sys.executable, "-m", "energy.tune", *argv],
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": os.path.join(REPO_ROOT,
                                                                            "python")})

    def test_replay_output_and_resume(self):
        paths = write_fixture(self.tmp, failed=("128,1",))
        done = self.run_tune(paths, "--budget", "3", "--seed", "1")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(paths["out.json"]) as f:
            out = json.load(f)
        self.assertEqual(len(out["steps"]), 3)
        self.assertEqual(out["cache_best_s"], min(synthetic_space()[1].values()))
        first = out["steps"][0]
        self.assertEqual(first["config"], {"block_size_x": 128, "tile": 1})
        self.assertIsNone(first["measured_s"])            # failed in the cache
        self.assertIn("failed", first)
        for step in out["steps"]:
            self.assertLessEqual({"config", "measured_s", "best_s"}, set(step))
        # The same command with a larger budget resumes: the first 3 steps stay.
        done = self.run_tune(paths, "--budget", "6", "--seed", "1")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(paths["out.json"]) as f:
            resumed = json.load(f)
        self.assertEqual(resumed["steps"][:3], out["steps"])
        self.assertEqual(len(resumed["steps"]), 6)
        # Another seed or strategy is another search: refused, not mixed.
        done = self.run_tune(paths, "--budget", "6", "--seed", "2")
        self.assertEqual(done.returncode, 1)
        self.assertIn("error: ", done.stderr)
        self.assertIn("made by another search", done.stderr)

    def test_force_config_written(self):
        paths = write_fixture(self.tmp)
        force = os.path.join(self.tmp, "best.force")
        done = self.run_tune(paths, "--budget", "24", "--force-config", force)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(force) as f:
            # block 128 and tile 4: grid = ceil(4096 / (128 * 4)) = 8.
            self.assertEqual(f.read(), "--energy-force-config=saxpy:128x1x1,grid=8x1x1,"
                                       "tile=4\n")

    def test_bad_input(self):
        paths = write_fixture(self.tmp)
        done = self.run_tune(paths, "--budget", "0")
        self.assertEqual(done.returncode, 2)
        self.assertIn("--budget", done.stderr)
        done = subprocess.run([sys.executable, "-m", "energy.tune", "--replay",
                               paths["problem.json"], "--cache", "/nonexistent.json",
                               "--budget", "2", "--json", paths["out.json"]],
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": os.path.join(REPO_ROOT,
                                                                            "python")})
        self.assertEqual(done.returncode, 1)
        self.assertTrue(done.stderr.startswith("error: "), done.stderr)


def replay_through_plugin(paths, tmp):
    """energy.tune --replay of the fixture, its predictions compiled by PLUGIN."""
    return subprocess.run(
        [sys.executable, "-m", "energy.tune", "--replay", paths["problem.json"],
         "--cache", paths["cache.json"], "--plugin", PLUGIN, "--cache-dir",
         os.path.join(tmp, "compiled"), "--budget", "3", "--json", paths["out.json"]],
        capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": os.path.join(REPO_ROOT, "python")})


@unittest.skipUnless(PLUGIN, "ENERGY_PLUGIN is not set (the ctest tune sets it)")
class HeaderTest(unittest.TestCase):
    def test_header_builds_the_best(self):
        if not os.path.exists(NVCC):
            self.skipTest(f"{NVCC} is not here")
        tmp = tempfile.mkdtemp(prefix="energy-tune-")
        self.addCleanup(shutil.rmtree, tmp)
        header = os.path.join(tmp, "saxpy.choices.h")
        value = tune.force_config_value("saxpy", [128, 1, 1], None, {"ITEMS": 2})
        saxpy = os.path.join(REPO_ROOT, "tools", "energy-bench", "corpus", "saxpy.cu")
        tune.write_header(header, [saxpy], value, "sm_90", PLUGIN)
        ptx = os.path.join(tmp, "saxpy.ptx")
        done = subprocess.run([NVCC, "-arch=sm_90", "-I", os.path.join(REPO_ROOT, "include"),
                               f'-DENERGY_CHOICES="{header}"', "-ptx", saxpy, "-o", ptx],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(ptx) as f:
            self.assertIn(".maxntid 128, 1, 1", f.read())


    def test_force_config_file_builds_through_energy_cuda(self):
        """The force-config file in energy-cuda's spelling builds the kernel with it."""
        driver = util.energy_cuda_beside(self, PLUGIN)
        tmp = tempfile.mkdtemp(prefix="energy-tune-")
        self.addCleanup(shutil.rmtree, tmp)
        force = os.path.join(tmp, "saxpy.force")
        tune.write_force_config(force, tune.force_config_value("saxpy", [128, 1, 1], None,
                                                               {"ITEMS": 2}))
        with open(force) as f:
            options = f.read().split()
        saxpy = os.path.join(REPO_ROOT, "tools", "energy-bench", "corpus", "saxpy.cu")
        report = os.path.join(tmp, "report.json")
        done = subprocess.run([driver, "-c", *options, f"--energy-report={report}", saxpy,
                               "-o", os.path.join(tmp, "saxpy.o")],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(report) as f:
            kernels = json.load(f)["kernels"]
        forced = [k for k in kernels if k.get("objective") == "forced"]
        self.assertEqual(len(forced), 1, kernels)
        self.assertEqual(forced[0]["choice"]["block"], [128, 1, 1])

    def test_no_prediction_is_an_error(self):
        tmp = tempfile.mkdtemp(prefix="energy-tune-")
        self.addCleanup(shutil.rmtree, tmp)
        paths = write_fixture(tmp)
        with open(paths["problem.json"]) as f:
            problem = json.load(f)
        problem["flags"] = []          # energy.cuh not found: nothing compiles
        with open(paths["problem.json"], "w") as f:
            json.dump(problem, f)
        done = replay_through_plugin(paths, tmp)
        self.assertEqual(done.returncode, 1)
        self.assertIn("error: the plugin predicted no candidate: ", done.stderr)
        self.assertIn("energy.cuh", done.stderr)

    def test_replay_ranks_through_the_plugin(self):
        """Without --predictions each candidate is compiled through the plugin (kt_eval's
        predictions); the first measurement is the predicted fastest."""
        tmp = tempfile.mkdtemp(prefix="energy-tune-")
        self.addCleanup(shutil.rmtree, tmp)
        paths = write_fixture(tmp)
        with open(paths["cache.json"]) as f:
            cache = json.load(f)
        cache["cache"] = {k: v for k, v in cache["cache"].items()
                          if k in ("64,1", "256,1", "1024,2")}
        with open(paths["cache.json"], "w") as f:
            json.dump(cache, f)
        done = replay_through_plugin(paths, tmp)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(paths["out.json"]) as f:
            steps = json.load(f)["steps"]
        self.assertEqual(len(steps), 3)
        predicted = [s["predicted_s"] for s in steps]
        self.assertTrue(all(p and p > 0 for p in predicted), predicted)
        self.assertEqual(predicted[0], min(predicted))


@unittest.skipUnless(BENCH, "ENERGY_BENCH is not set (the ctest tune sets it)")
class BenchPathTest(unittest.TestCase):
    """The GPU path through energy-bench's stand-in GPU (test/Bench/Inputs/mock_gpu.cpp)."""

    def test_measures_through_energy_bench(self):
        tmp = tempfile.mkdtemp(prefix="energy-tune-")
        self.addCleanup(shutil.rmtree, tmp)
        inputs = os.path.join(REPO_ROOT, "test", "Bench", "Inputs")
        subprocess.run([sys.executable, os.path.join(inputs, "make_manifests.py"), tmp],
                       check=True, capture_output=True)
        mock = os.path.join(tmp, "mock")
        os.makedirs(mock)
        cuda_include = "/usr/local/cuda/include"
        for define, name in (("-DMOCK_CUDA", "libcuda.so.1"), ("-DMOCK_NVML",
                                                               "libnvidia-ml.so.1")):
            subprocess.run([CLANG, "-std=c++17", "-shared", "-fPIC", define, "-I",
                            cuda_include, os.path.join(inputs, "mock_gpu.cpp"), "-o",
                            os.path.join(mock, name)], check=True)
        env = {**os.environ, "PYTHONPATH": os.path.join(REPO_ROOT, "python"),
               "ENERGY_BENCH_CUDA_LIBRARY": os.path.join(mock, "libcuda.so.1"),
               "ENERGY_BENCH_NVML_LIBRARY": os.path.join(mock, "libnvidia-ml.so.1")}
        out = os.path.join(tmp, "tune.json")
        argv = [sys.executable, "-m", "energy.tune", "--manifest",
                os.path.join(tmp, "many", "manifest.json"), "--kernel", "fixture_axpy",
                "--bench", BENCH, "--budget", "3", "--json", out,
                "--force-config", os.path.join(tmp, "best.force")]
        for arg in ("--energy-seconds=0.1", "--warmup-seconds=0.01", "--idle-seconds=0.02",
                    "--settle-seconds=0", "--max-energy-spread=1"):
            argv.append(f"--bench-arg={arg}")
        done = subprocess.run(argv, capture_output=True, text=True, env=env)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(out) as f:
            result = json.load(f)
        self.assertEqual(len(result["steps"]), 3)
        self.assertTrue(all(s["measured_s"] > 0 for s in result["steps"]))
        rows = [json.loads(line) for line in open(result["source"]["bench_rows"])]
        self.assertEqual(sorted("fixture_axpy/" + r["config"] for r in rows),
                         sorted(s["key"] for s in result["steps"]))
        self.assertTrue(all(r["method"] == "nvml-energy-counter" for r in rows))
        with open(os.path.join(tmp, "best.force")) as f:
            self.assertTrue(f.read().startswith("--energy-force-config=fixture_axpy:"))
        # Without a usable driver it is an error, not a failed configuration.
        env["ENERGY_BENCH_CUDA_LIBRARY"] = os.path.join(tmp, "no", "libcuda.so.1")
        argv[argv.index(out)] = os.path.join(tmp, "other.json")
        done = subprocess.run(argv, capture_output=True, text=True, env=env)
        self.assertEqual(done.returncode, 1)
        self.assertIn("error: energy-bench failed", done.stderr)


if __name__ == "__main__":
    unittest.main()
