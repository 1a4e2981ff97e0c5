"""Score the plugin's predictions against search spaces measured by auto-tuners.

    python3 -m energy.kt_eval [PROBLEM...] [--sample N] [--seed S] [-j N]
                              [--json FILE] [--plot FILE] [--rows FILE] [--plugin SO]
                              [--cache-dir DIR] [--resources measured|clang]
                              [--free-choice] [--min-gain G]

For each problem (data/kernel-tuner/problems/*.json, all by default) and each of its
measured caches, a seeded sample of the valid configurations (always with the default
configuration, where measured, and the measured best) is compiled through the plugin
with the tuner's block and grid forced (energy.plugin_compile). Per (kernel, board):
- Spearman and Kendall rank correlation of predicted and measured time;
- top-1 regret: the measured time of a pick divided by the sample's best, and its
  percentile: the percent of the sample measured faster than the pick (0 = the best),
  for the plugin's pick (the predicted fastest), a random pick (expected value), the
  configuration with the highest occupancy in the plugin's report and the default;
- the plugin's pick itself. Tied picks count by their mean.
Where the cache measured energy (nvml_energy, ps_energy), the same with energy.

--free-choice also compiles every measured configuration that differs from the default
only in its block (the choice a free search has for a kernel whose tunables are macros:
the block), and applies the plugin's rule: the predicted fastest, unless it is predicted
to beat the default by no more than --min-gain (default 0.1, the plugin's default), in
which case the default stays. Reported per pair with a measured default: that choice's
measured time against the default's and against the fastest of those blocks.

Registers and spills (--resources): `measured` (default) states to the plugin those of the
build the tuner measured, where the problem names it and that compiler runs here (nvcc;
energy.measured_build); otherwise, and with `clang`, the plugin takes ptxas's on clang's
build. Each configuration records which (`resources_from`).

--rows FILE writes every compiled configuration as a dataset row
(docs/dataset-format.md): the cost models' inputs for that launch, as the plugin computed
them, with the measured time (and energy), the board, and where the measurement came from.
These are the training rows of `python3 -m energy.train`.
"""

import argparse
import collections
import concurrent.futures
import importlib.util
import json
import math
import os
import sys
import zlib

import numpy as np
import scipy.stats

from energy import jsonl, measured_build, plugin_compile, ranking, tuning_problem
from energy.dataset import DatasetError
from energy.ranking import correlation, pick_metrics, predicted_best
from energy.tuning_cache import REPO_ROOT, read_tuning_cache

FORMAT = "energy-kt-eval-v1"
BOARDS = os.path.join(REPO_ROOT, "data", "kernel-tuner", "boards.json")
DEFAULT_PLUGIN = os.path.join(REPO_ROOT, "build", "lib", "energy.so")
STRATEGIES = ("plugin", "random", "max_occupancy", "default")
# The plugin's default -energy-min-gain (ObjectiveSpec::MinGain, Objective.h).
MIN_GAIN = 0.10


def default_cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "energy", "kt-eval")


def measured_configurations(cache):
    """One row per configuration: mean measured values over repeated runs."""
    frame = cache.frame
    measured = [c for c in ("time_s", "energy_j") if frame[c].notna().all()]
    grouped = frame.groupby("config", sort=True)
    merged = grouped[cache.params].first()
    for column in measured:
        merged[column] = grouped[column].mean()
    if "registers" in frame and frame["registers"].notna().any():
        merged["registers"] = grouped["registers"].first()
    merged["runs"] = grouped.size()
    return merged.reset_index()


def config_key(config, params):
    return ",".join(str(config[p]) for p in params)


def sample_indices(count, size, rng, keep):
    """`size` distinct indices out of range(count): all of `keep` plus random others."""
    keep = list(dict.fromkeys(keep))
    if size >= count:
        return list(range(count))
    others = np.setdiff1d(np.arange(count), keep)
    extra = rng.choice(others, size=max(0, size - len(keep)), replace=False)
    return sorted(keep + [int(i) for i in extra])


