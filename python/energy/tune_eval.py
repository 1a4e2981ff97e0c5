"""How fast the tuning loop reaches the measured best, replayed on public measurements.

    PYTHONPATH=python /usr/bin/python3 -m energy.tune_eval [--seeds N] [--json OUT] \\
        [--markdown OUT] [--kt-rows ROWS] [--h100-rows ROWS]

Every (kernel, board) pair with plugin predictions:
- the public caches of ../shared/data/public-measurements, one pair per cache of each
  problem in data/kernel-tuner/problems; the candidates are the configurations that
  `kt_eval --rows` compiled through the plugin (data/kernel-tuner/rows/kt-rows.jsonl,
  60 per pair: a seeded sample with the default and the measured best), measured by
  lookup in the cache (energy.tune's replay);
- the H100 sweep of the corpus (data/h100-corpus-sweep/h100-rows.jsonl): each kernel's
  measured configurations, their measured times and the plugin's predictions.

For the guided loop (energy.tune's default; deterministic), random search and
simulated annealing (model-free, as Kernel Tuner does it; --seeds seeds each): the
regret (best measured so far / the pair's best) after 1, 3, 5, 10 and 20 measurements,
median and worst over pairs (randomized strategies: per pair the mean over seeds, and
the worst single run), and the measurements needed to reach regret 1.05. The curves run
without the stop rule, to the whole candidate list; where the guided loop's stop rule
would have stopped is reported beside them.
"""

import argparse
import json
import os
import sys

import numpy as np

from energy import kt_eval, tune, tune_search, tuning_problem
from energy.dataset import DatasetError
from energy.tuning_cache import REPO_ROOT, read_tuning_cache

FORMAT = "energy-tune-eval-v1"
CHECKPOINTS = (1, 3, 5, 10, 20)
TARGET_REGRET = 1.05
KT_ROWS = os.path.join(REPO_ROOT, "data", "kernel-tuner", "rows", "kt-rows.jsonl")
H100_ROWS = os.path.join(REPO_ROOT, "data", "h100-corpus-sweep", "h100-rows.jsonl")


def public_pairs(rows_path, log, problems=None):
    """[(name, candidates, times)] of every public cache with predictions in rows_path;
    [] with a note where the shared measurements are absent."""
    boards = kt_eval.load_boards()
    pairs = []
    for name in problems or tuning_problem.available():
        problem = tuning_problem.load(name)
        for path in problem.caches:
            if not os.path.exists(path):
                log(f"tune_eval: {path} is not here (the shared measurements): "
                    f"the public caches are skipped")
                return []
            cache = read_tuning_cache(path)
            board = (boards.get(cache.device_name) or {}).get("board")
            if board is None:
                log(f"tune_eval: {name} on {cache.device_name}: no board, skipped")
                continue
            try:
                fill = tune.row_predictions(rows_path, problem, board)
            except DatasetError as e:
                log(f"tune_eval: skipped: {e}")
                continue
            candidates, times = tune.replay_candidates(problem, cache, fill)
            pairs.append((f"{name} / {board}", candidates, times))
    return pairs


def h100_pairs(rows_path):
    """[(name, candidates, times)] per kernel of the H100 sweep's rows."""
    kernels = {}
    for _, row in tune.jsonl.read_objects(rows_path):
        if row.get("status") != "ok" or not row.get("analytic_time_s"):
            continue
        config = {**tune.block_params(row["launch"]["block"]), **row.get("params", {})}
        kernels.setdefault((row["kernel"], row["gpu"]), []).append(
            ({"config": config, "key": row["config"], "predicted_s": row["analytic_time_s"]},
             row["time_s"]))
    pairs = []
    for (kernel, gpu), entries in sorted(kernels.items()):
        if len(entries) < 2:
            continue
        entries.sort(key=lambda e: e[0]["key"])
        pairs.append((f"{kernel} / {gpu}", [c for c, _ in entries],
                      {c["key"]: t for c, t in entries}))
    return pairs


def curve(candidates, times, strategy, seed, noise):
    """best/cache best after each measurement, over the whole candidate list, and where
    the stop rule stops (guided only)."""
    best = min(times[c["key"]] for c in candidates if c["key"] in times)
    steps, _ = tune.tune(candidates, strategy, tune.replay_measure(times), len(candidates),
                         seed, noise, use_stop_rule=False)
    regrets = [s["best_s"] / best if s["best_s"] else np.inf for s in steps]
    stop = None
    if strategy == "guided":
        stopped, _ = tune.tune(candidates, strategy, tune.replay_measure(times),
                               len(candidates), seed, noise)
        stop = {"measurements": len(stopped), "regret": regrets[len(stopped) - 1]}
    return regrets, stop


def at(regrets, k):
    return regrets[min(k, len(regrets)) - 1]


def to_target(regrets):
    """Measurements to reach TARGET_REGRET (every candidate's count if never)."""
    return next(i + 1 for i, r in enumerate(regrets) if r <= TARGET_REGRET)


def evaluate(pairs, seeds, noise, log):
    results = []
    for name, candidates, times in pairs:
        entry = {"pair": name, "candidates": len(candidates),
                 "measured": sum(c["key"] in times for c in candidates), "strategies": {}}
        for strategy in tune_search.STRATEGIES:
            runs = [0] if strategy == "guided" else list(range(seeds))
            curves = [curve(candidates, times, strategy, s, noise) for s in runs]
            regrets = np.array([c[0] for c in curves])
            entry["strategies"][strategy] = {
                "seeds": len(runs),
                "regret_at": {str(k): float(np.mean([at(r, k) for r in regrets]))
                              for k in CHECKPOINTS},
                "worst_run_regret_at": {str(k): float(max(at(r, k) for r in regrets))
                                        for k in CHECKPOINTS},
                "measurements_to_target": float(np.mean([to_target(r) for r in regrets])),
            }
            if strategy == "guided":
                entry["strategies"][strategy]["stop_rule"] = curves[0][1]
        results.append(entry)
        log(f"tune_eval: {name}: " + ", ".join(
            f"{s} {m['regret_at']['10']:.3f}@10 {m['measurements_to_target']:.1f} to "
            f"{TARGET_REGRET}" for s, m in entry["strategies"].items()))
    return results


