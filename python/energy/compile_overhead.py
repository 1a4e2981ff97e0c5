"""Compile-time overhead of loading the energy plugin into CUDA device compiles.

    python3 -m energy.compile_overhead [--plugin build/lib/energy.so] [--repeats 5]
        [--stage object|ptx] [--plugin-flag=-energy-advice=full ...]
        [--json out.json] [--markdown out.md] [--top 10] [--jobs 1] [--warmup 1]
        [--sample data/compile-overhead-sample.json --sources DIR | FILE.cu ...]
    python3 -m energy.compile_overhead --select --sources DIR --write-sample SAMPLE.json

The device compile is clang's device side of a CUDA build for one architecture, what
a user pays per .cu file: front end, the optimizer and NVPTX code generation, and with
--stage object (the default) ptxas assembling the PTX into the object the build links
(clang -x cuda --cuda-device-only -O3 -c); --stage ptx stops at the PTX (-S). Each file
is compiled without and with -fplugin/-fpass-plugin (same flags otherwise, the plugin's
default options), the two alternating, after one warm-up of each. The time of a compile
is its CPU time (user + system of the compiler and its children: clang, ptxas), which
other work on the machine barely changes, unlike the wall clock (also recorded). A
file's overhead is (with - without) / without of the medians over the repeats; the
report gives the median, 90th percentile and worst overhead over the files and the files
that cost most.

The real-code sample (--sample) names files of public CUDA projects by repository and
path, with the commits they were taken at; --sources is a folder holding each
repository's checkout under the sample's name for it (the projects' sources are not part
of this repository). --select makes such a sample: the files its rule picks that compile
on their own. Without a sample or files, the bundled example and the test kernels.
"""

import argparse
import concurrent.futures
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

# How --select picks the real-code sample: each repository's CUDA files under these
# folders (a glob per repository, HeCBench one benchmark in ten), sorted, every
# `every`-th of them from the first; files that do not compile on their own are left out.
SAMPLE_RULE = {
    "cuda-samples": {"github": "NVIDIA/cuda-samples", "files": "Samples/**/*.cu",
                     "include": ["Common"]},
    "gpu-rodinia": {"github": "yuhc/gpu-rodinia", "files": "cuda/**/*.cu", "include": []},
    "HeCBench": {"github": "zjin-lcf/HeCBench", "files": "src/*-cuda/*.cu",
                 "include": ["include"], "every_folder": 10},
}
SAMPLE_EVERY = 4


def default_files():
    return ([os.path.join(ROOT, "tools/example/energy_example.cu"),
             os.path.join(ROOT, "test/Transform/Inputs/kernels.cu")]
            + sorted(glob.glob(os.path.join(ROOT, "test/CUDA/*.cu"))))


def compile_command(source, plugin, stage="object", includes=(), plugin_flags=()):
    """clang's device compile of source for sm_90; with the plugin loaded when given."""
    cmd = [CLANG, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
           f"--cuda-path={CUDA}", "-isystem", os.path.join(ROOT, "include/energy/cuda-compat"),
           "-I", os.path.join(ROOT, "include"), "-I", os.path.join(CUDA, "include/cccl"),
           "-I", os.path.dirname(os.path.abspath(source))]
    for folder in includes:
        cmd += ["-I", folder]
    cmd += ["-Wno-unknown-cuda-version", "-w", "-std=c++17", "-O3",
            "-c" if stage == "object" else "-S", source, "-o", os.devnull]
    if plugin:
        cmd[1:1] = [f"-fplugin={plugin}", f"-fpass-plugin={plugin}"]
        for flag in plugin_flags:
            cmd[1:1] = ["-mllvm", flag]
    return cmd


def compiling_alone(files, log=None, includes_of=lambda source: ()):
    """The files that compile without the plugin as they are: a lit test whose RUN lines
    write the headers it includes is left out, with a note on log."""
    kept = []
    for source in files:
        result = subprocess.run(compile_command(source, None, "ptx", includes_of(source)),
                                capture_output=True, text=True)
        if result.returncode == 0:
            kept.append(source)
        else:
            print(f"compile_overhead: leaving out {source}: it does not compile on its own",
                  file=log or sys.stderr)
    return kept


def timed(cmd):
    """(CPU seconds, wall seconds) of cmd and the children it waited for."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with process.stderr:
        stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{stderr.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime, wall


def percent(with_plugin, without):
    return 100 * (with_plugin - without) / without


def file_row(name, cpu_without, cpu_with, wall_without, wall_with):
    """One file's medians and overhead."""
    b, p = statistics.median(cpu_without), statistics.median(cpu_with)
    return {"file": name, "without_s": b, "with_s": p, "overhead_percent": percent(p, b),
            "wall_without_s": statistics.median(wall_without),
            "wall_with_s": statistics.median(wall_with)}


