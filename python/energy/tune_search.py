"""Search strategies of the tuning loop (energy.tune) over a fixed list of candidates.

Each strategy proposes one candidate at a time (`propose()`, an index, or None to stop)
and is told what its measurement gave (`observe(index, seconds)`, None for a failed
one). The loop never measures a candidate twice; a strategy that revisits one (the
annealing walk) gets its earlier value back without a new measurement. Every strategy
is a deterministic function of its seed and the values it was told, so a resumed run
replays the same sequence.

- `guided`: the plugin's prediction corrected per kernel from the measurements: a
  Gaussian process over the configuration parameters on the log-space residual
  log(measured) - log(predicted), its kernel (joint or additive over the parameters) and
  length scale those of highest marginal likelihood; the next candidate maximizes the
  expected improvement over the best measured time. It stops when no candidate left can
  beat the best measured by more than the measurement noise (GuidedSearch.stop_reason).
- `random`: uniform without replacement.
- `annealing`: model-free simulated annealing as Kernel Tuner's strategy does it (start
  at a random configuration, move to a random neighbour: one that differs in one
  parameter, accepted with probability exp((old - new) / old / T), T from 1 to 0.001 by
  a factor 0.995 per step, restarting at a random configuration when T runs out).
"""

import math

import numpy as np
import scipy.stats

STRATEGIES = ("guided", "random", "annealing")
# The prior spread of the plugin's error on an unmeasured candidate, log space (a factor
# of e^0.5 = 1.65: the size of the top-1 errors the plugin makes on held-out boards).
PRIOR_LOG_SD = 0.5
# How many measurements the prior spread counts for against the spread measured.
PRIOR_WEIGHT = 4
# The confidence of the stop rule: a candidate can still win while its corrected
# prediction minus STOP_Z standard deviations beats the best measured.
STOP_Z = 2.0
# The residual model's shapes: a joint kernel over all parameters (a measurement informs
# the candidates near it in every parameter) or an additive one, the mean of one kernel
# per parameter (main effects: it informs every candidate sharing a parameter's value);
# and length scales (in units of each parameter's normalized range). The marginal
# likelihood picks one once MIN_FIT points are measured.
KERNEL_KINDS = ("joint", "additive")
LENGTH_SCALES = (0.15, 0.3, 0.6, 1.2)
# The share of the residual's variance that varies smoothly with the parameters; the
# rest is each configuration's own (what no measurement of its neighbours tells), so
# that an unmeasured candidate never looks certain.
SMOOTH_SHARE = 0.5
MIN_FIT = 4
DEFAULT_SHAPE = ("joint", 0.6)


def parameter_matrix(configs):
    """Each config as a point in [0, 1]^d: per parameter that varies, its value's rank
    position on a log2 scale where all values are positive numbers, else by sort order."""
    names = [n for n in configs[0] if len({repr(c[n]) for c in configs}) > 1]
    columns = []
    for name in names:
        values = [c[name] for c in configs]
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        if numeric and all(v > 0 for v in values):
            column = np.log2(np.asarray(values, float))
        elif numeric:
            column = np.asarray(values, float)
        else:
            order = {v: i for i, v in enumerate(sorted({repr(v) for v in values}))}
            column = np.asarray([order[repr(v)] for v in values], float)
        span = column.max() - column.min()
        columns.append((column - column.min()) / span if span > 0 else column * 0)
    if not columns:
        return np.zeros((len(configs), 1))
    return np.stack(columns, axis=1)


class Search:
    """What every strategy shares: the candidates and what was measured."""

    def __init__(self, candidates, seed):
        self.candidates = candidates
        self.rng = np.random.default_rng(seed)
        self.values = {}            # index -> seconds, or None (failed)

    def observe(self, index, seconds):
        self.values[index] = seconds

    def unmeasured(self):
        return [i for i in range(len(self.candidates)) if i not in self.values]

    def best(self):
        ok = [v for v in self.values.values() if v is not None]
        return min(ok) if ok else None

    def stop_reason(self):
        return None if self.unmeasured() else "every candidate was measured"


