"""Checks that each kernel of a report compares predictions made one way.

    check_compared.py REPORT

A free search predicts its best candidates again with their block known and
compares those only: every candidate listed with a time must then have been
predicted with its block (or, where nothing was refined, none), a candidate
left with the block-free screen's prediction must say why (screened_out) and
show no time, energy or front membership, pruned.screened_out must count
them, and the front and the choice must be among the compared. Prints one
line per kernel; exit 1 with the reason otherwise.
"""
import json
import sys

report = json.load(open(sys.argv[1]))
failed = []
for k in report["kernels"]:
    cands = k["candidates"]
    timed = [c for c in cands if "time_s" in c]
    screened = [c for c in cands if "screened_out" in c]
    ways = {bool(c.get("predicted_with_block")) for c in timed}
    name = k["kernel"]
    if len(ways) > 1:
        failed.append(f"{name}: candidates predicted with and without their block "
                      f"are listed together")
    for c in screened:
        shown = [key for key in ("time_s", "energy_j", "pareto") if key in c]
        if shown:
            failed.append(f"{name}: screened-out candidate {c['block']} shows {shown}")
    if k["pruned"].get("screened_out") != len(screened):
        failed.append(f"{name}: pruned.screened_out is {k['pruned'].get('screened_out')}, "
                      f"{len(screened)} listed")
    if any("time_s" not in cands[i] for i in k["pareto_front"]):
        failed.append(f"{name}: a Pareto front point was not compared")
    if "time_s" not in cands[k["choice"]["index"]]:
        failed.append(f"{name}: the choice was not compared")
    way = "with their block" if True in ways else "without their block"
    print(f"{name}: {len(timed)} compared {way}, {len(screened)} screened out")
    for c in screened[:1]:
        print(f"  e.g. {c['block']}: {c['screened_out']}")
if failed:
    sys.exit("\n".join(failed))
