"""Does energy-cuda build what nvcc builds? Each file of a list, compiled by both.

    python3 -m energy.samples_check --sources DIR [--list data/cuda-samples-files.json]
        [--energy-cuda build/bin/energy-cuda] [--nvcc /usr/local/cuda/bin/nvcc]
        [--arch sm_90] [-j 2] [--timeout 600] [--json OUT] [--markdown OUT] [FILE ...]
    python3 -m energy.samples_check --check-report REPORT.json [--list LIST]
        [--markdown OUT]
    python3 -m energy.samples_check --sources DIR --write-list LIST.json

Each file is compiled to an object for one architecture, first by nvcc, then, where nvcc
builds it, by energy-cuda with the same command line (-arch=ARCH -std=c++17
--extended-lambda -I... -c): what a project that switches its compiler to energy-cuda
sees. The report (--json) is written after each file, so --resume can take up an
interrupted run. A file fails when the compiler exits non-zero or runs past --timeout; the report
keeps each compiler's result and its first error line. The list (same form as
compile_overhead's sample: the repositories with their commits, the files by repository
and path) also names the documented exceptions, files energy-cuda does not build and
why; one that energy-cuda fails and the list does not excuse makes the exit status 1,
and so does an excused one that now builds (the exception is stale).

--sources is a folder holding each repository's checkout under the list's name for it,
as for compile_overhead (the sources are not part of this repository); FILE arguments
(paths under --sources) check those files of the list only. Include folders: the
repository's (Common for cuda-samples), the file's folder and the sample's folder (the
parent of a src/ folder) with its inc/, as the samples' own CMake files give them.
--write-list makes the list from a checkout: every .cu under Samples/, sorted, with the
commit, keeping the exceptions of the list it replaces.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

from energy.compile_overhead import ROOT, checkout_commit, load_sample

NVCC = "/usr/local/cuda/bin/nvcc"
DEFAULT_LIST = os.path.join(ROOT, "data/cuda-samples-files.json")
LIST_RULE = {"cuda-samples": {"github": "NVIDIA/cuda-samples", "files": "Samples/**/*.cu",
                              "include": ["Common"]}}
ERROR_LINE = re.compile(r"\berror\b", re.IGNORECASE)


def include_folders(source, repo_includes):
    """The -I folders of source: its repository's, its own folder, and its sample's
    folder (the parent of src/) with that folder's inc/ where there is one."""
    folder = os.path.dirname(source)
    sample = os.path.dirname(folder) if os.path.basename(folder) == "src" else folder
    folders = list(repo_includes) + [folder]
    if sample != folder:
        folders.append(sample)
    if os.path.isdir(os.path.join(sample, "inc")):
        folders.append(os.path.join(sample, "inc"))
    return folders


def compile_flags(arch, includes):
    """The nvcc command line both compilers get, before the source and -o."""
    flags = [f"-arch={arch}", "-std=c++17", "--extended-lambda"]
    for folder in includes:
        flags += ["-I", folder]
    return flags + ["-c"]


def first_error(text):
    """The first line of a compiler's output that reports an error, else its first
    non-empty line (a crash, a signal)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if ERROR_LINE.search(line):
            return line
    return lines[0] if lines else ""


def run_compiler(cmd, timeout):
    """('ok' | 'fail' | 'timeout', first error line, wall seconds) of cmd."""
    start = time.perf_counter()
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"timed out after {timeout} s", time.perf_counter() - start
    except OSError as e:
        return "fail", f"cannot run {cmd[0]}: {e.strerror}", time.perf_counter() - start
    seconds = time.perf_counter() - start
    if result.returncode == 0:
        return "ok", "", seconds
    error = first_error(result.stderr + result.stdout)
    if result.returncode < 0:
        error = f"killed by signal {-result.returncode}: {error}"
    return "fail", error, seconds


def check_file(source, name, includes, compilers, arch, timeout):
    """One file's row: nvcc's result, then energy-cuda's where nvcc built it."""
    flags = compile_flags(arch, includes)
    row = {"file": name}
    with tempfile.TemporaryDirectory(prefix="samples-check-") as tmp:
        for key, compiler in (("nvcc", compilers["nvcc"]),
                              ("energy_cuda", compilers["energy_cuda"])):
            if key == "energy_cuda" and row["nvcc"] != "ok":
                row[key] = "not run"
                continue
            status, error, seconds = run_compiler(
                [compiler] + flags + [source, "-o", os.path.join(tmp, key + ".o")], timeout)
            row[key], row[key + "_seconds"] = status, round(seconds, 2)
            if error:
                row[key + "_error"] = error
    return row


