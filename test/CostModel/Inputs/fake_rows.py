"""Writes SYNTHETIC training rows for the plugin's model inputs.

    fake_rows.py REPORT.json OUT.jsonl [--time-only]

THE NUMBERS ARE MADE UP: every row is the analytic prediction of a candidate in
REPORT.json, with time scaled by a made-up factor that grows with the block
size, so a model trained on them must disagree with the analytic model. They
test the -energy-model mechanics only, are labelled "synthetic-no-gpu", and
are never measurements. With --time-only the rows have no energy and carry
the analytic time, as time-only measurements with the plugin's predictions do.
"""
import json
import math
import sys

report, out = sys.argv[1:3]
time_only = "--time-only" in sys.argv[3:]
doc = json.load(open(report))
names = doc["model_input_names"]
rows = []
for k in doc["kernels"]:
    inputs = k["choice_model_inputs"]
    for i, c in enumerate(c for c in k["candidates"] if "time_s" in c):
        threads = c["block"][0] * c["block"][1] * c["block"][2]
        features = dict(zip(names, inputs))
        features["block_x"], features["block_y"] = c["block"][0], c["block"][1]
        features["block_threads"] = threads
        penalty = 1 + threads / 256  # made up
        row = {"kernel": k["kernel"], "config": f"c{i}", "arch": "sm_90",
               "gpu": "synthetic-no-gpu", "synthetic": True, "status": "ok",
               "time_s": c["time_s"] * penalty, "energy_j": c["energy_j"] * penalty,
               "features": features}
        if time_only:
            del row["energy_j"]
            row["analytic_time_s"] = c["time_s"]
        rows.append(row)
with open(out, "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
