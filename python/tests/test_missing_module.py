"""A missing third-party module is a one-line error naming its Debian package."""
import os
import subprocess
import sys
import unittest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def run_without(module, tool):
    # None in sys.modules makes `import module` raise ModuleNotFoundError.
    code = (f"import sys; sys.modules[{module!r}] = None; import runpy; "
            f"runpy.run_module({tool!r}, run_name='__main__')")
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    return subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True,
                          text=True, env=env, timeout=120)


class MissingModule(unittest.TestCase):
    def test_each_tool_names_the_package(self):
        for module, tool, package in (("numpy", "energy.kt_eval", "python3-numpy"),
                                      ("pandas", "energy.dataset", "python3-pandas"),
                                      ("xgboost", "energy.train", "python3-xgboost"),
                                      ("scipy", "energy.calibrate", "python3-scipy")):
            with self.subTest(tool=tool, module=module):
                done = run_without(module, tool)
                self.assertEqual(done.returncode, 1, done.stderr)
                self.assertEqual(done.stderr.strip().splitlines(),
                                 [f"error: this needs the Python module '{module}' "
                                  f"(apt-get install {package})"])

    def test_other_errors_keep_their_traceback(self):
        code = "import energy; raise ModuleNotFoundError('no module named foo', name='foo')"
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, timeout=60)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()
