"""energy.compile_overhead's default file set: only sources that compile on their own.

test/CUDA/energy-cuda-depfile.cu includes headers its lit RUN lines write, so the
default set (the example and the test kernels) left the tool failing on it.
"""

import io
import os
import tempfile
import unittest

from energy import compile_overhead


@unittest.skipUnless(os.path.exists(compile_overhead.CLANG), "clang 19 not installed")
class CompilingAloneTest(unittest.TestCase):
    def test_a_file_with_a_missing_header_is_left_out_with_a_note(self):
        with tempfile.TemporaryDirectory() as tmp:
            good = os.path.join(tmp, "good.cu")
            bad = os.path.join(tmp, "bad.cu")
            with open(good, "w") as f:
                f.write("__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n")
            with open(bad, "w") as f:
                f.write('#include "written_by_a_run_line.h"\n'
                        "__global__ void k(float *x) { x[threadIdx.x] = SCALE; }\n")
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


if __name__ == "__main__":
    unittest.main()
