"""A kernel tuned inside the user's own program (python -m energy.tune --program).

For each candidate the program is built with the candidate forced (energy-cuda's
--energy-force-config, written into the user's build command), then run; the kernel is
timed per launch inside the program by energy.cuh's launch timer (a build with
-DENERGY_TIME_LAUNCHES; the environment variable ENERGY_TIME_FILE names the file it
appends "kernel<TAB>seconds<TAB>joules" lines to, ENERGY_TIME_KERNEL the kernel it times).
The candidates are the plugin's: one build with --energy-report lists them with their
predictions.

The statistics follow energy-bench (docs/bench-format.md, ../shared/MEASURE.md): the
first launches are warm-up and dropped; the time is the median of the remaining launches;
when the mean time of their four consecutive quarters spreads more than the limit, the
program is run once more and that run is kept (marked re-measured); energy is NVML's
counter over the timed launches divided by their number, and only when they last long
enough for the counter (updated every 20-100 ms) to see them; otherwise the step says
why it has no energy (never a silent fallback to something else).
"""

import glob
import hashlib
import json
import math
import os
import re
import shlex
import statistics
import subprocess

from energy import plugin_compile, tuning_problem

TIME_FORMAT = "# energy-time-v1"
# The placeholders of the build command.
FORCE_CONFIG, FORCE_FILE = "{force_config}", "{force_file}"
# energy-bench's defaults (tools/energy-bench/Measure.h): a re-measure above this spread
# of the time per launch over the run's four quarters.
DEFAULT_MAX_TIME_SPREAD = 0.05
DEFAULT_WARMUP = 1
# Timed launches needed beyond the warm-up: four quarters for the spread.
MIN_REPEATS = 4
# Below this much timed kernel time NVML's energy counter cannot measure the launches
# (../shared/MEASURE.md: runs of at least ~1 s).
DEFAULT_MIN_ENERGY_SECONDS = 1.0


class ProgramError(Exception):
    """The program cannot be tuned at all (not one configuration's failure)."""


def check_build_command(command):
    if FORCE_CONFIG not in command and FORCE_FILE not in command:
        raise ProgramError(f"--build must contain {FORCE_CONFIG} (energy-cuda's options) "
                           f"or {FORCE_FILE} (a file of them, one a line): the tuner "
                           f"builds each candidate with its launch forced")


