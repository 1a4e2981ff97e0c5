"""Ground the analytic power model in the public energy measurements (issue 12).

    python3 -m energy.power_check [--rows FILE] [--measured-only] [--json FILE]
                                  [--data DIR] [--plugin SO] [--cache-dir DIR]

The plugin predicts energy = predicted time x predicted board power. This compares both
factors with the three public sets that measured energy or power
(../shared/data/public-measurements, see its README):

1. ExpDist on an RTX A4000, NVML energy per configuration. First from the measurements
   alone: does energy follow time, how much does average power (energy / time) vary,
   is the energy-best configuration the time-best one. The Xgemm file (one
   configuration measured 1,000 times on the same board) gives the noise floor. Then the
   plugin's predicted power against the measured one, from `energy.kt_eval --rows` rows.
2. vector_add at 15 block sizes on an RTX 4000 Ada, PowerSensor3 energy, clock locked at
   1080 MHz: data/energy-checks/vector_add.cu compiled through the plugin at each block
   size with the measured problem size.
3. An FP32 FMA loop at 10 graphics clocks, NVML power, on an A100 PCIe 40GB and an RTX
   A4000: data/energy-checks/fp32_fma.cu compiled at the measured launch, its predicted
   power against the measured power at each clock.

The plugin has no clock input: it predicts at the boards' boost clocks. Errors at other
clocks are reported as they are. A markdown summary goes to stdout, everything to --json.
"""

import argparse
import json
import math
import os
import sys

import numpy as np
import pandas as pd

from energy import jsonl, kt_eval, plugin_compile, ranking, tuning_problem
from energy.dataset import DatasetError
from energy.tuning_cache import REPO_ROOT, read_tuning_cache

FORMAT = "energy-power-check-v1"
DEFAULT_DATA = os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "data",
                                             "public-measurements"))
KERNELS = os.path.join(REPO_ROOT, "data", "energy-checks")
EXPDIST_CACHE = "expdist/caches/expdist_NVIDIA_RTX_A4000_size-32768x32768_cache.json.gz"
XGEMM_CACHE = ("xgemm-cuda-a4000/caches/gemm_opencl_cuda_NVIDIA_RTX_A4000_size-4096x4096x4096"
               "_noisetest_backend-CUDA_CUDA-12.3_cache.json.gz")
VECTOR_ADD = "energy/vector_add_RTX_4000_Ada_powersensor.json"
FP32 = ("energy/synthetic_fp32_A100-PCIE-40GB_nvml.json",
        "energy/synthetic_fp32_RTX_A4000_nvml.json")
EXPDIST_DEVICE, EXPDIST_SMS = "NVIDIA RTX A4000", 48   # rtx-a4000 in lib/Arch/GpuArch.cpp
# Configurations this close to the best measured time count as "equal time".
NEAR_BEST_TIME = 0.05
# Two single measurements differ by more than noise when their relative difference
# exceeds this many standard deviations of a difference (sqrt(2) x the repeat CV).
NOISE_SIGMAS = 2.0


def spearman(a, b):
    """Spearman's rho, or None where it is undefined (fewer than 3 points, constant)."""
    return ranking.spearman(a, b) if len(a) >= 3 else None


def mape(measured, predicted):
    """Mean absolute percentage error of `predicted` against `measured`, in percent."""
    measured, predicted = np.asarray(measured, float), np.asarray(predicted, float)
    return float(100 * np.mean(np.abs(predicted - measured) / measured))


def cv(values):
    """Coefficient of variation (sample standard deviation / mean), in percent."""
    values = np.asarray(values, float)
    return float(100 * np.std(values, ddof=1) / np.mean(values))


def spread(values):
    values = np.asarray(values, float)
    return {"min": float(values.min()), "median": float(np.median(values)),
            "max": float(values.max()), "cv_percent": cv(values),
            "max_over_min": float(values.max() / values.min())}


def _measured_power(frame):
    """Average power per row: the measured power where given, else energy / time."""
    power = frame["power_w"].to_numpy(float)
    derived = frame["energy_j"].to_numpy(float) / frame["time_s"].to_numpy(float)
    return np.where(np.isfinite(power), power, derived)


def _need_columns(cache, columns):
    for column in columns:
        if not cache.frame[column].notna().all():
            raise DatasetError(f"{cache.path}: not every valid entry has a measured "
                               f"{column}")


