"""Choose default values of analytic constants on a grid, held out by kernel.

The defaults are what every family without fitted constants runs on, so a change to
them must predict kernels it was not chosen on. For each kernel of the rows, the grid
point with the lowest mean loss over the other kernels' (kernel, board) pairs is chosen
and scored on the held-out kernel's pairs (energy.calibrate's loss and figures); the
report gives those held-out figures against the current defaults', and the grid point
chosen on every kernel. Only rows whose family runs on the defaults are used (a fitted
family's constants replace them).

    python3 -m energy.select_defaults data/kernel-tuner/rows/kt-rows.jsonl \\
        --grid DependentIssueCycles=2,3,4,6,8
"""

import argparse
import itertools
import json
import sys
import tempfile

import numpy as np

from energy import calibrate
from energy.dataset import DatasetError


def parse_grid(specs, known):
    """{name: [values]} from NAME=V1,V2,... specifications."""
    grid = {}
    for spec in specs:
        name, _, values = spec.partition("=")
        if name not in known:
            raise DatasetError(f"--grid {spec}: no constant named '{name}' "
                               f"(known: {', '.join(sorted(known))})")
        if name in grid:
            raise DatasetError(f"--grid {spec}: '{name}' given twice")
        try:
            grid[name] = [float(v) for v in values.split(",")]
        except ValueError:
            raise DatasetError(f"--grid {spec}: values must be numbers") from None
        if not all(v > 0 for v in grid[name]):
            raise DatasetError(f"--grid {spec}: values must be positive")
    if not grid:
        raise DatasetError("no --grid given")
    return grid


def default_rows(tool, paths):
    """The rows with status ok whose family runs on the default constants."""
    rows = [row for path in paths
            for row, d in calibrate.rows_with_predictions(tool, path)
            if d["constants"] == "datasheet defaults"]
    if not rows:
        raise DatasetError("no row runs on the default constants")
    return rows


def select(family, grid, log=lambda _: None):
    """Held-out choice per kernel, and the choice on all kernels."""
    names = list(grid)
    points = [dict(zip(names, values)) for values in itertools.product(*grid.values())]
    base = calibrate.defaults()
    metrics = []
    for i, point in enumerate(points):
        log(f"select_defaults: grid point {i + 1} of {len(points)}: {point}")
        metrics.append(family.metrics({**base, **point}))

    def loss(per_pair, keep):
        return float(np.mean([calibrate.pair_loss(m) for p, m in per_pair.items()
                              if keep(p)]))

    kernel_of = {f"{k}@{b}": k for k, b in family.pairs}
    current = family.metrics(base)
    held_out, chosen = {}, {}
    for kernel in family.kernels:
        others = [loss(m, lambda p: kernel_of[p] != kernel) for m in metrics]
        best = int(np.argmin(others))
        chosen[kernel] = points[best]
        held_out.update({p: m for p, m in metrics[best].items() if kernel_of[p] == kernel})
    everywhere = int(np.argmin([loss(m, lambda p: True) for m in metrics]))
    return {"grid": grid, "kernels": family.kernels, "boards": family.boards,
            "rows": len(family.rows),
            "current_defaults": calibrate.summarize(current),
            "leave_one_kernel_out": calibrate.summarize(held_out),
            "chosen_per_held_out_kernel": chosen,
            "per_pair": {p: {"current": current[p], "held_out": held_out[p]}
                         for p in sorted(held_out)},
            "chosen_on_all_kernels": points[everywhere],
            "in_sample": calibrate.summarize(metrics[everywhere])}


def print_report(report, out):
    def line(label, s):
        print(f"{label}: median Spearman {s['median_spearman']:.3f}, median regret "
              f"{s['median_regret']:.3f}, mean loss {s['mean_loss']:.3f} "
              f"({s['pairs']} pairs)", file=out)
    print(f"{report['rows']} rows, kernels {', '.join(report['kernels'])}", file=out)
    line("current defaults", report["current_defaults"])
    line("held out by kernel", report["leave_one_kernel_out"])
    for kernel, point in report["chosen_per_held_out_kernel"].items():
        print(f"  without {kernel}: {point}", file=out)
    line(f"chosen on all kernels {report['chosen_on_all_kernels']}", report["in_sample"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="+", help="rows with measured times (JSON Lines)")
    parser.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                        help="values to try for one constant (repeatable)")
    parser.add_argument("--tool", default=calibrate.DEFAULT_TOOL,
                        help="energy-model-eval (default: %(default)s)")
    parser.add_argument("--json", help="also write the report to this file")
    args = parser.parse_args(argv)
    try:
        grid = parse_grid(args.grid, calibrate.BOUNDS)
        rows = default_rows(args.tool, args.rows)
        with tempfile.TemporaryDirectory() as workdir:
            evaluator = calibrate.Evaluator(args.tool, rows, workdir)
            try:
                family = calibrate.Family("defaults", rows, evaluator)
                if len(family.kernels) < calibrate.MIN_KERNELS:
                    raise DatasetError("rows of at least two kernels are needed to hold "
                                       "one out")
                report = select(family, grid, lambda m: print(m, file=sys.stderr))
            finally:
                evaluator.close()
    except (DatasetError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print_report(report, sys.stdout)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"command": ["python3", "-m", "energy.select_defaults",
                                   *(argv if argv is not None else sys.argv[1:])],
                       **report}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
