"""Train the XGBoost time and energy cost models that energy.so embeds.

    python3 -m energy.train DATA... -o models/sm_90.json [--arch sm_90] [--rounds N] [--seed S]
    python3 -m energy.train --update models/sm_90.json NEW_DATA... [-o OUT]

Two boosters are fitted on the same features: one predicts ln(time_s), the other
ln(energy_j) (objective reg:squarederror, so a prediction is a natural log). Log targets
turn relative errors into absolute ones, so a kernel running in microseconds and one
running in milliseconds are fitted alike.

Sample weights. For the model of quantity y (time or energy), row i of kernel K gets

    q_i = min_{j in K} y_j / y_i                      (1 for the kernel's best config)
    w_i = max(q_i, weight_floor) / sum_{j in K} max(q_j, weight_floor) * N / n_kernels

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
- Dividing by the kernel's sum makes every kernel count equally however many configs
  were measured for it (Ansor normalizes per task for the same reason); N / n_kernels
  keeps the mean weight at 1 so that min_child_weight keeps its usual scale.
- weight_floor keeps slow configs in the fit: the plugin needs the whole Pareto front,
  not only the optimum.

--update refits from scratch on the data recorded in the model file plus the new data.
Zhang et al. update their energy model with newly measured kernels to cut the number of
measurements; like Ansor's cost model we retrain rather than add trees, since XGBoost
fits the weights of a growing dataset best from scratch.

The model file format is specified in docs/dataset-format.md.
"""

import argparse
import datetime
import json
import os
import sys
import tempfile

import numpy as np
import xgboost as xgb

from energy import dataset
from energy.dataset import DatasetError

MODEL_FORMAT = "energy-xgboost-v1"
# Model key in the model file -> measured column it predicts the natural log of.
TARGETS = {"time_model": "time_s", "energy_model": "energy_j"}
DEFAULT_PARAMS = {
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
FIXED_PARAMS = {"objective": "reg:squarederror", "tree_method": "hist", "target": "ln"}
NTHREAD = 2


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
    return params


def kernel_weights(frame, column, floor):
    """Per-row weights as described in the module docstring."""
    values = frame[column].to_numpy(dtype=float)
    kernels = frame["kernel"].to_numpy()
    quality = frame.groupby("kernel")[column].transform("min").to_numpy(dtype=float) / values
    weights = np.maximum(quality, floor)
    sums = frame.assign(_w=weights).groupby("kernel")["_w"].transform("sum").to_numpy()
    return weights / sums * len(values) / len(np.unique(kernels))


def feature_matrix(frame, feature_names):
    return frame[dataset.feature_columns(feature_names)].to_numpy(dtype=float)


def fit_booster(frame, feature_names, column, params):
    """Fit one booster predicting ln(frame[column])."""
    label = np.log(frame[column].to_numpy(dtype=float))
    weight = kernel_weights(frame, column, float(params["weight_floor"]))
    matrix = xgb.DMatrix(feature_matrix(frame, feature_names), label=label, weight=weight,
                         feature_names=list(feature_names))
    xgb_params = {
        "objective": FIXED_PARAMS["objective"],
        "tree_method": FIXED_PARAMS["tree_method"],
        "eta": float(params["eta"]),
        "max_depth": int(params["max_depth"]),
        "min_child_weight": float(params["min_child_weight"]),
        "subsample": float(params["subsample"]),
        "lambda": float(params["lambda"]),
        "seed": int(params["seed"]),
        "nthread": NTHREAD,
        "verbosity": 0,
        # Starting from the weighted mean saves the rounds that would walk there from 0.5.
        "base_score": float(np.average(label, weights=weight)),
    }
    return xgb.train(xgb_params, matrix, num_boost_round=int(params["rounds"]))


def fit_models(frame, feature_names, params):
    """{"time_model": Booster, "energy_model": Booster} fitted on all rows of frame."""
    return {key: fit_booster(frame, feature_names, column, params)
            for key, column in TARGETS.items()}


def predict(booster, frame, feature_names):
    """Predictions in physical units (seconds or joules)."""
    matrix = xgb.DMatrix(feature_matrix(frame, feature_names),
                         feature_names=list(feature_names))
    return np.exp(booster.predict(matrix).astype(float))


def select_arch(frame, arch):
    """Rows of one architecture: `arch`, or the only one present. Returns (frame, arch, notes)."""
    present = sorted(frame["arch"].unique())
    if arch is None:
        if len(present) > 1:
            raise DatasetError(f"the data holds several architectures ({', '.join(present)}): "
                               "choose one with --arch")
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
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise DatasetError(f"{path}: cannot read: {e.strerror}") from None
    except ValueError as e:
        raise DatasetError(f"{path}: invalid JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT:
        raise DatasetError(f"{path}: not a model file (format is not '{MODEL_FORMAT}')")
    for key in ("arch", "feature_names", "training", *TARGETS):
        if key not in doc:
            raise DatasetError(f"{path}: missing field '{key}'")
    training = doc["training"]
    if not isinstance(training, dict) or not isinstance(training.get("data", []), list) or \
            any(not isinstance(entry, dict) for entry in training.get("data", [])):
        raise DatasetError(f"{path}: field 'training' is malformed")
    return doc


def load_boosters(doc):
    """{"time_model": Booster, "energy_model": Booster} from a parsed model file."""
    return {key: booster_from_json(doc[key]) for key in TARGETS}


def model_document(boosters, data, arch, feature_names, params, output):
    """The model file's content; data paths are stored relative to the output's folder."""
    frame = data.frame
    out_dir = os.path.dirname(os.path.abspath(output))
    return {
        "format": MODEL_FORMAT,
        "arch": arch,
        "feature_names": list(feature_names),
        **{key: booster_to_json(boosters[key]) for key in TARGETS},
        "training": {
            "rows": len(frame),
            "kernels": sorted(frame["kernel"].unique()),
            "gpus": sorted(frame["gpu"].unique()),
            "data": [{"path": os.path.relpath(os.path.abspath(f.path), out_dir),
                      "sha256": f.sha256} for f in data.files],
            "params": {**params, **FIXED_PARAMS},
            "targets": {key: f"ln({column})" for key, column in TARGETS.items()},
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
    messages.append(f"wrote {output}: time and energy models for {arch}, "
                    f"{int(params['rounds'])} rounds, {len(frame)} rows of "
                    f"{frame['kernel'].nunique()} kernel(s) from {len(paths)} file(s)")
    return messages


def update(model_path, new_paths, output, arch=None, rounds=None, seed=None):
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
    params = training_params(doc["training"].get("params"), rounds=rounds, seed=seed)
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
    parser.add_argument("--arch", help="train on the rows of this architecture (sm_XX)")
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
                              args.arch, args.rounds, args.seed)
        else:
            params = training_params(rounds=args.rounds, seed=args.seed)
            messages = train(args.data, args.output, args.arch, params)
    except DatasetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for message in messages:
        print(message, file=sys.stderr if message.startswith(("note:", "warning:")) else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
