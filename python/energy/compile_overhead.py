"""Compile-time overhead of the energy plugin on CUDA device compiles.

    python3 -m energy.compile_overhead [--plugin build/lib/energy.so] [--repeats 7]
                                       [--json out.json] [FILE.cu ...]

For each file, the clang -O3 device-only compile to PTX is timed with and without
-fplugin/-fpass-plugin (same flags otherwise, default plugin options: the optimizer and
its advice run on every kernel). Runs alternate between the two variants; each time is
the median of the repeats. The overhead is (with - without) / without, per file and over
the sum of the medians. Defaults to the bundled example and the test kernels.
"""

import argparse
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLANG = "/usr/lib/llvm-19/bin/clang++"
CUDA = "/usr/local/cuda"


def default_files():
    return ([os.path.join(ROOT, "tools/example/energy_example.cu"),
             os.path.join(ROOT, "test/Transform/Inputs/kernels.cu")]
            + sorted(glob.glob(os.path.join(ROOT, "test/CUDA/*.cu"))))


def compiling_alone(files, log=sys.stderr):
    """The files that compile without the plugin as they are: a lit test whose RUN lines
    write the headers it includes is left out, with a note on log."""
    kept = []
    for source in files:
        result = subprocess.run(compile_command(source, None), capture_output=True, text=True)
        if result.returncode == 0:
            kept.append(source)
        else:
            print(f"compile_overhead: leaving out {os.path.relpath(source, ROOT)}: "
                  "it does not compile on its own", file=log)
    return kept


def compile_command(source, plugin):
    cmd = [CLANG, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
           f"--cuda-path={CUDA}", "-isystem", os.path.join(ROOT, "include/energy/cuda-compat"),
           "-I", os.path.join(ROOT, "include"), "-Wno-unknown-cuda-version", "-w",
           "-O3", "-S", source, "-o", os.devnull]
    if plugin:
        cmd[1:1] = [f"-fplugin={plugin}", f"-fpass-plugin={plugin}"]
    return cmd


def timed(cmd):
    start = time.perf_counter()
    result = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{result.stderr}")
    return elapsed


def measure(files, plugin, repeats):
    rows = []
    for source in files:
        base, with_plugin = [], []
        timed(compile_command(source, None))  # warm the file cache
        for _ in range(repeats):
            base.append(timed(compile_command(source, None)))
            with_plugin.append(timed(compile_command(source, plugin)))
        b, p = statistics.median(base), statistics.median(with_plugin)
        rows.append({"file": os.path.relpath(source, ROOT), "without_s": b, "with_s": p,
                     "overhead_percent": 100 * (p - b) / b})
    total_b = sum(r["without_s"] for r in rows)
    total_p = sum(r["with_s"] for r in rows)
    return {"repeats": repeats, "machine": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(), "clang": CLANG, "files": rows,
            "total_without_s": total_b, "total_with_s": total_p,
            "total_overhead_percent": 100 * (total_p - total_b) / total_b}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m energy.compile_overhead",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="CUDA sources (default: example + tests)")
    parser.add_argument("--plugin", default=os.path.join(ROOT, "build/lib/energy.so"))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", help="write the measurements here")
    args = parser.parse_args(argv)
    if not os.path.exists(args.plugin):
        print(f"error: plugin not found: {args.plugin}", file=sys.stderr)
        return 1
    try:
        report = measure(args.files or compiling_alone(default_files()), args.plugin,
                         args.repeats)
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for r in report["files"]:
        print(f"{r['file']:<45} {r['without_s'] * 1e3:8.1f} ms -> {r['with_s'] * 1e3:8.1f} ms "
              f"({r['overhead_percent']:+.1f}%)")
    print(f"total: {report['total_without_s']:.3f} s -> {report['total_with_s']:.3f} s "
          f"({report['total_overhead_percent']:+.1f}%), median of {args.repeats}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