# ---- 1. ExpDist and the noise floor: measurements only -------------------------------

def noise_floor(cache):
    """Repeat-to-repeat variation of one configuration measured many times (Xgemm)."""
    _need_columns(cache, ("time_s", "energy_j"))
    frame = cache.frame
    varied = [p for p in cache.params if frame[p].nunique() > 1]
    # The repeat counter is the only parameter allowed to vary.
    if len(varied) > 1:
        raise DatasetError(f"{cache.path}: not one repeated configuration: "
                           f"{', '.join(varied)} vary")
    power = _measured_power(frame)
    order = np.arange(len(frame))
    return {
        "file": os.path.relpath(cache.path, REPO_ROOT), "device_name": cache.device_name,
        "repeats": len(frame), "repeat_parameter": varied[0] if varied else None,
        "clock_mhz": float(frame["clock_mhz"].median()),
        "cv_percent": {"time": cv(frame["time_s"]), "energy": cv(frame["energy_j"]),
                       "power": cv(power)},
        "power_w": spread(power),
        # Drift: power against the order of the repeats (the card warms up).
        "spearman_power_vs_repeat": spearman(order, power),
        "noise_threshold_percent": NOISE_SIGMAS * math.sqrt(2) * cv(power),
    }


def expdist_launch(problem, params, row):
    """(threads launched, blocks) of one configuration, as the tuner launched it."""
    config = {p: row[p] for p in params}
    blocks = math.prod(problem.grid(config))
    return blocks * math.prod(problem.block(config)), blocks


def expdist_measured(cache, problem, noise):
    """What the ExpDist measurements alone say about energy, time and power."""
    _need_columns(cache, ("time_s", "energy_j"))
    if cache.device_name != EXPDIST_DEVICE:
        raise DatasetError(f"{cache.path}: measured on '{cache.device_name}', expected "
                           f"'{EXPDIST_DEVICE}'")
    frame = cache.frame.copy()
    frame["power"] = _measured_power(frame)
    launches = [expdist_launch(problem, cache.params, row) for row in frame.to_dict("records")]
    frame["threads"], frame["blocks"] = zip(*launches)
    time_best = frame.loc[frame["time_s"].idxmin()]
    energy_best = frame.loc[frame["energy_j"].idxmin()]
    near = frame[frame["time_s"] <= (1 + NEAR_BEST_TIME) * time_best["time_s"]]
    threshold = noise["noise_threshold_percent"] / 100

    def config(row):
        return {"config": row["config"], "time_s": float(row["time_s"]),
                "energy_j": float(row["energy_j"]), "power_w": float(row["power"]),
                "threads": int(row["threads"]), "blocks": int(row["blocks"])}

    energy_regret = float(time_best["energy_j"] / energy_best["energy_j"])
    return {
        "file": os.path.relpath(cache.path, REPO_ROOT), "device_name": cache.device_name,
        "configurations": len(frame), "invalid": cache.invalid,
        "clock_mhz": sorted(float(c) for c in frame["clock_mhz"].dropna().unique()),
        "spearman_energy_vs_time": spearman(frame["energy_j"], frame["time_s"]),
        "spearman_power_vs_time": spearman(frame["power"], frame["time_s"]),
        "power_w": spread(frame["power"]),
        "time_s": spread(frame["time_s"]),
        "energy_j": spread(frame["energy_j"]),
        "time_best": config(time_best),
        "energy_best": config(energy_best),
        "energy_best_is_time_best": time_best["config"] == energy_best["config"],
        # Picking the fastest configuration costs this much energy over the least.
        "energy_regret_of_time_best": energy_regret,
        "time_regret_of_energy_best": float(energy_best["time_s"] / time_best["time_s"]),
        "energy_regret_within_noise": energy_regret - 1 <= threshold,
        "near_best_time": {
            "within": NEAR_BEST_TIME,
            "configurations": len(near),
            "energy_j": spread(near["energy_j"]),
            "power_w": spread(near["power"]),
            # Configurations whose energy differs from the least in the set by less than
            # noise: the set's energy ranking cannot separate them.
            "within_noise_of_least_energy": int(np.sum(
                near["energy_j"] <= near["energy_j"].min() * (1 + threshold))),
            "spearman_power_vs_threads": spearman(near["power"], near["threads"]),
        },
        "spearman_power_vs_threads": spearman(frame["power"], frame["threads"]),
        "power_by_busy_sms": _power_by_blocks(frame, EXPDIST_SMS),
    }


