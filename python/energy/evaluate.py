"""Out-of-sample evaluation of the cost models against measurements.

    python3 -m energy.evaluate DATA... [--json out.json] [--plots DIR] [--rounds N]
                                       [--seed S] [--arch sm_XX]
    python3 -m energy.evaluate DATA... --split kernel|board [--split ...] [--arch sm_XX|all]
                                       [--json out.json] [--markdown out.md]

With --split, the time-model variants are compared with the analytic model per
held-out (kernel, board) pair, on time alone (energy.crossval describes it). Without
it, the energy report below; it needs an energy on every row and one GPU per kernel.

For each kernel K, both boosters are trained on all other kernels with the training code
of energy.train (same weighting and parameters) and predict K's configs, so the model
that ranks K never saw K (shared/MEASURE.md). Repeated measurements of one
(kernel, config) are merged by their median before scoring.

Metrics, for XGBoost and, where the data carries analytic_* values, the analytic model:
- time / energy MAPE: mean of |predicted - measured| / measured over all configs;
- Spearman rank correlation of predicted and measured time (energy) within each kernel,
  and its mean over the kernels where it is defined;
- top-1 / top-3: fraction of kernels whose measured energy-optimal config is the
  predicted energy-optimal one / among the 3 predicted best (a tie for best is a hit);
- the chosen (predicted energy-optimal) config's measured energy relative to the
  measured best, and its time relative to the fastest, per kernel and as medians.
The analytic model is scored on the kernels whose configs all have analytic values.
"""

import argparse
import json
import os
import re
import sys

import numpy as np

from energy import crossval, dataset
from energy.dataset import DatasetError
from energy.pareto import pareto_front
from energy.ranking import spearman
from energy.train import TARGETS, fit_models, predict, select_arch, training_params

EVAL_FORMAT = "energy-eval-v1"
MEASURED = ("time_s", "energy_j")
# Model name -> columns holding its predicted time and energy.
MODELS = {
    "xgboost": ("pred_time_s", "pred_energy_j"),
    "analytic": ("analytic_time_s", "analytic_energy_j"),
}
TOP_K = 3


def leave_one_kernel_out(frame, feature_names, params):
    """frame plus pred_time_s and pred_energy_j from models that never saw the kernel."""
    def fit_predict(training, held):
        boosters = fit_models(training, feature_names, params)
        return {"pred_" + column: predict(boosters[key], held, feature_names)
                for key, column in TARGETS.items()}
    return crossval.held_out_predictions(frame, "kernel", fit_predict)


def merge_repeats(frame):
    """One row per (kernel, config): the median of each measured and predicted value."""
    columns = [c for c in (*MEASURED, *(c for pair in MODELS.values() for c in pair))
               if c in frame]
    return frame.groupby(["kernel", "config"], sort=False)[columns].median().reset_index()


def kernel_metrics(configs, time, energy, pred_time, pred_energy):
    """Metrics of one kernel's predictions; arrays are aligned, one entry per config."""
    time, energy = np.asarray(time, float), np.asarray(energy, float)
    pred_time, pred_energy = np.asarray(pred_time, float), np.asarray(pred_energy, float)
    ranked = np.argsort(pred_energy, kind="stable")
    chosen = ranked[0]
    best_energy = energy.min()
    return {
        "configs": len(time),
        "time_mape": float(np.mean(np.abs(pred_time - time) / time)),
        "energy_mape": float(np.mean(np.abs(pred_energy - energy) / energy)),
        "spearman_time": spearman(time, pred_time),
        "spearman_energy": spearman(energy, pred_energy),
        "top1": bool(energy[chosen] == best_energy),
        "top3": bool(np.any(energy[ranked[:TOP_K]] == best_energy)),
        "chosen": str(configs[chosen]),
        "best": str(configs[int(np.argmin(energy))]),
        "energy_vs_best": float(energy[chosen] / best_energy),
        "time_vs_fastest": float(time[chosen] / time.min()),
    }


def summarize(per_kernel):
    """Summary over kernels; MAPEs are pooled over all configs."""
    metrics = list(per_kernel.values())
    configs = np.array([m["configs"] for m in metrics], float)

    def pooled(key):
        return float(np.sum(np.array([m[key] for m in metrics]) * configs) / configs.sum())

    def mean_defined(key):
        values = [m[key] for m in metrics if m[key] is not None]
        return float(np.mean(values)) if values else None

    def fraction(key):
        return float(np.mean([m[key] for m in metrics]))

    energy_ratio = [m["energy_vs_best"] for m in metrics]
    return {
        "kernels": len(metrics),
        "configs": int(configs.sum()),
        "time_mape": pooled("time_mape"),
        "energy_mape": pooled("energy_mape"),
        "spearman_time_mean": mean_defined("spearman_time"),
        "spearman_energy_mean": mean_defined("spearman_energy"),
        "top1": fraction("top1"),
        "top3": fraction("top3"),
        "energy_vs_best_median": float(np.median(energy_ratio)),
        "energy_vs_best_max": float(np.max(energy_ratio)),
        "time_vs_fastest_median": float(np.median([m["time_vs_fastest"] for m in metrics])),
    }


