"""Summarizes an energy report for FileCheck, one line per kernel:

    report_summary.py REPORT

"<kernel>: <n> candidates, <m> shapes not correct", followed by
", shared bytes = A * threads + B" when every candidate's shared memory
follows its thread count exactly (dynamic shared memory per thread), and a
"skipped <kernel>" line for each kernel left alone.
"""
import json
import sys

report = json.load(open(sys.argv[1]))
for k in report["kernels"]:
    line = (f"{k['kernel']}: {k['candidates_total']} candidates, "
            f"{k['shapes_not_correct']} shapes not correct")
    points = {c["block"][0] * c["block"][1] * c["block"][2]: c["shared_bytes"]
              for c in k["candidates"]}
    if len(points) > 1:
        (t1, s1), (t2, s2) = sorted(points.items())[:2]
        a = (s2 - s1) // (t2 - t1)
        b = s1 - a * t1
        if a and all(s == a * t + b for t, s in points.items()):
            line += f", shared bytes = {a} * threads + {b}"
    print(line)
for s in report.get("skipped", []):
    print("skipped", s["kernel"])
