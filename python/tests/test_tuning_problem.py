"""Problem specs: expressions, Kernel Tuner's launch geometry, and the committed specs."""

import json
import os
import unittest

from energy import param_expr, tuning_problem
from energy.dataset import DatasetError
from energy.tuning_cache import read_tuning_cache

from tests import util


class ParamExprTest(unittest.TestCase):
    def test_arithmetic_and_logic(self):
        values = {"a": 3, "b": 4}
        self.assertEqual(param_expr.evaluate("a*b+1", values), 13)
        self.assertEqual(param_expr.evaluate("a // 2 + b % 3 - 2**a", values), -6)
        self.assertTrue(param_expr.evaluate("a < b <= 4 and not a == b", values))
        self.assertEqual(param_expr.evaluate("7 if a == 3 else 9", values), 7)
        self.assertEqual(param_expr.evaluate("max(a, b) - min(a, 1)", values), 3)

    def test_short_circuit_as_python(self):
        # The script's `lu and tile % lu != 0` must not divide by zero when lu is 0.
        self.assertFalse(param_expr.evaluate("lu and t % lu != 0", {"lu": 0, "t": 4}))
        self.assertTrue(param_expr.evaluate("0 or t", {"t": 4}))

    def test_rejects_anything_else(self):
        for text in ("__import__('os')", "a.b", "[a]", "open('x')", "'text'", "a if"):
            with self.assertRaises(param_expr.ExprError, msg=text):
                param_expr.evaluate(text, {"a": 1})
        with self.assertRaisesRegex(param_expr.ExprError, "unknown parameter 'c'"):
            param_expr.evaluate("c + 1", {"a": 1})


class LaunchGeometryTest(util.TempDirTest):
    def spec(self, **fields):
        base = {"name": "t", "transcribes": "x.py", "language": "cuda", "sources": ["x.cu"],
                "kernel": "k", "problem_size": [1000, 100], "restrictions": [],
                "caches": [], "default": None}
        base.update(fields)
        return tuning_problem.load(self.write("t.json", json.dumps(base)))

    def test_divisors_and_ceiling(self):
        problem = self.spec(grid_div_x=["bx", "tx"], grid_div_y=["by"],
                            block_size_names=["bx", "by", "bz"])
        config = {"bx": 32, "tx": 3, "by": 8}
        self.assertEqual(problem.block(config), [32, 8, 1])
        self.assertEqual(problem.grid(config), [11, 13, 1])   # ceil(1000/96), ceil(100/8)

    def test_default_divisor_is_the_block_size(self):
        problem = self.spec()
        self.assertEqual(problem.grid({"block_size_x": 64}), [16, 100, 1])

    def test_problem_size_expression_and_restrictions(self):
        problem = self.spec(problem_size=[64, "64 if col == 0 else n * block_size_y"],
                            restrictions=["col == 1 or n == 1"])
        self.assertEqual(problem.grid({"block_size_x": 32, "block_size_y": 2,
                                       "col": 1, "n": 4}), [2, 4, 1])
        self.assertEqual(problem.violated({"col": 0, "n": 2}), ["col == 1 or n == 1"])

    def test_bad_spec(self):
        with self.assertRaisesRegex(DatasetError, "t.json: 'x.y': Attribute is not allowed"):
            self.spec(restrictions=["x.y"])
        with self.assertRaisesRegex(DatasetError, "language must be one of"):
            self.spec(language="fortran")
        with self.assertRaisesRegex(DatasetError, r"no-such.json: cannot read.*problems: "):
            tuning_problem.load("no-such")


class CommittedSpecsTest(unittest.TestCase):
    """Each spec transcribes its script faithfully enough for its measured caches."""

    def test_caches_agree_with_their_spec(self):
        for name in tuning_problem.available():
            problem = tuning_problem.load(name)
            for source in problem.sources:
                if not os.path.exists(source):
                    self.skipTest(f"{source}: the shared data is not here")
            for path in problem.caches:
                with self.subTest(problem=name, cache=os.path.basename(path)):
                    cache = read_tuning_cache(path)
                    self.assertEqual(cache.kernel_name, problem.kernel)
                    if isinstance(cache.problem_size, (int, list)):
                        size = cache.problem_size
                        size = [size] if isinstance(size, int) else size
                        self.assertEqual(size + [1] * (3 - len(size)), problem.problem_size)
                    configs = cache.frame[cache.params].drop_duplicates()
                    for config in configs.to_dict("records"):
                        self.assertEqual(problem.violated(config), [], config)
                        self.assertTrue(all(g >= 1 for g in problem.grid(config)))
                    if problem.default:
                        self.assertEqual(sorted(problem.default), sorted(cache.params))
