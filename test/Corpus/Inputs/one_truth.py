"""One truth per candidate: a configuration gets one prediction, however it is reached.

  one_truth.py search --compile 'CLANG FLAGS' FILE...
      Compiles each FILE with a free search, then forces each opted-in kernel's choice
      (-energy-force-config); the two predictions of that configuration must have the
      same model inputs (choice_model_inputs), time and energy. Both reports must hold
      a Pareto front without a dominated point, the free one predictions made one way
      only (all with the block known, or none), and the forced one baselines that are
      the kernel's declared default (the free search's) and a launchable occupancy
      heuristic.
  one_truth.py same --compile 'CLANG FLAGS' FILE:KERNEL[:FORCE] FILE:KERNEL[:FORCE]
      The same code spelled two ways (a template, ENERGY_SHARED tiles): the two
      kernels' choices, forced where FORCE is given, get the same model inputs and
      prediction.

Prints one line per check, MISMATCH for a failed one, and exits 1 if any failed.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

REL = 1e-9


def compile_report(command, source, force=None):
    """The plugin's report for source (with -energy-force-config=force)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r.json")
        argv = shlex.split(command) + ["-O3", "-S", "-mllvm", "-energy-report=" + report]
        if force:
            argv += ["-mllvm", "-energy-force-config=" + force]
        argv += [source, "-o", os.devnull]
        done = subprocess.run(argv, capture_output=True, text=True,
                              cwd=os.path.dirname(os.path.abspath(source)))
        if done.returncode != 0:
            raise RuntimeError("compile failed: {}\n{}".format(" ".join(argv),
                                                               done.stderr[-2000:]))
        with open(report) as f:
            return json.load(f)


def close(a, b, rel=REL):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-30)


def force_spec(kernel, candidate):
    block = "x".join(str(d) for d in candidate["block"])
    values = "".join(",{}={}".format(k, v) for k, v in candidate["tunables"].items())
    return "{}:{}{}".format(kernel["kernel"], block, values)


def mixed_predictions(kernel):
    """Why the candidates a report lists with a prediction were not all predicted
    the same way (with their block known, or all without), or None."""
    timed = [c for c in kernel["candidates"] if "time_s" in c]
    with_block = [c["block"] for c in timed if c.get("predicted_with_block")]
    if with_block and len(with_block) != len(timed):
        return "{} of {} listed predictions made with the block known".format(
            len(with_block), len(timed))
    return None


def dominated_front_points(kernel):
    """Front points dominated by a listed prediction (all made one way)."""
    cands = kernel["candidates"]
    live = [c for c in cands if "time_s" in c]
    bad = []
    for i in kernel["pareto_front"]:
        p = cands[i]
        for c in live:
            if (c["time_s"] <= p["time_s"] and c["energy_j"] <= p["energy_j"] and
                    (c["time_s"] < p["time_s"] or c["energy_j"] < p["energy_j"])):
                bad.append((i, c["block"], c["tunables"]))
    return bad


def same_prediction(a, b):
    """Why the choices of kernel reports a and b differ, or None."""
    ia, ib = a["choice_model_inputs"], b["choice_model_inputs"]
    if len(ia) != len(ib):
        return "model inputs differ in number"
    for name, x, y in zip(range(len(ia)), ia, ib):
        if not close(x, y, 1e-6):
            return "model input {} is {} against {}".format(name, x, y)
    for key in ("time_s", "energy_j"):
        if not close(a["choice"][key], b["choice"][key]):
            return "{} is {} against {}".format(key, a["choice"][key], b["choice"][key])
    return None


def input_names(report):
    return report["model_input_names"]


def explain(report, why):
    """Names the model input a message refers to by its index."""
    if why.startswith("model input "):
        index = int(why.split()[2])
        return why.replace("input {}".format(index),
                           "input '{}'".format(input_names(report)[index]), 1)
    return why


def check_search(command, source, out):
    failed = 0
    free = compile_report(command, source)
    for k in free["kernels"]:
        name = "{}:{}".format(os.path.basename(source), k["kernel"])
        for label, bad in (("free", dominated_front_points(k)),):
            if bad:
                out.append("MISMATCH {}: {} Pareto front point dominated: {}".format(
                    name, label, bad))
                failed += 1
        mixed = mixed_predictions(k)
        if mixed:
            out.append("MISMATCH {}: predictions made two ways: {}".format(name, mixed))
            failed += 1
        if not k.get("opted_in") or "pruned" in k["choice"]:
            continue
        if not k["choice"].get("predicted_with_block"):
            out.append("skipped {}: the free choice was not predicted with its block "
                       "(refine budget)".format(name))
            continue
        forced_report = compile_report(command, source, force_spec(k, k["choice"]))
        forced = next(f for f in forced_report["kernels"] if f["ir_name"] == k["ir_name"])
        why = same_prediction(k, forced)
        if why:
            out.append("MISMATCH {}: free and forced {}: {}".format(
                name, force_spec(k, k["choice"]), explain(free, why)))
            failed += 1
            continue
        if dominated_front_points(forced):
            out.append("MISMATCH {}: forced Pareto front point dominated".format(name))
            failed += 1
            continue
        default, free_default = forced["baselines"]["default"], k["baselines"]["default"]
        heuristic = forced["baselines"]["occupancy_heuristic"]
        if (default["block"], default["tunables"]) != (free_default["block"],
                                                       free_default["tunables"]):
            out.append("MISMATCH {}: forced default baseline {} {} is not the "
                       "declared default {} {}".format(
                           name, default["block"], default["tunables"],
                           free_default["block"], free_default["tunables"]))
            failed += 1
            continue
        if "pruned" in heuristic and "pruned" not in default:
            out.append("MISMATCH {}: forced occupancy-heuristic baseline {} cannot "
                       "launch".format(name, heuristic["block"]))
            failed += 1
            continue
        out.append("ok {}: {} free and forced agree".format(name, force_spec(k, k["choice"])))
    return failed


def kernel_of(report, name):
    for k in report["kernels"]:
        if k["kernel"] == name:
            return k
    raise RuntimeError("no kernel {} in the report".format(name))


def check_same(command, first, second, out):
    picked = []
    for spec in (first, second):
        parts = spec.split(":", 2)
        source, kernel = parts[0], parts[1]
        force = "{}:{}".format(kernel, parts[2]) if len(parts) > 2 else None
        picked.append((kernel_of(compile_report(command, source, force), kernel), spec))
    (a, sa), (b, sb) = picked
    why = same_prediction(a, b)
    if why:
        out.append("MISMATCH {} and {}: {}".format(sa, sb, why))
        return 1
    out.append("ok {} and {}: same model inputs and prediction ({:.4g} us)".format(
        os.path.basename(sa), os.path.basename(sb), a["choice"]["time_s"] * 1e6))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["search", "same"])
    parser.add_argument("--compile", required=True,
                        help="the compiler and flags before -O3 -S (plugin loaded)")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args(argv)
    out = []
    try:
        if args.mode == "search":
            failed = sum(check_search(args.compile, s, out) for s in args.inputs)
        else:
            if len(args.inputs) != 2:
                parser.error("same takes two FILE:KERNEL[:FORCE]")
            failed = check_same(args.compile, args.inputs[0], args.inputs[1], out)
    except RuntimeError as e:
        out.append("MISMATCH error: {}".format(e))
        failed = 1
    print("\n".join(out))
    print("{} check(s) failed".format(failed) if failed else "all agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
