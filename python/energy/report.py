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


def config_label(candidate):
    block = "x".join(str(d) for d in candidate["block"] if d != 1) or "1"
    tunables = "".join(f",{k}={v}" for k, v in candidate["tunables"].items())
    return block + tunables


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
    lines.append(f"    {'config':<24} {'time us':>10} {'energy mJ':>10} {'occupancy':>9}")
    for c in front_rows(kernel):
        mark = "  <- chosen" if config_label(c) == config_label(choice) else ""
        lines.append(f"    {config_label(c):<24} {c['time_s'] * 1e6:>10.2f} "
                     f"{c['energy_j'] * 1e3:>10.3f} {c['occupancy']:>9.2f}{mark}")
    for name, b in kernel["baselines"].items():
        if "time_s" not in b:
            lines.append(f"  baseline {name}: {config_label(b)} cannot launch")
            continue
        lines.append(f"  baseline {name}: {config_label(b)} "
                     f"{b['time_s'] * 1e6:.2f} us, {b['energy_j'] * 1e3:.3f} mJ")
    return "\n".join(lines)


def plot_kernel(kernel, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    live = [c for c in kernel["candidates"] if "time_s" in c]
    front = front_rows(kernel)
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.scatter([c["time_s"] * 1e6 for c in live], [c["energy_j"] * 1e3 for c in live],
               s=12, color="0.6", label="candidates")
    ax.plot([c["time_s"] * 1e6 for c in front], [c["energy_j"] * 1e3 for c in front],
            "o-", color="tab:blue", label="Pareto front")
    choice = kernel["choice"]
    ax.scatter([choice["time_s"] * 1e6], [choice["energy_j"] * 1e3], s=120,
               marker="*", color="tab:red", zorder=5, label="chosen " + config_label(choice))
    for (name, b), marker in zip(kernel["baselines"].items(), ["s", "^"]):
        if "time_s" not in b:
            continue
        ax.scatter([b["time_s"] * 1e6], [b["energy_j"] * 1e3], s=50, marker=marker,
                   label=f"{name} {config_label(b)}")
    ax.set_xlabel("predicted time per launch (us)")
    ax.set_ylabel("predicted energy per launch (mJ)")
    ax.set_title(f"{kernel['kernel']} on {kernel['arch']} ({kernel['model']})", fontsize=9)
    ax.legend(fontsize=7)
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
