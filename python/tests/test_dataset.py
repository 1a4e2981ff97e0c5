"""Loading JSONL/CSV and the errors for bad input files."""

import json
import os
import subprocess
import sys
import unittest

from energy import dataset, train
from energy.dataset import DatasetError

from tests import util

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def row(**overrides):
    """A valid SYNTHETIC JSON row (made-up numbers), with fields overridden or removed (None)."""
    base = {"kernel": "k", "config": "b256", "arch": "sm_90", "gpu": "synthetic-no-gpu",
            "status": "ok", "time_s": 1e-4, "energy_j": 0.03,
            "features": {"a": 1.0, "b": 256}}
    base.update(overrides)
    return json.dumps({k: v for k, v in base.items() if v is not None})


class LoadTest(util.TempDirTest):
    def test_jsonl(self):
        data = dataset.load([util.TRAIN_JSONL])
        self.assertEqual(data.feature_names[:2], ["work_items", "fp32_ops_per_item"])
        self.assertEqual(len(data.feature_names), 7)
        self.assertEqual(len(data.frame), 61)          # 60 configs + one repeat
        self.assertEqual(data.frame["kernel"].nunique(), 4)
        self.assertEqual(data.files[0].skipped, 1)     # the launch_failed row
        self.assertIn("skipped 1 row(s)", data.notes()[0])
        self.assertEqual(data.files[0].sha256, dataset.sha256_of(util.TRAIN_JSONL))
        self.assertEqual(list(data.frame.columns[-7:]),
                         dataset.feature_columns(data.feature_names))

    def test_csv_equals_jsonl(self):
        from_jsonl = dataset.load([util.TRAIN_JSONL])
        from_csv = dataset.load([util.TRAIN_CSV])
        self.assertEqual(from_csv.feature_names, from_jsonl.feature_names)
        ignore = ["source", "line"]
        a = from_jsonl.frame.drop(columns=ignore)
        b = from_csv.frame.drop(columns=ignore)
        self.assertTrue(a.equals(b))
        self.assertEqual(from_csv.frame["line"].iloc[0], 2)   # line 1 is the header

    def test_several_files(self):
        data = dataset.load([util.TRAIN_JSONL, util.UPDATE_JSONL])
        self.assertEqual(data.frame["kernel"].nunique(), 5)
        self.assertEqual([f.rows for f in data.files], [61, 15])

    def test_optional_analytic_and_extra_keys(self):
        path = self.write("x.jsonl", row(driver="580.1", clocks={"sm": 1980}) + "\n\n" +
                          row(config="b128", analytic_time_s=2e-4,
                              analytic_energy_j=0.05) + "\n")
        frame = dataset.load([path]).frame
        self.assertTrue(frame["analytic_time_s"].isna().iloc[0])
        self.assertEqual(frame["analytic_time_s"].iloc[1], 2e-4)
        self.assertEqual(list(frame["line"]), [1, 3])

    def test_time_only_rows(self):
        path = self.write("t.jsonl", row(energy_j=None) + "\n" + row(config="b128") + "\n")
        data = dataset.load([path])
        self.assertTrue(data.frame["energy_j"].isna().iloc[0])
        self.assertEqual(data.frame["energy_j"].iloc[1], 0.03)
        self.assertFalse(data.has_energy())
        csv_path = self.write("t.csv", "kernel,config,arch,gpu,status,time_s,energy_j,f.a\n"
                                       "k,b1,sm_90,g,ok,1e-4,,1\n")
        self.assertTrue(dataset.load([csv_path]).frame["energy_j"].isna().all())
        self.assertTrue(dataset.load([util.TRAIN_JSONL]).has_energy())


