"""energy.compile_overhead's mechanics: the file sets, the commands, the sample and the
report (no timing is asserted: the figures are the benchmark's, not the test's)."""

import io
import json
import os
import tempfile
import unittest
from unittest import mock

from energy import compile_overhead

HAS_CLANG = os.path.exists(compile_overhead.CLANG)
GOOD = "__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n"
# Includes a header its lit RUN lines would write (test/CUDA/energy-cuda-depfile.cu).
BAD = ('#include "written_by_a_run_line.h"\n'
       "__global__ void k(float *x) { x[threadIdx.x] = SCALE; }\n")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def row(name, without, with_plugin):
    return compile_overhead.file_row(name, [without], [with_plugin], [without],
                                     [with_plugin])


@unittest.skipUnless(HAS_CLANG, "clang 19 not installed")
class CompilingAloneTest(unittest.TestCase):
    def test_a_file_with_a_missing_header_is_left_out_with_a_note(self):
        with tempfile.TemporaryDirectory() as tmp:
            good = write(os.path.join(tmp, "good.cu"), GOOD)
            bad = write(os.path.join(tmp, "bad.cu"), BAD)
            log = io.StringIO()
            self.assertEqual(compile_overhead.compiling_alone([good, bad], log), [good])
            self.assertIn("leaving out", log.getvalue())
            self.assertIn("bad.cu", log.getvalue())

    def test_the_default_set_compiles(self):
        kept = compile_overhead.compiling_alone(compile_overhead.default_files(),
                                                io.StringIO())
        self.assertIn(os.path.join(compile_overhead.ROOT, "tools/example/energy_example.cu"),
                      kept)
        self.assertNotIn(os.path.join(compile_overhead.ROOT,
                                      "test/CUDA/energy-cuda-depfile.cu"), kept)


class CompileCommandTest(unittest.TestCase):
    def test_the_device_compile_through_ptxas_with_and_without_the_plugin(self):
        without = compile_overhead.compile_command("a/k.cu", None, "object", ["inc"])
        with_plugin = compile_overhead.compile_command("a/k.cu", "/p/energy.so", "object",
                                                       ["inc"], ["-energy-advice=full"])
        self.assertIn("--cuda-device-only", without)
        self.assertIn("-c", without)
        self.assertNotIn("-S", without)
        self.assertEqual(without[without.index("inc") - 1], "-I")
        self.assertFalse(any("energy.so" in a for a in without))
        # The same compile, the plugin and its flags added.
        self.assertEqual([a for a in with_plugin
                          if "energy.so" not in a and a not in ("-mllvm",
                                                                "-energy-advice=full")],
                         without)
        self.assertIn("-fpass-plugin=/p/energy.so", with_plugin)
        flag = with_plugin.index("-energy-advice=full")
        self.assertEqual(with_plugin[flag - 1], "-mllvm")

    def test_the_ptx_stage_stops_at_ptx(self):
        cmd = compile_overhead.compile_command("k.cu", None, "ptx")
        self.assertIn("-S", cmd)
        self.assertNotIn("-c", cmd)


class SummaryTest(unittest.TestCase):
    def test_median_p90_worst_and_the_top_files(self):
        rows = [row("a", 1.0, 1.01), row("b", 1.0, 1.02), row("c", 2.0, 2.1),
                row("d", 1.0, 1.5), row("e", 1.0, 1.0)]
        s = compile_overhead.summarize(rows, top=2)
        self.assertEqual(s["files"], 5)
        self.assertAlmostEqual(s["median_overhead_percent"], 2.0)
        self.assertAlmostEqual(s["worst_overhead_percent"], 50.0)
        # Between the 4th (5%) and the 5th (50%) of five: 5 + 0.6 * 45.
        self.assertAlmostEqual(s["p90_overhead_percent"], 32.0)
        self.assertEqual(s["top"], ["d", "c"])
        self.assertAlmostEqual(s["total_overhead_percent"], 100 * 0.63 / 6)

    def test_a_file_row_takes_the_medians(self):
        r = compile_overhead.file_row("f", [1.0, 3.0, 2.0], [2.0, 2.2, 9.0],
                                      [5.0, 1.0, 2.0], [1.0, 1.0, 1.0])
        self.assertEqual((r["without_s"], r["with_s"]), (2.0, 2.2))
        self.assertAlmostEqual(r["overhead_percent"], 10.0)
        self.assertEqual((r["wall_without_s"], r["wall_with_s"]), (2.0, 1.0))

    def test_the_markdown_names_the_command_and_the_worst_first(self):
        rows = [row("a", 1.0, 1.01), row("d", 1.0, 1.5)]
        report = {"command": "python3 -m energy.compile_overhead --x", "stage": "object",
                  "repeats": 3, "plugin_flags": [], "files": rows,
                  "summary": compile_overhead.summarize(rows)}
        text = compile_overhead.markdown(report)
        self.assertIn("`python3 -m energy.compile_overhead --x`", text)
        self.assertIn("| worst | +50.0% |", text)
        self.assertLess(text.index("| d |"), text.index("| a |"))