def _power_by_blocks(frame, sms):
    """Median measured power of launches with fewer blocks than SMs and of the rest."""
    groups = {"blocks_below_sms": frame[frame["blocks"] < sms],
              "blocks_at_least_sms": frame[frame["blocks"] >= sms]}
    return {name: {"configurations": len(g),
                   "median_power_w": float(g["power"].median()) if len(g) else None,
                   "median_time_s": float(g["time_s"].median()) if len(g) else None}
            for name, g in groups.items()}


# ---- 1b. ExpDist: the plugin's predictions, from kt_eval rows ------------------------

ROW_NUMBERS = ("time_s", "energy_j", "analytic_time_s", "analytic_energy_j")


def read_expdist_rows(path):
    """The ExpDist rows of an `energy.kt_eval --rows` file, as a DataFrame.

    Read here rather than with energy.dataset.load: kt_eval writes rows of time-only
    caches without energy_j, which that loader rejects.
    """
    rows = []
    for number, record in jsonl.read_objects(path):
        # kt_eval names the kernel function and, since it has one, the problem.
        if record.get("problem", record.get("kernel")) != "expdist" or \
                record.get("status") != "ok":
            continue
        for key in ROW_NUMBERS:
            value = record.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value <= 0:
                raise DatasetError(f"{path}:{number}: field '{key}' must be a positive "
                                   f"number, found {json.dumps(value)}")
        if not isinstance(record.get("config"), str):
            raise DatasetError(f"{path}:{number}: field 'config' must be a string")
        rows.append({k: record[k] for k in ("config", *ROW_NUMBERS)})
    if not rows:
        raise DatasetError(f"{path}: no expdist rows (write them with "
                           f"`python3 -m energy.kt_eval expdist --rows FILE`)")
    return pd.DataFrame.from_records(rows)


def expdist_model(rows_path, cache):
    """Predicted against measured time, energy and power on the rows' configurations."""
    frame = read_expdist_rows(rows_path)
    known = set(cache.frame["config"])
    unknown = sorted(set(frame["config"]) - known)
    if unknown:
        raise DatasetError(f"{rows_path}: configuration {unknown[0]} is not in "
                           f"{cache.path}")
    measured_power = frame["energy_j"] / frame["time_s"]
    predicted_power = frame["analytic_energy_j"] / frame["analytic_time_s"]
    result = {"rows": rows_path, "configurations": len(frame),
              "predicted_power_w": spread(predicted_power),
              "measured_power_w": spread(measured_power)}
    for name, measured, predicted in (
            ("time", frame["time_s"], frame["analytic_time_s"]),
            ("energy", frame["energy_j"], frame["analytic_energy_j"]),
            ("power", measured_power, predicted_power)):
        result[name] = _errors(measured, predicted)
    # How the measured power moves with the predicted one: a slope of 1 means the model's
    # power differences between configurations are the measured ones.
    slope, intercept = np.polyfit(predicted_power, measured_power, 1)
    result["measured_vs_predicted_power_fit"] = {"slope": slope, "intercept_w": intercept}
    best = frame.loc[frame["energy_j"].idxmin(), "config"]
    result["predicted_energy_best_is_predicted_time_best"] = bool(
        frame["analytic_energy_j"].idxmin() == frame["analytic_time_s"].idxmin())
    result["measured_energy_best_in_rows"] = best
    return result


def _errors(measured, predicted):
    measured, predicted = np.asarray(measured, float), np.asarray(predicted, float)
    return {"mape_percent": mape(measured, predicted),
            "median_predicted_over_measured": float(np.median(predicted / measured)),
            "spearman": spearman(measured, predicted)}


# ---- 2 and 3: our own kernels compiled at the measured launches ----------------------

def own_problem(name, kernel, source, problem_size, grid_div, measured):
    """A tuning problem for a kernel of data/energy-checks, launched as the tuner did."""
    if not os.path.isfile(source):
        raise DatasetError(f"{source}: kernel source not found")
    return tuning_problem.TuningProblem(
        name=name, spec=source, transcribes=measured, language="cuda", sources=[source],
        kernel=kernel, problem_size=[str(s) for s in problem_size] + ["1"] * (
            3 - len(problem_size)),
        grid_div=grid_div + [None] * (3 - len(grid_div)),
        block_size_names=tuning_problem.BLOCK_SIZE_NAMES, restrictions=[], flags=[],
        default_extent=None, default=None, caches=[measured], notes=[])


