"""Generate the SYNTHETIC fixtures of the python tests.

    /usr/bin/python3 python/tests/make_synthetic.py [OUTDIR]   (default: python/tests/fixtures)

THE NUMBERS ARE MADE UP. They come from a toy formula with seeded noise, exist only to
test the mechanics of loading, training and evaluation, and are NOT measurements of any
GPU. Every row says so: "gpu" is "synthetic-no-gpu" and "synthetic" is true. Never train
a shipped model on them or quote them as results.

Files written:
- synthetic_train.jsonl  4 kernels x 15 configs, one repeated config, one failed row;
- synthetic_train.csv    the same rows as CSV;
- synthetic_update.jsonl a fifth kernel, for --update.
"""

import csv
import json
import math
import os
import random
import sys

SEED = 20240611
GPU = "synthetic-no-gpu"
ARCH = "sm_90"
BLOCKS = (64, 128, 256, 512, 1024)
ITEMS = (1, 2, 4)
# name -> (work items, fp32 ops per item, global bytes per item, base registers)
TRAIN_KERNELS = {
    "syn_stream": (1 << 24, 2, 12, 16),
    "syn_compute": (1 << 22, 256, 8, 40),
    "syn_stencil": (1 << 23, 16, 20, 32),
    "syn_reduce": (1 << 24, 1, 4, 24),
}
UPDATE_KERNELS = {"syn_transpose": (1 << 23, 0, 8, 20)}
FEATURES = ("work_items", "fp32_ops_per_item", "global_bytes_per_item", "block_threads",
            "items_per_thread", "regs_per_thread", "occupancy")
# Made-up machine constants of the toy formula (not any GPU's specification).
TOY_BANDWIDTH = 3.0e12
TOY_FLOPS = 5.0e13
TOY_LAUNCH_S = 3.0e-6


def _round(x):
    return float(f"{x:.6g}")


def _toy_row(kernel, spec, block, items, rng):
    work, ops, nbytes, base_regs = spec
    regs = base_regs + 8 * items
    blocks_per_sm = min(32, 65536 // (regs * block))
    occupancy = min(1.0, blocks_per_sm * block / 2048)
    mem_eff = (0.35 + 0.65 * min(1.0, 1.5 * occupancy)) * (1 + 0.08 * math.log2(items))
    comp_eff = 0.3 + 0.7 * occupancy
    mem_t = work * nbytes / (TOY_BANDWIDTH * min(mem_eff, 1.0))
    comp_t = work * ops / (TOY_FLOPS * comp_eff)
    time = TOY_LAUNCH_S + max(mem_t, comp_t) + 0.3 * min(mem_t, comp_t)
    power = 80 + 320 * occupancy ** 0.7 * (0.5 + 0.5 * max(mem_t, comp_t) / time)
    noise_t, noise_p = rng.gauss(0, 0.02), rng.gauss(0, 0.02)
    # The "analytic" columns: a cruder toy formula, to exercise the side-by-side report.
    a_time = TOY_LAUNCH_S + max(work * nbytes / TOY_BANDWIDTH,
                                work * ops / TOY_FLOPS) / (0.5 + 0.5 * occupancy)
    features = dict(zip(FEATURES, (work, ops, nbytes, block, items, regs, _round(occupancy))))
    return {
        "kernel": kernel, "config": f"b{block}.ITEMS={items}", "arch": ARCH, "gpu": GPU,
        "status": "ok", "synthetic": True,
        "time_s": _round(time * math.exp(noise_t)),
        "energy_j": _round(time * power * math.exp(noise_t + noise_p)),
        "analytic_time_s": _round(a_time), "analytic_energy_j": _round(a_time * 250),
        "features": features,
    }


def make_rows(kernels, rng, repeat=False, failure=False):
    rows = [_toy_row(k, spec, b, i, rng) for k, spec in kernels.items()
            for b in BLOCKS for i in ITEMS]
    if repeat:   # a second "measurement" of one config, as repeats in a real sweep
        rows.append(_toy_row("syn_stream", kernels["syn_stream"], 256, 1, rng))
    if failure:
        rows.append({"kernel": "syn_stream", "config": "b2048.ITEMS=1", "arch": ARCH,
                     "gpu": GPU, "status": "launch_failed", "synthetic": True})
    return rows


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def write_csv(path, rows):
    meta = ["kernel", "config", "arch", "gpu", "status", "synthetic", "time_s", "energy_j",
            "analytic_time_s", "analytic_energy_j"]
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(meta + ["f." + name for name in FEATURES])
        for row in rows:
            features = row.get("features", {})
            writer.writerow([row.get(k, "") for k in meta] +
                            [features.get(name, "") for name in FEATURES])


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "fixtures")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(SEED)
    train = make_rows(TRAIN_KERNELS, rng, repeat=True, failure=True)
    write_jsonl(os.path.join(out, "synthetic_train.jsonl"), train)
    write_csv(os.path.join(out, "synthetic_train.csv"), train)
    write_jsonl(os.path.join(out, "synthetic_update.jsonl"), make_rows(UPDATE_KERNELS, rng))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
