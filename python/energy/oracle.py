"""The oracle table: measured best configurations per kernel against the baselines.

    python3 -m energy.oracle MANIFEST.json ROWS.jsonl... [--baselines FILE] [--gpu NAME]
                             [--json OUT]

For each kernel of the sweep's manifest, from the measured rows (repeats and drift
re-measurements merged by their median):
- the measured energy-optimal and time-optimal configurations;
- the configuration the plugin chose under each objective (energy, time, edp; from the
  manifest), NVIDIA's occupancy heuristic (the config energy-bench matched to
  cuOccupancyMaxPotentialBlockSize in the baselines file; else the plugin's emulation of
  it recorded in the manifest) and the default (256 threads, default tunables);
- for each of those, its measured energy relative to the energy-optimal configuration
  and its time relative to the time-optimal one (1.0 = the oracle);
- how well the plugin's predictions (the manifest's analytic_time_s / analytic_energy_j,
  made before anything was measured) rank the measured configurations: Spearman of
  predicted vs measured time and energy, and the regret of the predicted best among them
  (energy.ranking, as energy.kt_eval reports it).
A configuration that was not measured (or failed) is reported as such, never guessed.

The manifest names configs by id (`kernel/config`); energy-bench's rows and baselines
name them by the config alone (`config`, with `kernel` beside it): the table joins and
reports them by id. Rows of one GPU are compared (--gpu picks one when there are several).
"""

import argparse
import json
import os
import statistics
import sys

from energy import dataset, ranking
from energy.dataset import DatasetError


def config_id(kernel, config):
    """The manifest's id `kernel/b256` of the config energy-bench names `b256`."""
    if config is None:
        return None
    prefix = kernel + "/"
    return config if config.startswith(prefix) else prefix + config


def _merged(frame):
    """(kernel, config id) -> (median time_s, median energy_j)."""
    grouped = frame.groupby(["kernel", "config"], sort=False)[["time_s", "energy_j"]].median()
    return {(kernel, config_id(kernel, config)): (row.time_s, row.energy_j)
            for (kernel, config), row in grouped.iterrows()}


def _heuristic_configs(path, gpu=None):
    """kernel -> the measured config energy-bench matched to the occupancy heuristic
    (on this GPU, when given)."""
    if not path or not os.path.exists(path):
        return {}
    picks = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                if row.get("config") and (gpu is None or row.get("gpu") == gpu):
                    picks[row["kernel"]] = config_id(row["kernel"], row["config"])
    return picks


def _entry(kernel, config, measured, best_energy, best_time):
    config = config_id(kernel, config)
    if config is None:
        return {"config": None, "measured": False}
    if config not in measured:
        return {"config": config, "measured": False}
    time_s, energy_j = measured[config]
    return {"config": config, "measured": True, "time_s": time_s, "energy_j": energy_j,
            "energy_vs_best": energy_j / best_energy, "time_vs_best": time_s / best_time}


def prediction_scores(configs, measured):
    """Spearman and top-1 regret of the manifest's predictions over the measured configs
    (time and energy); None where fewer than two measured configs carry a prediction."""
    predicted = {c["id"]: (c.get("analytic_time_s"), c.get("analytic_energy_j"))
                 for c in configs}
    ids = [c for c in measured if c in predicted and None not in predicted[c]]
    if len(ids) < 2:
        return None
    scores = {"configs": len(ids)}
    for index, label in ((0, "time"), (1, "energy")):
        got = [measured[c][index] for c in ids]
        guess = [predicted[c][index] for c in ids]
        scores[label + "_spearman"] = ranking.spearman(got, guess)
        scores[label + "_regret"] = ranking.pick_metrics(
            got, ranking.predicted_best(guess))["regret"]
    return scores


def oracle_table(manifest, frame, heuristic_picks):
    merged = _merged(frame)
    kernels = []
    for k in manifest["kernels"]:
        name = k["name"]
        measured = {config: v for (kernel, config), v in merged.items() if kernel == name}
        if not measured:
            kernels.append({"kernel": name, "measured_configs": 0})
            continue
        energy_opt = min(measured, key=lambda c: measured[c][1])
        time_opt = min(measured, key=lambda c: measured[c][0])
        best_energy, best_time = measured[energy_opt][1], measured[time_opt][0]
        entry = lambda c: _entry(name, c, measured, best_energy, best_time)
        baseline = k.get("baseline", {})
        kernels.append({
            "kernel": name,
            "measured_configs": len(measured),
            "energy_optimal": entry(energy_opt),
            "time_optimal": entry(time_opt),
            "plugin": {objective: entry(config)
                       for objective, config in k.get("choices", {}).items()},
            "occupancy_heuristic": entry(heuristic_picks.get(name,
                                                             baseline.get("occupancy_config"))),
            "default": entry(baseline.get("default_config")),
            "prediction": prediction_scores(k.get("configs", []), measured),
        })
    return {"kernels": kernels, "summary": summarize(kernels)}


