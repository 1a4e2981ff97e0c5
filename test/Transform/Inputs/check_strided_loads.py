"""Checks an energy report's per-thread loads of a grid-stride loop.

    check_strided_loads.py REPORT KERNEL N GRID LOADS_PER_ITERATION

GRID is the launch's blocks, or "workload" for a grid that covers N items
at each block. A thread that enters the loop runs N / min(N, stride)
iterations on average, stride = block x grid threads: the global_loads
the chosen candidate was predicted with (its model inputs, in float) must
be LOADS_PER_ITERATION times that, and every
candidate that was predicted must have been predicted with its block (none
keeps the block-free screen's default count). Prints the choice and its
loads; exit 1 with the reason otherwise.
"""
import json
import math
import sys

report, kernel, n, grid, per_iteration = sys.argv[1:6]
n, per_iteration = int(n), float(per_iteration)
k = next(k for k in json.load(open(report))["kernels"] if k["kernel"] == kernel)
unrefined = [c["block"] for c in k["candidates"]
             if "time_s" in c and not c.get("predicted_with_block")]
if unrefined:
    sys.exit(f"{kernel}: predicted without their block: {unrefined}")
block = k["choice"]["block"]
threads = block[0] * block[1] * block[2]
blocks = math.ceil(n / threads) if grid == "workload" else int(grid)
stride = threads * blocks
expected = per_iteration * n / min(n, stride)
names = json.load(open(report))["model_input_names"]
loads = k["choice_model_inputs"][names.index("global_loads")]
if not math.isclose(loads, expected, rel_tol=1e-6):
    sys.exit(f"{kernel}: block {block} on {blocks} blocks: {loads} global "
             f"loads per thread, expected {expected}")
print(kernel, "block", block, "grid", blocks, "global_loads", round(loads, 4))
