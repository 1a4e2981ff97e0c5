"""energy.samples_check's mechanics with stand-in compilers: small shell scripts that
play nvcc and energy-cuda (they fail, or hang, when the source holds a marker), so no
CUDA or cuda-samples checkout is needed. The real figures are the sweep's
(docs/cuda-samples.md), not this test's."""

import json
import os
import stat

from energy import samples_check
from tests.util import TempDirTest, run_main

# A stand-in compiler: fails with a clang-style error on a source holding MARKER,
# sleeps on one holding "hang", else writes the -o file; it logs its arguments.
STAND_IN = """#!/bin/sh
for a in "$@"; do case $a in *.cu) src=$a ;; esac; done
echo "$@" >> "{log}"
if grep -q hang "$src"; then sleep 5; fi
if grep -q {marker} "$src"; then
  echo "$src:3:5: warning: something harmless" >&2
  echo "$src:7:9: error: use of undeclared identifier 'surf2Dwrite'" >&2
  echo "1 error generated." >&2
  exit 1
fi
while [ $# -gt 0 ]; do [ "$1" = -o ] && : > "$2"; shift; done
"""


class SamplesCheckTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.sources = os.path.join(self.tmp, "src")
        self.repo = os.path.join(self.sources, "cuda-samples")
        self.nvcc = self.stand_in("nvcc", "NVCC_REJECTS")
        self.energy_cuda = self.stand_in("energy-cuda", "CLANG_REJECTS")

    def stand_in(self, name, marker):
        path = self.write(name, STAND_IN.format(log=os.path.join(self.tmp, name + ".log"),
                                                marker=marker))
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        return path

    def source(self, relative, text="__global__ void k() {}\n"):
        path = os.path.join(self.repo, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def listing(self, files, exceptions=None):
        path = self.write("list.json", json.dumps({
            "repositories": {"cuda-samples": {"github": "NVIDIA/cuda-samples",
                                              "include": ["Common"], "commit": "abc"}},
            "files": ["cuda-samples/" + f for f in files],
            "exceptions": exceptions or {}}))
        return path

    def log(self, name):
        with open(os.path.join(self.tmp, name + ".log")) as f:
            return f.read().splitlines()

    def test_include_folders_follow_the_samples_cmake(self):
        flat = self.source("Samples/0_Intro/a/a.cu")
        nested = self.source("Samples/2_Concepts/b/src/b.cu")
        os.makedirs(os.path.join(self.repo, "Samples/2_Concepts/b/inc"))
        common = [os.path.join(self.repo, "Common")]
        self.assertEqual(samples_check.include_folders(flat, common),
                         common + [os.path.dirname(flat)])
        sample = os.path.join(self.repo, "Samples/2_Concepts/b")
        self.assertEqual(samples_check.include_folders(nested, common),
                         common + [os.path.join(sample, "src"), sample,
                                   os.path.join(sample, "inc")])

    def test_first_error_skips_warnings_and_falls_back_to_the_first_line(self):
        self.assertEqual(samples_check.first_error("a.cu:1: warning: w\na.cu:2: error: e\n"),
                         "a.cu:2: error: e")
        self.assertEqual(samples_check.first_error("\nSegmentation fault\n"),
                         "Segmentation fault")
        self.assertEqual(samples_check.first_error(""), "")

    def test_both_compilers_get_the_nvcc_command_line(self):
        src = self.source("Samples/0_Intro/a/a.cu")
        row = samples_check.check_file(src, "a", ["inc"], {"nvcc": self.nvcc,
                                       "energy_cuda": self.energy_cuda}, "sm_90", 30)
        self.assertEqual((row["nvcc"], row["energy_cuda"]), ("ok", "ok"))
        self.assertNotIn("energy_cuda_error", row)
        expected = "-arch=sm_90 -std=c++17 --extended-lambda -I inc -c " + src + " -o "
        for name in ("nvcc", "energy-cuda"):
            (line,) = self.log(name)
            self.assertTrue(line.startswith(expected), line)

    def test_energy_cuda_runs_only_where_nvcc_builds(self):
        src = self.source("Samples/5_D3D/d/d.cu", "NVCC_REJECTS\n")
        row = samples_check.check_file(src, "d", [], {"nvcc": self.nvcc,
                                       "energy_cuda": self.energy_cuda}, "sm_90", 30)
        self.assertEqual((row["nvcc"], row["energy_cuda"]), ("fail", "not run"))
        self.assertIn("error: use of undeclared identifier", row["nvcc_error"])
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "energy-cuda.log")))

    def test_a_compile_past_the_timeout_fails(self):
        src = self.source("Samples/0_Intro/h/h.cu", "hang\n")
        row = samples_check.check_file(src, "h", [], {"nvcc": self.nvcc,
                                       "energy_cuda": self.energy_cuda}, "sm_90", 1)
        self.assertEqual(row["nvcc"], "timeout")
        self.assertEqual(row["nvcc_error"], "timed out after 1 s")

    def test_unexcused_failures_and_stale_exceptions_fail_the_check(self):
        files = ["Samples/0_Intro/ok/ok.cu", "Samples/0_Intro/bad/bad.cu",
                 "Samples/0_Intro/excused/excused.cu", "Samples/0_Intro/fixed/fixed.cu",
                 "Samples/5_D3D/d3d/d3d.cu"]
        texts = ["", "CLANG_REJECTS", "CLANG_REJECTS", "", "NVCC_REJECTS"]
        for f, text in zip(files, texts):
            self.source(f, text + "\n")
        exceptions = {"cuda-samples/" + files[2]: "a clang dialect difference",
                      "cuda-samples/" + files[3]: "was a bug, now fixed"}
        out = os.path.join(self.tmp, "out.json")
        code, stdout, stderr = run_main(samples_check.main, [
            "--sources", self.sources, "--list", self.listing(files, exceptions),
            "--nvcc", self.nvcc, "--energy-cuda", self.energy_cuda, "-j", "2",
            "--json", out])
        self.assertEqual(code, 1)
        self.assertIn("5 files: nvcc builds 4, energy-cuda builds 2 of them", stdout)
        self.assertIn("error: cuda-samples/Samples/0_Intro/bad/bad.cu: energy-cuda fails",
                      stderr)
        self.assertIn("error: cuda-samples/Samples/0_Intro/fixed/fixed.cu: energy-cuda "
                      "builds it now", stderr)
        self.assertNotIn("excused.cu", stderr)
        with open(out) as f:
            report = json.load(f)
        self.assertEqual([r["file"] for r in report["files"]],
                         ["cuda-samples/" + f for f in files])
        self.assertEqual(report["summary"], {"files": 5, "nvcc_builds": 4, "nvcc_fails": 1,
                                             "energy_cuda_builds": 2,
                                             "energy_cuda_fails": 2})
        self.assertEqual(report["repositories"]["cuda-samples"]["commit"], "abc")
        bad = report["files"][1]
        self.assertTrue(bad["energy_cuda_error"].endswith(
            "bad.cu:7:9: error: use of undeclared identifier 'surf2Dwrite'"), bad)

    def test_every_failure_excused_passes_and_files_pick_a_subset(self):
        files = ["Samples/0_Intro/ok/ok.cu", "Samples/0_Intro/excused/excused.cu"]
        self.source(files[0])
        excused = self.source(files[1], "CLANG_REJECTS\n")
        listing = self.listing(files, {"cuda-samples/" + files[1]: "why"})
        code, stdout, _ = run_main(samples_check.main, [
            "--sources", self.sources, "--list", listing, "--nvcc", self.nvcc,
            "--energy-cuda", self.energy_cuda])
        self.assertEqual(code, 0)
        self.assertIn("0 failures not excused", stdout)
        code, stdout, _ = run_main(samples_check.main, [
            "--sources", self.sources, "--list", listing, "--nvcc", self.nvcc,
            "--energy-cuda", self.energy_cuda, excused])
        self.assertEqual(code, 0)
        self.assertIn("1 files: nvcc builds 1, energy-cuda builds 0", stdout)

    def test_bad_input_is_an_error_not_a_traceback(self):
        listing = self.listing(["Samples/0_Intro/missing/missing.cu"])
        code, _, stderr = run_main(samples_check.main, [
            "--sources", self.sources, "--list", listing, "--nvcc", self.nvcc,
            "--energy-cuda", self.energy_cuda])
        self.assertEqual(code, 1)
        self.assertIn("error:", stderr)
        self.assertIn("missing.cu not found", stderr)
        code, _, stderr = run_main(samples_check.main, [
            "--sources", self.sources, "--list", listing, "--nvcc", self.nvcc,
            "--energy-cuda", os.path.join(self.tmp, "no-such-compiler")])
        self.assertEqual((code, stderr.strip()),
                         (1, f"error: {self.tmp}/no-such-compiler: not found"))
        self.source("Samples/0_Intro/a/a.cu")
        code, _, stderr = run_main(samples_check.main, [
            "--sources", self.sources, "--list", self.listing(["Samples/0_Intro/a/a.cu"]),
            "--nvcc", self.nvcc, "--energy-cuda", self.energy_cuda,
            os.path.join(self.repo, "Samples/other.cu")])
        self.assertEqual(code, 1)
        self.assertIn("error: not in", stderr)

    def test_write_list_takes_every_cu_with_the_commit_and_keeps_exceptions(self):
        for f in ("Samples/1_B/b/b.cu", "Samples/0_A/a/a.cu", "Samples/0_A/a/a.cpp"):
            self.source(f)
        with open(os.path.join(self.repo, "COMMIT"), "w") as f:
            f.write("c0ffee\n")
        path = self.listing([], {"cuda-samples/Samples/0_A/a/a.cu": "kept"})
        code, stdout, _ = run_main(samples_check.main, [
            "--sources", self.sources, "--write-list", path])
        self.assertEqual(code, 0)
        with open(path) as f:
            listing = json.load(f)
        self.assertEqual(listing["files"], ["cuda-samples/Samples/0_A/a/a.cu",
                                            "cuda-samples/Samples/1_B/b/b.cu"])
        self.assertEqual(listing["repositories"]["cuda-samples"]["commit"], "c0ffee")
        self.assertEqual(listing["exceptions"], {"cuda-samples/Samples/0_A/a/a.cu": "kept"})

    def test_check_report_judges_a_saved_report_against_the_lists_exceptions(self):
        rows = [{"file": "a.cu", "nvcc": "ok", "energy_cuda": "fail"},
                {"file": "b.cu", "nvcc": "fail", "energy_cuda": "not run"},
                {"file": "c.cu", "nvcc": "ok", "energy_cuda": "ok"}]
        report = self.write("report.json", json.dumps({"files": rows}))
        excused = self.write("excused.json", json.dumps({"exceptions": {"a.cu": "why"}}))
        code, stdout, stderr = run_main(samples_check.main, [
            "--check-report", report, "--list", excused])
        self.assertEqual((code, stderr), (0, ""))
        self.assertIn("3 files: nvcc builds 2, energy-cuda builds 1 of them; 0 failures "
                      "not excused, 0 exceptions that now build", stdout)
        stale = self.write("stale.json", json.dumps({"exceptions": {"c.cu": "was"}}))
        code, _, stderr = run_main(samples_check.main, [
            "--check-report", report, "--list", stale])
        self.assertEqual(code, 1)
        self.assertIn("error: a.cu: energy-cuda fails where nvcc builds", stderr)
        self.assertIn("error: c.cu: energy-cuda builds it now", stderr)
        code, _, stderr = run_main(samples_check.main, [
            "--check-report", os.path.join(self.tmp, "none.json"), "--list", stale])
        self.assertEqual(code, 1)
        self.assertIn("error:", stderr)

    def test_markdown_lists_each_compilers_failures_with_the_reason(self):
        rows = [{"file": "a.cu", "nvcc": "ok", "energy_cuda": "fail",
                 "energy_cuda_error": "/src/x/a.cu:3:1: error: e"},
                {"file": "b.cu", "nvcc": "fail", "energy_cuda": "not run",
                 "nvcc_error": "/src/x/b.cu(4): error: identifier \"assert\" is undefined"},
                {"file": "c.cu", "nvcc": "ok", "energy_cuda": "timeout",
                 "energy_cuda_error": "timed out after 9 s"},
                {"file": "d.cu", "nvcc": "ok", "energy_cuda": "ok"}]
        text = samples_check.markdown(rows, {"a.cu": "a dialect difference"})
        self.assertIn("| 4 | 3 | 1 | 2 |", text)
        self.assertIn('| b.cu | b.cu(4): error: identifier "assert" is undefined |', text)
        self.assertIn("| a.cu | a dialect difference |", text)
        self.assertIn("| c.cu | not excused: timed out after 9 s |", text)
        self.assertNotIn("d.cu", text)

    def test_resume_takes_the_rows_an_earlier_report_holds(self):
        files = ["Samples/0_Intro/old/old.cu", "Samples/0_Intro/new/new.cu"]
        for f in files:
            self.source(f)
        earlier = {"file": "cuda-samples/" + files[0], "nvcc": "ok", "energy_cuda": "fail",
                   "energy_cuda_error": "from the earlier run"}
        resume = self.write("earlier.json", json.dumps({"files": [earlier]}))
        out = os.path.join(self.tmp, "out.json")
        code, _, _ = run_main(samples_check.main, [
            "--sources", self.sources, "--list", self.listing(files), "--nvcc", self.nvcc,
            "--energy-cuda", self.energy_cuda, "--resume", resume, "--json", out])
        self.assertEqual(code, 1)  # the earlier failure has no exception
        with open(out) as f:
            rows = json.load(f)["files"]
        self.assertEqual(rows[0], earlier)
        self.assertEqual((rows[1]["file"], rows[1]["energy_cuda"]),
                         ("cuda-samples/" + files[1], "ok"))
        # Only the new file was compiled.
        self.assertEqual(len(self.log("nvcc")), 1)
        self.assertIn("new.cu", self.log("nvcc")[0])

    def test_the_report_is_saved_after_each_file(self):
        saved = []
        files = [self.source(f"Samples/0_Intro/{n}/{n}.cu") for n in ("a", "b", "c")]
        samples_check.check(files, lambda s: [], os.path.basename,
                            {"nvcc": self.nvcc, "energy_cuda": self.energy_cuda}, "sm_90",
                            30, 1, on_row=lambda rows: saved.append([r["file"] for r in rows]))
        self.assertEqual(saved, [["a.cu"], ["a.cu", "b.cu"], ["a.cu", "b.cu", "c.cu"]])