def objective_metrics(measured, predicted, occupancy, default_index):
    """Ranking and top-1 figures of one objective over one sample (aligned arrays)."""
    measured, predicted = np.asarray(measured, float), np.asarray(predicted, float)
    occupancy = np.asarray(occupancy, float)
    picks = {
        "plugin": predicted_best(predicted),
        "random": np.arange(len(measured)),
        "max_occupancy": np.flatnonzero(occupancy == occupancy.max()),
        "default": None if default_index is None else np.array([default_index]),
    }
    return {
        "spearman": correlation(scipy.stats.spearmanr, measured, predicted),
        "kendall": correlation(scipy.stats.kendalltau, measured, predicted),
        "median_predicted_over_measured": float(np.median(predicted / measured)),
        "best_index": int(np.argmin(measured)),
        "plugin_index": int(picks["plugin"][0]),
        "plugin_ties": len(picks["plugin"]),
        "picks": {name: None if chosen is None else pick_metrics(measured, chosen)
                  for name, chosen in picks.items()},
    }


def free_block_choice(rows, predictions, default_key, min_gain):
    """The plugin's rule over the blocks of the default's tunables (compiled ones), or
    None where the default did not compile; "choice" is the chosen row."""
    ok = [(r, p) for r, p in zip(rows, predictions) if p["ok"]]
    default = next((k for k, (r, _) in enumerate(ok) if r["config"] == default_key), None)
    if default is None:
        return None
    measured = [r["time_s"] for r, _ in ok]
    index, kept = ranking.choose_with_min_gain([p["time_s"] for _, p in ok], default, min_gain)
    return {"blocks": len(rows), "compiled": len(ok), "min_gain": min_gain,
            "choice": ok[index][0], "kept_default": kept,
            "time_vs_default": measured[index] / measured[default],
            "time_vs_best_block": measured[index] / min(measured),
            "default_vs_best_block": measured[default] / min(measured)}


def registers_check(rows, predictions):
    """How the registers the plugin used compare with those the cache recorded for the
    measured binary (Kernel Tuner's num_regs)."""
    pairs = [(r["registers"], p["model_inputs"]["register_estimate"])
             for r, p in zip(rows, predictions)
             if r.get("registers") is not None and not math.isnan(r["registers"])
             and "register_estimate" in p["model_inputs"]]
    if not pairs:
        return None
    differences = [abs(stated - recorded) for recorded, stated in pairs]
    return {"configs": len(pairs), "equal": sum(d == 0 for d in differences),
            "median_abs_difference": float(np.median(differences)),
            "max_abs_difference": float(max(differences))}


def load_boards():
    with open(BOARDS, encoding="utf-8") as f:
        return json.load(f)["devices"]