def quantile(values, q):
    """The q-quantile of values by linear interpolation (statistics' 'inclusive')."""
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summarize(rows, top=10):
    """Median, 90th percentile and worst of the per-file overheads, the totals and the
    files that cost most (by overhead)."""
    overheads = [r["overhead_percent"] for r in rows]
    total_b = sum(r["without_s"] for r in rows)
    total_p = sum(r["with_s"] for r in rows)
    worst_first = sorted(rows, key=lambda r: r["overhead_percent"], reverse=True)
    return {"files": len(rows),
            "median_overhead_percent": statistics.median(overheads),
            "p90_overhead_percent": quantile(overheads, 0.9),
            "worst_overhead_percent": max(overheads),
            "total_without_s": total_b, "total_with_s": total_p,
            "total_overhead_percent": percent(total_p, total_b),
            "top": [r["file"] for r in worst_first[:top]]}


def measure(files, plugin, repeats, stage="object", includes_of=lambda source: (),
            plugin_flags=(), name_of=os.path.basename, log=None, jobs=1, warmup=1):
    """A row per file, in the order of files; with jobs > 1, that many files at once
    (CPU times are each compile's own, so they barely change)."""
    def one(source):
        includes = includes_of(source)
        without = compile_command(source, None, stage, includes)
        with_plugin = compile_command(source, plugin, stage, includes, plugin_flags)
        for _ in range(warmup):  # the file cache, the plugin's ptxas cache
            timed(without)
            timed(with_plugin)
        times = {"without": [], "with": []}
        for _ in range(repeats):
            times["without"].append(timed(without))
            times["with"].append(timed(with_plugin))
        row = file_row(name_of(source), [t[0] for t in times["without"]],
                       [t[0] for t in times["with"]], [t[1] for t in times["without"]],
                       [t[1] for t in times["with"]])
        if log:
            print_row(row, log)
        return row

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, files))


def print_row(r, out):
    print(f"{r['file']:<70} {r['without_s'] * 1e3:8.1f} ms -> {r['with_s'] * 1e3:8.1f} ms "
          f"({r['overhead_percent']:+.1f}%)", file=out, flush=True)


def markdown(report):
    """The report as a Markdown section: the command, the summary and the top files."""
    s = report["summary"]
    lines = [f"Command: `{report['command']}`", "",
             f"{s['files']} files, {report['stage']} stage, CPU time, median of "
             f"{report['repeats']} (plugin flags: "
             f"{' '.join(report['plugin_flags']) or 'none'})",
             "", "| | overhead |", "|---|---|",
             f"| median over files | {s['median_overhead_percent']:+.1f}% |",
             f"| 90th percentile | {s['p90_overhead_percent']:+.1f}% |",
             f"| worst | {s['worst_overhead_percent']:+.1f}% |",
             f"| all files together | {s['total_without_s']:.2f} s -> "
             f"{s['total_with_s']:.2f} s ({s['total_overhead_percent']:+.1f}%) |",
             "", "| file (most overhead first) | without | with | overhead |",
             "|---|---|---|---|"]
    by_name = {r["file"]: r for r in report["files"]}
    for name in s["top"]:
        r = by_name[name]
        lines.append(f"| {name} | {r['without_s'] * 1e3:.0f} ms | {r['with_s'] * 1e3:.0f} ms "
                     f"| {r['overhead_percent']:+.1f}% |")
    return "\n".join(lines) + "\n"


def load_sample(path, sources):
    """The sample's files as paths under sources, and each one's include folders."""
    with open(path) as f:
        sample = json.load(f)
    includes, files = {}, []
    for name in sample["files"]:
        repo = name.split("/", 1)[0]
        if repo not in sample["repositories"]:
            raise RuntimeError(f"{path}: {name}: no repository '{repo}' in the sample")
        source = os.path.join(sources, name)
        if not os.path.exists(source):
            raise RuntimeError(f"{source} not found: --sources must hold the checkouts "
                               f"the sample names ({', '.join(sample['repositories'])})")
        files.append(source)
        includes[source] = [os.path.join(sources, repo, folder)
                            for folder in sample["repositories"][repo]["include"]]
    return files, includes


