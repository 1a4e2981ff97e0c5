"""Runs a compile twice per input and checks that its outputs are identical.

usage: compare_runs.py [--runs N] [--allow-failure] WORKDIR INPUT... -- COMMAND...

COMMAND is run for each INPUT N times (2 by default), with {input} replaced
by the input and {dir} by a fresh directory for the run's outputs
(WORKDIR/<input>/1, /2 ...). The runs share one ptxas cache, empty before
the first: a rebuild finds what the first build cached, and must still
write the same bytes. Each run's outputs are compared with the first's.
Every file the runs write, and what they print (diagnostics.txt), is
compared byte for byte, except that JSON reports are compared without their
wall-clock fields (keys naming seconds).
Exits 1 with the differing files named. A compile that fails stops the
comparison, unless --allow-failure: its exit code is then compared too (an
input that is an error must be the same error every time).
"""
import json
import os
import shutil
import subprocess
import sys


def without_seconds(value):
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items()
                if "seconds" not in k}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


def same(first, second):
    if first.endswith(".json"):
        with open(first) as a, open(second) as b:
            return without_seconds(json.load(a)) == without_seconds(json.load(b))
    with open(first, "rb") as a, open(second, "rb") as b:
        return a.read() == b.read()


def json_difference(a, b, where="report"):
    if type(a) is not type(b):
        return "{}: {!r} vs {!r}".format(where, a, b)
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return json_difference(a.get(key), b.get(key),
                                       "{}.{}".format(where, key))
    if isinstance(a, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return json_difference(x, y, "{}[{}]".format(where, i))
    return "{}: {!r} vs {!r}".format(where, a, b)


def first_difference(first, second):
    if first.endswith(".json"):
        with open(first) as a, open(second) as b:
            return json_difference(without_seconds(json.load(a)),
                                   without_seconds(json.load(b)))
    with open(first, "rb") as a, open(second, "rb") as b:
        for number, (x, y) in enumerate(zip(a.read().splitlines(),
                                            b.read().splitlines()), 1):
            if x != y:
                return "line {}: {!r} vs {!r}".format(number, x[:160], y[:160])
    return "lengths differ"


def main(argv):
    runs_wanted = 2
    allow_failure = False
    while argv[1] in ("--runs", "--allow-failure"):
        if argv[1] == "--runs":
            runs_wanted = int(argv[2])
            argv = argv[:1] + argv[3:]
        else:
            allow_failure = True
            argv = argv[:1] + argv[2:]
    split = argv.index("--")
    workdir, inputs, command = argv[1], argv[2:split], argv[split + 1:]
    cache = os.path.join(workdir, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    failures = 0
    for path in inputs:
        runs = []
        for run in range(1, runs_wanted + 1):
            out = os.path.join(workdir, os.path.basename(path), str(run))
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            args = [a.replace("{input}", path).replace("{dir}", out)
                    for a in command]
            result = subprocess.run(args, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT)
            if result.returncode != 0 and not allow_failure:
                sys.stdout.write(result.stdout.decode(errors="replace"))
                print("error: {}: exit code {}".format(path, result.returncode))
                return 1
            with open(os.path.join(out, "diagnostics.txt"), "wb") as f:
                f.write(result.stdout)
                f.write(b"exit code %d\n" % result.returncode)
            runs.append(out)
        names = sorted(os.listdir(runs[0]))
        differing = 0
        for later in runs[1:]:
            if names != sorted(os.listdir(later)):
                print("{}: runs 1 and {} wrote different files".format(
                    path, os.path.basename(later)))
                differing += 1
                continue
            for name in names:
                a, b = os.path.join(runs[0], name), os.path.join(later, name)
                if not same(a, b):
                    print("{}: {} of runs 1 and {} differs: {}".format(
                        path, name, os.path.basename(later),
                        first_difference(a, b)))
                    differing += 1
        failures += differing
        if not differing:
            print("{}: {} outputs identical in {} runs".format(
                os.path.basename(path), len(names), len(runs)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
