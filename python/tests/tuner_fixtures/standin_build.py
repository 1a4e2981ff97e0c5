"""STAND-IN for a user's build command (energy-cuda ... {force_config}), for the tests of
energy.tune --program (python/tests/test_tune_program.py): no compiler runs.

    standin_build.py FOLDER ENERGY-CUDA-OPTIONS...

--energy-report=FILE writes a made-up plugin report of two kernels (its predictions are
invented numbers, not the plugin's); --energy-force-config=V records V in FOLDER/app.config
for the stand-in program; --energy-header=FILE writes a stand-in header. A forced value
listed in STANDIN_FAIL_BUILD (';'-separated) fails like a compile error. Each call is
logged in FOLDER/log.
"""

import json
import os
import sys

BLOCKS = (32, 64, 128, 256, 512, 1024)
ITEMS = (1, 2, 4)


def report():
    candidates = []
    for block in BLOCKS:
        for items in ITEMS:
            c = {"block": [block, 1, 1], "tunables": {"ITEMS": items}, "grid_blocks": 64,
                 "shared_bytes": 0, "dynamic_shared_bytes": 0, "occupancy": 1.0,
                 "occupancy_limiter": "threads"}
            if block == 1024 and items == 4:
                c["pruned"] = "resources"        # the plugin ruled it out: no time_s
            elif block == 32:                    # legal, ranked by the screen alone
                c["screened_out"] = (f"ranked {18 - items} of 18 by the block-free "
                                     f"screen; only its 4 best were predicted again")
            else:
                # Made up: right about the block (best 256), wrong about ITEMS.
                c.update(time_s=1e-3 * (1 + abs(block.bit_length() - 9) * 0.25)
                         * (1 + 0.05 * items), energy_j=0.1, pareto=False)
            candidates.append(c)
    return {"format": "energy-report-v1", "module": "app.cu", "model_input_names": [],
            "kernels": [{"kernel": "scale", "opted_in": True, "arch": "sm_90",
                         "gpu": os.environ.get("STANDIN_BOARD", "h100-sxm"),
                         "candidates": candidates},
                        {"kernel": "plain", "opted_in": False, "candidates": []}],
            "skipped": [], "unmatched_forces": []}


def main():
    folder, options = sys.argv[1], sys.argv[2:]
    with open(os.path.join(folder, "log"), "a") as log:
        log.write("build " + " ".join(options) + "\n")
    failing = os.environ.get("STANDIN_FAIL_BUILD", "").split(";")
    for option in options:
        name, _, value = option.partition("=")
        if name == "--energy-report":
            with open(value, "w") as f:
                json.dump(report(), f)
        elif name == "--energy-force-config":
            if value in failing:
                print(f"app.cu:3:1: error: stand-in compile error for {value}",
                      file=sys.stderr)
                return 1
            with open(os.path.join(folder, "app.config"), "w") as f:
                f.write(value)
        elif name == "--energy-header":
            with open(value, "w") as f:
                f.write("// stand-in header\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
