"""energy.sweep: the expression evaluator (corpus_expr), config selection (sweep_configs)
and the manifest written for the fixture corpus python/tests/sweep_corpus with the real
plugin.

The plugin comes from $ENERGY_PLUGIN or build/lib/energy.so; the tests that compile are
skipped (with the reason) when it is not built.
"""

import glob
import json
import math
import os
import shutil
import stat
import tarfile
import tempfile
import unittest

from energy import corpus_expr, sweep, sweep_configs
from tests import util

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sweep_corpus")
PLUGIN = os.environ.get("ENERGY_PLUGIN", os.path.join(sweep.REPO, "build", "lib", "energy.so"))
HAVE_TOOLS = os.path.isfile(PLUGIN) and os.path.isfile(sweep.DEFAULT_CLANG)
SKIP_REASON = (f"the plugin ({PLUGIN}; set ENERGY_PLUGIN) or clang++ 19 "
               f"({sweep.DEFAULT_CLANG}) is missing: build the plugin to run this test")


class EvaluateTest(unittest.TestCase):
    NAMES = {"n": 1000, "BLOCK_X": 256, "ITEMS": 4, "rows": 7}

    def check(self, text, want):
        self.assertEqual(corpus_expr.evaluate(text, self.NAMES), want, text)

    def test_arithmetic(self):
        self.check("42", 42)
        self.check(42, 42)
        self.check("n + 2 * 3", 1006)
        self.check("(n + 2) * 3", 3006)
        self.check("n - BLOCK_X * ITEMS", -24)
        self.check("-rows + 1", -6)

    def test_division_is_integer_and_truncates_like_c(self):
        self.check("n / BLOCK_X", 3)
        self.check("n % BLOCK_X", 232)
        self.check("-7 / 2", -3)
        self.check("-7 % 2", -1)
        self.check("7 / -2", -3)

    def test_ceil_rounds_the_division_up(self):
        self.check("ceil(n / BLOCK_X)", 4)
        self.check("ceil(1024 / BLOCK_X)", 4)
        self.check("ceil(n / (BLOCK_X * ITEMS))", 1)
        self.check("ceil(1 / 1024)", 1)
        self.check("ceil(0 / 5)", 0)
        self.check("ceil(-7 / 2)", -3)
        self.check("ceil(rows)", 7)

    def test_min_max(self):
        self.check("min(n, 512)", 512)
        self.check("max(ceil(n / BLOCK_X), 16)", 16)

    def test_rejections(self):
        cases = {
            "2.5": "is not an integer",
            "n ** 2": "'**' is not allowed",
            "n // 2": "'//' is not allowed",
            "__import__('os').system('true')": "only ceil(), min() and max() may be called",
            "open('x')": "only ceil(), min() and max() may be called",
            "n.real": "'Attribute' is not allowed",
            "x[0]": "'Subscript' is not allowed",
            "n if n else 1": "'IfExp' is not allowed",
            "lambda: 1": "'Lambda' is not allowed",
            "n < 2": "'Compare' is not allowed",
            "'text'": "is not an integer",
            "True": "is not an integer",
            "min(1)": "min() takes 2 argument(s)",
            "ceil(1, 2)": "ceil() takes 1 argument(s)",
            "max(a=1, b=2)": "max() takes 2 argument(s)",
            "BLOCK_W * 2": "unknown name 'BLOCK_W'",
            "n / (BLOCK_X - 256)": "division by zero",
            "ceil(n / 0)": "division by zero",
            "n +": "syntax error",
            "": "not an expression",
            "1 + " * 200 + "1": "longer than 400 characters",
        }
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaises(ValueError) as e:
                    corpus_expr.evaluate(text, self.NAMES)
                self.assertIn(message, str(e.exception))
        for value in (True, None, 2.5, [1]):
            with self.assertRaises(ValueError):
                corpus_expr.evaluate(value, self.NAMES)