def _board(cache, boards):
    board = boards.get(cache.device_name)
    if board is None:
        raise DatasetError(f"{cache.path}: no board for device '{cache.device_name}' in "
                           f"{kt_eval.BOARDS}")
    return board


def _predict(tools, problem, config, board, cache_dir):
    p = plugin_compile.predict(tools, problem, config, board["board"], board["arch"],
                               cache_dir)
    if not p["ok"]:
        raise DatasetError(f"{problem.spec}: the plugin predicted nothing for "
                           f"{config}: {p['error']}")
    return p


def _problem_size(cache, length):
    size = cache.problem_size
    size = [size] if isinstance(size, int) else size
    if not (isinstance(size, list) and len(size) == length
            and all(isinstance(s, int) and s > 0 for s in size)):
        raise DatasetError(f"{cache.path}: expected a problem_size of {length} positive "
                           f"integer(s), found {cache.problem_size!r}")
    return size


def vector_add_check(path, tools, boards, cache_dir):
    cache = read_tuning_cache(path)
    _need_columns(cache, ("time_s", "energy_j"))
    if "block_size_x" not in cache.params:
        raise DatasetError(f"{path}: no block_size_x parameter")
    n, = _problem_size(cache, 1)
    board = _board(cache, boards)
    # Kernel Tuner's default: grid = ceil(n / block_size_x).
    problem = own_problem("vector_add", "vector_add", os.path.join(KERNELS, "vector_add.cu"),
                          [n], [None], path)
    configs = []
    for row in cache.frame.sort_values("block_size_x").to_dict("records"):
        p = _predict(tools, problem, {"block_size_x": int(row["block_size_x"])}, board,
                     cache_dir)
        configs.append({
            "block_size_x": int(row["block_size_x"]), "clock_mhz": row["clock_mhz"],
            "measured": {"time_s": row["time_s"], "energy_j": row["energy_j"],
                         "power_w": row["energy_j"] / row["time_s"]},
            "predicted": {"time_s": p["time_s"], "energy_j": p["energy_j"],
                          "power_w": p["energy_j"] / p["time_s"],
                          "occupancy": p["occupancy"]}})
    result = {"file": os.path.relpath(path, REPO_ROOT), "device_name": cache.device_name,
              "board": board["board"], "problem_size": n,
              "clock_mhz": sorted(float(c) for c in cache.frame["clock_mhz"].dropna().unique()),
              # c = a + b on floats moves 12 bytes per element.
              "measured_bandwidth_gbs": spread([12 * n / c["measured"]["time_s"] / 1e9
                                                for c in configs]),
              "configs": configs}
    result["power_by_occupancy"] = _power_by_occupancy(configs)
    occupancy = [c["predicted"]["occupancy"] for c in configs]
    result["spearman_power_vs_occupancy"] = {
        "measured": spearman(occupancy, [c["measured"]["power_w"] for c in configs]),
        "predicted": spearman(occupancy, [c["predicted"]["power_w"] for c in configs])}
    for name in ("time_s", "energy_j", "power_w"):
        result[name.split("_")[0]] = _errors([c["measured"][name] for c in configs],
                                             [c["predicted"][name] for c in configs])
    return result


def _power_by_occupancy(configs):
    """Mean measured and predicted power per predicted occupancy: the warp-residency term
    makes the predicted power fall with occupancy; does the measured one?"""
    groups = {}
    for c in configs:
        groups.setdefault(round(c["predicted"]["occupancy"], 4), []).append(c)
    return [{"occupancy": occupancy, "block_sizes": [c["block_size_x"] for c in group],
             "measured_power_w": float(np.mean([c["measured"]["power_w"] for c in group])),
             "predicted_power_w": float(np.mean([c["predicted"]["power_w"] for c in group]))}
            for occupancy, group in sorted(groups.items())]


FP32_LAUNCH = ("block_size_x", "nr_outer", "nr_inner")