def score(merged, model):
    """{"summary", "per_kernel"} for one model, or None if it covers no kernel."""
    time_column, energy_column = MODELS[model]
    per_kernel = {}
    for kernel, rows in merged.groupby("kernel", sort=True):
        predicted = rows[[time_column, energy_column]].to_numpy(float)
        if not np.all(np.isfinite(predicted)):
            continue
        per_kernel[kernel] = kernel_metrics(rows["config"].to_numpy(), rows["time_s"],
                                            rows["energy_j"], predicted[:, 0], predicted[:, 1])
    if not per_kernel:
        return None
    return {"summary": summarize(per_kernel), "per_kernel": per_kernel}


def evaluate(data, arch=None, params=None):
    """Run leave-one-kernel-out on a loaded Dataset; returns (report, merged frame, notes)."""
    frame, arch, notes = select_arch(data.frame, arch)
    params = params or training_params()
    lacking = int(frame["energy_j"].isna().sum())
    if lacking:
        raise DatasetError(f"the energy report needs energy_j on every row ({lacking} of "
                           f"{len(frame)} lack it): compare time models with --split "
                           f"kernel or --split board")
    boards = frame.groupby("kernel")["gpu"].nunique()
    if boards.max() > 1:
        raise DatasetError(f"the energy report scores each kernel on one GPU, and "
                           f"'{boards.idxmax()}' was measured on {boards.max()}: compare "
                           f"time models with --split kernel or --split board")
    merged = merge_repeats(leave_one_kernel_out(frame, data.feature_names, params))
    report = {
        "format": EVAL_FORMAT,
        "method": "leave-one-kernel-out",
        "arch": arch,
        "gpus": sorted(frame["gpu"].unique()),
        "data": [{"path": f.path, "sha256": f.sha256} for f in data.files],
        "rows": len(frame),
        "params": params,
        "models": {},
    }
    for model in MODELS:
        result = score(merged, model)
        if result is not None:
            report["models"][model] = result
    return report, merged, notes


def _format(value, percent=False):
    if value is None:
        return "-"
    return f"{100 * value:.1f}%" if percent else f"{value:.3f}"


SUMMARY_ROWS = (
    ("kernels scored", "kernels", None),
    ("time MAPE", "time_mape", True),
    ("energy MAPE", "energy_mape", True),
    ("Spearman time (mean)", "spearman_time_mean", False),
    ("Spearman energy (mean)", "spearman_energy_mean", False),
    ("top-1 energy-optimal", "top1", False),
    (f"top-{TOP_K} energy-optimal", "top3", False),
    ("chosen/best energy (median)", "energy_vs_best_median", False),
    ("chosen/best energy (worst)", "energy_vs_best_max", False),
    ("chosen/fastest time (median)", "time_vs_fastest_median", False),
)


def format_report(report):
    models = list(report["models"])
    kernels = sorted(report["models"]["xgboost"]["per_kernel"])
    lines = [f"leave-one-kernel-out on {report['arch']} ({', '.join(report['gpus'])}): "
             f"{len(kernels)} kernels, "
             f"{report['models']['xgboost']['summary']['configs']} configs, "
             f"{report['rows']} rows",
             f"{'':30}" + "".join(f"{m:>12}" for m in models)]
    for label, key, percent in SUMMARY_ROWS:
        cells = []
        for m in models:
            value = report["models"][m]["summary"][key]
            cells.append(str(value) if percent is None else _format(value, percent))
        lines.append(f"{label:30}" + "".join(f"{c:>12}" for c in cells))
    lines.append("")
    header = f"{'kernel':24}{'configs':>8}"
    for m in models:
        header += f"  | {m}: {'E MAPE':>7}{'rho(E)':>8}{'top1':>5}{'top3':>5}{'E/best':>8}"
    lines.append(header)
    for kernel in kernels:
        line = f"{kernel[:24]:24}{report['models']['xgboost']['per_kernel'][kernel]['configs']:>8}"
        for m in models:
            k = report["models"][m]["per_kernel"].get(kernel)
            pad = " " * (len(m) + 2)
            if k is None:
                line += f"  | {pad}{'-':>7}{'-':>8}{'-':>5}{'-':>5}{'-':>8}"
                continue
            line += (f"  | {pad}{_format(k['energy_mape'], True):>7}"
                     f"{_format(k['spearman_energy']):>8}{'yes' if k['top1'] else 'no':>5}"
                     f"{'yes' if k['top3'] else 'no':>5}{_format(k['energy_vs_best']):>8}")
        lines.append(line)
    return "\n".join(lines)


def _safe_name(text, taken):
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "kernel"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