def summarize(rows):
    """How many files nvcc builds, and how many of those energy-cuda builds."""
    built_by_nvcc = [r for r in rows if r["nvcc"] == "ok"]
    failed = [r for r in built_by_nvcc if r["energy_cuda"] != "ok"]
    return {"files": len(rows), "nvcc_builds": len(built_by_nvcc),
            "nvcc_fails": len(rows) - len(built_by_nvcc),
            "energy_cuda_builds": len(built_by_nvcc) - len(failed),
            "energy_cuda_fails": len(failed)}


def broken_promises(rows, exceptions):
    """(unexcused, stale): the files energy-cuda fails where nvcc builds and no
    exception excuses, and the excused files that build now."""
    built_by_nvcc = [r for r in rows if r["nvcc"] == "ok"]
    unexcused = [r["file"] for r in built_by_nvcc
                 if r["energy_cuda"] != "ok" and r["file"] not in exceptions]
    stale = [r["file"] for r in built_by_nvcc
             if r["energy_cuda"] == "ok" and r["file"] in exceptions]
    return unexcused, stale


def markdown(rows, exceptions):
    """The counts, the files nvcc does not build (its first error) and those energy-cuda
    does not (the exception's reason), as Markdown."""
    s = summarize(rows)
    lines = ["| files | nvcc builds | energy-cuda builds (of those) | energy-cuda fails |",
             "|---|---|---|---|",
             f"| {s['files']} | {s['nvcc_builds']} | {s['energy_cuda_builds']} | "
             f"{s['energy_cuda_fails']} |", "",
             "| file nvcc does not build | nvcc's first error |", "|---|---|"]
    lines += [f"| {r['file']} | {short_error(r.get('nvcc_error', r['nvcc']))} |"
              for r in rows if r["nvcc"] != "ok"]
    lines += ["", "| file energy-cuda does not build | why (the list's exception) |",
              "|---|---|"]
    for r in rows:
        if r["nvcc"] == "ok" and r["energy_cuda"] != "ok":
            why = exceptions.get(r["file"]) or "not excused: " + short_error(
                r.get("energy_cuda_error", r["energy_cuda"]))
            lines.append(f"| {r['file']} | {why} |")
    return "\n".join(lines) + "\n"


def short_error(line):
    """An error line without the source's path, and with | escaped, for a table."""
    return re.sub(r"^\S*/", "", line).replace("|", "\\|")


def verdict(rows, exceptions, list_path):
    """Print the counts and each broken promise; the exit status."""
    out, err = sys.stdout, sys.stderr
    summary = summarize(rows)
    unexcused, stale = broken_promises(rows, exceptions)
    print(f"{summary['files']} files: nvcc builds {summary['nvcc_builds']}, energy-cuda "
          f"builds {summary['energy_cuda_builds']} of them; {len(unexcused)} failures "
          f"not excused, {len(stale)} exceptions that now build", file=out)
    for name in unexcused:
        print(f"error: {name}: energy-cuda fails where nvcc builds, and {list_path} "
              "gives no exception for it", file=err)
    for name in stale:
        print(f"error: {name}: energy-cuda builds it now; drop its exception from "
              f"{list_path}", file=err)
    return 1 if unexcused or stale else 0


def check(files, includes_of, name_of, compilers, arch, timeout, jobs, log=None,
          done=None, on_row=None):
    """A row per file, in the order of files; jobs files at once. A file whose name
    done (rows by name, from an earlier report) holds is not compiled again; on_row is
    called with the rows so far after each file (to save an interrupted run)."""
    done = done or {}
    finished = dict(done)
    lock = threading.Lock()

    def one(source):
        name = name_of(source)
        if name in done:
            return done[name]
        row = check_file(source, name, includes_of(source), compilers, arch, timeout)
        if log:
            error = row.get("energy_cuda_error") or row.get("nvcc_error") or ""
            print(f"nvcc {row['nvcc']:<7} energy-cuda {row['energy_cuda']:<7} "
                  f"{row['file']} {error[:160]}".rstrip(), file=log, flush=True)
        with lock:
            finished[name] = row
            if on_row:
                on_row([finished[name_of(f)] for f in files if name_of(f) in finished])
        return row

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, files))


