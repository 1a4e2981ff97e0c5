"""Dataset rows from the measurements of a tuning run, for `energy.train --update`.

    python3 -m energy.tuning_rows RUN.json [--problem PROBLEM] [--board NAME]
                                  [--cache FILE] [--plugin SO | --features-from ROWS...]
                                  -o ROWS.jsonl
    python3 -m energy.tuning_rows --simulate --features-from ROWS... --measure K
                                  [--pick predicted|random] [--seed S] [--kernel K]
                                  [--board NAME] -o ROWS.jsonl
    python3 -m energy.tuning_rows --simulate --cache FILE --problem PROBLEM --measure K
                                  [--pick random|predicted] [--seed S] -o ROWS.jsonl

RUN.json is what a tuning run writes (energy.tune --json): {"steps": [{"config": {...},
"measured_s": ..., ["energy_j": ...,] "best_s": ...}, ...], "cache_best_s": ...}, plus
optionally "problem", "cache", "board", "kernel". One row per step
(docs/dataset-format.md): the measured time (and energy), never a prediction, with the
cost models' inputs for that launch from one of two places:
- --plugin (default build/lib/energy.so): the configuration compiled through the plugin
  as energy.kt_eval compiles it (the problem's tunables, the tuner's block and grid, the
  measured build's registers), so the rows fit the plugin that will load the model;
- --features-from ROWS: rows that already carry those inputs for the same (kernel,
  board, configuration), e.g. data/kernel-tuner/rows/kt-rows.jsonl or
  data/h100-corpus-sweep/h100-rows.jsonl (refreshed to this build by energy-model-eval
  --refresh): no compile.
Provenance: each row's `tuning_run` names the run file (sha256), the step, and how the
time was measured (`kind`: `gpu` on the user's GPU, `replay` looked up in a measured
cache, `simulated`: see below); `source` names the cache a replay looked up.

--simulate stands in for tuning runs where none was made: per (kernel, board) it takes
the K configurations a run would measure out of a measured set (the rows of
--features-from, or a Kernel Tuner cache with --problem): the plugin's K predicted
fastest (`predicted`, what a model-guided run measures first; the analytic time of the
rows, or the plugin's prediction of every cache configuration, which compiles them all)
or K drawn at random with --seed (`random`). The times are those the cache measured.
"""

import argparse
import dataclasses
import json
import os
import sys
import zlib

import numpy as np

from energy import dataset, jsonl, kt_eval, measured_build, plugin_compile, tuning_problem
from energy.dataset import DatasetError
from energy.tuning_cache import REPO_ROOT, read_tuning_cache

PICKS = ("predicted", "random")
KINDS = ("gpu", "replay", "simulated")
# Top-level fields of a run that shared/MEASURE.md asks a dataset to carry; copied
# into every row where the run states them (a run on the user's GPU).
RUN_PROVENANCE = ("device_name", "driver", "cuda", "date", "method", "sm_clock_mhz",
                  "mem_clock_mhz", "temp_start_c", "temp_end_c", "idle_power_w")
# Names a step may give its measured energy.
STEP_ENERGY = ("energy_j", "measured_j")


@dataclasses.dataclass
class Step:
    config: object            # the tunables (dict), or a configuration name (str)
    measured_s: float
    energy_j: float = None


@dataclasses.dataclass
class TuningRun:
    """The measurements of one run on one (kernel, board)."""
    steps: list
    kind: str                 # one of KINDS
    kernel: str = None
    board: str = None
    problem: str = None       # a tuning problem spec (energy.tuning_problem)
    cache: str = None         # the measured cache a replay or simulation looked up
    record: dict = None       # this run's `tuning_run` provenance, without the step
    provenance: dict = dataclasses.field(default_factory=dict)


def _relative(path):
    """Paths under the repository (or beside it, as ../shared) relative to its root."""
    return os.path.relpath(os.path.abspath(path), REPO_ROOT)


def _positive(where, key, value, required=True):
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or value != value or value == float("inf"):
        raise DatasetError(f"{where}: '{key}' must be a positive number")
    return float(value)


