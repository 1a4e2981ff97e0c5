"""Train the XGBoost time and energy cost models that energy.so embeds.

    python3 -m energy.train DATA... -o models/sm_90.json [--arch sm_90|all]
                            [--variant regression|hybrid] [--rounds N] [--seed S]
    python3 -m energy.train --update models/sm_90.json NEW_DATA... [-o OUT]

Two boosters are fitted on the same features (objective reg:squarederror, so a prediction
is a natural log). Log targets turn relative errors into absolute ones, so a kernel
running in microseconds and one running in milliseconds are fitted alike.
- The time booster predicts, by variant (the model file's "target"):
  regression: ln(time_s) ("ln_time");
  hybrid:     ln(time_s / analytic_time_s) ("ln_time_over_analytic"): it learns the
              analytic model's error, and the time is analytic time x exp(prediction).
  A third variant, rank (objective rank:pairwise within each (kernel, gpu) query group,
  as TVM's XGBoost cost model ranks the programs of one task), is fitted only by
  energy.evaluate: its scores order configs but are not times, which the plugin needs.
- The energy booster predicts ln(energy_j); it is fitted only when every row has a
  measured energy. Without it the plugin predicts energy as the predicted time x the
  analytic model's average power for the same launch.

Sample weights. For the model of quantity y (time or energy), row i of the group K of
rows of one kernel on one GPU (a (kernel, gpu) pair) gets

    q_i = min_{j in K} y_j / y_i                      (1 for the group's best config)
    w_i = max(q_i, weight_floor) / sum_{j in K} max(q_j, weight_floor) * N / n_groups

- q is the normalized throughput with which Ansor weights the squared error of its
  XGBoost cost model, so that the model is most accurate on the fast programs the search
  must tell apart (Zheng et al., "Ansor: Generating High-Performance Tensor Programs for
  Deep Learning", OSDI 2020; apache/tvm python/tvm/auto_scheduler/cost_model/xgb_model.py,
  where the per-task normalized throughput is both label and weight).
- For the energy model q is the normalized energy efficiency: Zhang et al. ("Automating
  Energy-Efficient GPU Kernel Generation: A Fast Search-Based Compilation Approach",
  arXiv:2411.18873, 2024) train their XGBoost energy cost model with a weighted loss that
  favours accuracy on the low-energy kernels. This is that idea in Ansor's form, not
  their exact formula.
- Dividing by the group's sum makes every (kernel, gpu) pair count equally however many
  configs were measured for it (Ansor normalizes per task for the same reason);
  N / n_groups keeps the mean weight at 1 so that min_child_weight keeps its usual scale.
- The rank variant is unweighted: XGBoost's ranking objectives take one weight per
  query group, not per row.
- weight_floor keeps slow configs in the fit: the plugin needs the whole Pareto front,
  not only the optimum.

--update refits from scratch on the data recorded in the model file plus the new data.
Zhang et al. update their energy model with newly measured kernels to cut the number of
measurements; like Ansor's cost model we retrain rather than add trees, since XGBoost
fits the weights of a growing dataset best from scratch.

The model file format is specified in docs/dataset-format.md.
"""

import argparse
import dataclasses
import datetime
import json
import os
import sys
import tempfile

import numpy as np
import xgboost as xgb

from energy import dataset, jsonl
from energy.dataset import DatasetError

MODEL_FORMAT = "energy-xgboost-v1"
# Model key in the model file -> measured column it predicts the natural log of.
TARGETS = {"time_model": "time_s", "energy_model": "energy_j"}
# Rows of one kernel on one GPU: the unit of weighting, ranking and scoring.
GROUP = ["kernel", "gpu"]


@dataclasses.dataclass(frozen=True)
class Variant:
    """What the time booster learns."""
    objective: str
    target: str       # the model file's "target"; "" for scores that are not times
    label: str        # what training.targets records


VARIANTS = {
    "regression": Variant("reg:squarederror", "ln_time", "ln(time_s)"),
    "rank": Variant("rank:pairwise", "", "rank:pairwise on min(time_s) / time_s "
                                         "per (kernel, gpu)"),
    "hybrid": Variant("reg:squarederror", "ln_time_over_analytic",
                      "ln(time_s / analytic_time_s)"),
}
# The variants whose time booster the plugin can use (it needs times).
MODEL_VARIANTS = [name for name, v in VARIANTS.items() if v.target]
ALL_ARCHS = "all"
DEFAULT_PARAMS = {
    "variant": "regression",
    "rounds": 300,
    "seed": 0,
    "eta": 0.1,
    "max_depth": 6,
    "min_child_weight": 1.0,
    "subsample": 0.8,
    "lambda": 1.0,
    "weight_floor": 0.1,
}
# Fixed settings, recorded in the model file beside DEFAULT_PARAMS.
FIXED_PARAMS = {"objective": "reg:squarederror", "tree_method": "hist"}
# One thread: the datasets are small (hundreds to thousands of rows), and on a busy
# machine OpenMP's threads wait for each other: one 300-round fit on 24 rows took 0.6 to
# 2.3 s with 2 threads and 0.2 to 0.3 s with 1 on a loaded 2-core machine.
NTHREAD = 1


