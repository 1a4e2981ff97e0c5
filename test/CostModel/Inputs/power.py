"""Prints whether every candidate of KERNEL has the same power (energy / time)
in two reports, matching candidates by block and tunables. A candidate that either
report predicted with its block known (its best candidates, refined from other
features) is left out: only candidates predicted from the same features compare."""
import json
import sys

a, b, kernel = sys.argv[1:4]
def powers(path):
    k = next(k for k in json.load(open(path))["kernels"] if k["kernel"] == kernel)
    return {json.dumps([c["block"], c["tunables"]]): c["energy_j"] / c["time_s"]
            for c in k["candidates"] if "time_s" in c and not c.get("predicted_with_block")}
pa, pb = powers(a), powers(b)
both = [key for key in pa if key in pb]
same = [key for key in both if abs(pb[key] / pa[key] - 1) < 1e-6]
print(f"{len(same)} of {len(both)} candidates have the same power")