class RandomSearch(Search):
    def __init__(self, candidates, seed):
        super().__init__(candidates, seed)
        self.order = [int(i) for i in self.rng.permutation(len(candidates))]

    def propose(self):
        return next((i for i in self.order if i not in self.values), None)


class AnnealingSearch(Search):
    """Kernel Tuner's simulated annealing (strategies/simulated_annealing.py) with its
    defaults T = 1, T_min = 0.001, alpha = 0.995, one iteration per temperature."""
    T_START, T_MIN, ALPHA = 1.0, 0.001, 0.995
    # Steps through already measured configurations before the walk gives up.
    MAX_FREE_STEPS = 100000

    def __init__(self, candidates, seed):
        super().__init__(candidates, seed)
        configs = [c["config"] for c in candidates]
        self.names = list(configs[0])
        self.index_of = {self._key(c): i for i, c in enumerate(configs)}
        self.values_of = {n: sorted({c[n] for c in configs}, key=repr) for n in self.names}
        self.position = None
        self.temperature = self.T_START
        self.pending = None

    @staticmethod
    def _key(config):
        return tuple(sorted((k, repr(v)) for k, v in config.items()))

    def _cost(self, index):
        value = self.values.get(index)
        return math.inf if value is None else value

    def _neighbours(self, index):
        config = self.candidates[index]["config"]
        found = []
        for name in self.names:
            for value in self.values_of[name]:
                if value != config[name]:
                    other = self.index_of.get(self._key({**config, name: value}))
                    if other is not None:
                        found.append(other)
        return found

    def _random_start(self):
        left = self.unmeasured()
        return int(self.rng.choice(left)) if left else None

    def propose(self):
        if self.position is None:
            return self._random_start()
        for _ in range(self.MAX_FREE_STEPS):
            if self.temperature < self.T_MIN:
                self.temperature = self.T_START
                return self._random_start()
            neighbours = self._neighbours(self.position)
            if not neighbours:
                return self._random_start()
            candidate = int(self.rng.choice(neighbours))
            self.temperature *= self.ALPHA
            if candidate not in self.values:
                self.pending = candidate
                return candidate
            self._move(candidate)        # a revisit costs no measurement
        return self._random_start()

    def observe(self, index, seconds):
        super().observe(index, seconds)
        if index != self.pending:
            self.position = index        # a (re)start
        else:
            self._move(index)
        self.pending = None

    def _move(self, candidate):
        old, new = self._cost(self.position), self._cost(candidate)
        if old == math.inf:
            probability = 1.0
        elif new == math.inf:
            probability = 0.0
        elif new < old:
            probability = 1.0
        else:
            probability = math.exp((old - new) / old / self.temperature)
        if probability > self.rng.random():
            self.position = candidate