def write_plots(report, merged, folder):
    """Predicted-vs-measured and per-kernel Pareto-front PNGs; returns their paths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise DatasetError(f"{folder}: cannot create: {e.strerror}") from None
    models = list(report["models"])
    styles = {"xgboost": dict(color="tab:blue", marker="o"),
              "analytic": dict(color="tab:orange", marker="^")}
    source = f"{report['arch']}, {', '.join(report['gpus'])}"
    written = []

    fig, axes = plt.subplots(1, 2, figsize=(11, 5))
    for ax, measured, unit in zip(axes, MEASURED, ("time [s]", "energy [J]")):
        index = MEASURED.index(measured)
        low, high = np.inf, 0.0
        for model in models:
            column = MODELS[model][index]
            rows = merged[merged["kernel"].isin(report["models"][model]["per_kernel"])]
            x, y = rows[measured].to_numpy(float), rows[column].to_numpy(float)
            ax.scatter(x, y, s=14, alpha=0.6, label=model, **styles[model])
            low, high = min(low, x.min(), y.min()), max(high, x.max(), y.max())
        ax.plot([low, high], [low, high], "k--", lw=0.8, label="y = x")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(f"measured {unit}")
        ax.set_ylabel(f"predicted {unit}")
        ax.legend()
    fig.suptitle(f"leave-one-kernel-out predictions ({source})")
    fig.tight_layout()
    written.append(os.path.join(folder, "pred_vs_measured.png"))
    fig.savefig(written[-1], dpi=110)
    plt.close(fig)

    taken = set()
    for kernel, rows in merged.groupby("kernel", sort=True):
        t, e = rows["time_s"].to_numpy(float), rows["energy_j"].to_numpy(float)
        fig, ax = plt.subplots(figsize=(6.5, 5))
        ax.scatter(t, e, s=12, color="0.7", label="configs (measured)")
        front = pareto_front(t, e)
        ax.plot(t[front], e[front], "k-o", ms=4, label="Pareto front (measured)")
        for model in models:
            if kernel not in report["models"][model]["per_kernel"]:
                continue
            pt, pe = (rows[c].to_numpy(float) for c in MODELS[model])
            pfront = pareto_front(pt, pe)
            ax.plot(pt[pfront], pe[pfront], "--", ms=4, label=f"Pareto front ({model}, predicted)",
                    **styles[model])
            chosen = int(np.argmin(pe))
            ax.scatter([t[chosen]], [e[chosen]], s=120, marker="*", zorder=3,
                       color=styles[model]["color"], edgecolor="k",
                       label=f"chosen by {model} (measured)")
        best = int(np.argmin(e))
        ax.scatter([t[best]], [e[best]], s=80, facecolor="none", edgecolor="tab:green", lw=2,
                   zorder=4, label="energy-optimal (measured)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("time [s]")
        ax.set_ylabel("energy [J]")
        ax.set_title(f"{kernel} ({source})", fontsize=9)
        ax.legend(fontsize=7)
        fig.tight_layout()
        written.append(os.path.join(folder, f"pareto_{_safe_name(kernel, taken)}.png"))
        fig.savefig(written[-1], dpi=110)
        plt.close(fig)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.evaluate",
        description="Out-of-sample evaluation of the XGBoost cost models "
                    "(and of the analytic model where the data has analytic_* values).")
    parser.add_argument("data", nargs="+", metavar="DATA", help="measured rows (.jsonl or .csv)")
    parser.add_argument("--split", action="append", choices=list(crossval.SPLITS),
                        help="compare the time-model variants leaving one kernel or one "
                             "board out (repeat for both)")
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--markdown", metavar="FILE",
                        help="with --split: write the tables as Markdown")
    parser.add_argument("--plots", metavar="DIR", help="without --split: write PNG plots into DIR")
    parser.add_argument("--arch", help="evaluate on the rows of this architecture (sm_XX), "
                        "or of all (all)")
    parser.add_argument("--rounds", type=int, help="boosting rounds per model")
    parser.add_argument("--seed", type=int, help="random seed")
    args = parser.parse_args(argv)
    if args.split and args.plots:
        parser.error("--plots goes with the energy report, not with --split")
    if args.markdown and not args.split:
        parser.error("--markdown goes with --split")
    try:
        data = dataset.load(args.data)
        params = training_params(rounds=args.rounds, seed=args.seed)
        if args.split:
            frame, arch, notes = select_arch(data.frame, args.arch)
            report = crossval.compare(data, frame, arch, params, dict.fromkeys(args.split))
            text = crossval.format_markdown(report)
        else:
            report, merged, notes = evaluate(data, args.arch, params)
            text = format_report(report)
        for note in data.notes() + notes:
            print(note, file=sys.stderr)
        print(text)
        if args.json:
            _write(args.json, json.dumps(report, indent=1, allow_nan=False) + "\n")
        if args.markdown:
            _write(args.markdown, text)
        if args.plots:
            for path in write_plots(report, merged, args.plots):
                print(f"wrote {path}")
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def _write(path, text):
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise DatasetError(f"{path}: cannot write: {e.strerror}") from None
    print(f"wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