class CacheEvaluation:
    """One (problem, cache): its sample, and the metrics once predictions are in."""

    def __init__(self, problem, path, boards, sample_size, seed, free_choice=False,
                 min_gain=MIN_GAIN):
        self.problem = problem
        self.cache = read_tuning_cache(path)
        self.configs = measured_configurations(self.cache)
        params = self.cache.params
        self.board = boards.get(self.cache.device_name)
        rows = self.configs.to_dict("records")
        keys = {row["config"]: i for i, row in enumerate(rows)}
        self.default_key = config_key(problem.default, params) if problem.default else None
        keep = [int(self.configs[c].idxmin()) for c in ("time_s", "energy_j")
                if c in self.configs]
        self.best_key = rows[keep[0]]["config"]
        if self.default_key in keys:
            keep.insert(0, keys[self.default_key])
        rng = np.random.default_rng(
            [seed, zlib.crc32(f"{problem.name}/{self.cache.device_name}".encode())])
        self.sample = [rows[i] for i in sample_indices(len(rows), sample_size, rng, keep)]
        # The default's tunables with every measured block (--free-choice).
        self.block_rows = []
        self.min_gain = min_gain
        if free_choice and self.default_key in keys:
            default = rows[keys[self.default_key]]
            fixed = [p for p in params if p not in problem.block_size_names]
            self.block_rows = [r for r in rows if all(r[p] == default[p] for p in fixed)]
        self.predictions = [None] * (len(self.sample) + len(self.block_rows))
        for row in self.sample:
            violated = problem.violated({p: row[p] for p in params})
            if violated:
                raise DatasetError(f"{path}: configuration {row['config']} breaks the "
                                   f"restriction '{violated[0]}' of {problem.spec}")

    def jobs(self):
        """(index, params) of every configuration to compile: the sample's, then the
        default's blocks'."""
        if self.board is None:
            return []
        return [(i, {p: row[p] for p in self.cache.params})
                for i, row in enumerate(self.sample + self.block_rows)]

    def result(self):
        cache, problem = self.cache, self.problem
        result = {
            "problem": problem.name, "kernel": problem.kernel,
            "spec": os.path.relpath(problem.spec, REPO_ROOT),
            "transcribes": problem.transcribes, "notes": problem.notes,
            "cache": {"file": os.path.relpath(cache.path, REPO_ROOT), "format": cache.format,
                      "repository": cache.repository, "commit": cache.commit,
                      "device_name": cache.device_name},
            "board": self.board and self.board["board"],
            "arch": self.board and self.board["arch"],
            "measured": {"entries": len(cache.frame), "configurations": len(self.configs),
                         "invalid": cache.invalid},
            "sample": {"size": len(self.sample),
                       "includes_default": any(r["config"] == self.default_key
                                               for r in self.sample)},
        }
        if self.board is None:
            result["skipped"] = f"no board for device '{cache.device_name}' in {BOARDS}"
            return result
        if self.block_rows:
            choice = free_block_choice(self.block_rows, self.predictions[len(self.sample):],
                                       self.default_key, self.min_gain)
            if choice:
                result["free_block_choice"] = {**choice,
                                               "choice": self._params(choice["choice"])}
        ok = [i for i, p in enumerate(self.predictions[:len(self.sample)]) if p["ok"]]
        # Regrets are relative to the best configuration that compiled.
        result["sample"]["measured_best_compiled"] = any(
            self.sample[i]["config"] == self.best_key for i in ok)
        failures = {}
        for row, p in zip(self.sample, self.predictions):
            if not p["ok"]:
                failures.setdefault(p["error"], []).append(row["config"])
        result["compiled"] = len(ok)
        result["failed"] = [{"error": e, "count": len(c), "example": c[0]}
                            for e, c in failures.items()]
        if len(ok) < 2:
            result["skipped"] = (f"{len(ok)} of {len(self.sample)} configurations compiled"
                                 + (f"; first error: {next(iter(failures))}" if failures else ""))
            return result
        rows = [self.sample[i] for i in ok]
        predictions = [self.predictions[i] for i in ok]
        default = next((k for k, r in enumerate(rows) if r["config"] == self.default_key), None)
        occupancy = [p["occupancy"] for p in predictions]
        for objective, measured_key, predicted_key in (("time", "time_s", "time_s"),
                                                       ("energy", "energy_j", "energy_j")):
            if measured_key not in self.configs:
                continue
            metrics = objective_metrics([r[measured_key] for r in rows],
                                        [p[predicted_key] for p in predictions],
                                        occupancy, default)
            for role in ("plugin", "best"):
                metrics[f"{role}_config"] = self._params(rows[metrics.pop(f"{role}_index")])
            result[objective] = metrics
        result["configs"] = [
            {"config": self._params(r), "measured_time_s": r["time_s"],
             "measured_energy_j": r.get("energy_j"), "predicted_time_s": p["time_s"],
             "predicted_energy_j": p["energy_j"], "occupancy": p["occupancy"],
             "resources_from": p["resources_from"], "kept_calls": p.get("kept_calls", [])}
            for r, p in zip(rows, predictions)]
        if "registers" in self.configs:
            result["registers_check"] = registers_check(rows, predictions)
        result["resources_from"] = dict(collections.Counter(
            p["resources_from"] for p in predictions))
        # Configurations whose clang build still calls a function the prediction
        # inlined (the tuners' compilers may have inlined it).
        result["kept_calls"] = sum(1 for p in predictions if p.get("kept_calls"))
        return result

    def _params(self, row):
        return {p: row[p] for p in self.cache.params}

    def dataset_rows(self):
        """Dataset rows of every compiled configuration (docs/dataset-format.md)."""
        if self.board is None:
            return []
        cache = self.cache
        source = {"file": os.path.relpath(cache.path, REPO_ROOT), "format": cache.format,
                  "repository": cache.repository, "commit": cache.commit}
        rows = []
        for row, p in zip(self.sample, self.predictions):
            if not p["ok"]:
                continue
            # The kernel, not the problem: two scripts tuning one kernel are one
            # kernel to leave out.
            out = {"kernel": self.problem.kernel, "problem": self.problem.name,
                   "config": row["config"],
                   "arch": self.board["arch"], "gpu": self.board["board"],
                   "device_name": cache.device_name, "status": "ok", "time_s": row["time_s"]}
            if "energy_j" in row and row["energy_j"] == row["energy_j"]:
                out["energy_j"] = row["energy_j"]
            out.update({"runs": int(row["runs"]), "analytic_time_s": p["time_s"],
                        "analytic_energy_j": p["energy_j"], "params": self._params(row),
                        "launch": {"block": p["block"], "grid_blocks": p["grid_blocks"],
                                   "grid": p["grid"]},
                        "features": p["model_inputs"], "resources_from": p["resources_from"],
                        "source": source,
                        "method": "Kernel Tuner / KTT measurement, see source"})
            rows.append(out)
        return rows


