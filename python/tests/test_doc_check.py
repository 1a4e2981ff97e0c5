"""energy.doc_check: dead links in the README and docs/, options a --help lists (issue 35)."""

import glob
import io
import os
import re
import unittest
from unittest import mock

from energy import doc_check

from tests import util

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


class RepositoryDocsTest(unittest.TestCase):
    def test_readme_and_docs_have_no_dead_links(self):
        # The README, docs/ and the pages beside the sources, models and data.
        pages = [os.path.join(ROOT, "README.md")] + sorted(
            page for tree in ("docs", "data", "models", "tools", "python", "test", "cmake")
            for page in glob.glob(os.path.join(ROOT, tree, "**", "*.md"), recursive=True))
        self.assertGreater(len(pages), 15)
        dead = {os.path.relpath(page, ROOT): doc_check.dead_links(page) for page in pages}
        self.assertEqual({page: links for page, links in dead.items() if links}, {})

    def test_readme_states_the_test_command_ci_runs(self):
        # .ci/run runs "the README's test command": the same ctest line as the README's.
        with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
            ci = [line.strip() for line in f if line.startswith("ctest ")]
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertEqual(len(ci), 1)
        self.assertRegex(readme, "\n" + re.escape(ci[0]) + r"\s")


class LinksTest(util.TempDirTest):
    def test_dead_files_and_anchors_are_reported_with_their_lines(self):
        self.write("b.md", "# Title\n\n## The user's guide (v2)\n\n## Title\n")
        os.mkdir(os.path.join(self.tmp, "sub"))
        page = self.write("a.md", "\n".join([
            "[ok](b.md) [dir](sub) [web](https://example.com/x) [ok](b.md#the-users-guide-v2)",
            "[gone](c.md)",
            "[bad anchor](b.md#nowhere) [second title](b.md#title-1)",
            "`[not a link](d.md)` [own](#a-heading) [own bad](#none)",
            "```",
            "[in code](e.md)",
            "```",
            "# A heading",
        ]))
        self.assertEqual(doc_check.dead_links(page), [
            (2, "c.md", "no such file"),
            (3, "b.md#nowhere", "no heading '#nowhere' in b.md"),
            (4, "#none", "no heading '#none' in this file"),
        ])
        code, _, err = util.run_main(doc_check.main, ["links", page])
        self.assertEqual(code, 1)
        self.assertIn(f"error: {page}:2: dead link 'c.md': no such file", err)

    def test_slugs_follow_github(self):
        self.assertEqual(doc_check.slug("With clang (CUDA <= 12.5: the plain driver; CUDA 13: energy-cuda below)"),
                         "with-clang-cuda--125-the-plain-driver-cuda-13-energy-cuda-below")
        self.assertEqual(doc_check.slug("The bundled example's predictions"), "the-bundled-examples-predictions")
        self.assertEqual(doc_check.slug("CUDA 13: `build/bin/energy-cuda`"), "cuda-13-buildbinenergy-cuda")


LLVM_HELP = """OPTIONS:
Generic Options:
  --help                  - Display available options
  --version               - Display the version of this program
tool options:
  --energy-arch=<sm_XX>   - Target GPU
  -O <level>              - Optimization level
  --format=<value>        - Output format
    =json                 -   one JSON document
"""

FREE_HELP = """Options:
  -arch=sm_XX, --gpu-architecture=sm_XX
                        GPU architecture (default sm_90); compute_XX: PTX only
  -l, -L, -Wl,, --linker-options X   the link
Any other option (-ptx, -lto) is an error naming it.
"""

PASS_HELP = """      --energy-optimize-gpu        -   Choose the block
        --arch=<string>            - sm_XX
        --min-gain=<number>        - keep the launch's block
      --other-pass                 -   Something else
        --unrelated=<int>          - not ours
"""


class OptionsTest(util.TempDirTest):
    def test_names_of_llvm_and_free_form_help(self):
        self.assertEqual(doc_check.help_options(LLVM_HELP), ["energy-arch", "O", "format"])
        self.assertEqual(doc_check.help_options(LLVM_HELP, prefix="energy-"), ["energy-arch"])
        self.assertEqual(doc_check.help_options(FREE_HELP),
                         ["arch", "gpu-architecture", "l", "L", "Wl", "linker-options"])
        self.assertEqual(doc_check.help_options(PASS_HELP, pass_name="energy-optimize-gpu"),
                         ["arch", "min-gain"])

    def test_undocumented_names_are_errors(self):
        text = "`-energy-arch=sm_XX`, `-O N`, `--format=json`; `energy-optimize-gpu{min-gain=0.1}`"
        doc = self.write("guide.md", text)
        self.assertEqual(doc_check.undocumented(["energy-arch", "O", "format", "arch"], text), ["arch"])
        self.assertEqual(doc_check.undocumented(["arch", "min-gain"], text, pass_option=True), ["arch"])
        with mock.patch("sys.stdin", io.StringIO(LLVM_HELP + "  --energy-new=<x>   - new\n")):
            code, _, err = util.run_main(doc_check.main, ["options", doc])
        self.assertEqual(code, 1)
        self.assertEqual(err, f"error: {doc}: option 'energy-new' of the help is not documented\n")

    def test_a_help_without_options_is_an_error(self):
        doc = self.write("guide.md", "")
        with mock.patch("sys.stdin", io.StringIO("usage: tool FILE\n")):
            code, _, err = util.run_main(doc_check.main, ["options", doc, "--prefix", "energy-"])
        self.assertEqual(code, 1)
        self.assertEqual(err, "error: the help text lists no options starting with 'energy-'\n")


if __name__ == "__main__":
    unittest.main()