def fp32_measured(path):
    """The FP32 loop's measured power, time and energy per graphics clock."""
    cache = read_tuning_cache(path)
    _need_columns(cache, ("time_s", "power_w", "clock_mhz"))
    missing = [p for p in (*FP32_LAUNCH, "nvml_gr_clock") if p not in cache.params]
    if missing:
        raise DatasetError(f"{path}: no {missing[0]} parameter")
    frame = cache.frame.sort_values("clock_mhz")
    if any(frame[p].nunique() != 1 for p in FP32_LAUNCH):
        raise DatasetError(f"{path}: the launch varies across entries; expected one "
                           f"launch at several clocks")
    clock, power = frame["clock_mhz"].to_numpy(float), frame["power_w"].to_numpy(float)
    time = frame["time_s"].to_numpy(float)
    energy = power * time
    upper = clock >= np.median(clock)
    slope, intercept = np.polyfit(clock, power, 1)
    result = {
        "file": os.path.relpath(path, REPO_ROOT), "device_name": cache.device_name,
        "launch": {k: int(frame[k].iloc[0]) for k in FP32_LAUNCH},
        "problem_size": _problem_size(cache, 2),
        "clocks": [{"requested_mhz": int(r["nvml_gr_clock"]), "clock_mhz": c,
                    "time_s": t, "power_w": w, "energy_j": e}
                   for r, c, t, w, e in zip(frame.to_dict("records"), clock, time, power,
                                            energy)],
        "power_vs_clock": {
            "slope_w_per_mhz": slope, "intercept_w": intercept,
            "upper_half_slope_w_per_mhz": np.polyfit(clock[upper], power[upper], 1)[0],
            "spearman": spearman(clock, power),
            "power_max_over_min": power.max() / power.min(),
            "clock_max_over_min": clock.max() / clock.min()},
        # Time x clock is constant for a compute-bound loop; energy has a minimum.
        "time_x_clock_cv_percent": cv(time * clock),
        "least_energy_clock_mhz": clock[int(np.argmin(energy))],
    }
    return cache, result


def fp32_check(path, tools, boards, cache_dir):
    """The measurements of fp32_measured with the plugin's prediction at that launch."""
    cache, result = fp32_measured(path)
    board = _board(cache, boards)
    # Kernel Tuner's energy module launches grid = problem_size (grid divisors []).
    problem = own_problem("fp32_fma", "fp32_fma", os.path.join(KERNELS, "fp32_fma.cu"),
                          result["problem_size"], [[], []], path)
    p = _predict(tools, problem, result["launch"], board, cache_dir)
    predicted_power = p["energy_j"] / p["time_s"]
    for c in result["clocks"]:
        c["power_error_percent"] = 100 * (predicted_power - c["power_w"]) / c["power_w"]
        c["time_error_percent"] = 100 * (p["time_s"] - c["time_s"]) / c["time_s"]
    clock = np.array([c["clock_mhz"] for c in result["clocks"]])
    power = np.array([c["power_w"] for c in result["clocks"]])
    model_clock = 1e3 * p["model_inputs"]["board_clock_ghz"]
    result.update({
        "board": board["board"], "grid": problem.grid({}),
        "predicted": {"time_s": p["time_s"], "energy_j": p["energy_j"],
                      "power_w": predicted_power, "occupancy": p["occupancy"]},
        "highest_power": _at(int(np.argmax(power)), clock, power, predicted_power),
        # The plugin predicts at the board's boost clock: the fairest single comparison.
        "model_clock_mhz": model_clock,
        "at_model_clock": _at(int(np.argmin(np.abs(clock - model_clock))), clock, power,
                              predicted_power)})
    return result


def _at(index, clock, power, predicted_power):
    return {"clock_mhz": clock[index], "power_w": power[index],
            "power_error_percent": 100 * (predicted_power - power[index]) / power[index]}


# ---- Reporting --------------------------------------------------------------------

def _f(value, digits=2):
    if value is None:
        return "-"
    return f"{value:.{digits}f}"