def summarize(kernels):
    """Medians over the kernels where both sides were measured."""
    out = {}
    for label, get in (("plugin_energy", lambda k: k.get("plugin", {}).get("energy")),
                       ("occupancy_heuristic", lambda k: k.get("occupancy_heuristic")),
                       ("default", lambda k: k.get("default"))):
        values = [e["energy_vs_best"] for k in kernels if (e := get(k)) and e.get("measured")]
        out[label + "_energy_vs_best_median"] = statistics.median(values) if values else None
    hits = [k["plugin"]["energy"]["config"] == k["energy_optimal"]["config"]
            for k in kernels if k.get("plugin", {}).get("energy", {}).get("measured")]
    out["plugin_energy_top1"] = sum(hits) / len(hits) if hits else None
    values = [t["time_vs_best"] for k in kernels
              if (t := k.get("plugin", {}).get("time")) and t.get("measured")]
    out["plugin_time_time_vs_best_median"] = statistics.median(values) if values else None
    for field in ("time_spearman", "energy_spearman", "time_regret", "energy_regret"):
        values = [p[field] for k in kernels
                  if (p := k.get("prediction")) and p.get(field) is not None]
        out["prediction_" + field + "_median"] = statistics.median(values) if values else None
    return out


def format_table(table):
    def cell(e, field):
        if not e or not e.get("measured"):
            return "n/a"
        return f"{e[field]:.3f}"
    def score(k, field):
        value = (k.get("prediction") or {}).get(field)
        return "n/a" if value is None else f"{value:+.2f}"
    lines = [f"{'kernel':<16} {'energy-optimal':<28} {'time-optimal':<28} "
             f"{'plugin E':>8} {'plugin T':>8} {'occ. E':>8} {'def. E':>8} "
             f"{'rho T':>6} {'rho E':>6}"]
    for k in table["kernels"]:
        if not k["measured_configs"]:
            lines.append(f"{k['kernel']:<16} (no measurements)")
            continue
        plugin = k["plugin"].get("energy")
        lines.append(f"{k['kernel']:<16} {k['energy_optimal']['config']:<28} "
                     f"{k['time_optimal']['config']:<28} {cell(plugin, 'energy_vs_best'):>8} "
                     f"{cell(plugin, 'time_vs_best'):>8} "
                     f"{cell(k['occupancy_heuristic'], 'energy_vs_best'):>8} "
                     f"{cell(k['default'], 'energy_vs_best'):>8} "
                     f"{score(k, 'time_spearman'):>6} {score(k, 'energy_spearman'):>6}")
    s = table["summary"]
    fmt = lambda v: "n/a" if v is None else f"{v:.3f}"
    lines.append(f"median energy / best: plugin {fmt(s['plugin_energy_energy_vs_best_median'])}, "
                 f"occupancy heuristic {fmt(s['occupancy_heuristic_energy_vs_best_median'])}, "
                 f"default {fmt(s['default_energy_vs_best_median'])}; "
                 f"plugin top-1 {fmt(s['plugin_energy_top1'])}")
    lines.append(f"median time / best: plugin (time objective) "
                 f"{fmt(s['plugin_time_time_vs_best_median'])}")
    lines.append(f"predictions over the measured configs, median per kernel: Spearman time "
                 f"{fmt(s['prediction_time_spearman_median'])}, energy "
                 f"{fmt(s['prediction_energy_spearman_median'])}; regret of the predicted "
                 f"best: time {fmt(s['prediction_time_regret_median'])}, energy "
                 f"{fmt(s['prediction_energy_regret_median'])}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m energy.oracle",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("manifest", help="manifest.json of the sweep that was measured")
    parser.add_argument("rows", nargs="+", help="energy-bench JSON lines")
    parser.add_argument("--baselines", help="energy-bench's .baselines.jsonl "
                        "(default: beside the first rows file)")
    parser.add_argument("--gpu", help="compare the rows of this GPU (needed when the rows "
                        "come from several)")
    parser.add_argument("--json", help="write the table here")
    args = parser.parse_args(argv)
    baselines = args.baselines or os.path.splitext(args.rows[0])[0] + ".baselines.jsonl"
    try:
        with open(args.manifest, encoding="utf-8") as f:
            manifest = json.load(f)
        frame = dataset.load_measurements(args.rows)
    except (OSError, json.JSONDecodeError) as e:
        print(f"error: {args.manifest}: {e}", file=sys.stderr)
        return 1
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    gpus = sorted(frame["gpu"].unique())
    if args.gpu is not None:
        frame = frame[frame["gpu"] == args.gpu]
        if frame.empty:
            print(f"error: no rows of GPU '{args.gpu}' (the rows have: {', '.join(gpus)})",
                  file=sys.stderr)
            return 1
    elif len(gpus) > 1:
        print(f"error: the rows come from {len(gpus)} GPUs ({', '.join(gpus)}); "
              "pick one with --gpu", file=sys.stderr)
        return 1
    gpu = args.gpu if args.gpu is not None else gpus[0]
    table = oracle_table(manifest, frame, _heuristic_configs(baselines, gpu))
    print(format_table(table))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(table, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
