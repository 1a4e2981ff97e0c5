"""Pareto front of (time, energy) points, both minimized."""

import numpy as np


def pareto_front(time, energy):
    """Indices of the non-dominated points, in order of increasing time.

    A point is dominated when another is no worse in both coordinates and better in one.
    Of several identical points only the first is kept.
    """
    time = np.asarray(time, dtype=float)
    energy = np.asarray(energy, dtype=float)
    if time.shape != energy.shape or time.ndim != 1:
        raise ValueError("time and energy must be 1-D arrays of the same length")
    # Sort by time, then energy; a stable sort keeps the first of identical points first.
    order = np.lexsort((energy, time))
    front = []
    best_energy = np.inf
    for i in order:
        if energy[i] < best_energy:
            front.append(int(i))
            best_energy = energy[i]
    return np.array(front, dtype=int)
