"""Does a model updated with other kernels' tuning runs rank an unseen kernel better than
the analytic model? Leave-one-kernel-out (docs/model-update.md).

    python3 -m energy.update_eval ROWS... [--base ROWS...] [--measure K...]
                                  [--pick predicted|random ...] [--seeds S...]
                                  [--rounds N] [--json OUT] [--markdown OUT]

ROWS are measured rows with the plugin's model inputs (data/kernel-tuner/rows/kt-rows.jsonl,
data/h100-corpus-sweep/h100-rows.jsonl). For every setting (K measurements per tuning
run, how a run picks them, seed) every (kernel, board) pair of ROWS gets a simulated
tuning run (energy.tuning_rows: its K measured configurations as rows). Then, for each
kernel X, every pair of X is ranked, over all its rows, by
- analytic: the plugin's analytic model (the default; `analytic_time_s`);
- update: the analytic model x a correction learned from the tuning-run rows of the
  other kernels (energy.train's hybrid variant: what `energy.train ROWS --variant
  hybrid` and then `--update` fold tuning runs into);
- base: the shipped learned model (--base: its training rows, models/kt-time's) retrained
  without X, no tuning run (once per kernel, not per setting);
- base+update: the same with the other kernels' tuning-run rows added (`energy.train
  --update`, which refits on the model's recorded rows plus the new ones).
None of them saw X. Per pair: Spearman of predicted vs measured time and the top-1
regret (measured time of the predicted fastest, mean over ties, / the measured fastest),
as energy.crossval scores them; per model and setting: medians and the worst pair, over
all pairs and per rows file.
"""

import argparse
import functools
import json
import multiprocessing
import os
import sys
import tempfile

import numpy as np
import pandas as pd

from energy import crossval, dataset, kt_eval, tuning_rows
from energy.dataset import DatasetError
from energy.train import fit_booster, predict_time, training_params

FORMAT = "energy-update-eval-v1"
VARIANT = "hybrid"
MODELS = ("analytic", "update", "base", "base+update")


def tuning_frame(pool, measure, pick, seed, folder):
    """The rows of a simulated tuning run on every pair of the pool, loaded as
    energy.train loads them (through a file, as a user's update would)."""
    runs = tuning_rows.simulated_pool_runs(pool, measure, pick, seed)
    rows = [row for run in runs for row in tuning_rows.dataset_rows(run, pool)]
    path = os.path.join(folder, f"tuning-{pick}-{measure}-{seed}.jsonl")
    kt_eval.write_rows(path, rows)
    return dataset.load([path])


def fitted_predictions(training, held, feature_names, params):
    booster = fit_booster(training, feature_names, "time_s", params, VARIANT)
    return predict_time(booster, held, feature_names, VARIANT)


def score_pairs(held, predicted, model, setting):
    """One record per (kernel, gpu) pair of `held` (repeats merged by their median)."""
    frame = held.assign(_pred=predicted)
    merged = frame.groupby(crossval.PAIR_KEY, sort=False)[["time_s", "_pred", "source"]] \
        .agg({"time_s": "median", "_pred": "median", "source": "first"}).reset_index()
    out = []
    for (kernel, gpu), rows in merged.groupby(["kernel", "gpu"], sort=True):
        out.append({"model": model, **setting, "kernel": kernel, "gpu": gpu,
                    "rows": os.path.basename(rows["source"].iloc[0]),
                    **crossval.pair_metrics(rows["time_s"], rows["_pred"])})
    return out


def summarize(pairs):
    """Median and worst Spearman and regret over the pairs."""
    def values(key):
        return [p[key] for p in pairs if p[key] is not None]
    spearman, regret = values("spearman"), values("regret")
    return {"pairs": len(pairs),
            "spearman_median": float(np.median(spearman)) if spearman else None,
            "spearman_worst": float(np.min(spearman)) if spearman else None,
            "regret_median": float(np.median(regret)),
            "regret_worst": float(np.max(regret))}


def kernel_fold(frame, names, base, settings, tuned, params, kernel):
    """The scored pairs of `kernel`, every model trained without it; tuned[i] holds the
    tuning-run rows of settings[i]."""
    held = frame[frame["kernel"] == kernel]
    pairs = score_pairs(held, held["analytic_time_s"].to_numpy(float), "analytic", {})
    others = None if base is None else base[base["kernel"] != kernel]
    if others is not None:
        pairs += score_pairs(held, fitted_predictions(others, held, names, params), "base", {})
    for setting, rows in zip(settings, tuned):
        runs = rows[rows["kernel"] != kernel]
        pairs += score_pairs(held, fitted_predictions(runs, held, names, params), "update",
                             setting)
        if others is not None:
            training = pd.concat([others, runs], ignore_index=True)
            pairs += score_pairs(held, fitted_predictions(training, held, names, params),
                                 "base+update", setting)
    return pairs