def read_run(path, problem=None, board=None, cache=None, kernel=None):
    """A TuningRun from a run file; the arguments win over the file's own fields."""
    doc = jsonl.read_json(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("steps"), list):
        raise DatasetError(f"{path}: not a tuning run (no 'steps' list)")
    steps = []
    for number, step in enumerate(doc["steps"]):
        where = f"{path}: step {number}"
        if not isinstance(step, dict) or not isinstance(step.get("config"), (dict, str)):
            raise DatasetError(f"{where}: 'config' must be an object or a name")
        energy = next((step[k] for k in STEP_ENERGY if step.get(k) is not None), None)
        steps.append(Step(step["config"], _positive(where, "measured_s", step.get("measured_s")),
                          _positive(where, "energy_j", energy, required=False)))
    fields = {}
    for key, given in (("problem", problem), ("board", board), ("cache", cache),
                       ("kernel", kernel)):
        value = given if given is not None else doc.get(key)
        if value is not None and not isinstance(value, str):
            raise DatasetError(f"{path}: '{key}' must be a string")
        fields[key] = value
    record = {"file": _relative(path), "sha256": dataset.sha256_of(path)}
    record.update({k: doc[k] for k in ("seed", "budget") if k in doc})
    return TuningRun(steps=steps, kind="replay" if fields["cache"] else "gpu", record=record,
                     provenance={k: doc[k] for k in RUN_PROVENANCE if k in doc}, **fields)


def cache_source(path):
    """The `source` of rows measured in `path`: the file, and where a tuner's cache came
    from when energy.tuning_cache can read it."""
    source = {"file": _relative(path), "sha256": dataset.sha256_of(path)}
    try:
        cache = read_tuning_cache(path)
    except DatasetError:
        return source   # another measured format (energy-bench rows): the file says it
    source.update({"format": cache.format, "repository": cache.repository,
                   "commit": cache.commit, "device_name": cache.device_name})
    return source


def config_name(config):
    """Kernel Tuner's cache key of a tunables dict (its values joined by commas), or the
    name itself."""
    return config if isinstance(config, str) else ",".join(str(v) for v in config.values())


class PoolFeatures:
    """Model inputs looked up in rows that already carry them (energy.kt_eval --rows,
    energy.bench_rows), by kernel, board and configuration."""

    def __init__(self, paths):
        self.rows = {}
        for path in paths:
            for line, row in jsonl.read_objects(path):
                if row.get("status") != "ok" or not isinstance(row.get("features"), dict):
                    continue
                row = {**row, "rows_file": _relative(path)}
                self.rows.setdefault((row.get("kernel"), row.get("gpu")), []).append(row)
        if not self.rows:
            raise DatasetError(f"{', '.join(paths)}: no rows with features")

    def pairs(self):
        return sorted(self.rows)

    def candidates(self, kernel, board):
        return self.rows.get((kernel, board), [])

    def __call__(self, kernel, board, config):
        """The row of `config` (a name or a tunables dict)."""
        rows = self.candidates(kernel, board)
        if not rows:
            known = ", ".join(f"{k} on {b}" for k, b in self.pairs())
            raise DatasetError(f"no rows with features for {kernel} on {board} "
                               f"(the rows have {known})")
        if isinstance(config, str):
            found = [r for r in rows if r["config"] == config]
        else:
            found = [r for r in rows if r.get("params") == config
                     or r["config"] == config_name(config)]
        if len(found) != 1:
            what = "no row" if not found else f"{len(found)} rows"
            raise DatasetError(f"{what} with features for {kernel} on {board}, "
                               f"configuration {json.dumps(config)}")
        return found[0]


class PluginFeatures:
    """Model inputs of a problem's configurations compiled through the plugin, as
    energy.kt_eval compiles them."""

    def __init__(self, problem, plugin, cache_dir):
        self.problem = problem
        self.tools = plugin_compile.toolchain(plugin)
        self.cache_dir = cache_dir
        self.nvcc = measured_build.nvcc_identity()
        self.archs = {b["board"]: b["arch"] for b in kt_eval.load_boards().values()}

    def arch(self, board):
        if board not in self.archs:
            raise DatasetError(f"unknown board '{board}' (boards of {kt_eval.BOARDS}: "
                               f"{', '.join(sorted(self.archs))})")
        return self.archs[board]

    def __call__(self, kernel, board, config):
        """A row-like dict of the prediction, or {"status": ..., "error": ...}."""
        if isinstance(config, str):
            raise DatasetError(f"configuration '{config}' of {kernel} is a name: the plugin "
                               f"needs its tunables (give --features-from rows instead)")
        arch = self.arch(board)
        p = kt_eval.predict(self.tools, self.problem, config, board, arch, self.cache_dir,
                            self.nvcc)
        if not p["ok"]:
            return {"status": "no_prediction", "error": p["error"], "arch": arch}
        return {"arch": arch, "problem": self.problem.name, "params": dict(config),
                "analytic_time_s": p["time_s"], "analytic_energy_j": p["energy_j"],
                "launch": {"block": p["block"], "grid_blocks": p["grid_blocks"],
                           "grid": p["grid"]},
                "features": p["model_inputs"], "resources_from": p["resources_from"]}