class GuidedSearch(Search):
    """The plugin's ranking, corrected per kernel as measurements come in."""

    def __init__(self, candidates, seed, noise):
        super().__init__(candidates, seed)
        self.noise = noise
        self.points = parameter_matrix([c["config"] for c in candidates])
        predicted = np.array([c.get("predicted_s") or np.nan for c in candidates], float)
        known = predicted[np.isfinite(predicted) & (predicted > 0)]
        # A candidate without a prediction ranks with the slowest predicted one.
        fallback = known.max() if known.size else 1.0
        predicted[~(np.isfinite(predicted) & (predicted > 0))] = fallback
        self.log_predicted = np.log(predicted)

    def posterior(self):
        """(mean, sd) of every candidate's log time: the prediction plus the residual
        model's mean and spread."""
        measured = [(i, v) for i, v in self.values.items() if v is not None]
        if not measured:
            return self.log_predicted.copy(), np.full(len(self.candidates), PRIOR_LOG_SD)
        index = np.array([i for i, _ in measured])
        residual = np.log([v for _, v in measured]) - self.log_predicted[index]
        offset = residual.mean()
        centred = residual - offset
        # The residual spread: the prior's, weighed as PRIOR_WEIGHT measurements, pooled
        # with the spread this kernel shows (a conjugate estimate of a variance), so that
        # a few close residuals do not make the model sure of itself.
        sd = max(math.sqrt((PRIOR_WEIGHT * PRIOR_LOG_SD ** 2 + float(np.sum(centred ** 2)))
                           / (PRIOR_WEIGHT + len(measured) - 1)), 2 * self.noise)
        noise_var = self.noise ** 2
        shape = self._shape(index, centred, sd, noise_var)
        k = self._train_matrix(index, shape, sd, noise_var)
        cross = sd ** 2 * SMOOTH_SHARE * self._kernel(self.points, self.points[index], shape)
        solved = np.linalg.solve(k, np.column_stack([centred, cross.T]))
        mean = self.log_predicted + offset + cross @ solved[:, 0]
        var = sd ** 2 - np.einsum("ij,ji->i", cross, solved[:, 1:])
        return mean, np.sqrt(np.maximum(var, noise_var))

    def _train_matrix(self, index, shape, sd, noise_var):
        x = self.points[index]
        smooth = SMOOTH_SHARE * self._kernel(x, x, shape)
        return sd ** 2 * (smooth + (1 - SMOOTH_SHARE) * np.eye(len(index))) \
            + noise_var * np.eye(len(index))

    @staticmethod
    def _kernel(a, b, shape):
        kind, length = shape
        squared = (a[:, None, :] - b[None, :, :]) ** 2
        if kind == "additive":
            return np.exp(-squared / (2 * length ** 2)).mean(axis=2)
        return np.exp(-squared.sum(axis=2) / (2 * length ** 2))

    def _shape(self, index, centred, sd, noise_var):
        """The kernel kind and length scale of the highest marginal likelihood, once
        MIN_FIT points are measured; before that the default."""
        if len(index) < MIN_FIT:
            return DEFAULT_SHAPE
        best, chosen = -math.inf, DEFAULT_SHAPE
        for shape in [(kind, length) for kind in KERNEL_KINDS for length in LENGTH_SCALES]:
            k = self._train_matrix(index, shape, sd, noise_var)
            sign, logdet = np.linalg.slogdet(k)
            likelihood = -0.5 * centred @ np.linalg.solve(k, centred) - 0.5 * logdet
            if sign > 0 and likelihood > best:
                best, chosen = likelihood, shape
        return chosen

    def propose(self):
        left = self.unmeasured()
        if not left:
            return None
        mean, sd = self.posterior()
        best = self.best()
        if best is None:
            # Nothing measured yet (or only failures): the lowest corrected prediction.
            return min(left, key=lambda i: (mean[i], i))
        gap = math.log(best) - mean[left]
        z = gap / sd[left]
        improvement = gap * scipy.stats.norm.cdf(z) + sd[left] * scipy.stats.norm.pdf(z)
        order = np.lexsort((np.array(left), mean[left], -improvement))
        return left[int(order[0])]

    def stop_reason(self):
        """Why no remaining candidate is worth measuring, or None.

        The rule: stop when every unmeasured candidate's optimistic time, exp(mean -
        STOP_Z sd) of its corrected log prediction, is above the best measured time
        shortened by the measurement noise: none can beat the best by more than the noise.
        """
        left = self.unmeasured()
        if not left:
            return "every candidate was measured"
        best = self.best()
        if best is None:
            return None
        mean, sd = self.posterior()
        optimistic = np.exp(mean[left] - STOP_Z * sd[left])
        if optimistic.min() >= best * (1 - self.noise):
            return (f"no remaining candidate can beat the best measured by more than the "
                    f"noise ({self.noise:.0%}; {STOP_Z:g} sd bound)")
        return None


def make(strategy, candidates, seed, noise):
    if strategy == "guided":
        return GuidedSearch(candidates, seed, noise)
    if strategy == "random":
        return RandomSearch(candidates, seed)
    if strategy == "annealing":
        return AnnealingSearch(candidates, seed)
    raise ValueError(f"unknown strategy {strategy!r}")