def evaluate(pool_paths, base_paths, measures, picks, seeds, params, jobs=1,
             log=lambda m: None):
    pool = tuning_rows.PoolFeatures(pool_paths)
    data = dataset.load(pool_paths)
    frame, names = data.frame, data.feature_names
    base = dataset.load(base_paths) if base_paths else None
    if base is not None and base.feature_names != names:
        raise DatasetError(f"{base_paths[0]}: features differ from those of {pool_paths[0]}: "
                           + dataset.describe_difference(names, base.feature_names))
    kernels = sorted(frame["kernel"].unique())
    if len(kernels) < 2:
        raise DatasetError(f"leave-one-kernel-out needs at least 2 kernels, the data has "
                           f"{len(kernels)}")
    settings = [{"measure": m, "pick": p, "seed": s} for m in measures for p in picks
                for s in (seeds if p == "random" else seeds[:1])]
    with tempfile.TemporaryDirectory(prefix="energy-update-eval-") as folder:
        tuned = []
        for setting in settings:
            tuned.append(tuning_frame(pool, setting["measure"], setting["pick"],
                                      setting["seed"], folder).frame)
            log(f"update_eval: {setting['measure']} measurements, {setting['pick']} pick, "
                f"seed {setting['seed']}: {len(tuned[-1])} tuning rows")
    fold = functools.partial(kernel_fold, frame, names, base and base.frame, settings,
                             tuned, params)
    if jobs > 1:
        # Spawned, not forked: a fork after XGBoost's threads ran can deadlock them.
        with multiprocessing.get_context("spawn").Pool(jobs) as workers:
            folds = workers.map(fold, kernels, chunksize=1)
    else:
        folds = [fold(kernel) for kernel in kernels]
    pairs = [pair for pairs_of_kernel in folds for pair in pairs_of_kernel]
    summaries = []
    for model in MODELS:
        for setting in ([{}] if model in ("analytic", "base") else settings):
            chosen = [p for p in pairs if p["model"] == model
                      and all(p.get(k) == v for k, v in setting.items())]
            if not chosen:
                continue
            groups = {"all": chosen, **{name: [p for p in chosen if p["rows"] == name]
                                        for name in sorted({p["rows"] for p in chosen})}}
            summaries += [{"model": model, **setting, "set": name, **summarize(group)}
                          for name, group in groups.items()]
    return {"format": FORMAT, "variant": VARIANT, "params": params,
            "data": [{"path": f.path, "sha256": f.sha256} for f in data.files],
            "base": [{"path": f.path, "sha256": f.sha256} for f in base.files] if base else [],
            "kernels": kernels, "settings": settings, "summary": summaries, "pairs": pairs}


def _cell(value, digits=3):
    return "-" if value is None else f"{value:.{digits}f}"


def _setting(record):
    if "measure" not in record:
        return "-"
    seed = f", seed {record['seed']}" if record["pick"] == "random" else ""
    return f"{record['measure']} {record['pick']}{seed}"


def format_markdown(report):
    lines = ["| model | tuning runs (K per pair, pick) | set | pairs | Spearman median | "
             "worst | regret median | worst |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for s in report["summary"]:
        lines.append(f"| {s['model']} | {_setting(s)} | {s['set']} | {s['pairs']} | "
                     f"{_cell(s['spearman_median'])} | {_cell(s['spearman_worst'])} | "
                     f"{_cell(s['regret_median'])} | {_cell(s['regret_worst'])} |")
    columns = [("analytic", None), ("base", None)] + \
        [(m, _setting(s)) for m in ("update", "base+update") for s in report["settings"]]
    cells = {}
    for p in report["pairs"]:
        key = (p["model"], _setting(p) if "measure" in p else None)
        cells.setdefault((p["kernel"], p["gpu"], p["configs"]), {})[key] = \
            f"{_cell(p['spearman'], 2)} / {_cell(p['regret'], 2)}"
    columns = [c for c in columns if any(c in row for row in cells.values())]
    lines += ["", "Per pair, Spearman / regret:", "",
              "| kernel | board | configs | " +
              " | ".join(m if s is None else f"{m} ({s})" for m, s in columns) + " |",
              "|---|---|---:|" + "---:|" * len(columns)]
    for (kernel, gpu, configs), row in sorted(cells.items()):
        lines.append(f"| {kernel} | {gpu} | {configs} | "
                     + " | ".join(row.get(c, "-") for c in columns) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.update_eval",
        description="Leave one kernel out: does a model updated with the other kernels' "
                    "tuning runs rank the held-out kernel better than the analytic model?")
    parser.add_argument("rows", nargs="+", metavar="ROWS",
                        help="measured rows with the plugin's model inputs")
    parser.add_argument("--base", nargs="+", metavar="ROWS",
                        help="training rows of the shipped learned model to update "
                             "(models/kt-time: data/kernel-tuner/rows/kt-rows.jsonl)")
    parser.add_argument("--measure", type=int, nargs="+", default=[10, 20], metavar="K",
                        help="measurements per tuning run (default: 10 20)")
    parser.add_argument("--pick", nargs="+", choices=tuning_rows.PICKS,
                        default=list(tuning_rows.PICKS),
                        help="how a run picks its measurements (default: both)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], metavar="S",
                        help="seeds of the random pick (default: 0 1 2)")
    parser.add_argument("--rounds", type=int, help="boosting rounds (default: energy.train's)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="held-out kernels evaluated in parallel (default 1)")
    parser.add_argument("--json", metavar="OUT", help="write the report as JSON")
    parser.add_argument("--markdown", metavar="OUT", help="write the tables as Markdown")
    args = parser.parse_args(argv)
    if min(args.measure) < 1 or args.jobs < 1:
        parser.error("--measure and -j must be at least 1")
    try:
        params = training_params(rounds=args.rounds, variant=VARIANT)
        report = evaluate(args.rows, args.base, args.measure, args.pick, args.seeds, params,
                          args.jobs, log=lambda m: print(m, file=sys.stderr, flush=True))
        report["command"] = ["python3", "-m", "energy.update_eval",
                             *(argv if argv is not None else sys.argv[1:])]
        text = format_markdown(report)
        for path, content in ((args.json, lambda: json.dumps(report, indent=1,
                                                               allow_nan=False) + "\n"),
                              (args.markdown, lambda: text)):
            if path:
                try:
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(content())
                except OSError as e:
                    raise DatasetError(f"{path}: cannot write: {e.strerror}") from None
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
