"""Registers and spills of the convolution rows as nvcc builds them (the tuners built with nvcc).

    /usr/bin/python3 data/kernel-tuner/nvcc-spills/nvcc_spills.py compile   # -> nvcc-spills.json
    /usr/bin/python3 data/kernel-tuner/nvcc-spills/nvcc_spills.py table     # per board, markdown
    /usr/bin/python3 data/kernel-tuner/nvcc-spills/nvcc_spills.py rows OUT  # kt-rows, nvcc's spills

compile: every convolution row of data/kernel-tuner/rows/kt-rows.jsonl, compiled as Kernel
Tuner does (`nvcc -arch=sm_XX -D<tunable>=<value>`, here -cubin -Xptxas -v) for the row's
arch; records ptxas's registers, stack frame and static spill stores and loads of
convolution_kernel, keyed "problem|arch|config". rows: the same rows with spill_bytes
(stores + loads: the kernel is fully unrolled, so each spill instruction runs about once;
clang's build of 64,2,15,15,0,2,7,1 has 6692 static and 7182 estimated executed bytes) and
local_frame_bytes taken from nvcc's build; everything else as clang's build left it.
"""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
ROWS = os.path.join(REPO, "data", "kernel-tuner", "rows", "kt-rows.jsonl")
OUT = os.path.join(HERE, "nvcc-spills.json")
sys.path.insert(0, os.path.join(REPO, "python"))
from energy import measured_build, tuning_problem  # noqa: E402

NVCC = os.environ.get("NVCC", measured_build.NVCC)
SOURCES = ("convolution", "convolution-a4000")


def conv_rows():
    rows = [json.loads(line) for line in open(ROWS, encoding="utf-8")]
    return [r for r in rows if r["problem"] in SOURCES], rows


def key(r):
    return f"{r['problem']}|{r['arch']}|{r['config']}"


def compile_all():
    table = json.load(open(OUT)) if os.path.exists(OUT) else {}
    conv, _ = conv_rows()
    for r in conv:
        if key(r) in table:
            continue
        problem = tuning_problem.load(r["problem"])
        argv = measured_build.command(problem, r["params"], r["arch"], nvcc=NVCC)
        done = subprocess.run(argv, capture_output=True, text=True)
        found = measured_build.parse_ptxas(done.stderr, problem.kernel)
        if done.returncode != 0 or not found:
            sys.exit(f"{key(r)}: {done.stderr[-500:]}")
        table[key(r)] = {"frame": found["stack_frame"], "stores": found["spill_stores"],
                         "loads": found["spill_loads"], "regs": found["registers"]}
        with open(OUT, "w", encoding="utf-8") as f:
            json.dump(dict(sorted(table.items())), f, indent=0)
            f.write("\n")


def print_table():
    table = json.load(open(OUT))
    conv, _ = conv_rows()
    boards = sorted({r["gpu"] for r in conv})
    print("| board | rows | clang spills | nvcc spills | both | nvcc registers (median, rows "
          "clang spills) | measured / best: nvcc spills | clang spills only | neither |")
    print("|---|---|---|---|---|---|---|---|---|")
    for b in boards:
        rs = [r for r in conv if r["gpu"] == b]
        best = min(r["time_s"] for r in rs)
        nv = lambda r: table[key(r)]["stores"] + table[key(r)]["loads"] > 0
        cl = lambda r: r["features"]["spill_bytes"] > 0

        def ratios(sel):
            v = [r["time_s"] / best for r in sel]
            return "-" if not v else f"{min(v):.2f} / {statistics.median(v):.2f} ({len(v)})"
        print(f"| {b} | {len(rs)} | {sum(map(cl, rs))} | {sum(map(nv, rs))} | "
              f"{sum(cl(r) and nv(r) for r in rs)} | "
              f"{statistics.median(table[key(r)]['regs'] for r in rs if cl(r)):.0f} | "
              f"{ratios([r for r in rs if nv(r)])} | "
              f"{ratios([r for r in rs if cl(r) and not nv(r)])} | "
              f"{ratios([r for r in rs if not cl(r) and not nv(r)])} |")


def write_rows(path):
    table = json.load(open(OUT))
    _, rows = conv_rows()
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            if r["problem"] in SOURCES:
                t = table[key(r)]
                r["features"]["spill_bytes"] = float(t["stores"] + t["loads"])
                r["features"]["local_frame_bytes"] = float(t["frame"])
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "compile":
        compile_all()
    elif mode == "table":
        print_table()
    elif mode == "rows" and len(sys.argv) == 3:
        write_rows(sys.argv[2])
    else:
        sys.exit(__doc__)
