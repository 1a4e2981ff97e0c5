"""How large a predicted gain must be before the plugin leaves a kernel's default launch.

The plugin keeps the launch that runs when nothing is chosen unless its pick is
predicted to beat it by more than min-gain (Objective.h). This study measures, on rows
with measured times (energy-model-eval predicts them with this build's model), what
each threshold would have done: every configuration of a (kernel, board) pair plays the
default once, the predicted best is the pick, and the pick replaces the default only
when predicted better by more than the threshold. Reported per threshold: the share of
defaults replaced, the share replaced by something measured slower (the outcome a
compiler pass must avoid), and the geometric mean of measured (result / default), which
says what the threshold gives up. Also: how often two configurations predicted a given
fraction apart are measured in the opposite order (the model's resolution).

    python3 -m energy.min_gain_study data/kernel-tuner/rows/kt-rows.jsonl
"""

import argparse
import collections
import json
import sys

import numpy as np

from energy import ranking
from energy.calibrate import DEFAULT_TOOL, rows_with_predictions
from energy.dataset import DatasetError

GAINS = (0.0, 0.01, 0.02, 0.05, 0.08, 0.10, 0.12, 0.15, 0.20, 0.30)
# Edges of the predicted-gain bins for the pairwise order (the last bin is open).
GAIN_BINS = (0.0, 0.02, 0.05, 0.10, 0.15, 0.20, 0.30, 0.50)
MEASURED = {"time": "time_s", "energy": "energy_j"}


def read_pairs(paths, tool, objective):
    """{(kernel, board): (predicted, measured) arrays} for the rows that have a
    measurement of the objective."""
    key = MEASURED[objective]
    pairs = collections.defaultdict(list)
    for path in paths:
        for row, prediction in rows_with_predictions(tool, path):
            if row.get(key):
                name = (row.get("problem", row["kernel"]), row["gpu"])
                pairs[name].append((prediction[key], row[key]))
    return {name: tuple(np.array(column, float) for column in zip(*values))
            for name, values in pairs.items() if len(values) >= 2}


def policy(pairs, gain):
    """What min-gain = gain does with each configuration of each pair as the default."""
    replaced, slower, ratios, worst = [], [], [], 0.0
    for predicted, measured in pairs.values():
        # The plugin's rule decides whether the default moves; tied picks count by
        # their mean, as in kt_eval (the plugin takes the first).
        pick_time = float(np.mean(measured[ranking.predicted_best(predicted)]))
        pair_slower = []
        for default in range(len(predicted)):
            moves = ranking.choose_with_min_gain(predicted, default, gain)[0] != default
            result = pick_time if moves else measured[default]
            replaced.append(moves)
            pair_slower.append(result > measured[default])
            ratios.append(result / measured[default])
        slower += pair_slower
        worst = max(worst, float(np.mean(pair_slower)))
    return {"min_gain": gain, "replaced": float(np.mean(replaced)),
            "replaced_by_slower": float(np.mean(slower)),
            "worst_pair_replaced_by_slower": worst,
            "geomean_result_over_default": float(np.exp(np.mean(np.log(ratios))))}


def pairwise_order(pairs):
    """Per predicted-gain bin: configuration pairs whose predictions differ by that
    fraction of the slower one, and the share measured in the opposite order."""
    counts = collections.Counter()
    wrong = collections.Counter()
    for predicted, measured in pairs.values():
        faster = predicted[:, None] < predicted[None, :]
        gain = 1 - predicted[:, None] / predicted[None, :]
        bins = np.digitize(gain, GAIN_BINS) - 1
        inverted = measured[:, None] > measured[None, :]
        for b in range(len(GAIN_BINS)):
            chosen = faster & (bins == b)
            counts[b] += int(chosen.sum())
            wrong[b] += int((chosen & inverted).sum())
    out = []
    for b, low in enumerate(GAIN_BINS):
        high = GAIN_BINS[b + 1] if b + 1 < len(GAIN_BINS) else None
        out.append({"low": low, "high": high, "pairs": counts[b],
                    "measured_opposite": wrong[b] / counts[b] if counts[b] else None})
    return out


def tied_predictions(pairs):
    """Configuration pairs predicted equal: no order to check."""
    return int(sum((np.sum(p[:, None] == p[None, :]) - len(p)) // 2
                   for p, _ in pairs.values()))


def study(pairs, gains=GAINS):
    return {"kernel_board_pairs": len(pairs),
            "configurations": int(sum(len(p) for p, _ in pairs.values())),
            "tied_predictions": tied_predictions(pairs),
            "policies": [policy(pairs, g) for g in gains],
            "pairwise_order": pairwise_order(pairs)}


def print_study(result, objective, out):
    print(f"{objective}: {result['kernel_board_pairs']} (kernel, board) pairs, "
          f"{result['configurations']} configurations, each one the default in turn",
          file=out)
    print("| min-gain | defaults replaced | replaced by a slower one | worst pair "
          "| geomean result / default |", file=out)
    print("|---|---|---|---|---|", file=out)
    for p in result["policies"]:
        print(f"| {p['min_gain']:.2f} | {p['replaced']:.3f} | {p['replaced_by_slower']:.3f} "
              f"| {p['worst_pair_replaced_by_slower']:.3f} "
              f"| {p['geomean_result_over_default']:.3f} |", file=out)
    print("| predicted gain | configuration pairs | measured in the opposite order |",
          file=out)
    print("|---|---|---|", file=out)
    for b in result["pairwise_order"]:
        span = (f"{b['low']:.2f}-{b['high']:.2f}" if b["high"] is not None
                else f">= {b['low']:.2f}")
        share = ("-" if b["measured_opposite"] is None
                 else f"{b['measured_opposite']:.3f}")
        print(f"| {span} | {b['pairs']} | {share} |", file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="+", help="rows with measurements (JSON Lines)")
    parser.add_argument("--objective", choices=sorted(MEASURED), default="time")
    parser.add_argument("--tool", default=DEFAULT_TOOL,
                        help="energy-model-eval (default: %(default)s)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    try:
        pairs = read_pairs(args.rows, args.tool, args.objective)
    except (DatasetError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not pairs:
        print(f"error: no (kernel, board) pair has two rows measuring {args.objective}",
              file=sys.stderr)
        return 1
    result = study(pairs)
    print_study(result, args.objective, sys.stdout)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"objective": args.objective, "rows": args.rows, **result}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