def select_sample(sources, log=None):
    """The sample SAMPLE_RULE picks from the checkouts under sources."""
    candidates = []
    for repo, rule in SAMPLE_RULE.items():
        root = os.path.join(sources, repo)
        found = sorted(os.path.relpath(p, sources)
                       for p in glob.glob(os.path.join(root, rule["files"]), recursive=True))
        every = rule.get("every_folder")
        if every:
            folders = sorted({os.path.dirname(p) for p in found})[::every]
            found = [p for p in found if os.path.dirname(p) in folders]
        candidates += found
    candidates = sorted(candidates)[::SAMPLE_EVERY]
    repositories = {repo: {"github": rule["github"], "include": rule["include"],
                           "commit": checkout_commit(os.path.join(sources, repo))}
                    for repo, rule in SAMPLE_RULE.items()}

    def includes_of(source):
        repo = os.path.relpath(source, sources).split("/", 1)[0]
        return [os.path.join(sources, repo, d) for d in SAMPLE_RULE[repo]["include"]]

    kept = compiling_alone([os.path.join(sources, c) for c in candidates], log, includes_of)
    return {"rule": f"{SAMPLE_RULE}, every {SAMPLE_EVERY}th of the sorted candidates, "
                    "those compiling on their own",
            "repositories": repositories, "candidates": len(candidates),
            "files": [os.path.relpath(k, sources) for k in kept]}


def checkout_commit(folder):
    """The commit a checkout is at: git's, else a COMMIT file beside it (an export)."""
    marker = os.path.join(folder, "COMMIT")
    if os.path.exists(marker):
        with open(marker) as f:
            return f.read().strip()
    result = subprocess.run(["git", "-C", folder, "rev-parse", "HEAD"], capture_output=True,
                            text=True)
    return result.stdout.strip() if result.returncode == 0 else "unknown"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m energy.compile_overhead",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="CUDA sources (default: example + tests)")
    parser.add_argument("--plugin", default=os.path.join(ROOT, "build/lib/energy.so"))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--stage", choices=["object", "ptx"], default="object",
                        help="object: through ptxas (-c, default); ptx: to PTX (-S)")
    parser.add_argument("--plugin-flag", action="append", default=[],
                        help="a plugin option for the compiles with the plugin "
                             "(-mllvm FLAG), e.g. --plugin-flag=-energy-advice=full")
    parser.add_argument("--sample", help="the real-code sample (JSON) to measure")
    parser.add_argument("--sources", help="the folder holding the sample's checkouts")
    parser.add_argument("--select", action="store_true",
                        help="make a sample from --sources (see SAMPLE_RULE)")
    parser.add_argument("--write-sample", help="with --select: write the sample here")
    parser.add_argument("--jobs", type=int, default=1, help="files measured at once")
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed compiles of each variant before the repeats")
    parser.add_argument("--top", type=int, default=10, help="files listed as costing most")
    parser.add_argument("--json", help="write the measurements here")
    parser.add_argument("--markdown", help="write the summary as Markdown here")
    args = parser.parse_args(argv)
    if (args.sample or args.select) and not args.sources:
        parser.error("--sample and --select need --sources")
    if args.select:
        if not args.write_sample:
            parser.error("--select needs --write-sample")
        sample = select_sample(args.sources)
        with open(args.write_sample, "w") as f:
            json.dump(sample, f, indent=2)
            f.write("\n")
        print(f"{len(sample['files'])} of {sample['candidates']} candidates compile alone")
        return 0
    if not os.path.exists(args.plugin):
        print(f"error: plugin not found: {args.plugin}", file=sys.stderr)
        return 1
    try:
        if args.sample:
            files, includes = load_sample(args.sample, args.sources)
            includes_of, name_of = includes.get, lambda s: os.path.relpath(s, args.sources)
        else:
            files = args.files or compiling_alone(default_files())
            includes_of, name_of = (lambda s: ()), (lambda s: os.path.relpath(s, ROOT))
        rows = measure(files, args.plugin, args.repeats, args.stage, includes_of,
                       args.plugin_flag, name_of, sys.stdout, args.jobs, args.warmup)
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    report = {"command": "PYTHONPATH=python python3 -m energy.compile_overhead "
                         + " ".join(argv if argv is not None else sys.argv[1:]),
              "date": time.strftime("%Y-%m-%d", time.gmtime()),
              "repeats": args.repeats, "warmup": args.warmup, "stage": args.stage,
              "plugin_flags": args.plugin_flag,
              "machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
              "load_average": os.getloadavg()[0], "clang": CLANG, "files": rows,
              "summary": summarize(rows, args.top)}
    s = report["summary"]
    print(f"median {s['median_overhead_percent']:+.1f}%, "
          f"p90 {s['p90_overhead_percent']:+.1f}%, "
          f"worst {s['worst_overhead_percent']:+.1f}% over {s['files']} files; total "
          f"{s['total_without_s']:.2f} s -> {s['total_with_s']:.2f} s "
          f"({s['total_overhead_percent']:+.1f}%), CPU time, median of {args.repeats}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