def predict(tools, problem, config, board, arch, cache_dir, nvcc):
    """The plugin's prediction, with the measured build's registers and spills where nvcc
    (its identity, or None for clang's resources) can build them."""
    found = measured_build.resources(problem, config, arch, cache_dir, nvcc)
    if found and found["ok"]:
        result = plugin_compile.predict(tools, problem, config, board, arch, cache_dir,
                                        measured_build.force_suffix(found))
        source = problem.measured_build["compiler"]
    else:
        result = plugin_compile.predict(tools, problem, config, board, arch, cache_dir)
        source = "clang" + (f" ({found['error']})" if found else "")
    return {**result, "resources_from": source}


def run(evaluations, tools, cache_dir, workers, log, nvcc):
    """Fill every evaluation's predictions, compiling `workers` at a time."""
    jobs = [(e, i, config) for e in evaluations for i, config in e.jobs()]
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(predict, tools, e.problem, config, e.board["board"],
                               e.board["arch"], cache_dir, nvcc): (e, i)
                   for e, i, config in jobs}
        for future in concurrent.futures.as_completed(futures):
            evaluation, index = futures[future]
            evaluation.predictions[index] = future.result()
            done += 1
            if done % 50 == 0 or done == len(jobs):
                log(f"kt_eval: {done}/{len(jobs)} configurations")


def write_rows(path, rows):
    try:
        with open(path, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(jsonl.plain(row), allow_nan=False) + "\n")
    except OSError as e:
        raise DatasetError(f"{path}: cannot write: {e.strerror}") from None


def _median(values):
    values = [v for v in values if v is not None]
    return float(np.median(values)) if values else None


def summarize(results):
    """Medians over the evaluated (kernel, board) pairs, per objective."""
    summary = {}
    for objective in ("time", "energy"):
        scored = [r[objective] for r in results if objective in r]
        if not scored:
            continue
        summary[objective] = {
            "pairs": len(scored),
            "median_spearman": _median(m["spearman"] for m in scored),
            "median_kendall": _median(m["kendall"] for m in scored),
            "median_regret": {s: _median(m["picks"][s]["regret"] for m in scored
                                        if m["picks"][s]) for s in STRATEGIES},
        }
    free = [r["free_block_choice"] for r in results if "free_block_choice" in r]
    if free:
        summary["free_block_choice"] = {
            "pairs": len(free),
            "slower_than_default": sum(c["time_vs_default"] > 1 for c in free),
            "median_time_vs_default": _median(c["time_vs_default"] for c in free),
            "median_time_vs_best_block": _median(c["time_vs_best_block"] for c in free)}
    return summary


