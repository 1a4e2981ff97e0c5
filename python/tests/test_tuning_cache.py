"""Reading Kernel Tuner caches, KTT output and T4 results (hand-made fixtures)."""

import gzip
import math
import os
import shutil

from energy import dataset, tuning_cache
from energy.dataset import DatasetError

from tests import util

TUNERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tuner_fixtures")


def fixture(name):
    return os.path.join(TUNERS, name)


class KernelTunerCacheTest(util.TempDirTest):
    def test_open_ended_cache_is_closed(self):
        cache = dataset.load_tuning_cache(fixture("kernel_tuner_open.json"))
        self.assertTrue(cache.closed_open_end)
        self.assertEqual(cache.format, "kernel_tuner")
        self.assertEqual(cache.params, ["block_size_x", "tile"])
        self.assertEqual(list(cache.frame["config"]), ["32,1", "64,2"])
        self.assertEqual(list(cache.frame["time_s"]), [2.0e-3, 1.5e-3])      # ms -> s
        self.assertEqual(list(cache.frame["energy_j"]), [0.5, 0.25])
        self.assertTrue(cache.frame["power_w"].isna().all())
        # The observed clock where the entry has one (core_freq, MHz).
        self.assertTrue(math.isnan(cache.frame["clock_mhz"][0]))
        self.assertEqual(cache.frame["clock_mhz"][1], 1710.0)
        # The measured binary's registers where the entry records them (num_regs).
        self.assertTrue(math.isnan(cache.frame["registers"][0]))
        self.assertEqual(cache.frame["registers"][1], 40)

    def test_failed_entries_are_counted_by_reason(self):
        cache = dataset.load_tuning_cache(fixture("kernel_tuner_open.json"))
        # One failure in `time`, one in the objective metric of an entry without `time`.
        self.assertEqual(cache.invalid, {"CompilationFailedConfig": 1, "RuntimeFailedConfig": 1})
        self.assertEqual(cache.skipped, 2)

    def test_gzip_reads_as_plain(self):
        plain = fixture("kernel_tuner_closed.json")
        packed = os.path.join(self.tmp, "closed.json.gz")
        with open(plain, "rb") as src, gzip.open(packed, "wb") as dst:
            shutil.copyfileobj(src, dst)
        a, b = dataset.load_tuning_cache(plain), dataset.load_tuning_cache(packed)
        self.assertFalse(a.closed_open_end)
        self.assertEqual(a.invalid, {"InvalidConfig": 1})
        cols = ["config", "block_size_x", "time_s"]
        self.assertTrue(a.frame[cols].equals(b.frame[cols]))
        self.assertEqual(a.problem_size, 4096)
        self.assertTrue(a.frame["energy_j"].isna().all())

    def test_provenance_columns(self):
        cache = dataset.load_tuning_cache(fixture("kernel_tuner_closed.json"))
        row = cache.frame.iloc[0]
        self.assertEqual(row["file"], fixture("kernel_tuner_closed.json"))
        self.assertEqual(row["device_name"], "NVIDIA GeForce RTX 3090")
        self.assertIsNone(row["repository"])          # not under public-measurements

    def test_truncated_entry_is_an_error(self):
        with open(fixture("kernel_tuner_open.json"), encoding="utf-8") as f:
            path = self.write("cut.json", f.read()[:-40])
        with self.assertRaisesRegex(DatasetError, "cut.json: invalid JSON"):
            dataset.load_tuning_cache(path)

    def test_no_valid_entry_is_an_error(self):
        path = self.write("bad.json", '{"device_name": "d", "kernel_name": "k", '
                                      '"tune_params_keys": ["b"], "cache": '
                                      '{"1": {"b": 1, "time": "InvalidConfig"}}}')
        with self.assertRaisesRegex(DatasetError, "bad.json: no valid measurements"):
            dataset.load_tuning_cache(path)

    def test_unknown_format(self):
        path = self.write("x.json", '{"hello": 1}')
        with self.assertRaisesRegex(DatasetError, "not a Kernel Tuner cache"):
            dataset.load_tuning_cache(path)


class KttTest(util.TempDirTest):
    def test_ktt_output(self):
        cache = dataset.load_tuning_cache(fixture("ktt.json"))
        self.assertEqual(cache.format, "ktt")
        self.assertEqual(cache.device_name, "NVIDIA GeForce RTX 2080 Ti")
        self.assertEqual(cache.kernel_name, "handMade")
        # Both runs of 16,1 are kept; parameter order in a result does not matter.
        self.assertEqual(list(cache.frame["config"]), ["16,1", "16,1"])
        self.assertTrue(all(math.isclose(a, b) for a, b in
                            zip(cache.frame["time_s"], [1e-3, 3e-3])))
        self.assertEqual(cache.invalid, {"CompilationFailed": 1})

    def test_t4_needs_a_device(self):
        with self.assertRaisesRegex(DatasetError, "t4.json: T4 results name no device"):
            dataset.load_tuning_cache(fixture("t4.json"))
        cache = dataset.load_tuning_cache(fixture("t4.json"), device_name="hand-made GPU")
        self.assertEqual(cache.format, "t4")
        self.assertEqual(list(cache.frame["config"]), ["16,1"])
        self.assertTrue(math.isclose(cache.frame["time_s"].iloc[0], 5e-4))
        self.assertEqual(cache.invalid, {"runtime": 1})
        self.assertEqual(cache.frame["device_name"].iloc[0], "hand-made GPU")


class ProvenanceTest(util.TempDirTest):
    def test_longest_prefix_wins(self):
        root = os.path.join(self.tmp, "shared", "data", tuning_cache.DATA_FOLDER)
        self.assertEqual(tuning_cache.provenance_of(os.path.join(root, "gemm", "src", "a.cl")),
                         ("KernelTuner/kernel_tuner_tutorial", "7a74a86"))
        self.assertEqual(tuning_cache.provenance_of(os.path.join(root, "gemm", "caches", "x")),
                         ("AutoTuningAssociation/benchmark_hub", "8eeb99e"))
        self.assertEqual(tuning_cache.provenance_of(os.path.join(root, "elsewhere", "x")),
                         (None, None))