def dataset_rows(run, features):
    """One row per step of `run`; features(kernel, board, config) gives its inputs."""
    if not run.kernel or not run.board:
        raise DatasetError(f"{run.record.get('file', 'simulated run')}: the run names no "
                           f"{'kernel' if not run.kernel else 'board'} (give --problem "
                           f"or --kernel, and --board)")
    source = cache_source(run.cache) if run.cache else None
    how = {"gpu": "measured by the tuning run on its GPU",
           "replay": "measured (see source), looked up by a replayed tuning run",
           "simulated": "measured (see source); the configurations a tuning run would "
                        "measure, picked by energy.tuning_rows --simulate"}[run.kind]
    rows = []
    for number, step in enumerate(run.steps):
        found = features(run.kernel, run.board, step.config)
        row = {"kernel": run.kernel, "config": found.get("config") or config_name(step.config),
               "arch": found.get("arch"), "gpu": run.board,
               "status": found.get("status", "ok"), "time_s": step.measured_s}
        if step.energy_j is not None:
            row["energy_j"] = step.energy_j
        for key in ("problem", "device_name", "analytic_time_s", "analytic_energy_j",
                    "params", "launch", "features", "resources_from", "error"):
            if key in found:
                row[key] = found[key]
        row["tuning_run"] = {**run.record, "kind": run.kind, "step": number}
        row["method"] = f"{how}; model inputs by the plugin"
        # A replay's cache, else the cache the looked-up row was measured in, else the
        # rows file that holds the measurement (energy-bench's, with its own provenance).
        row["source"] = source or found.get("source") or \
            ({"file": found["rows_file"]} if "rows_file" in found else None)
        if row["source"] is None:
            del row["source"]
        row.update(run.provenance)
        rows.append(row)
    return rows


def pick(candidates, measure, how, seed, key):
    """Indices of the `measure` candidates a run would measure, in the order it would:
    by key(candidate) ascending (`predicted`), or drawn at random (`random`)."""
    count = min(measure, len(candidates))
    if how == "predicted":
        return list(np.argsort([key(c) for c in candidates], kind="stable")[:count])
    rng = np.random.default_rng(seed)
    return [int(i) for i in rng.choice(len(candidates), size=count, replace=False)]


def simulated_pool_runs(pool, measure, how, seed, kernel=None, board=None):
    """A simulated TuningRun per (kernel, board) of the pool (or the one named)."""
    runs = []
    for pair_kernel, pair_board in pool.pairs():
        if kernel not in (None, pair_kernel) or board not in (None, pair_board):
            continue
        rows = pool.candidates(pair_kernel, pair_board)
        # The pair's own stream, so that one pair's draw does not depend on the others.
        chosen = pick(rows, measure, how, [seed, zlib.crc32(f"{pair_kernel}/{pair_board}"
                                                            .encode())],
                      lambda r: r.get("analytic_time_s") or float("inf"))
        steps = [Step(rows[i]["config"], rows[i]["time_s"],
                      rows[i].get("energy_j")) for i in chosen]
        record = {"pick": how, "measure": measure, "seed": seed, "candidates": len(rows)}
        runs.append(TuningRun(steps=steps, kind="simulated", kernel=pair_kernel,
                              board=pair_board, record=record))
    if not runs:
        raise DatasetError(f"no rows for kernel {kernel or 'any'} on board {board or 'any'}")
    return runs


