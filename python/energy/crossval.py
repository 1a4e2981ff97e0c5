"""Out-of-sample comparison of the time-model variants with the analytic model.

    python3 -m energy.evaluate DATA... --split kernel|board [--split ...] [--arch all]
                                       [--json out.json] [--markdown out.md]

A group is one (kernel, gpu) pair: all configs of one kernel measured on one board.
Splits (shared/MEASURE.md: the model that ranks a group never saw it):
- kernel: leave-one-kernel-out: the pairs of kernel K, on every board, are predicted by
  boosters trained on the other kernels;
- board: leave-one-board-out: the pairs measured on board B are predicted by boosters
  trained on the other boards (which did see the same kernels elsewhere).
Variants of the time booster (energy.train): regression on ln(time), rank:pairwise with
the (kernel, gpu) pair as query group, and hybrid, ln(time / analytic time). Baseline:
the analytic model (analytic_time_s), scored on the pairs whose configs all have it.

Per held-out pair, after merging repeats by their median:
- spearman: Spearman rank correlation of predicted and measured time (null if undefined);
- regret: measured time of the predicted fastest config (the mean over ties) / the
  measured fastest, as energy.kt_eval reports it (1 = the best was picked);
- mape: mean |predicted - measured| / measured; null for rank, whose scores are not times.
Summary per model and split: the number of pairs and the median of each metric over the
pairs where it is defined.
"""

import math

import numpy as np

from energy.dataset import DatasetError
from energy.ranking import pick_metrics, predicted_best, spearman
from energy.train import GROUP, VARIANTS, fit_booster, predict_time

REPORT_FORMAT = "energy-eval-variants-v1"
# Split name -> the column whose values are held out one at a time.
SPLITS = {"kernel": "kernel", "board": "gpu"}
BASELINE = "analytic"
PAIR_KEY = [*GROUP, "config"]


def held_out_predictions(frame, split, fit_predict):
    """frame plus the columns that fit_predict(training rows, held-out rows) returns (a
    dict: column -> values for the held-out rows), each from a fit that never saw the
    held-out kernel (split "kernel") or board (split "board")."""
    column = SPLITS[split]
    held_values = sorted(frame[column].unique())
    if len(held_values) < 2:
        raise DatasetError(f"leave-one-{split}-out needs at least 2 {split}s, "
                           f"the data has {len(held_values)}")
    out = frame.copy()
    for value in held_values:
        held = (frame[column] == value).to_numpy()
        for name, predicted in fit_predict(frame[~held], frame[held]).items():
            if name not in out:
                out[name] = math.nan
            out.loc[held, name] = predicted
    return out


def variant_predictions(frame, feature_names, params, split, variants):
    """frame plus one `pred_<variant>` column per variant, predicted out of sample."""
    def fit_predict(training, held):
        return {"pred_" + v: predict_time(fit_booster(training, feature_names, "time_s",
                                                      params, v), held, feature_names, v)
                for v in variants}
    return held_out_predictions(frame, split, fit_predict)


def pair_metrics(measured, predicted, times=True):
    """Metrics of one pair's predictions (aligned arrays, positive, lower = faster);
    `times` says whether the predictions are seconds (else MAPE is null)."""
    measured, predicted = np.asarray(measured, float), np.asarray(predicted, float)
    return {
        "configs": len(measured),
        "spearman": spearman(measured, predicted),
        "regret": pick_metrics(measured, predicted_best(predicted))["regret"],
        "mape": float(np.mean(np.abs(predicted - measured) / measured)) if times else None,
    }


def summarize(per_pair):
    """Pairs scored and the median of each metric over the pairs where it is defined."""
    def median(key):
        values = [p[key] for p in per_pair if p[key] is not None]
        return float(np.median(values)) if values else None
    return {"pairs": len(per_pair), "configs": int(sum(p["configs"] for p in per_pair)),
            "spearman_median": median("spearman"), "regret_median": median("regret"),
            "mape_median": median("mape")}


def score(merged, column, times):
    """{"summary", "per_pair"} of the predictions in `column`; pairs with a missing
    prediction are left out; None if none is left."""
    per_pair = []
    for (kernel, gpu), rows in merged.groupby(GROUP, sort=True):
        predicted = rows[column].to_numpy(float)
        if not np.all(np.isfinite(predicted)):
            continue
        per_pair.append({"kernel": kernel, "gpu": gpu,
                         **pair_metrics(rows["time_s"], predicted, times)})
    if not per_pair:
        return None
    return {"summary": summarize(per_pair), "per_pair": per_pair}


def evaluate_split(frame, feature_names, params, split, variants):
    """{"method", "models": {variant or "analytic": score}} for one split."""
    predicted = variant_predictions(frame, feature_names, params, split, variants)
    columns = ["time_s", "analytic_time_s", *("pred_" + v for v in variants)]
    merged = predicted.groupby(PAIR_KEY, sort=False)[columns].median().reset_index()
    models = {v: score(merged, "pred_" + v, bool(VARIANTS[v].target)) for v in variants}
    baseline = score(merged, "analytic_time_s", True)
    if baseline is not None:
        models[BASELINE] = baseline
    return {"method": f"leave-one-{split}-out", "models": models}


def compare(data, frame, arch, params, splits, variants=tuple(VARIANTS)):
    """The report (REPORT_FORMAT) of every variant and the analytic model on every split;
    frame is data.frame restricted to `arch`."""
    return {
        "format": REPORT_FORMAT,
        "arch": arch,
        "gpus": sorted(frame["gpu"].unique()),
        "kernels": sorted(frame["kernel"].unique()),
        "data": [{"path": f.path, "sha256": f.sha256} for f in data.files],
        "rows": len(frame),
        "params": params,
        "splits": {split: evaluate_split(frame, data.feature_names, params, split, variants)
                   for split in splits},
    }


def _cell(value, digits=3):
    return "-" if value is None else f"{value:.{digits}f}"


def format_markdown(report):
    """The summary table, then per split a table of every pair's Spearman and regret."""
    lines = [f"Time models out of sample on {report['arch']} "
             f"({len(report['kernels'])} kernels, {len(report['gpus'])} boards, "
             f"{report['rows']} rows). Medians over the held-out (kernel, board) pairs.",
             "",
             "| split | model | pairs | Spearman | top-1 regret | MAPE |",
             "|---|---|---:|---:|---:|---:|"]
    for split, result in report["splits"].items():
        for model, scored in result["models"].items():
            s = scored["summary"]
            lines.append(f"| {split} | {model} | {s['pairs']} | {_cell(s['spearman_median'])} "
                         f"| {_cell(s['regret_median'])} | {_cell(s['mape_median'])} |")
    for split, result in report["splits"].items():
        models = list(result["models"])
        lines += ["", f"{result['method']}: Spearman / top-1 regret per pair", "",
                  "| kernel | board | configs | " + " | ".join(models) + " |",
                  "|---|---|---:|" + "---:|" * len(models)]
        cells = {}
        for model in models:
            for p in result["models"][model]["per_pair"]:
                cells.setdefault((p["kernel"], p["gpu"], p["configs"]), {})[model] = \
                    f"{_cell(p['spearman'], 2)} / {_cell(p['regret'], 2)}"
        for (kernel, gpu, configs), row in sorted(cells.items()):
            lines.append(f"| {kernel} | {gpu} | {configs} | " +
                         " | ".join(row.get(m, "-") for m in models) + " |")
    return "\n".join(lines) + "\n"
