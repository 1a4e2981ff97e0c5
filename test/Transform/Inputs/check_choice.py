"""Checks an energy report's choice against its own candidates.

    check_choice.py REPORT KERNEL OBJECTIVE [MAX_SLOWDOWN]

Exit 0 and print the chosen config when the choice minimizes OBJECTIVE
(time, energy, edp) over the evaluated candidates (energy only among those
within MAX_SLOWDOWN of the fastest); exit 1 with the reason otherwise.
"""
import json
import sys

report, kernel, objective = sys.argv[1:4]
slowdown = float(sys.argv[4]) if len(sys.argv) > 4 else None
k = next(k for k in json.load(open(report))["kernels"] if k["kernel"] == kernel)
live = [c for c in k["candidates"] if "time_s" in c]
fastest = min(c["time_s"] for c in live)
score = {"time": lambda c: c["time_s"], "energy": lambda c: c["energy_j"],
         "edp": lambda c: c["time_s"] * c["energy_j"]}[objective]
allowed = [c for c in live
           if objective != "energy" or slowdown is None
           or c["time_s"] <= fastest * (1 + slowdown)]
best = min(score(c) for c in allowed)
choice = k["choice"]
if score(choice) != best:
    sys.exit(f"{kernel}: choice scores {score(choice)}, best allowed is {best}")
print(kernel, objective, "block", choice["block"], "tunables", choice["tunables"])