class SampleTest(unittest.TestCase):
    def make_sources(self, tmp):
        sources = os.path.join(tmp, "src")
        write(os.path.join(sources, "cuda-samples/Common/helper.h"), "#define SCALE 2.0f\n")
        write(os.path.join(sources, "cuda-samples/Samples/0_Intro/a/a.cu"),
              '#include "helper.h"\n__global__ void k(float *x) { x[0] = SCALE; }\n')
        write(os.path.join(sources, "cuda-samples/Samples/0_Intro/b/b.cu"), BAD)
        write(os.path.join(sources, "gpu-rodinia/cuda/c/c.cu"), GOOD)
        write(os.path.join(sources, "HeCBench/src/x-cuda/main.cu"), GOOD)
        write(os.path.join(sources, "HeCBench/src/y-cuda/main.cu"), GOOD)
        for repo in ("cuda-samples", "gpu-rodinia", "HeCBench"):
            write(os.path.join(sources, repo, "COMMIT"), f"{repo}-commit\n")
        return sources

    @unittest.skipUnless(HAS_CLANG, "clang 19 not installed")
    def test_select_keeps_what_the_rule_picks_and_compiles(self):
        with tempfile.TemporaryDirectory() as tmp:
            sources = self.make_sources(tmp)
            out = os.path.join(tmp, "sample.json")
            # Every file, HeCBench one benchmark in two: x-cuda, not y-cuda.
            rule = {k: dict(v) for k, v in compile_overhead.SAMPLE_RULE.items()}
            rule["HeCBench"]["every_folder"] = 2
            with mock.patch.object(compile_overhead, "SAMPLE_EVERY", 1), \
                    mock.patch.object(compile_overhead, "SAMPLE_RULE", rule), \
                    mock.patch("sys.stderr", io.StringIO()) as log, \
                    mock.patch("sys.stdout", io.StringIO()):
                code = compile_overhead.main(["--select", "--sources", sources,
                                              "--write-sample", out])
            self.assertEqual(code, 0)
            with open(out) as f:
                sample = json.load(f)
            self.assertEqual(sample["files"], ["HeCBench/src/x-cuda/main.cu",
                                               "cuda-samples/Samples/0_Intro/a/a.cu",
                                               "gpu-rodinia/cuda/c/c.cu"])
            self.assertEqual(sample["candidates"], 4)
            self.assertIn("b.cu", log.getvalue())
            self.assertEqual(sample["repositories"]["cuda-samples"],
                             {"github": "NVIDIA/cuda-samples", "include": ["Common"],
                              "commit": "cuda-samples-commit"})

    def test_load_sample_gives_each_file_its_repository_includes(self):
        with tempfile.TemporaryDirectory() as tmp:
            sources = self.make_sources(tmp)
            path = write(os.path.join(tmp, "s.json"), json.dumps({
                "repositories": {"cuda-samples": {"include": ["Common"]},
                                 "gpu-rodinia": {"include": []}},
                "files": ["cuda-samples/Samples/0_Intro/a/a.cu", "gpu-rodinia/cuda/c/c.cu"]}))
            files, includes = compile_overhead.load_sample(path, sources)
            self.assertEqual(files, [
                os.path.join(sources, "cuda-samples/Samples/0_Intro/a/a.cu"),
                os.path.join(sources, "gpu-rodinia/cuda/c/c.cu")])
            self.assertEqual(includes[files[0]],
                             [os.path.join(sources, "cuda-samples/Common")])
            self.assertEqual(includes[files[1]], [])

    def test_a_missing_checkout_is_an_error_naming_the_repositories(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write(os.path.join(tmp, "s.json"), json.dumps({
                "repositories": {"gpu-rodinia": {"include": []}},
                "files": ["gpu-rodinia/cuda/c/c.cu"]}))
            err = io.StringIO()
            with mock.patch("sys.stderr", err):
                code = compile_overhead.main(["--plugin", path, "--sample", path,
                                              "--sources", os.path.join(tmp, "none")])
            self.assertEqual(code, 1)
            self.assertIn("error: ", err.getvalue())
            self.assertIn("gpu-rodinia", err.getvalue())

    @unittest.skipUnless(HAS_CLANG, "clang 19 not installed")
    def test_measure_writes_a_row_per_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            sources = self.make_sources(tmp)
            files = [os.path.join(sources, "gpu-rodinia/cuda/c/c.cu")]
            # No plugin: both variants are the plain compile; the mechanics are the same.
            rows = compile_overhead.measure(files, None, 1, "ptx",
                                            name_of=lambda s: os.path.relpath(s, sources))
            self.assertEqual([r["file"] for r in rows], ["gpu-rodinia/cuda/c/c.cu"])
            self.assertGreater(rows[0]["without_s"], 0)
            self.assertGreater(rows[0]["wall_with_s"], 0)


if __name__ == "__main__":
    unittest.main()
