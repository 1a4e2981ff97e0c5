"""Pareto front of (time, energy), both minimized: hand-computed cases."""

import unittest

from energy.pareto import pareto_front


class ParetoTest(unittest.TestCase):
    def test_front(self):
        #           0    1    2    3    4
        time = [3.0, 1.0, 2.0, 4.0, 2.5]
        energy = [1.0, 5.0, 2.0, 1.0, 3.0]
        # 3 is dominated by 0 (same energy, slower); 4 by 2.
        self.assertEqual(pareto_front(time, energy).tolist(), [1, 2, 0])

    def test_single_and_identical_points(self):
        self.assertEqual(pareto_front([1.0], [1.0]).tolist(), [0])
        self.assertEqual(pareto_front([1.0, 1.0], [2.0, 2.0]).tolist(), [0])

    def test_equal_time_keeps_lower_energy(self):
        self.assertEqual(pareto_front([1.0, 1.0], [3.0, 2.0]).tolist(), [1])

    def test_shape_mismatch(self):
        with self.assertRaises(ValueError):
            pareto_front([1.0, 2.0], [1.0])