def run_shell(command, env=None, timeout=None):
    """(exit status, stderr's first error line) of a user's shell command, run in the
    current directory; status None when it ran past the timeout."""
    try:
        done = subprocess.run(command, shell=True, capture_output=True, text=True,
                              env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"ran past {timeout:g} s"
    return done.returncode, plugin_compile.first_error(done.stderr or done.stdout or "")


def build(command, options, workdir, timeout):
    """Build with energy-cuda's `options` in place of the placeholders: (ok, why not)."""
    option_file = os.path.join(workdir, "build.options")
    with open(option_file, "w", encoding="utf-8") as f:
        f.write("".join(o + "\n" for o in options))
    line = (command.replace(FORCE_CONFIG, " ".join(shlex.quote(o) for o in options))
            .replace(FORCE_FILE, shlex.quote(option_file)))
    status, error = run_shell(line, timeout=timeout)
    if status == 0:
        return True, None
    return False, (f"the build failed (exit {status}): {error}" if status is not None
                   else f"the build {error}")


# --- candidates: the plugin's report of the kernel -----------------------------------

def report_candidates(command, kernel, workdir, timeout, extra_options=()):
    """The kernel's candidates as the plugin's report lists them (a build with
    --energy-report): [{"config", "key", "predicted_s", "force"}]."""
    report = os.path.join(workdir, "report.json")
    for old in glob.glob(os.path.join(workdir, "report*.json")):
        os.remove(old)
    ok, why = build(command, [*extra_options, f"--energy-report={report}"], workdir,
                    timeout)
    if not ok:
        raise ProgramError(f"the report build (--energy-report) failed: {why}")
    # energy-cuda writes one report per architecture (report.sm_XX.json) for several.
    paths = sorted(glob.glob(os.path.join(workdir, "report*.json")))
    if not paths:
        raise ProgramError(f"the build wrote no report: does --build pass {FORCE_CONFIG} "
                           f"or {FORCE_FILE} to energy-cuda (or clang's plugin)?")
    entries, names = [], set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for entry in json.load(f).get("kernels", []):
                names.add(entry.get("kernel", "?"))
                if entry.get("kernel") == kernel:
                    entries.append(entry)
    if not entries:
        raise ProgramError(f"the plugin's report has no kernel '{kernel}' (kernels: "
                           f"{', '.join(sorted(names)) or 'none'})")
    entry = entries[0]
    if not entry.get("opted_in"):
        raise ProgramError(f"kernel '{kernel}' is not opted in (ENERGY_KERNEL in "
                           f"energy.cuh): the program cannot launch another configuration")
    predicted, screened = [], []
    for c in entry.get("candidates", []):
        if "pruned" in c:
            continue                  # the plugin ruled it out (resources, occupancy)
        value = force_value(kernel, c["block"], c.get("tunables", {}))
        candidate = {"config": {**dict(zip(tuning_problem.BLOCK_SIZE_NAMES, c["block"])),
                                **c.get("tunables", {})},
                     "key": value, "predicted_s": c.get("time_s"), "force": value}
        if "time_s" in c:
            predicted.append(candidate)
        else:
            # Screened out: legal, ranked by the block-free screen only, without a time
            # comparable with the others'. It ranks after them (energy.tune_search: with
            # the slowest predicted), in the screen's order.
            rank = re.match(r"ranked (\d+) of", c.get("screened_out", ""))
            screened.append((int(rank.group(1)) if rank else math.inf, candidate))
    predicted.sort(key=lambda c: c["key"])
    candidates = predicted + [c for _, c in sorted(screened, key=lambda s: s[0])]
    return candidates, {"report": paths[0], "arch": entry.get("arch"),
                        "board": entry.get("gpu")}


def force_value(kernel, block, tunables):
    """-energy-force-config's value: KERNEL:BXxBYxBZ[,NAME=V...] (no grid: the program's
    ENERGY_LAUNCH computes it from the record)."""
    value = f"{kernel}:{'x'.join(str(int(b)) for b in block)}"
    return value + "".join(f",{name}={v}" for name, v in sorted(tunables.items()))


# --- measurements ---------------------------------------------------------------------

def read_time_file(path, kernel):
    """(whether the timer wrote its header, the NVML line, [(seconds, joules or None)],
    the first launch error or None) of the kernel's lines."""
    started, nvml, launches, error = False, None, [], None
    if not os.path.exists(path):
        return started, nvml, launches, error
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == TIME_FORMAT:
                started = True
                nvml = fields[2] if len(fields) > 2 else None
            elif len(fields) == 3 and fields[0] == kernel:
                if fields[1] == "error":
                    error = error or fields[2]
                else:
                    launches.append((float(fields[1]),
                                     None if fields[2] == "-" else float(fields[2])))
    return started, nvml, launches, error


def quarter_spread(times):
    """energy-bench's spread: (max - min) / median of the mean time of four consecutive
    quarters of the launches."""
    n = len(times)
    quarters = [statistics.fmean(times[n * q // 4:n * (q + 1) // 4]) for q in range(4)]
    middle = statistics.median(quarters)
    return (max(quarters) - min(quarters)) / middle if middle > 0 else 0.0


def energy_of(launches, nvml, min_seconds):
    """(joules per launch, None) or (None, why there is none)."""
    if nvml != "ok":
        return None, f"no energy: NVML {nvml or 'not reported'}"
    seconds = sum(t for t, _ in launches)
    if seconds < min_seconds:
        return None, (f"no energy: the timed launches last {seconds:.3g} s, under "
                      f"{min_seconds:g} s, too short for NVML's counter (updated every "
                      f"20-100 ms); launch the kernel longer")
    joules = [j for _, j in launches if j is not None]
    if len(joules) < len(launches) or sum(joules) <= 0:
        return None, "no energy: NVML's counter did not move over the timed launches"
    return sum(joules) / len(launches), None


def program_measure(build_command, run_command, kernel, workdir, warmup=DEFAULT_WARMUP,
                    max_spread=DEFAULT_MAX_TIME_SPREAD,
                    min_energy_seconds=DEFAULT_MIN_ENERGY_SECONDS, timeout=None,
                    extra_options=()):
    """A measure(candidate) for energy.tune.tune: build with the candidate forced, run,
    read the kernel's launches. Returns (seconds, None, details) or (None, why it failed,
    {})."""
    # Whether a run has shown the timer at work: until one has, a run without timing is
    # a build without the timer (an error), not a configuration that skipped the kernel.
    timer_seen = False

    def run_once(candidate, number):
        nonlocal timer_seen
        # Kept: the launches each measurement read.
        digest = hashlib.sha256(candidate["key"].encode()).hexdigest()[:12]
        time_file = os.path.join(workdir, f"launches-{digest}.{number}.tsv")
        if os.path.exists(time_file):
            os.remove(time_file)
        env = {**os.environ, "ENERGY_TIME_FILE": time_file, "ENERGY_TIME_KERNEL": kernel}
        status, error = run_shell(run_command, env=env, timeout=timeout)
        if status != 0:
            return None, (f"the program failed (exit {status}): {error}" if status is not
                          None else f"the program {error}")
        started, nvml, launches, launch_error = read_time_file(time_file, kernel)
        never = f"the program never launched '{kernel}' through ENERGY_LAUNCH"
        if not started and not timer_seen:
            raise ProgramError(
                f"the program wrote no launch timing: build it with -DENERGY_TIME_LAUNCHES "
                f"and launch '{kernel}' through ENERGY_LAUNCH (energy.cuh)")
        if not started:
            return None, never
        timer_seen = True
        if launch_error:
            return None, f"a launch of '{kernel}' failed: {launch_error}"
        if not launches:
            return None, never
        if len(launches) < warmup + MIN_REPEATS:
            raise ProgramError(
                f"the program launched '{kernel}' {len(launches)} time(s); a measurement "
                f"needs at least {warmup + MIN_REPEATS} ({warmup} warm-up, "
                f"{MIN_REPEATS} timed): make the run command launch it repeatedly")
        timed = launches[warmup:]
        times = [t for t, _ in timed]
        joules, energy_note = energy_of(timed, nvml, min_energy_seconds)
        details = {"time_s": statistics.median(times), "launches": len(launches),
                   "warmup": warmup, "time_spread": quarter_spread(times),
                   "energy_j": joules, "launch_file": time_file}
        if energy_note:
            details["energy_note"] = energy_note
        return details, None

    def measure(candidate):
        ok, why = build(build_command, [*extra_options,
                                        f"--energy-force-config={candidate['force']}"],
                        workdir, timeout)
        if not ok:
            return None, why, {}
        details, why = run_once(candidate, 1)
        if details and details["time_spread"] > max_spread:
            # energy-bench's rule: one re-measure, which is kept.
            first = details["time_spread"]
            details, why = run_once(candidate, 2)
            if details is None:
                return None, f"re-measure (spread {first:.1%}): {why}", {}
            details.update(remeasured=True, first_time_spread=first)
        if details is None:
            return None, why, {}
        return details.pop("time_s"), None, details
    return measure


def build_best(command, force, workdir, timeout, header=None, extra_options=()):
    """Build the program once more with the best configuration forced, so that it is left
    built with it; with `header`, the plugin writes its choices header in that build."""
    options = [*extra_options, f"--energy-force-config={force}"]
    if header:
        options.append(f"--energy-header={os.path.abspath(header)}")
    ok, why = build(command, options, workdir, timeout)
    if not ok:
        raise ProgramError(f"building the best configuration: {why}")
