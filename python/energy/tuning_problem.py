"""A tuning problem: what a tuning script launched, transcribed into a JSON spec.

Specs live in data/kernel-tuner/problems/; each names the script it transcribes, and its
paths are relative to the repository root. Launch geometry follows Kernel Tuner:
block = the values of `block_size_names` (missing ones are 1), and per dimension
grid = ceil(problem_size / product of that dimension's grid divisors), where a dimension
without divisors is divided by its block size. Problem sizes, divisors and restrictions
are expressions over the parameters (energy.param_expr).
"""

import dataclasses
import glob
import json
import math
import os

from energy import param_expr
from energy.dataset import DatasetError
from energy.tuning_cache import REPO_ROOT

PROBLEMS_DIR = os.path.join(REPO_ROOT, "data", "kernel-tuner", "problems")
BLOCK_SIZE_NAMES = ["block_size_x", "block_size_y", "block_size_z"]
LANGUAGES = ("cuda", "opencl")


@dataclasses.dataclass
class TuningProblem:
    name: str
    spec: str                 # the spec file
    transcribes: str          # the tuning script, relative to the repository root
    language: str             # "cuda" or "opencl"
    sources: list             # absolute paths, in the order the script joins them
    kernel: str
    problem_size: list        # 3 expressions
    grid_div: list            # 3 lists of expressions, or None for "the block size"
    block_size_names: list    # 3 names
    restrictions: list
    flags: list               # extra compiler flags of the script
    default_extent: int       # -energy-default-extent, or None
    default: dict             # the default configuration, or None
    caches: list              # absolute paths
    notes: list
    # How the measured binaries were built: {"compiler": "nvcc" | "nvrtc" | ...,
    # "flags": [...]}, or None (energy.measured_build)
    measured_build: dict = None

    def block(self, config):
        return [int(config.get(name, 1)) for name in self.block_size_names]

    def grid(self, config):
        """Blocks per dimension, as Kernel Tuner computes them."""
        grid = []
        for size, divisors, name in zip(self.problem_size, self.grid_div,
                                        self.block_size_names):
            if divisors is None:
                divisor = config.get(name, 1)
            else:
                divisor = math.prod(int(self._value(d, config)) for d in divisors)
            grid.append(math.ceil(self._value(size, config) / divisor))
        return grid

    def violated(self, config):
        """The restrictions `config` does not satisfy."""
        return [r for r in self.restrictions if not self._value(r, config)]

    def _value(self, expression, config):
        try:
            return param_expr.evaluate(str(expression), config)
        except (param_expr.ExprError, ArithmeticError) as e:
            raise DatasetError(f"{self.spec}: {e}") from None


def available():
    """Names of the committed problem specs."""
    return sorted(os.path.splitext(os.path.basename(p))[0]
                  for p in glob.glob(os.path.join(PROBLEMS_DIR, "*.json")))


def load(name_or_path):
    """The problem spec named `name` (in PROBLEMS_DIR) or at a path ending in .json."""
    path = name_or_path if name_or_path.endswith(".json") else \
        os.path.join(PROBLEMS_DIR, name_or_path + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
    except OSError as e:
        known = ", ".join(available())
        raise DatasetError(f"{path}: cannot read: {e.strerror} (problems: {known})") from None
    except ValueError as e:
        raise DatasetError(f"{path}: invalid JSON: {e}") from None

    def need(key, kind):
        value = spec.get(key)
        if not isinstance(value, kind):
            raise DatasetError(f"{path}: '{key}' must be a {kind.__name__}")
        return value

    def repo_path(relative):
        return os.path.normpath(os.path.join(REPO_ROOT, relative))

    language = need("language", str)
    if language not in LANGUAGES:
        raise DatasetError(f"{path}: language must be one of {', '.join(LANGUAGES)}")
    size = need("problem_size", list)
    if not 1 <= len(size) <= 3:
        raise DatasetError(f"{path}: problem_size must have 1 to 3 entries")
    default = spec.get("default")
    if default is not None and not isinstance(default, dict):
        raise DatasetError(f"{path}: 'default' must be an object or null")
    build = spec.get("measured_build")
    if build is not None and not (isinstance(build, dict) and
                                  isinstance(build.get("compiler"), str) and
                                  isinstance(build.get("flags", []), list)):
        raise DatasetError(f"{path}: 'measured_build' must be an object with a 'compiler' "
                           f"string and an optional 'flags' list")
    problem = TuningProblem(
        name=need("name", str), spec=path, transcribes=need("transcribes", str),
        language=language, sources=[repo_path(s) for s in need("sources", list)],
        kernel=need("kernel", str), problem_size=size + [1] * (3 - len(size)),
        grid_div=[spec.get(f"grid_div_{d}") for d in "xyz"],
        block_size_names=spec.get("block_size_names", BLOCK_SIZE_NAMES),
        restrictions=need("restrictions", list), flags=spec.get("flags", []),
        default_extent=spec.get("default_extent"), default=default,
        caches=[repo_path(c) for c in need("caches", list)], notes=spec.get("notes", []),
        measured_build=build)
    expressions = [*problem.restrictions, *(str(s) for s in problem.problem_size),
                   *(d for ds in problem.grid_div if ds for d in ds)]
    for expression in expressions:
        try:
            param_expr.parse(str(expression))
        except param_expr.ExprError as e:
            raise DatasetError(f"{path}: {e}") from None
    return problem