def training_params(base=None, **overrides):
    """DEFAULT_PARAMS updated by the known keys of `base`, then by non-None overrides."""
    params = dict(DEFAULT_PARAMS)
    if base:
        params.update({k: base[k] for k in DEFAULT_PARAMS if k in base})
    params.update({k: v for k, v in overrides.items() if v is not None})
    if int(params["rounds"]) < 1:
        raise DatasetError("--rounds must be at least 1")
    if not 0 < float(params["weight_floor"]) <= 1:
        raise DatasetError("weight_floor must be in (0, 1]")
    if params["variant"] not in VARIANTS:
        raise DatasetError(f"unknown variant '{params['variant']}' "
                           f"(expected {', '.join(VARIANTS)})")
    return params


def kernel_weights(frame, column, floor):
    """Per-row weights as described in the module docstring: groups are (kernel, gpu)."""
    values = frame[column].to_numpy(dtype=float)
    groups = frame.groupby(GROUP, sort=False)
    quality = groups[column].transform("min").to_numpy(dtype=float) / values
    weights = np.maximum(quality, floor)
    sums = frame.assign(_w=weights).groupby(GROUP, sort=False)["_w"].transform("sum")
    return weights / sums.to_numpy() * len(values) / groups.ngroups


def feature_matrix(frame, feature_names):
    return frame[dataset.feature_columns(feature_names)].to_numpy(dtype=float)


def analytic_times(frame):
    """analytic_time_s of every row; the hybrid variant cannot do without them."""
    analytic = frame["analytic_time_s"].to_numpy(dtype=float)
    missing = np.flatnonzero(~np.isfinite(analytic))
    if len(missing):
        first = frame.iloc[missing[0]]
        raise DatasetError(f"{first['source']}:{first['line']}: the hybrid variant needs "
                           f"analytic_time_s on every row ({len(missing)} row(s) lack it)")
    return analytic


def fit_booster(frame, feature_names, column, params, variant="regression"):
    """Fit one booster of frame[column] (time_s or energy_j) as `variant` learns it."""
    objective = VARIANTS[variant].objective
    values = frame[column].to_numpy(dtype=float)
    group = None
    if variant == "rank":
        # Query groups must be contiguous; the label is the normalized throughput.
        frame = frame.sort_values(GROUP, kind="stable")
        values = frame[column].to_numpy(dtype=float)
        label = frame.groupby(GROUP, sort=False)[column].transform("min").to_numpy() / values
        group = frame.groupby(GROUP, sort=False).size().to_numpy()
        weight = None
    else:
        label = np.log(values)
        if variant == "hybrid":
            label -= np.log(analytic_times(frame))
        weight = kernel_weights(frame, column, float(params["weight_floor"]))
    matrix = xgb.DMatrix(feature_matrix(frame, feature_names), label=label, weight=weight,
                         feature_names=list(feature_names))
    if group is not None:
        matrix.set_group(group)
    xgb_params = {
        "objective": objective,
        "tree_method": FIXED_PARAMS["tree_method"],
        "eta": float(params["eta"]),
        "max_depth": int(params["max_depth"]),
        "min_child_weight": float(params["min_child_weight"]),
        "subsample": float(params["subsample"]),
        "lambda": float(params["lambda"]),
        "seed": int(params["seed"]),
        "nthread": NTHREAD,
        "verbosity": 0,
    }
    if weight is not None:
        # Starting from the weighted mean saves the rounds that would walk there from 0.5.
        xgb_params["base_score"] = float(np.average(label, weights=weight))
    return xgb.train(xgb_params, matrix, num_boost_round=int(params["rounds"]))


def fit_models(frame, feature_names, params):
    """{"time_model": Booster[, "energy_model": Booster]} fitted on all rows of frame;
    the energy booster only when every row has an energy."""
    boosters = {"time_model": fit_booster(frame, feature_names, "time_s", params,
                                          params["variant"])}
    if frame["energy_j"].notna().all():
        boosters["energy_model"] = fit_booster(frame, feature_names, "energy_j", params)
    return boosters


