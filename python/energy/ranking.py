"""How well predictions rank the configurations of one (kernel, board) pair.

Shared by energy.kt_eval (the plugin against auto-tuner measurements) and
energy.crossval (the learned variants out of sample), so that both report the same
Spearman and top-1 regret.
"""

import warnings

import numpy as np
import scipy.stats

# Predictions this close count as a tie for the predicted best.
TIE_RTOL = 1e-9


def correlation(function, measured, predicted):
    """function(measured, predicted)'s coefficient (scipy.stats.spearmanr, kendalltau),
    or None where undefined (fewer than 2 values, a constant input)."""
    if len(measured) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # constant input: undefined, reported as None
        value = function(measured, predicted)[0]
    return float(value) if np.isfinite(value) else None


def spearman(measured, predicted):
    return correlation(scipy.stats.spearmanr, measured, predicted)


def predicted_best(predicted):
    """Indices of the configs tied for the lowest (positive) prediction."""
    predicted = np.asarray(predicted, float)
    return np.flatnonzero(predicted <= predicted.min() * (1 + TIE_RTOL))


def choose_with_min_gain(predicted, incumbent, min_gain):
    """(index, kept) that the plugin's rule picks (chooseCandidate, Objective.h): the
    predicted best (the first of ties), unless the incumbent's prediction is within
    min_gain of it; kept says the incumbent stayed for that reason."""
    best = int(predicted_best(predicted)[0])
    if best != incumbent and predicted[incumbent] * (1 - min_gain) <= predicted[best]:
        return incumbent, True
    return best, False


def pick_metrics(measured, picks):
    """Expected regret and percentile of a pick drawn uniformly from `picks`: the regret
    is its measured value / the best measured one, the percentile the percent of configs
    measured better (0 = the best)."""
    measured = np.asarray(measured, float)
    faster = np.array([np.sum(measured < measured[i]) for i in picks], float)
    return {"regret": float(np.mean(measured[picks]) / measured.min()),
            "percentile": float(100 * np.mean(faster) / max(1, len(measured) - 1))}