def _number(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def format_table(results):
    """A Markdown table: one row per (kernel, board, objective)."""
    lines = ["| problem | board | objective | n | Spearman | Kendall | plugin regret (pct) "
             "| random | max occupancy | default | pred/meas | registers from |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        board = r["board"] or r["cache"]["device_name"]
        if "skipped" in r:
            lines.append(f"| {r['problem']} | {board} | skipped: {r['skipped']} "
                         "| | | | | | | | | |")
            continue
        for objective in ("time", "energy"):
            if objective not in r:
                continue
            m = r[objective]
            picks = {s: m["picks"][s] for s in STRATEGIES}
            cells = [f"{_number(p['regret'])} ({_number(p['percentile'], 0)})" if p else "-"
                     for p in picks.values()]
            lines.append(f"| {r['problem']} | {board} | {objective} | {r['compiled']} "
                         f"| {_number(m['spearman'])} | {_number(m['kendall'])} | "
                         + " | ".join(cells)
                         + f" | {_number(m['median_predicted_over_measured'], 3)} | "
                         + _sources(r["resources_from"]) + " |")
    return "\n".join(lines)


def format_free_table(results):
    """A Markdown table of the free block choices (--free-choice), or None."""
    rows = [r for r in results if "free_block_choice" in r]
    if not rows:
        return None
    lines = ["| problem | board | blocks | choice | default kept | time / default's "
             "| time / fastest block's | default's / fastest block's |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        c = r["free_block_choice"]
        lines.append(f"| {r['problem']} | {r['board']} | {c['compiled']} | "
                     + ",".join(str(v) for v in c["choice"].values())
                     + f" | {'yes' if c['kept_default'] else 'no'} "
                     f"| {_number(c['time_vs_default'])} | {_number(c['time_vs_best_block'])} "
                     f"| {_number(c['default_vs_best_block'])} |")
    return "\n".join(lines)


def _sources(counts):
    """'nvcc' where every configuration's resources came from nvcc, else the counts."""
    by_compiler = collections.Counter()
    for source, count in counts.items():
        by_compiler[source.split(" (")[0]] += count
    if len(by_compiler) == 1:
        return next(iter(by_compiler))
    return ", ".join(f"{c} {n}" for c, n in sorted(by_compiler.items()))


def write_plot(results, path):
    """Spearman and top-1 regret per (kernel, board, objective) as one PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [(f"{r['problem']}\n{r['board']}" + ("" if o == "time" else " (energy)"), r[o])
            for r in results for o in ("time", "energy") if o in r]
    if not rows:
        raise DatasetError(f"{path}: nothing was evaluated, no plot")
    labels, metrics = zip(*rows)
    x = np.arange(len(rows))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(8, 0.9 * len(rows)), 8), sharex=True)
    top.bar(x, [m["spearman"] or 0 for m in metrics], color="tab:blue")
    top.axhline(0, color="k", lw=0.8)
    top.set_ylabel("Spearman (predicted vs measured)")
    top.set_ylim(-1, 1)
    width = 0.8 / len(STRATEGIES)
    for k, strategy in enumerate(STRATEGIES):
        values = [m["picks"][strategy]["regret"] if m["picks"][strategy] else np.nan
                  for m in metrics]
        bottom.bar(x + (k - (len(STRATEGIES) - 1) / 2) * width, values, width,
                   label=strategy.replace("_", " "))
    bottom.axhline(1, color="k", lw=0.8)
    bottom.set_yscale("log")
    bottom.set_ylim(bottom=0.9)   # a regret of exactly 1 still shows as a bar
    bottom.set_ylabel("top-1 regret (measured / best)")
    bottom.set_xticks(x, labels, fontsize=7, rotation=45, ha="right")
    bottom.legend(fontsize=8)
    fig.suptitle("energy.so predictions against measured tuner search spaces")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.kt_eval",
        description="Score the plugin's predictions against measured Kernel Tuner / KTT "
                    "search spaces.")
    parser.add_argument("problems", nargs="*", metavar="PROBLEM",
                        help=f"problems to evaluate (default: all of "
                             f"{', '.join(tuning_problem.available())})")
    parser.add_argument("--sample", type=int, default=60, metavar="N",
                        help="configurations per (kernel, board) (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="parallel compiles (default 2)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--plot", metavar="FILE", help="write a PNG plot (needs matplotlib)")
    parser.add_argument("--rows", metavar="FILE",
                        help="write the compiled configurations as training rows (JSON Lines)")
    parser.add_argument("--plugin", default=DEFAULT_PLUGIN, help="energy.so (default: %(default)s)")
    parser.add_argument("--cache-dir", default=default_cache_dir(),
                        help="compile results cache (default: %(default)s)")
    parser.add_argument("--free-choice", action="store_true",
                        help="also compile the default's tunables with every measured "
                             "block and score the plugin's free block choice")
    parser.add_argument("--min-gain", type=float, default=MIN_GAIN, metavar="G",
                        help="with --free-choice: the rule's min-gain (default %(default)s, "
                             "the plugin's default)")
    parser.add_argument("--resources", choices=("measured", "clang"), default="measured",
                        help="registers and spills: those of the build the tuner measured "
                             "where its compiler (nvcc) runs here, else clang's (default: "
                             "%(default)s); or always clang's")
    args = parser.parse_args(argv)
    if args.sample < 2 or args.jobs < 1:
        parser.error("--sample must be at least 2 and -j at least 1")
    if not 0 <= args.min_gain < 1:
        parser.error("--min-gain must be a number >= 0 and < 1")
    # Checked before the compiles, which may take long.
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        print("error: --plot needs matplotlib (apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 1

    def log(message):
        print(message, file=sys.stderr, flush=True)

    try:
        tools = plugin_compile.toolchain(args.plugin)
        boards = load_boards()
        evaluations = [CacheEvaluation(problem, path, boards, args.sample, args.seed,
                                       args.free_choice, args.min_gain)
                       for problem in map(tuning_problem.load,
                                          args.problems or tuning_problem.available())
                       for path in problem.caches]
        log(f"kt_eval: plugin target option "
            f"{'-energy-gpu' if tools.has_gpu_option else '-energy-arch'}, "
            f"compile cache {args.cache_dir}")
        nvcc = None
        if args.resources == "measured":
            nvcc = measured_build.nvcc_identity()
            if nvcc is None:
                log(f"kt_eval: warning: no usable {measured_build.NVCC}: registers and "
                    f"spills from clang's build")
        run(evaluations, tools, args.cache_dir, args.jobs, log, nvcc)
        results = [e.result() for e in evaluations]
        report = {"format": FORMAT, "command": ["python3", "-m", "energy.kt_eval",
                                                *(argv if argv is not None else sys.argv[1:])],
                  "plugin": args.plugin,
                  "target_option": "-energy-gpu" if tools.has_gpu_option else "-energy-arch",
                  "sample": args.sample, "seed": args.seed, "resources": args.resources,
                  "free_choice": args.free_choice, "min_gain": args.min_gain,
                  "summary": summarize(results), "results": results}
        print(format_table(results))
        free_table = format_free_table(results)
        if free_table:
            print("\nFree block choice (the default's tunables, every measured block):\n")
            print(free_table)
        if args.json:
            try:
                with open(args.json, "w", encoding="utf-8") as f:
                    json.dump(report, f, indent=1, allow_nan=False)
            except OSError as e:
                raise DatasetError(f"{args.json}: cannot write: {e.strerror}") from None
        if args.plot:
            write_plot(results, args.plot)
        if args.rows:
            write_rows(args.rows, [r for e in evaluations for r in e.dataset_rows()])
    except (DatasetError, plugin_compile.ToolchainError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
