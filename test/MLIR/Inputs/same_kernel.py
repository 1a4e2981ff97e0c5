"""Compares what the LLVM pass and the gpu-dialect pass say of the same kernels.

usage: same_kernel.py LLVM_FEATURES MLIR_FEATURES LLVM_REMARKS MLIR_REMARKS

The features files are print<energy-features> and energy-print-gpu-features
output; the remarks files hold each pass's advice. Prints, per kernel, the
features whose values differ (their names only) and whether both passes
advise the same block, and how far apart their predictions are (the largest
relative difference of time and energy, in percent).
"""
import re
import sys


def features(path):
    kernels, current = {}, None
    for line in open(path):
        if line.startswith("kernel "):
            current = kernels.setdefault(line.split()[1], {})
        elif current is not None and ":" in line:
            name, value = line.strip().split(":", 1)
            current[name] = value.split()[0] if value.split() else ""
    return kernels


ADVICE = re.compile(r"kernel @?(\w+)\b.*?advice: (block \S+) .*?predicted (.*?) per launch")


def advice(path):
    return {m.group(1): (m.group(2), m.group(3))
            for m in map(ADVICE.search, open(path)) if m}


def main():
    llvm, mlir = features(sys.argv[1]), features(sys.argv[2])
    llvm_advice, mlir_advice = advice(sys.argv[3]), advice(sys.argv[4])
    for kernel in sorted(set(llvm) | set(mlir)):
        if kernel not in llvm or kernel not in mlir:
            print(f"{kernel}: only in {'llvm' if kernel in llvm else 'mlir'}")
            continue
        names = list(llvm[kernel])
        if names != list(mlir[kernel]):
            print(f"{kernel}: different feature lists")
        differ = [n for n in names if llvm[kernel][n] != mlir[kernel].get(n)]
        print(f"{kernel}: features differ: {', '.join(differ) or 'none'}")
        a, b = llvm_advice.get(kernel), mlir_advice.get(kernel)
        if a and b and a[0] == b[0]:
            apart = max(abs(x / y - 1) for x, y in zip(numbers(a[1]), numbers(b[1])))
            print(f"{kernel}: same choice: {a[0]}, predictions {100 * apart:.1f}% apart")
        else:
            print(f"{kernel}: different choices: {a} and {b}")


UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0,
         "nJ": 1e-9, "uJ": 1e-6, "mJ": 1e-3, "J": 1.0}


def numbers(prediction):
    """(time, energy) in SI units of "71.86 us, 28.27 mJ" (each in its own unit)."""
    return [float(part.split()[0]) * UNITS[part.split()[1]] for part in prediction.split(",")]


main()