class InitTest(unittest.TestCase):
    def test_evaluated_specs(self):
        names = {"cols": 4096, "k": 32}
        self.assertEqual(corpus_expr.evaluate_init("uniform(-1,1)", names), "uniform(-1,1)")
        self.assertEqual(corpus_expr.evaluate_init("uniform(0.5, 2)", names), "uniform(0.5,2)")
        self.assertEqual(corpus_expr.evaluate_init("randint(0, cols)", names), "randint(0,4096)")
        self.assertEqual(corpus_expr.evaluate_init("csr_row_ptr(k)", names), "csr_row_ptr(32)")
        self.assertEqual(corpus_expr.evaluate_init("zeros", names), "zeros")
        self.assertEqual(corpus_expr.evaluate_init(" iota ", names), "iota")

    def test_rejections(self):
        for text, message in {"normal(0,1)": "unknown init", "uniform(1)": "takes 2",
                              "uniform(1,0)": "lo < hi", "uniform(a,1)": "not a number",
                              "randint(5,5)": "lo < hi", "zeros(3)": "takes 0",
                              "randint(0, cols ** 2)": "'**' is not allowed",
                              "uniform(": "is not NAME"}.items():
            with self.subTest(text=text):
                with self.assertRaises(ValueError) as e:
                    corpus_expr.evaluate_init(text, {"cols": 4})
                self.assertIn(message, str(e.exception))


class ConfigTest(unittest.TestCase):
    def test_names_and_force_options(self):
        self.assertEqual(sweep_configs.config_name((256, 1, 1), {"ITEMS": 2}), "b256.ITEMS=2")
        self.assertEqual(sweep_configs.config_name((16, 16, 1), {"TILE": 16}), "b16x16.TILE=16")
        self.assertEqual(sweep_configs.config_name((32, 1, 4), {}), "b32x1x4")
        self.assertEqual(sweep_configs.force_option("sgemm", (16, 16, 1), {"TILE": 16, "K": 2}),
                         "-energy-force-config=sgemm:16x16x1,TILE=16,K=2")
        self.assertEqual(sweep_configs.force_option("sgemm", (16, 16, 1), {"TILE": 16}, [8, 4, 1]),
                         "-energy-force-config=sgemm:16x16x1,grid=8x4x1,TILE=16")
        self.assertEqual(sweep_configs.force_option("conv", (32, 8, 1), {"KPT": 2}, [2, 7, 256],
                                                    [(2, 64), (5, 64)]),
                         "-energy-force-config=conv:32x8x1,grid=2x7x256,arg2=64,arg5=64,KPT=2")

    def test_integer_arguments_are_stated_by_position(self):
        args = [{"param": "n", "type": "i32"}, {"buffer": "x"}, {"value": 3, "type": "u32"},
                {"param": "alpha", "type": "f32"}, {"value": -1, "type": "i32"}]
        self.assertEqual(sweep_configs.integer_arguments(args, {"n": 4096, "alpha": 2}),
                         [(1, 4096), (3, 3)])

    def test_even_subsample_spans_the_list(self):
        items = list(range(10))
        self.assertEqual(sweep_configs.even_subsample(items, 4), [0, 3, 6, 9])
        self.assertEqual(sweep_configs.even_subsample(items, 1), [5])
        self.assertEqual(sweep_configs.even_subsample(items, 0), [])
        self.assertEqual(sweep_configs.even_subsample(items, 20), items)

    def test_required_configs_come_first_and_may_exceed_the_cap(self):
        candidates = list("abcdefgh")
        self.assertEqual(sweep_configs.choose_configs(candidates, ["c", "c", "z"], 5),
                         ["c", "z", "a", "e", "h"])
        self.assertEqual(sweep_configs.choose_configs(candidates, list("xyz"), 2), list("xyz"))
        self.assertEqual(sweep_configs.choose_configs(candidates, ["b"], None),
                         ["b", "a", "c", "d", "e", "f", "g", "h"])


