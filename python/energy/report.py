"""Show what energy.so chose: the choice, the reason and the Pareto front.

    python3 -m energy.report REPORT.json [--plot DIR]

REPORT.json is the file the plugin writes with -energy-report=FILE. For each kernel
this prints the choice and its one-line reason, the baselines, and the predicted
Pareto front of (time, energy) as a table. --plot writes one PNG per kernel: every
evaluated candidate, the front, the choice and the baselines.
"""

import argparse
import importlib.util
import json
import os
import sys

from energy.console import (DURATION_UNITS, ENERGY_UNITS, config_label, format_duration,
                            format_energy, unit_for)

REPORT_FORMAT = "energy-report-v1"


class ReportError(Exception):
    """A report that cannot be read; the CLI prints it as an error line."""


def load_report(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise ReportError(f"{path}: {e.strerror}") from e
    except json.JSONDecodeError as e:
        raise ReportError(f"{path}:{e.lineno}: invalid JSON: {e.msg}") from e
    if not isinstance(doc, dict) or doc.get("format") != REPORT_FORMAT:
        raise ReportError(f"{path}: not an energy report (format {REPORT_FORMAT})")
    return doc


def front_rows(kernel):
    """The Pareto front's candidates, fastest first."""
    rows = [kernel["candidates"][i] for i in kernel["pareto_front"]]
    return sorted(rows, key=lambda c: c["time_s"])


def format_kernel(kernel):
    choice = kernel["choice"]
    lines = [f"kernel {kernel['kernel']} ({kernel['arch']}, {kernel['model']})"]
    action = "applied" if kernel["applied"] else "advice only"
    lines.append(f"  choice ({action}): {kernel['reason']}")
    pruned = kernel["pruned"]
    lines.append(f"  candidates: {kernel['candidates_total']} "
                 f"({pruned['resources']} pruned by resources, "
                 f"{pruned['occupancy_cliff']} by occupancy cliff)")
    lines.append("  Pareto front (predicted per launch):")
    lines.append(f"    {'config':<24} {'time':>10} {'energy':>10} {'occupancy':>9}")
    for c in front_rows(kernel):
        mark = "  <- chosen" if config_label(c) == config_label(choice) else ""
        lines.append(f"    {config_label(c):<24} {format_duration(c['time_s']):>10} "
                     f"{format_energy(c['energy_j']):>10} {c['occupancy']:>9.2f}{mark}")
    for name, b in kernel["baselines"].items():
        if "time_s" not in b:
            lines.append(f"  baseline {name}: {config_label(b)} cannot launch")
            continue
        lines.append(f"  baseline {name}: {config_label(b)} "
                     f"{format_duration(b['time_s'])}, {format_energy(b['energy_j'])}")
    return "\n".join(lines)


def axis_range(values, spread=4.0, margin=0.08):
    """(low, high, outliers) of one axis: the front's range with a margin,
    widened to the other points unless one lies far off (more than `spread`
    times the front's width beyond it). Far-off points are the outliers,
    left out so that they do not squash the front into a corner."""
    front_lo, front_hi = min(values["front"]), max(values["front"])
    width = max(front_hi - front_lo, abs(front_hi) * 0.05, 1e-30)
    near = [v for v in values["others"]
            if front_lo - spread * width <= v <= front_hi + spread * width]
    outliers = [v for v in values["others"]
                if not front_lo - spread * width <= v <= front_hi + spread * width]
    lo = min([front_lo] + near)
    hi = max([front_hi] + near)
    pad = (hi - lo) * margin or width * margin
    return lo - pad, hi + pad, outliers


def plot_layout(kernel):
    """What plot_kernel draws, as data (tested without a display): the axes'
    units, their limits, the points of each kind, the labels of the chosen,
    default and front points (their configurations), and a note for the
    candidates outside the limits."""

    live = [c for c in kernel["candidates"] if "time_s" in c]
    front = front_rows(kernel)
    choice = kernel["choice"]
    default = kernel["baselines"].get("default", {})
    marked = [choice] + ([default] if "time_s" in default else []) + front
    t_scale, t_unit = unit_for(max(c["time_s"] for c in marked), DURATION_UNITS)
    e_scale, e_unit = unit_for(max(c["energy_j"] for c in marked), ENERGY_UNITS)

    def xy(c):
        return c["time_s"] / t_scale, c["energy_j"] / e_scale

    xs = {"front": [xy(c)[0] for c in marked], "others": [xy(c)[0] for c in live]}
    ys = {"front": [xy(c)[1] for c in marked], "others": [xy(c)[1] for c in live]}
    x_lo, x_hi, _ = axis_range(xs)
    y_lo, y_hi, _ = axis_range(ys)
    outside = [c for c in live
               if not (x_lo <= xy(c)[0] <= x_hi and y_lo <= xy(c)[1] <= y_hi)]
    # One label per point: a point that is chosen, default and on the front
    # says so once.
    labels = {}
    for c in front:
        labels.setdefault(config_label(c), [xy(c), []])
    labels.setdefault(config_label(choice), [xy(choice), []])[1].append("chosen")
    if "time_s" in default:
        labels.setdefault(config_label(default), [xy(default), []])[1].append("default")
    note = None
    if outside:
        worst = max(outside, key=lambda c: c["time_s"] * c["energy_j"])
        note = (f"{len(outside)} candidate{'s' if len(outside) > 1 else ''} off the axes "
                f"(e.g. {config_label(worst)}: {worst['time_s'] / t_scale:.4g} {t_unit}, "
                f"{worst['energy_j'] / e_scale:.4g} {e_unit})")
    return {
        "units": (t_unit, e_unit),
        "xlim": (x_lo, x_hi), "ylim": (y_lo, y_hi),
        "candidates": [xy(c) for c in live if c not in outside],
        "front": [xy(c) for c in front],
        "chosen": xy(choice),
        "default": xy(default) if "time_s" in default else None,
        "labels": [(pos, name + (f" ({', '.join(kinds)})" if kinds else ""))
                   for name, (pos, kinds) in labels.items()],
        "outside": [xy(c) for c in outside],
        "note": note,
    }


def plot_kernel(kernel, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    layout = plot_layout(kernel)
    t_unit, e_unit = layout["units"]
    fig, ax = plt.subplots(figsize=(6.5, 4.8))
    if layout["candidates"]:
        ax.scatter(*zip(*layout["candidates"]), s=12, color="0.6", label="candidates")
    ax.plot(*zip(*layout["front"]), "o-", color="tab:blue", label="Pareto front")
    ax.scatter(*layout["chosen"], s=140, marker="*", color="tab:red", zorder=5,
               label="chosen")
    if layout["default"]:
        ax.scatter(*layout["default"], s=60, marker="s", facecolors="none",
                   edgecolors="black", zorder=4, label="default")
    for (x, y), text in layout["labels"]:
        ax.annotate(text, (x, y), textcoords="offset points", xytext=(5, 4), fontsize=7)
    ax.set_xlim(*layout["xlim"])
    ax.set_ylim(*layout["ylim"])
    # Points off the axes: an arrow at the edge toward each, and the note.
    for x, y in layout["outside"]:
        ex = min(max(x, layout["xlim"][0]), layout["xlim"][1])
        ey = min(max(y, layout["ylim"][0]), layout["ylim"][1])
        ax.annotate("", (ex, ey), xytext=(-12 if x > ex else 12 if x < ex else 0,
                                          -12 if y > ey else 12 if y < ey else 0),
                    textcoords="offset points", arrowprops={"arrowstyle": "->", "color": "0.5"})
    if layout["note"]:
        ax.text(0.01, 0.01, layout["note"], transform=ax.transAxes, fontsize=7,
                color="0.3", va="bottom")
    ax.set_xlabel(f"predicted time per launch ({t_unit})")
    ax.set_ylabel(f"predicted energy per launch ({e_unit})")
    ax.set_title(f"{kernel['kernel']} on {kernel['gpu']} ({kernel['arch']}, "
                 f"{kernel['model']})", fontsize=9)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m energy.report",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("report", help="JSON written by -energy-report=FILE")
    parser.add_argument("--plot", metavar="DIR", help="write <kernel>.png files here")
    args = parser.parse_args(argv)
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        print("error: --plot needs matplotlib (apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 1
    try:
        doc = load_report(args.report)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print("\n\n".join(format_kernel(k) for k in doc["kernels"]))
    if args.plot:
        os.makedirs(args.plot, exist_ok=True)
        for k in doc["kernels"]:
            path = os.path.join(args.plot, f"{k['kernel']}.png")
            plot_kernel(k, path)
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