def format_markdown(report):
    lines = []
    noise, ex = report["noise_floor"], report["expdist"]["measured"]
    lines += ["## Noise floor: Xgemm, one configuration repeated "
              f"{noise['repeats']} times ({noise['device_name']}, {noise['clock_mhz']:.0f} MHz)",
              "", "| quantity | CV (%) |", "|---|---|"]
    lines += [f"| {k} | {_f(v, 3)} |" for k, v in noise["cv_percent"].items()]
    lines += ["", f"Two single power readings differ beyond noise above "
              f"{_f(noise['noise_threshold_percent'])}% ({NOISE_SIGMAS:g} x sqrt(2) x CV).",
              "", f"## ExpDist on the {ex['device_name']}: measured only "
              f"({ex['configurations']} configurations)", "",
              "| measure | value |", "|---|---|",
              f"| Spearman energy vs time | {_f(ex['spearman_energy_vs_time'], 3)} |",
              f"| Spearman power vs time | {_f(ex['spearman_power_vs_time'], 3)} |",
              f"| power W: min / median / max | {_f(ex['power_w']['min'], 1)} / "
              f"{_f(ex['power_w']['median'], 1)} / {_f(ex['power_w']['max'], 1)} |",
              f"| power CV (%) | {_f(ex['power_w']['cv_percent'])} |",
              f"| energy-best is time-best | {ex['energy_best_is_time_best']} |",
              f"| energy regret of the time-best | {_f(ex['energy_regret_of_time_best'], 3)} "
              f"(within noise: {ex['energy_regret_within_noise']}) |",
              f"| time regret of the energy-best | {_f(ex['time_regret_of_energy_best'], 3)} |"]
    near = ex["near_best_time"]
    lines += [f"| configs within {near['within']:.0%} of the best time | "
              f"{near['configurations']} |",
              f"| their energy max / min | {_f(near['energy_j']['max_over_min'], 3)} |",
              f"| their power W min / max | {_f(near['power_w']['min'], 1)} / "
              f"{_f(near['power_w']['max'], 1)} |",
              f"| their configs within noise of the least energy | "
              f"{near['within_noise_of_least_energy']} |",
              f"| their Spearman power vs threads launched | "
              f"{_f(near['spearman_power_vs_threads'], 3)} |"]
    model = report["expdist"].get("model")
    if model:
        lines += ["", f"## ExpDist: plugin vs measured ({model['configurations']} "
                  "configurations from kt_eval rows)", "",
                  "| quantity | MAPE (%) | median pred/meas | Spearman |", "|---|---|---|---|"]
        lines += [f"| {k} | {_f(model[k]['mape_percent'], 1)} | "
                  f"{_f(model[k]['median_predicted_over_measured'], 3)} | "
                  f"{_f(model[k]['spearman'], 3)} |" for k in ("time", "energy", "power")]
        lines += ["", f"Predicted power {_f(model['predicted_power_w']['min'], 1)}-"
                  f"{_f(model['predicted_power_w']['max'], 1)} W, measured "
                  f"{_f(model['measured_power_w']['min'], 1)}-"
                  f"{_f(model['measured_power_w']['max'], 1)} W; measured = "
                  f"{_f(model['measured_vs_predicted_power_fit']['intercept_w'], 1)} W + "
                  f"{_f(model['measured_vs_predicted_power_fit']['slope'], 3)} x predicted."]
    va = report.get("vector_add")
    if va:
        lines += ["", f"## vector_add on the {va['device_name']} (n = {va['problem_size']}, "
                  f"clock {', '.join(f'{c:.0f}' for c in va['clock_mhz'])} MHz; the model "
                  "assumes the boost clock)", "",
                  "| block | occupancy (pred) | meas time ms | pred time ms | meas energy mJ "
                  "| pred energy mJ | meas power W | pred power W |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in va["configs"]:
            m, p = c["measured"], c["predicted"]
            lines.append(f"| {c['block_size_x']} | {_f(p['occupancy'])} | "
                         f"{_f(m['time_s'] * 1e3, 3)} | "
                         f"{_f(p['time_s'] * 1e3, 3)} | {_f(m['energy_j'] * 1e3, 1)} | "
                         f"{_f(p['energy_j'] * 1e3, 1)} | {_f(m['power_w'], 1)} | "
                         f"{_f(p['power_w'], 1)} |")
        lines += ["", "| quantity | MAPE (%) | median pred/meas | Spearman |",
                  "|---|---|---|---|"]
        lines += [f"| {k} | {_f(va[k]['mape_percent'], 1)} | "
                  f"{_f(va[k]['median_predicted_over_measured'], 3)} | "
                  f"{_f(va[k]['spearman'], 3)} |" for k in ("time", "energy", "power")]
        rho = va["spearman_power_vs_occupancy"]
        lines += ["", f"Spearman of power vs predicted occupancy: measured "
                  f"{_f(rho['measured'], 3)}, predicted {_f(rho['predicted'], 3)}."]
        lines += ["", "| occupancy (pred) | block sizes | mean meas power W | mean pred power W |",
                  "|---|---|---|---|"]
        lines += [f"| {_f(g['occupancy'])} | {', '.join(map(str, g['block_sizes']))} | "
                  f"{_f(g['measured_power_w'], 1)} | {_f(g['predicted_power_w'], 1)} |"
                  for g in va["power_by_occupancy"]]
    for fp in report.get("fp32", []):
        lines += ["", f"## FP32 FMA loop on the {fp['device_name']} (board {fp['board']}, "
                  f"grid {'x'.join(map(str, fp['grid']))} of {fp['launch']['block_size_x']}; "
                  f"predicted {_f(fp['predicted']['power_w'], 1)} W, "
                  f"{_f(fp['predicted']['time_s'] * 1e3, 1)} ms)", "",
                  "| requested MHz | observed MHz | meas power W | power error (%) "
                  "| meas time ms | time error (%) |", "|---|---|---|---|---|---|"]
        lines += [f"| {c['requested_mhz']} | {_f(c['clock_mhz'], 0)} | {_f(c['power_w'], 1)} "
                  f"| {_f(c['power_error_percent'], 1)} | {_f(c['time_s'] * 1e3, 1)} | "
                  f"{_f(c['time_error_percent'], 1)} |" for c in fp["clocks"]]
        s = fp["power_vs_clock"]
        at = fp["at_model_clock"]
        lines += ["", f"At the clock nearest the model's {_f(fp['model_clock_mhz'], 0)} MHz "
                  f"({_f(at['clock_mhz'], 0)} MHz) the predicted power is off by "
                  f"{_f(at['power_error_percent'], 1)}%, at the highest measured power by "
                  f"{_f(fp['highest_power']['power_error_percent'], 1)}%."]
        lines += ["", f"Power vs clock: {_f(s['slope_w_per_mhz'], 4)} W/MHz overall, "
                  f"{_f(s['upper_half_slope_w_per_mhz'], 4)} W/MHz in the upper half; "
                  f"least measured energy at {_f(fp['least_energy_clock_mhz'], 0)} MHz."]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.power_check",
        description="Compare the plugin's power model with the public energy measurements.")
    parser.add_argument("--data", default=DEFAULT_DATA,
                        help="the public-measurements folder (default: %(default)s)")
    parser.add_argument("--rows", metavar="FILE",
                        help="energy.kt_eval --rows output with expdist rows: the plugin's "
                             "ExpDist predictions (without it, that part is left out)")
    parser.add_argument("--measured-only", action="store_true",
                        help="only the analysis of the measurements: compile nothing")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--plugin", default=kt_eval.DEFAULT_PLUGIN,
                        help="energy.so (default: %(default)s)")
    parser.add_argument("--cache-dir", default=kt_eval.default_cache_dir(),
                        help="compile results cache (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        report = run(args, argv)
        print(format_markdown(report))
        if args.json:
            try:
                with open(args.json, "w", encoding="utf-8") as f:
                    json.dump(jsonl.plain(report), f, indent=1, allow_nan=False)
            except OSError as e:
                raise DatasetError(f"{args.json}: cannot write: {e.strerror}") from None
    except (DatasetError, plugin_compile.ToolchainError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def run(args, argv):
    def data(relative):
        return os.path.join(args.data, relative)

    expdist = read_tuning_cache(data(EXPDIST_CACHE))
    noise = noise_floor(read_tuning_cache(data(XGEMM_CACHE)))
    report = {"format": FORMAT,
              "command": ["python3", "-m", "energy.power_check",
                          *(argv if argv is not None else sys.argv[1:])],
              "noise_floor": noise,
              "expdist": {"measured": expdist_measured(expdist, tuning_problem.load("expdist"),
                                                       noise)}}
    if args.rows:
        report["expdist"]["model"] = expdist_model(args.rows, expdist)
    if not args.measured_only:
        tools = plugin_compile.toolchain(args.plugin)
        boards = kt_eval.load_boards()
        report["plugin"] = args.plugin
        report["vector_add"] = vector_add_check(data(VECTOR_ADD), tools, boards,
                                                args.cache_dir)
        report["fp32"] = [fp32_check(data(f), tools, boards, args.cache_dir) for f in FP32]
    return report


if __name__ == "__main__":
    sys.exit(main())