class CorpusErrorTest(util.TempDirTest):
    def sweep(self, *argv):
        return util.run_main(sweep.main, ["--plugin", PLUGIN, "-o", os.path.join(self.tmp, "out"),
                                          *argv])

    def corpus(self, edit):
        folder = os.path.join(self.tmp, "corpus")
        shutil.copytree(CORPUS, folder)
        path = os.path.join(folder, "corpus.json")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        edit(doc)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return folder

    def assert_error(self, argv, message):
        code, out, err = self.sweep(*argv)
        self.assertEqual(code, 1, err)
        self.assertEqual(out, "")
        self.assertIn(message, err)
        self.assertTrue(err.startswith("error: "), err)

    def test_missing_corpus(self):
        self.assert_error(["--corpus", os.path.join(self.tmp, "nope")], "no such corpus directory")
        self.assert_error(["--corpus", self.tmp], "no corpus.json in the corpus directory")

    def test_bad_corpus_documents(self):
        def kernel(doc):
            return doc["kernels"][0]
        cases = [
            (lambda d: d.update(format="energy-corpus-v0"), "format must be 'energy-corpus-v1'"),
            (lambda d: kernel(d).update(source="nope.cu"), "source"),
            (lambda d: kernel(d)["buffers"][0].update(type="f99"),
             "buffer 'x': type 'f99' is not one of f16 f32 f64 i32 u32 i64 u8"),
            (lambda d: kernel(d)["args"][2].update(buffer="z"),
             "argument 2 names unknown buffer 'z'"),
            (lambda d: kernel(d).update(params={"n": 1.5}), "'params' must map names to integers"),
            (lambda d: kernel(d).update(grid=["1", "1"]), "'grid' must be a list of 3 expressions"),
            (lambda d: [b.pop("output", None) for b in kernel(d)["buffers"]],
             "no buffer has \"output\": true"),
        ]
        for edit, message in cases:
            with self.subTest(message=message):
                folder = self.corpus(edit)
                self.assert_error(["--corpus", folder], message)
                shutil.rmtree(folder)

    def test_missing_plugin_and_clang(self):
        plugin = self.write("energy.so", "")
        code, _, err = util.run_main(sweep.main, ["--corpus", CORPUS, "--plugin", plugin,
                                                  "--clang", os.path.join(self.tmp, "clang++"),
                                                  "-o", os.path.join(self.tmp, "out")])
        self.assertEqual(code, 1)
        self.assertIn("clang++: clang++ 19 not found (--clang)", err)
        code, _, err = util.run_main(sweep.main, ["--corpus", CORPUS, "--plugin",
                                                  os.path.join(self.tmp, "missing.so"),
                                                  "-o", os.path.join(self.tmp, "out")])
        self.assertEqual(code, 1)
        self.assertIn("missing.so: plugin not found (build it: ninja -C build)", err)

    @unittest.skipUnless(HAVE_TOOLS, SKIP_REASON)
    def test_bad_expression_names_kernel_and_expression(self):
        folder = self.corpus(lambda d: d["kernels"][0].update(grid=["ceil(n / BLOCK_W)", 1, 1]))
        self.assert_error(["--corpus", folder, "--kernels", "fixture_axpy", "--small"],
                          "corpus.json: kernel 'fixture_axpy': grid[0] 'ceil(n / BLOCK_W)': "
                          "unknown name 'BLOCK_W'")

    @unittest.skipUnless(HAVE_TOOLS, SKIP_REASON)
    def test_compile_failure_names_kernel_and_config(self):
        # A clang that fails only the per-config compiles.
        fake = os.path.join(self.tmp, "clang++")
        with open(fake, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\ncase \"$*\" in *energy-force-config*) echo 'boom' >&2; exit 3;; "
                    f"esac\nexec {sweep.DEFAULT_CLANG} \"$@\"\n")
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
        code, _, err = self.sweep("--corpus", CORPUS, "--kernels", "fixture_transpose",
                                  "--small", "--clang", fake)
        self.assertEqual(code, 1)
        self.assertRegex(err, r"error: kernel 'fixture_transpose': config "
                              r"'fixture_transpose/b\d+x\d+\.TILE=\d+': compile failed \(exit 3\)")
        self.assertIn("boom", err)

    @unittest.skipUnless(HAVE_TOOLS, SKIP_REASON)
    def test_unknown_kernel_and_foreign_output(self):
        self.assert_error(["--corpus", CORPUS, "--kernels", "nope"], "no kernel named nope")
        os.makedirs(os.path.join(self.tmp, "out"))
        self.write("out/notes.txt", "mine")
        self.assert_error(["--corpus", CORPUS], "exists and holds more than a sweep (notes.txt)")