class ErrorTest(util.TempDirTest):
    """Each bad file gives exit code 1 and one `error: <file>[:<line>]: ...` line."""

    def assertError(self, path, *fragments):
        code, out, err = util.run_main(train.main, [path, "-o", os.path.join(self.tmp, "m.json")])
        self.assertEqual(code, 1)
        self.assertEqual(out, "")
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith(f"error: {path}"), err)
        for fragment in fragments:
            self.assertIn(fragment, lines[0])
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "m.json")))

    def test_missing_field(self):
        path = self.write("bad.jsonl", row() + "\n" + row(time_s=None) + "\n")
        self.assertError(path, f"{path}:2:", "missing field 'time_s'")

    def test_missing_field_csv(self):
        # Energy is optional (time-only measurements), time is not.
        path = self.write("bad.csv", "kernel,config,arch,gpu,status,energy_j,f.a\n"
                                     "k,b1,sm_90,g,ok,0.03,1\n")
        self.assertError(path, f"{path}:2:", "missing field 'time_s'")

    def test_mismatched_feature_order(self):
        path = self.write("bad.jsonl", row() + "\n" + row(features={"b": 256, "a": 1.0}) + "\n")
        self.assertError(path, f"{path}:2:", f"{path}:1", "order differs")

    def test_mismatched_feature_keys(self):
        path = self.write("bad.jsonl", row() + "\n" + row(features={"a": 1.0, "c": 2}) + "\n")
        self.assertError(path, f"{path}:2:", "missing 'b'", "unexpected 'c'")

    def test_mismatched_keys_across_files(self):
        first = self.write("one.jsonl", row() + "\n")
        second = self.write("two.jsonl", row(features={"a": 1.0}) + "\n")
        code, _, err = util.run_main(train.main, [first, second, "-o",
                                                  os.path.join(self.tmp, "m.json")])
        self.assertEqual(code, 1)
        self.assertTrue(err.startswith(f"error: {second}:1: features differ from those of "
                                       f"{first}:1"), err)

    def test_non_numeric_feature(self):
        path = self.write("bad.jsonl", row(features={"a": "two", "b": 256}) + "\n")
        self.assertError(path, f"{path}:1:", "feature 'a' is not a number")

    def test_boolean_is_not_a_number(self):
        path = self.write("bad.jsonl", row(features={"a": True, "b": 256}) + "\n")
        self.assertError(path, f"{path}:1:", "feature 'a' is not a number")

    def test_non_numeric_csv_cell(self):
        path = self.write("bad.csv", "kernel,config,arch,gpu,status,time_s,energy_j,f.a\n"
                                     "k,b1,sm_90,g,ok,1e-4,fast,1\n")
        self.assertError(path, f"{path}:2:", "field 'energy_j' is not a number")

    def test_non_positive_time(self):
        path = self.write("bad.jsonl", row(time_s=0) + "\n")
        self.assertError(path, f"{path}:1:", "'time_s' must be positive")

    def test_empty_file(self):
        self.assertError(self.write("empty.jsonl", ""), "empty file")
        self.assertError(self.write("blank.csv", "\n  \n"), "empty file")

    def test_header_only_csv(self):
        self.assertError(self.write("h.csv", "kernel,config,f.a\n"), "no rows")

    def test_only_failed_rows(self):
        path = self.write("failed.jsonl", row(status="timeout", time_s=None) + "\n")
        self.assertError(path, "no rows with status 'ok'")

    def test_invalid_json(self):
        path = self.write("bad.jsonl", row() + "\n{\"kernel\": \n")
        self.assertError(path, f"{path}:2:", "invalid JSON")

    def test_nan_is_rejected(self):
        path = self.write("bad.jsonl", row().replace("0.03", "NaN") + "\n")
        self.assertError(path, f"{path}:1:", "invalid JSON")

    def test_not_an_object(self):
        path = self.write("bad.jsonl", "[1, 2]\n")
        self.assertError(path, f"{path}:1:", "expected a JSON object")

    def test_bad_feature_name(self):
        path = self.write("bad.jsonl", row(features={"a[0]": 1.0}) + "\n")
        self.assertError(path, f"{path}:1:", "invalid feature name")

    def test_unknown_extension(self):
        self.assertError(self.write("data.txt", row() + "\n"), "unknown file type")

    def test_missing_file(self):
        self.assertError(os.path.join(self.tmp, "nope.jsonl"), "cannot read")

    def test_load_raises_dataset_error(self):
        with self.assertRaises(DatasetError):
            dataset.load([self.write("empty.jsonl", "")])

    def test_real_command_has_no_traceback(self):
        path = self.write("bad.jsonl", row(features={"a": "x", "b": 1}) + "\n")
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        result = subprocess.run([sys.executable, "-m", "energy.train", path, "-o",
                                 os.path.join(self.tmp, "m.json")],
                                capture_output=True, text=True, env=env, cwd=self.tmp)
        self.assertEqual(result.returncode, 1)
        self.assertTrue(result.stderr.startswith(f"error: {path}:1: "), result.stderr)
        self.assertNotIn("Traceback", result.stderr)


if __name__ == "__main__":
    unittest.main()
