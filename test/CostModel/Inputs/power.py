"""Prints whether every candidate of KERNEL has the same power (energy / time)
in two reports, matching candidates by block and tunables. Only candidates both
reports list with a prediction made the same way (both with their block known, or
both without) compare: those come from the same features. A free search lists its
refined candidates only (the others are screened out, with no figure)."""
import json
import sys

a, b, kernel = sys.argv[1:4]
def powers(path):
    k = next(k for k in json.load(open(path))["kernels"] if k["kernel"] == kernel)
    return {json.dumps([c["block"], c["tunables"], bool(c.get("predicted_with_block"))]):
            c["energy_j"] / c["time_s"] for c in k["candidates"] if "time_s" in c}
pa, pb = powers(a), powers(b)
both = [key for key in pa if key in pb]
same = [key for key in both if abs(pb[key] / pa[key] - 1) < 1e-6]
print(f"{len(same)} of {len(both)} candidates have the same power")