def predict(booster, frame, feature_names):
    """exp(prediction): seconds or joules for a booster of ln(time_s) or ln(energy_j)."""
    matrix = xgb.DMatrix(feature_matrix(frame, feature_names),
                         feature_names=list(feature_names))
    return np.exp(booster.predict(matrix).astype(float))


def predict_time(booster, frame, feature_names, variant):
    """What the time booster of `variant` says of each row, lower meaning faster:
    seconds for regression and hybrid, exp(-score) (not seconds) for rank."""
    predicted = predict(booster, frame, feature_names)
    if variant == "rank":
        return 1 / predicted
    if variant == "hybrid":
        return predicted * analytic_times(frame)
    return predicted


def select_arch(frame, arch):
    """Rows of one architecture: `arch`, or the only one present; `all` keeps every row
    (for data whose inputs carry the board). Returns (frame, arch, notes)."""
    present = sorted(frame["arch"].unique())
    if arch == ALL_ARCHS:
        return frame, ALL_ARCHS, []
    if arch is None:
        if len(present) > 1:
            raise DatasetError(f"the data holds several architectures ({', '.join(present)}): "
                               f"choose one with --arch (or --arch {ALL_ARCHS})")
        return frame, present[0], []
    selected = frame[frame["arch"] == arch]
    if selected.empty:
        raise DatasetError(f"no rows for --arch {arch} (the data has {', '.join(present)})")
    notes = []
    if len(selected) < len(frame):
        others = ", ".join(a for a in present if a != arch)
        notes.append(f"note: ignored {len(frame) - len(selected)} row(s) of other "
                     f"architectures ({others})")
    return selected.reset_index(drop=True), arch, notes


def booster_to_json(booster):
    return json.loads(booster.save_raw("json"))


def booster_from_json(obj):
    """Load a booster the way the plugin does: from the re-serialized JSON object."""
    booster = xgb.Booster(params={"nthread": NTHREAD})
    booster.load_model(bytearray(json.dumps(obj).encode()))
    return booster


def read_model(path):
    """The parsed model file, checked for the keys this package relies on."""
    doc = jsonl.read_json(path)
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        raise DatasetError(f"{path}: not a model file (format is not '{MODEL_FORMAT}')")
    for key in ("arch", "feature_names", "training", "time_model"):
        if key not in doc:
            raise DatasetError(f"{path}: missing field '{key}'")
    training = doc["training"]
    if not isinstance(training, dict) or not isinstance(training.get("data", []), list) or \
            any(not isinstance(entry, dict) for entry in training.get("data", [])):
        raise DatasetError(f"{path}: field 'training' is malformed")
    return doc


def load_boosters(doc):
    """{"time_model": Booster[, "energy_model": Booster]} from a parsed model file."""
    return {key: booster_from_json(doc[key]) for key in TARGETS if key in doc}


def model_document(boosters, data, arch, feature_names, params, output):
    """The model file's content; data paths are stored relative to the output's folder."""
    frame = data.frame
    out_dir = os.path.dirname(os.path.abspath(output))
    variant = VARIANTS[params["variant"]]
    targets = {key: f"ln({column})" for key, column in TARGETS.items() if key in boosters}
    targets["time_model"] = variant.label
    return {
        "format": MODEL_FORMAT,
        "arch": arch,
        "feature_names": list(feature_names),
        "target": variant.target,
        **{key: booster_to_json(boosters[key]) for key in TARGETS if key in boosters},
        "training": {
            "rows": len(frame),
            "kernels": sorted(frame["kernel"].unique()),
            "gpus": sorted(frame["gpu"].unique()),
            "data": [{"path": os.path.relpath(os.path.abspath(f.path), out_dir),
                      "sha256": f.sha256} for f in data.files],
            "params": {**params, **FIXED_PARAMS},
            "targets": targets,
            "created": datetime.datetime.now(datetime.timezone.utc)
                               .isoformat(timespec="seconds"),
        },
    }


def write_model(path, doc):
    """Write atomically (an update rewrites its own input). One top-level key per line."""
    text = "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, allow_nan=False)}"
                              for k, v in doc.items()) + "\n}\n"
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        if tmp is not None and os.path.exists(tmp):
            os.remove(tmp)
        raise DatasetError(f"{path}: cannot write: {e.strerror}") from None


