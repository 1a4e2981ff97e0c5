"""Measured energy-bench rows as model-evaluation rows, with the features of a manifest.

    python3 -m energy.bench_rows MANIFEST ROWS.jsonl... --board NAME [--gpu NAME] -o OUT

energy-bench measures the PTX of a sweep; the manifest holds, per config, the model
inputs and predictions of the plugin that made it. A manifest made again from the same
corpus by a later plugin (`python3 -m energy.sweep ...`, no GPU needed) holds that
plugin's inputs and predictions for the same code; this tool joins them with the
measurements, so that the analytic model can be scored (energy-model-eval) and
calibrated (energy.calibrate) on our own measurements as on the Kernel Tuner rows
(docs/dataset-format.md): one row per measured config, its time and energy the medians
of its repeats and drift checks, `gpu` the board the model predicts for (--board),
`device_name` the GPU that was measured.

Configs the manifest does not have (the later plugin chose others) are left out and
counted; a measured config that failed (status other than ok) is left out too.
"""

import argparse
import json
import statistics
import sys

from energy import jsonl
from energy.dataset import DatasetError


def bench_rows(manifest, measured, board, gpu=None):
    """(rows, configs measured but missing from the manifest)."""
    names = manifest.get("model_input_names")
    if not isinstance(names, list):
        raise DatasetError("manifest: no 'model_input_names'")
    configs = {c["id"]: (k, c) for k in manifest.get("kernels", [])
               for c in k.get("configs", [])}
    gpus = sorted({r.get("gpu") for r in measured})
    if gpu is None and len(gpus) > 1:
        raise DatasetError(f"the rows come from {len(gpus)} GPUs ({', '.join(map(str, gpus))});"
                           " pick one with --gpu")
    grouped = {}
    for r in measured:
        if r.get("status") != "ok" or (gpu is not None and r.get("gpu") != gpu):
            continue
        grouped.setdefault(f"{r['kernel']}/{r['config']}", []).append(r)
    out, missing = [], []
    for cid, runs in grouped.items():
        if cid not in configs:
            missing.append(cid)
            continue
        kernel, config = configs[cid]
        inputs = config["model_inputs"]
        if len(inputs) != len(names):
            raise DatasetError(f"manifest: config '{cid}': {len(inputs)} model inputs for "
                               f"{len(names)} names")
        grid = config["grid"]
        out.append({
            "kernel": kernel["name"], "problem": kernel["name"],
            "config": cid.split("/", 1)[1], "arch": manifest.get("arch"),
            "gpu": board, "device_name": runs[0].get("gpu"), "status": "ok",
            "time_s": statistics.median(r["time_s"] for r in runs),
            "energy_j": statistics.median(r["energy_j"] for r in runs),
            "runs": len(runs),
            "analytic_time_s": config["analytic_time_s"],
            "analytic_energy_j": config["analytic_energy_j"],
            "params": config.get("tunables", {}),
            "launch": {"block": config["block"], "grid": grid,
                       "grid_blocks": grid[0] * grid[1] * grid[2]},
            "features": dict(zip(names, inputs)),
        })
    return out, sorted(missing)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m energy.bench_rows",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("manifest", help="the sweep's manifest.json (or one made again "
                        "from the same corpus by a later plugin)")
    parser.add_argument("rows", nargs="+", help="energy-bench JSON lines")
    parser.add_argument("--board", required=True,
                        help="the board the model predicts for (-energy-gpu name, e.g. "
                        "h100-sxm)")
    parser.add_argument("--gpu", help="the measured GPU's name in the rows, when they come "
                        "from several")
    parser.add_argument("-o", "--output", required=True, help="rows to write (.jsonl)")
    args = parser.parse_args(argv)
    try:
        with open(args.manifest, encoding="utf-8") as f:
            manifest = json.load(f)
        measured = [row for path in args.rows for _, row in jsonl.read_objects(path)]
        rows, missing = bench_rows(manifest, measured, args.board, args.gpu)
    except (OSError, ValueError) as e:
        print(f"error: {args.manifest}: {e}", file=sys.stderr)
        return 1
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not rows:
        print("error: no measured config is in the manifest", file=sys.stderr)
        return 1
    with open(args.output, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(jsonl.plain(row)) + "\n")
    print(f"wrote {args.output}: {len(rows)} configs of "
          f"{len({r['kernel'] for r in rows})} kernels"
          + (f"; {len(missing)} measured configs are not in the manifest "
             f"({', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''})"
             if missing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