def simulated_cache_run(cache_path, features, measure, how, seed):
    """A simulated TuningRun of a Kernel Tuner / KTT cache: its measured configurations,
    the plugin's inputs compiled as features (PluginFeatures) compiles them."""
    cache = read_tuning_cache(cache_path)
    board = kt_eval.load_boards().get(cache.device_name)
    if board is None:
        raise DatasetError(f"{cache_path}: no board for device '{cache.device_name}' in "
                           f"{kt_eval.BOARDS}")
    configs = kt_eval.measured_configurations(cache).to_dict("records")
    tunables = [{p: c[p] for p in cache.params} for c in configs]
    if how == "predicted":
        predicted = [features(features.problem.kernel, board["board"], t) for t in tunables]
        key = lambda i: predicted[i].get("analytic_time_s") or float("inf")  # noqa: E731
    else:
        key = None
    chosen = pick(list(range(len(configs))), measure, how, seed, key)
    steps = [Step(tunables[i], configs[i]["time_s"], configs[i].get("energy_j"))
             for i in chosen]
    record = {"pick": how, "measure": measure, "seed": seed, "candidates": len(configs)}
    return TuningRun(steps=steps, kind="simulated", kernel=features.problem.kernel,
                     board=board["board"], problem=features.problem.spec, cache=cache_path,
                     record=record)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.tuning_rows",
        description="Dataset rows (with provenance and the plugin's model inputs) from the "
                    "measurements of a tuning run, for energy.train --update.")
    parser.add_argument("run", nargs="?", metavar="RUN.json",
                        help="a tuning run's steps (energy.tune --json)")
    parser.add_argument("-o", "--output", required=True, metavar="ROWS.jsonl",
                        help="rows to write (JSON Lines)")
    parser.add_argument("--problem", help="the tuning problem (data/kernel-tuner/problems/ "
                        "name or PROBLEM.json) whose configurations the run measured")
    parser.add_argument("--board", help="the board measured (a -energy-gpu name)")
    parser.add_argument("--kernel", help="the kernel (default: the problem's)")
    parser.add_argument("--cache", help="the measured cache a replay looked up (its "
                        "provenance goes into the rows)")
    parser.add_argument("--plugin", default=kt_eval.DEFAULT_PLUGIN,
                        help="energy.so that computes the model inputs (default: %(default)s)")
    parser.add_argument("--cache-dir", default=kt_eval.default_cache_dir(),
                        help="compile results cache (default: %(default)s)")
    parser.add_argument("--features-from", nargs="+", metavar="ROWS",
                        help="rows carrying the model inputs of the measured configurations "
                             "(instead of compiling them)")
    parser.add_argument("--simulate", action="store_true",
                        help="no RUN.json: pick the configurations a run would measure "
                             "out of --features-from rows or a --cache")
    parser.add_argument("--measure", type=int, metavar="K",
                        help="with --simulate: configurations per (kernel, board)")
    parser.add_argument("--pick", choices=PICKS, default="predicted",
                        help="with --simulate: the plugin's K predicted fastest, or K at "
                             "random (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="with --simulate --pick random")
    args = parser.parse_args(argv)
    if args.simulate == (args.run is not None):
        parser.error("give either RUN.json or --simulate")
    if args.simulate and (args.measure is None or args.measure < 1):
        parser.error("--simulate needs --measure K, K >= 1")
    try:
        run = None
        if not args.simulate:
            run = read_run(args.run, args.problem, args.board, args.cache, args.kernel)
        spec = args.problem or (run and run.problem)
        problem = tuning_problem.load(spec) if spec else None
        if run is not None and run.kernel is None and problem is not None:
            run.kernel = problem.kernel
        if args.features_from:
            features = PoolFeatures(args.features_from)
        elif problem is not None:
            features = PluginFeatures(problem, args.plugin, args.cache_dir)
        else:
            raise DatasetError("give --problem (the plugin computes the model inputs) or "
                               "--features-from ROWS")
        if run is not None:
            runs = [run]
        elif args.features_from:
            runs = simulated_pool_runs(features, args.measure, args.pick, args.seed,
                                       args.kernel or (problem and problem.kernel), args.board)
        elif args.cache:
            runs = [simulated_cache_run(args.cache, features, args.measure, args.pick,
                                        args.seed)]
        else:
            raise DatasetError("--simulate needs --features-from ROWS, or --cache FILE "
                               "with --problem")
        rows = [row for run in runs for row in dataset_rows(run, features)]
        kt_eval.write_rows(args.output, rows)
    except (DatasetError, plugin_compile.ToolchainError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    failed = sum(row["status"] != "ok" for row in rows)
    print(f"wrote {args.output}: {len(rows)} row(s) of {len(runs)} run(s)"
          + (f", {failed} without a prediction (status no_prediction)" if failed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