@unittest.skipUnless(HAVE_TOOLS, SKIP_REASON)
class ManifestTest(unittest.TestCase):
    """One sweep of the fixture corpus (--small, at most 5 configs per kernel)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="energy-sweep-test-")
        cls.out = os.path.join(cls.tmp, "sweep")
        cls.code, cls.stdout, cls.stderr = util.run_main(sweep.main, [
            "--corpus", CORPUS, "--plugin", PLUGIN, "-o", cls.out, "--small",
            "--max-configs-per-kernel", "5", "--repeat-fraction", "0.3", "--tar"])
        with open(os.path.join(cls.out, "manifest.json"), encoding="utf-8") as f:
            cls.manifest = json.load(f)
        cls.kernels = {k["name"]: k for k in cls.manifest["kernels"]}
        with open(os.path.join(CORPUS, "corpus.json"), encoding="utf-8") as f:
            cls.corpus = {k["name"]: k for k in json.load(f)["kernels"]}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_command_output(self):
        self.assertEqual(self.code, 0, self.stderr)
        self.assertRegex(self.stdout, r"wrote .*sweep/manifest.json: 3 kernels, \d+ configs, "
                                      r"\d+ measurements")
        self.assertRegex(self.stdout, r"wrote .*sweep.tar.gz: [0-9.]+ MiB")
        with tarfile.open(self.out + ".tar.gz") as tar:
            self.assertIn("sweep/manifest.json", tar.getnames())

    def test_configs_of_an_earlier_manifest(self):
        # Re-scoring: the same configs (ids and PTX) as the earlier sweep, though
        # a cap of 1 per kernel would subsample them; a file that is no manifest
        # is an error.
        out = os.path.join(self.tmp, "again")
        code, _, err = util.run_main(sweep.main, [
            "--corpus", CORPUS, "--plugin", PLUGIN, "-o", out, "--small",
            "--max-configs-per-kernel", "1",
            "--configs-of", os.path.join(self.out, "manifest.json")])
        self.assertEqual(code, 0, err)
        with open(os.path.join(out, "manifest.json"), encoding="utf-8") as f:
            again = json.load(f)
        ids = lambda m: [[c["id"] for c in k["configs"]] for k in m["kernels"]]
        self.assertEqual(ids(again), ids(self.manifest))
        for k in again["kernels"]:
            for c in k["configs"]:
                with open(os.path.join(out, c["ptx"]), encoding="utf-8") as f, \
                        open(os.path.join(self.out, c["ptx"]), encoding="utf-8") as g:
                    self.assertEqual(f.read(), g.read(), c["id"])
        code, _, err = util.run_main(sweep.main, [
            "--corpus", CORPUS, "--plugin", PLUGIN, "-o", os.path.join(self.tmp, "bad"),
            "--small", "--configs-of", os.path.join(CORPUS, "corpus.json")])
        self.assertEqual(code, 1)
        self.assertIn("not a sweep manifest", err)

    def test_configs_of_a_manifest_without_a_kernel(self):
        # A kernel added to the corpus after the measured sweep has no configs to
        # re-score: it is left out with a warning, the others are compiled.
        earlier = dict(self.manifest)
        earlier["kernels"] = [k for k in self.manifest["kernels"]
                              if k["name"] != "fixture_blocksum"]
        path = os.path.join(self.tmp, "earlier.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(earlier, f)
        out = os.path.join(self.tmp, "without")
        code, _, err = util.run_main(sweep.main, [
            "--corpus", CORPUS, "--plugin", PLUGIN, "-o", out, "--small",
            "--configs-of", path])
        self.assertEqual(code, 0, err)
        self.assertIn(f"warning: {path} has no configs of fixture_blocksum: left out", err)
        with open(os.path.join(out, "manifest.json"), encoding="utf-8") as f:
            again = json.load(f)
        self.assertEqual([k["name"] for k in again["kernels"]],
                         ["fixture_axpy", "fixture_transpose"])

    def test_header(self):
        m = self.manifest
        self.assertEqual(m["format"], "energy-sweep-v1")
        self.assertEqual(m["arch"], "sm_90")
        self.assertRegex(m["created"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertRegex(m["plugin"], r"^energy\.so [0-9.]+ \(sha256 [0-9a-f]{12}\)$")
        self.assertIn("block_threads", m["model_input_names"])
        self.assertEqual(list(self.kernels), ["fixture_axpy", "fixture_transpose",
                                              "fixture_blocksum"])

    def test_every_config_has_its_ptx_and_inputs(self):
        width = len(self.manifest["model_input_names"])
        for k in self.manifest["kernels"]:
            for c in k["configs"]:
                with self.subTest(config=c["id"]):
                    self.assertTrue(c["id"].startswith(k["name"] + "/"))
                    with open(os.path.join(self.out, c["ptx"]), encoding="utf-8") as f:
                        ptx = f.read()
                    self.assertIn(f".entry {k['entry']}(", ptx)
                    self.assertIn(".reqntid {}, {}, {}".format(*c["block"]), ptx)
                    self.assertEqual(len(c["model_inputs"]), width)
                    self.assertGreater(c["analytic_time_s"], 0)
                    self.assertGreater(c["analytic_energy_j"], 0)
                    self.assertEqual(c["ptx"], f"ptx/{c['id']}.ptx")
        ptx_files = glob.glob(os.path.join(self.out, "ptx", "*", "*.ptx"))
        configs = sum(len(k["configs"]) for k in self.manifest["kernels"])
        self.assertEqual(len(ptx_files), configs + 2)  # + axpy's and blocksum's baselines

    def test_required_configs_are_included(self):
        for name, k in self.kernels.items():
            with self.subTest(kernel=name):
                ids = [c["id"] for c in k["configs"]]
                self.assertEqual(len(ids), len(set(ids)))
                self.assertEqual(set(k["choices"]), {"energy", "time", "edp"})
                for objective, cid in k["choices"].items():
                    self.assertIn(cid, ids, objective)
                self.assertIn(k["baseline"]["default_config"], ids)
                self.assertIn(k["baseline"]["occupancy_config"], ids)
                reference = [c["id"] for c in k["configs"] if c["reference"]]
                self.assertEqual(reference, [k["baseline"]["default_config"]])
                self.assertEqual(sum(c["repeat"] for c in k["configs"]),
                                 math.ceil(0.3 * len(ids)))
        axpy = self.kernels["fixture_axpy"]
        self.assertEqual(axpy["baseline"]["default_config"], "fixture_axpy/b256.ITEMS=1")
        blocks = [c["block"][0] for c in axpy["configs"] if c["tunables"] == {"ITEMS": 1}]
        self.assertIn(1024, blocks)  # the largest block
        self.assertLessEqual(len(self.kernels["fixture_blocksum"]["configs"]), 5 + 2)

    def test_expressions_are_evaluated_per_config(self):
        for c in self.kernels["fixture_axpy"]["configs"]:
            items, block = c["tunables"]["ITEMS"], c["block"][0]
            self.assertEqual(c["grid"], [-(-1000 // (block * items)), 1, 1])
            self.assertEqual(c["dynamic_smem"], 0)
        for c in self.kernels["fixture_transpose"]["configs"]:
            tile = c["tunables"]["TILE"]
            self.assertEqual(c["block"], [tile, tile, 1])
            self.assertEqual(c["grid"], [-(-72 // tile), -(-40 // tile), 1])
        blocksum = self.kernels["fixture_blocksum"]
        default_block = 256
        self.assertEqual(blocksum["buffers"][1]["count"], -(-1000 // default_block))
        for c in blocksum["configs"]:
            sums = -(-1000 // c["block"][0])
            self.assertEqual(c["dynamic_smem"], 4 * c["block"][0])
            if sums == blocksum["buffers"][1]["count"]:
                self.assertNotIn("buffers", c)
            else:
                self.assertEqual(c["buffers"][1]["count"], sums)

    def test_model_inputs_describe_the_measured_launch(self):
        # The plugin saw each config's grid: its launch-level inputs are that grid's,
        # not the ENERGY_WORKLOAD default's (conv2d's 1024-thread rows once described a
        # launch 18x smaller than the one measured).
        names = self.manifest["model_input_names"]
        for k in self.kernels.values():
            for c in k["configs"]:
                inputs = dict(zip(names, c["model_inputs"]))
                blocks = c["grid"][0] * c["grid"][1] * c["grid"][2]
                threads = blocks * c["block"][0] * c["block"][1] * c["block"][2]
                self.assertAlmostEqual(2 ** inputs["log2_blocks"], blocks, delta=blocks * 1e-3,
                                       msg=c["id"])
                self.assertAlmostEqual(2 ** inputs["log2_total_threads"], threads,
                                       delta=threads * 1e-3, msg=c["id"])

    def test_kernel_fields_come_from_the_corpus(self):
        for name, k in self.kernels.items():
            corpus = self.corpus[name]
            self.assertEqual(k["params"], corpus["small_params"])
            self.assertEqual(k["entry"], corpus["entry"])
            self.assertEqual(k["args"], corpus["args"])
            self.assertEqual(k["tolerance"], corpus["tolerance"])
        transpose = self.kernels["fixture_transpose"]
        self.assertEqual(transpose["buffers"][0]["init"], "randint(-1000,1000)")
        self.assertEqual(transpose["workload"], 40 * 72)

    def test_baselines(self):
        # The tunables fix the transpose's block: no occupancy-heuristic PTX.
        self.assertNotIn("ptx", self.kernels["fixture_transpose"]["baseline"])
        base = self.kernels["fixture_blocksum"]["baseline"]
        with open(os.path.join(self.out, base["ptx"]), encoding="utf-8") as f:
            ptx = f.read()
        self.assertIn(".entry fixture_blocksum(", ptx)
        self.assertNotIn(".reqntid", ptx)  # compiled without the plugin
        self.assertEqual(base["dynamic_smem_by_threads"][:2], [[32, 128], [64, 256]])


if __name__ == "__main__":
    unittest.main()
