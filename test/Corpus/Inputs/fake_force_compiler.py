"""A stand-in for clang with the plugin, for force-sweep-errors.test: it reads
-energy-force-config=KERNEL:SHAPE and -energy-report=FILE and answers as
MODE (its first argument) says. Accepts the shape 256, writing a report with
that candidate, and rejects the others with a reason, except:
  crash        shape 64 exits 139 with no error
  noshape      shape 64 fails with an error that names the kernel but no shape
  wrongreport  shape 256 is accepted with a report of block 128
  rejectall    every shape is rejected
"""
import json
import sys

mode, args = sys.argv[1], sys.argv[2:]
force = next(a.split("=", 1)[1] for a in args if a.startswith("-energy-force-config="))
report = next(a.split("=", 1)[1] for a in args if a.startswith("-energy-report="))
kernel, shape = force.split(",")[0].split(":")
if mode == "crash" and shape == "64":
    sys.exit(139)
if mode == "noshape" and shape == "64":
    sys.exit(f"error: energy-optimize: kernel '{kernel}': no candidate fits")
if shape != "256" or mode == "rejectall":
    sys.exit(f"error: energy-optimize: kernel '{kernel}': forced block {shape} is not "
             "correct for it: a fake reason")
block = [128 if mode == "wrongreport" else 256, 1, 1]
with open(report, "w") as f:
    json.dump({"kernels": [{"kernel": kernel, "candidates": [
        {"block": block, "tunables": {}, "dynamic_shared_bytes": 0}]}]}, f)