def summarize(results):
    summary = {}
    for strategy in tune_search.STRATEGIES:
        metrics = [r["strategies"][strategy] for r in results]
        summary[strategy] = {
            "median_regret_at": {str(k): float(np.median([m["regret_at"][str(k)]
                                                          for m in metrics]))
                                 for k in CHECKPOINTS},
            "worst_regret_at": {str(k): float(max(m["worst_run_regret_at"][str(k)]
                                                  for m in metrics)) for k in CHECKPOINTS},
            "median_measurements_to_target": float(np.median(
                [m["measurements_to_target"] for m in metrics])),
            "mean_measurements_to_target": float(np.mean(
                [m["measurements_to_target"] for m in metrics])),
        }
    guided = summary["guided"]["mean_measurements_to_target"]
    for strategy in ("random", "annealing"):
        summary[strategy]["measurements_to_target_vs_guided"] = \
            summary[strategy]["mean_measurements_to_target"] / guided
    stops = [r["strategies"]["guided"]["stop_rule"] for r in results]
    summary["guided"]["stop_rule"] = {
        "median_measurements": float(np.median([s["measurements"] for s in stops])),
        "median_regret": float(np.median([s["regret"] for s in stops])),
        "worst_regret": float(max(s["regret"] for s in stops))}
    return summary


def format_markdown(sets):
    lines = []
    for title, report in sets:
        lines += [f"### {title} ({len(report['results'])} pairs)", "",
                  "| strategy | " + " | ".join(f"after {k}" for k in CHECKPOINTS)
                  + f" | to {TARGET_REGRET}: median (mean) |",
                  "|---|" + "---|" * (len(CHECKPOINTS) + 1)]
        for strategy, s in report["summary"].items():
            cells = [f"{s['median_regret_at'][str(k)]:.3f} / {s['worst_regret_at'][str(k)]:.3f}"
                     for k in CHECKPOINTS]
            lines.append(f"| {strategy} | " + " | ".join(cells)
                         + f" | {s['median_measurements_to_target']:.1f} "
                           f"({s['mean_measurements_to_target']:.1f}) |")
        stop = report["summary"]["guided"]["stop_rule"]
        lines += ["", f"Cells: median / worst regret over pairs. The guided loop's stop rule "
                      f"stops after a median {stop['median_measurements']:.0f} measurements, "
                      f"at a median regret {stop['median_regret']:.3f} (worst "
                      f"{stop['worst_regret']:.3f}).", ""]
        lines += ["| pair | candidates | guided @1/@5/@10 | random @10 | annealing @10 "
                  f"| to {TARGET_REGRET}: guided / random / annealing |",
                  "|---|---|---|---|---|---|"]
        for r in report["results"]:
            g, ra, an = (r["strategies"][s] for s in tune_search.STRATEGIES)
            lines.append(
                f"| {r['pair']} | {r['candidates']} | "
                f"{g['regret_at']['1']:.3f} / {g['regret_at']['5']:.3f} / "
                f"{g['regret_at']['10']:.3f} | {ra['regret_at']['10']:.3f} | "
                f"{an['regret_at']['10']:.3f} | {g['measurements_to_target']:.0f} / "
                f"{ra['measurements_to_target']:.1f} / {an['measurements_to_target']:.1f} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.tune_eval",
        description="Replay the tuning loop, random search and simulated annealing on the "
                    "public measurements and the H100 sweep; report the regret curves.")
    parser.add_argument("--seeds", type=int, default=10,
                        help="seeds per randomized strategy (default 10)")
    parser.add_argument("--noise", type=float, default=tune.DEFAULT_NOISE,
                        help="the stop rule's noise (default %(default)s)")
    parser.add_argument("--kt-rows", default=KT_ROWS, help="predictions of the public pairs "
                                                           "(default: %(default)s)")
    parser.add_argument("--h100-rows", default=H100_ROWS, help="the H100 rows "
                                                               "(default: %(default)s)")
    parser.add_argument("--json", metavar="OUT", help="write the results as JSON")
    parser.add_argument("--markdown", metavar="OUT", help="write the tables as Markdown")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")

    def log(message):
        print(message, file=sys.stderr, flush=True)

    try:
        sets = []
        for title, pairs in (("public caches", lambda: public_pairs(args.kt_rows, log)),
                             ("H100 corpus sweep", lambda: h100_pairs(args.h100_rows))):
            results = evaluate(pairs(), args.seeds, args.noise, log)
            if not results:
                continue
            sets.append((title, {"results": results, "summary": summarize(results)}))
        report = {"format": FORMAT,
                  "command": ["python3", "-m", "energy.tune_eval",
                              *(argv if argv is not None else sys.argv[1:])],
                  "seeds": args.seeds, "noise": args.noise, "target_regret": TARGET_REGRET,
                  "sets": {title: r for title, r in sets}}
        text = format_markdown(sets)
        print(text)
        if args.json:
            tune.plugin_compile.write_atomically(os.path.abspath(args.json),
                                                 tune.jsonl.plain(report))
        if args.markdown:
            with open(args.markdown, "w", encoding="utf-8") as f:
                f.write(text)
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
