"""Prints whether two reports' predictions for KERNEL differ, and the second's choice."""
import json
import sys

a, b, kernel = sys.argv[1:4]
def kernel_of(path):
    return next(k for k in json.load(open(path))["kernels"] if k["kernel"] == kernel)
ka, kb = kernel_of(a), kernel_of(b)
times = lambda k: [c.get("time_s") for c in k["candidates"]]
print("predictions differ" if times(ka) != times(kb) else "predictions equal")
print("xgboost choice block", kb["choice"]["block"])