def write_list(sources, path):
    """The list of every file LIST_RULE picks, keeping the exceptions of the list at
    path if there is one."""
    old = {}
    if os.path.exists(path):
        with open(path) as f:
            old = json.load(f)
    files, repositories = [], {}
    for repo, rule in LIST_RULE.items():
        root = os.path.join(sources, repo)
        files += sorted(os.path.relpath(p, sources)
                        for p in glob.glob(os.path.join(root, rule["files"]), recursive=True))
        repositories[repo] = {"github": rule["github"], "include": rule["include"],
                              "commit": checkout_commit(root)}
    listing = {"rule": f"{LIST_RULE}: every file, sorted", "repositories": repositories,
               "files": files, "exceptions": old.get("exceptions", {})}
    with open(path, "w") as f:
        json.dump(listing, f, indent=2)
        f.write("\n")
    return listing


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m energy.samples_check",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*",
                        help="files of the list to check (paths under --sources; "
                             "default: all)")
    parser.add_argument("--sources",
                        help="the folder holding the list's checkouts (cuda-samples/...)")
    parser.add_argument("--list", default=DEFAULT_LIST,
                        help="the files, their repositories and the exceptions (JSON)")
    parser.add_argument("--write-list", metavar="LIST",
                        help="write the list of every .cu of the checkout here and stop")
    parser.add_argument("--energy-cuda", default=os.path.join(ROOT, "build/bin/energy-cuda"))
    parser.add_argument("--nvcc", default=NVCC)
    parser.add_argument("--arch", default="sm_90", help="the one architecture built")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="files checked at once")
    parser.add_argument("--timeout", type=int, default=600,
                        help="seconds a compile may take before it counts as failed")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--markdown", help="write the counts and the files each compiler "
                        "does not build (with the exceptions' reasons) here, as Markdown")
    parser.add_argument("--resume", metavar="REPORT",
                        help="take the rows of the files an earlier report (--json) "
                             "holds instead of compiling them again")
    parser.add_argument("--check-report", metavar="REPORT",
                        help="compile nothing: hold a report (--json) against the "
                             "list's exceptions")
    args = parser.parse_args(argv)
    if args.check_report:
        try:
            with open(args.check_report) as f:
                rows = json.load(f)["files"]
            with open(args.list) as f:
                exceptions = json.load(f).get("exceptions", {})
        except (OSError, ValueError, KeyError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(markdown(rows, exceptions))
        return verdict(rows, exceptions, args.list)
    if not args.sources:
        parser.error("--sources is needed unless --check-report")
    if args.write_list:
        listing = write_list(args.sources, args.write_list)
        print(f"{len(listing['files'])} files written to {args.write_list}")
        return 0
    for tool in (args.energy_cuda, args.nvcc):
        if not os.path.exists(tool):
            print(f"error: {tool}: not found", file=sys.stderr)
            return 1
    try:
        files, repo_includes = load_sample(args.list, args.sources)
    except (OSError, ValueError, KeyError, RuntimeError) as e:
        print(f"error: {args.list}: {e}", file=sys.stderr)
        return 1
    with open(args.list) as f:
        listing = json.load(f)
    if args.files:
        wanted = {os.path.abspath(p) for p in args.files}
        unknown = wanted - {os.path.abspath(p) for p in files}
        if unknown:
            print(f"error: not in {args.list}: {', '.join(sorted(unknown))}",
                  file=sys.stderr)
            return 1
        files = [p for p in files if os.path.abspath(p) in wanted]
    done = {}
    if args.resume:
        try:
            with open(args.resume) as f:
                done = {row["file"]: row for row in json.load(f)["files"]}
        except (OSError, ValueError, KeyError) as e:
            print(f"error: {args.resume}: {e}", file=sys.stderr)
            return 1
    command = "PYTHONPATH=python python3 -m energy.samples_check " + " ".join(
        argv if argv is not None else sys.argv[1:])

    def save(rows):
        if args.json:
            report = {"command": command, "date": time.strftime("%Y-%m-%d", time.gmtime()),
                      "repositories": listing["repositories"], "arch": args.arch,
                      "flags": compile_flags(args.arch, ["..."]),
                      "summary": summarize(rows), "files": rows}
            with open(args.json, "w") as f:
                json.dump(report, f, indent=2)
                f.write("\n")

    rows = check(files, lambda s: include_folders(s, repo_includes[s]),
                 lambda s: os.path.relpath(s, args.sources),
                 {"nvcc": args.nvcc, "energy_cuda": args.energy_cuda}, args.arch,
                 args.timeout, args.jobs, sys.stdout, done, save)
    save(rows)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(rows, listing.get("exceptions", {})))
    return verdict(rows, listing.get("exceptions", {}), args.list)


if __name__ == "__main__":
    sys.exit(main())