def recorded_data(model_path, doc):
    """Paths of the model's training data, resolved next to the model file or in the cwd.

    Returns (paths, warnings); a file whose sha256 changed is used with a warning.
    """
    model_dir = os.path.dirname(os.path.abspath(model_path))
    paths, warnings = [], []
    for entry in doc["training"].get("data", []):
        recorded = entry.get("path", "")
        candidates = [recorded] if os.path.isabs(recorded) else \
            [os.path.join(model_dir, recorded), recorded]
        found = next((c for c in candidates if os.path.isfile(c)), None)
        if found is None:
            raise DatasetError(f"{model_path}: training data '{recorded}' not found "
                               f"(looked in {model_dir} and the current directory)")
        if dataset.sha256_of(found) != entry.get("sha256"):
            warnings.append(f"warning: {found}: changed since the model was trained "
                            "(sha256 differs); using its current contents")
        paths.append(os.path.relpath(found))
    return paths, warnings


def train(paths, output, arch=None, params=None, model_features=None):
    """Load data, fit both boosters, write the model file; returns messages to print."""
    params = params or training_params()
    if not VARIANTS[params["variant"]].target:
        raise DatasetError(f"the {params['variant']} variant's scores are not times, which "
                           f"the plugin needs; train one of {', '.join(MODEL_VARIANTS)}")
    data = dataset.load(paths)
    messages = data.notes()
    if model_features is not None and data.feature_names != model_features:
        difference = dataset.describe_difference(model_features, data.feature_names)
        raise DatasetError(f"{data.files[0].path}: features differ from the model's "
                           f"feature_names: {difference}")
    data.frame, arch, notes = select_arch(data.frame, arch)
    messages += notes
    boosters = fit_models(data.frame, data.feature_names, params)
    write_model(output, model_document(boosters, data, arch, data.feature_names,
                                       params, output))
    frame = data.frame
    models = "time and energy models" if "energy_model" in boosters else \
        "time model (not every row has an energy)"
    messages.append(f"wrote {output}: {params['variant']} {models} for {arch}, "
                    f"{int(params['rounds'])} rounds, {len(frame)} rows of "
                    f"{frame['kernel'].nunique()} kernel(s) from {len(paths)} file(s)")
    return messages


def update(model_path, new_paths, output, arch=None, rounds=None, seed=None, variant=None):
    """Refit a model on its recorded training data plus new_paths."""
    doc = read_model(model_path)
    if arch is not None and arch != doc["arch"]:
        raise DatasetError(f"{model_path}: model is for {doc['arch']}, not --arch {arch}")
    old_paths, messages = recorded_data(model_path, doc)
    known = {os.path.realpath(p) for p in old_paths}
    paths = list(old_paths)
    for path in new_paths:
        if os.path.realpath(path) in known:
            messages.append(f"note: {path}: already in the model's training data")
        else:
            known.add(os.path.realpath(path))
            paths.append(path)
    params = training_params(doc["training"].get("params"), rounds=rounds, seed=seed,
                             variant=variant)
    return messages + train(paths, output, doc["arch"], params, doc["feature_names"])


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.train",
        description="Train the XGBoost time and energy cost models (one model file).")
    parser.add_argument("data", nargs="*", metavar="DATA", help="measured rows (.jsonl or .csv)")
    parser.add_argument("-o", "--output", metavar="MODEL", help="model file to write")
    parser.add_argument("--update", metavar="MODEL",
                        help="refit MODEL on its recorded training data plus DATA; "
                             "writes MODEL unless -o is given")
    parser.add_argument("--arch", help="train on the rows of this architecture (sm_XX), "
                        f"or of all ({ALL_ARCHS})")
    parser.add_argument("--variant", choices=MODEL_VARIANTS,
                        help="what the time model predicts: ln(time) (regression, the "
                             "default) or ln(time / analytic time) (hybrid)")
    parser.add_argument("--rounds", type=int, help="boosting rounds per model "
                        f"(default {DEFAULT_PARAMS['rounds']})")
    parser.add_argument("--seed", type=int, help=f"random seed (default {DEFAULT_PARAMS['seed']})")
    args = parser.parse_args(argv)
    if args.update is None and not args.data:
        parser.error("no data files given")
    if args.update is None and args.output is None:
        parser.error("-o MODEL is required (or --update MODEL)")
    try:
        if args.update is not None:
            messages = update(args.update, args.data, args.output or args.update,
                              args.arch, args.rounds, args.seed, args.variant)
        else:
            params = training_params(rounds=args.rounds, seed=args.seed,
                                     variant=args.variant)
            messages = train(args.data, args.output, args.arch, params)
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for message in messages:
        print(message, file=sys.stderr if message.startswith(("note:", "warning:")) else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
