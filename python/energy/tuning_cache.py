"""Read measured search spaces written by auto-tuners into one table per file.

Formats (detected from the content, gzip or plain):
- Kernel Tuner's JSON cache: `cache` maps "v1,v2,..." to an entry with the parameter
  values, `time` (ms) and metrics (`nvml_energy` or `ps_energy` in J, `nvml_power` in W,
  `core_freq`: the graphics clock the observer saw, MHz).
  A cache left open by an interrupted run (ending in `,` without the closing `}}`) is
  closed before parsing.
- KTT's JSON output: `Metadata` (Device, TimeUnit) and `Results`, one per measured run.
- The T4 results schema (`schema_version`, `results`), as KTT's converter writes it; it
  names no device, so the caller passes one.

Entries that carry no measured time (a string such as "CompilationFailedConfig" in
`time`, a KTT status other than Ok, a T4 invalidity other than "correct") are counted
per reason and skipped. Provenance comes from data/kernel-tuner/provenance.json.
"""

import dataclasses
import gzip
import json
import math
import os

import pandas as pd

from energy.dataset import DatasetError

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROVENANCE = os.path.join(REPO_ROOT, "data", "kernel-tuner", "provenance.json")
DATA_FOLDER = "public-measurements"

# Kernel Tuner metric -> (column, unit factor to SI).
_KT_MEASURES = {"nvml_energy": ("energy_j", 1.0), "ps_energy": ("energy_j", 1.0),
                "nvml_power": ("power_w", 1.0), "core_freq": ("clock_mhz", 1.0),
                # The measured binary's registers per thread (Kernel Tuner's metric).
                "num_regs": ("registers", 1.0)}
_TIME_UNITS = {"Seconds": 1.0, "Milliseconds": 1e-3, "Microseconds": 1e-6,
               "Nanoseconds": 1e-9}


@dataclasses.dataclass
class TuningCache:
    """One file's valid measurements.

    frame: one row per measurement: `config` (the values joined by commas, as Kernel
    Tuner keys its cache), one column per parameter, `time_s`, `energy_j`, `power_w`,
    `clock_mhz` and `registers` (the measured binary's registers per thread; NaN where
    not measured or recorded), and the provenance columns file, repository, commit,
    device_name. KTT files may hold several rows per configuration (repeated runs).
    """
    path: str
    format: str               # "kernel_tuner", "ktt" or "t4"
    device_name: str
    kernel_name: str
    problem_size: object      # as the file states it (list, int, "callable"), or None
    params: list
    frame: pd.DataFrame
    invalid: dict             # reason -> skipped entries
    repository: str = None
    commit: str = None
    closed_open_end: bool = False
    # The parameters of the entries that failed (Kernel Tuner caches), for a tuner that
    # replays the cache: those configurations exist but cannot be measured.
    failed_configs: list = dataclasses.field(default_factory=list)

    @property
    def skipped(self):
        return sum(self.invalid.values())


def read_tuning_cache(path, device_name=None):
    """Read one tuner output file; `device_name` is needed for T4 files only."""
    document, closed = _load_json(path)
    if not isinstance(document, dict):
        raise DatasetError(f"{path}: expected a JSON object")
    if "cache" in document:
        fields = _kernel_tuner(path, document)
    elif "Results" in document and "Metadata" in document:
        fields = _ktt(path, document)
    elif "results" in document and "schema_version" in document:
        fields = _t4(path, document, device_name)
    else:
        raise DatasetError(f"{path}: not a Kernel Tuner cache, KTT output or T4 results file")
    records, params = fields.pop("records"), fields["params"]
    if not records:
        raise DatasetError(f"{path}: no valid measurements")
    repository, commit = provenance_of(path)
    frame = pd.DataFrame.from_records(records, columns=[*params, "time_s", "energy_j",
                                                        "power_w", "clock_mhz",
                                                        "registers"])
    frame.insert(0, "config", [",".join(str(r[p]) for p in params) for r in records])
    frame["file"] = path
    frame["repository"] = repository
    frame["commit"] = commit
    frame["device_name"] = fields["device_name"]
    return TuningCache(path=path, frame=frame, repository=repository, commit=commit,
                       closed_open_end=closed, **fields)


def provenance_of(path):
    """(repository, commit) of a file under public-measurements, else (None, None)."""
    parts = os.path.realpath(path).split(os.sep)
    if DATA_FOLDER not in parts:
        return None, None
    where = len(parts) - 1 - parts[::-1].index(DATA_FOLDER)
    relative = "/".join(parts[where + 1:])
    with open(PROVENANCE, encoding="utf-8") as f:
        sources = json.load(f)["sources"]
    matches = [key for key in sources if relative.startswith(key)]
    if not matches:
        return None, None
    source = sources[max(matches, key=len)]
    return source["repository"], source["commit"]


def _load_json(path):
    """(document, whether an open end was closed)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DatasetError(f"{path}: cannot read: {e.strerror}") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise DatasetError(f"{path}: bad gzip data: {e}") from None
    try:
        text = data.decode("utf-8").rstrip()
    except UnicodeDecodeError:
        raise DatasetError(f"{path}: not UTF-8 text") from None
    # Kernel Tuner appends ",\n" after each entry and closes the file when it finishes.
    closed = text.endswith(",") or text.endswith("{")
    if closed:
        text = text.rstrip(",") + "}}"
    try:
        return json.loads(text), closed
    except ValueError as e:
        raise DatasetError(f"{path}: invalid JSON: {e}") from None


def _count(invalid, reason):
    invalid[reason] = invalid.get(reason, 0) + 1


def _positive_number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value > 0)


def _kernel_tuner(path, document):
    params = document.get("tune_params_keys")
    if not isinstance(params, list) or not params:
        raise DatasetError(f"{path}: missing 'tune_params_keys'")
    records, invalid, failed = [], {}, []
    for key, entry in document["cache"].items():
        missing = [p for p in params if p not in entry]
        if missing:
            raise DatasetError(f"{path}: entry '{key}' lacks parameter '{missing[0]}'")
        time_ms = entry.get("time")
        if not _positive_number(time_ms):
            # A failed entry holds the failure in `time`, or (when the objective was
            # another metric) in that metric, and then has no `time` at all.
            reason = time_ms if isinstance(time_ms, str) else next(
                (v for v in entry.values() if isinstance(v, str) and v.endswith("Config")),
                "no time")
            _count(invalid, reason)
            failed.append({p: entry[p] for p in params})
            continue
        record = {p: entry[p] for p in params}
        record["time_s"] = time_ms * 1e-3
        for metric, (column, factor) in _KT_MEASURES.items():
            if _positive_number(entry.get(metric)):
                record[column] = entry[metric] * factor
        records.append(record)
    return dict(format="kernel_tuner", records=records, invalid=invalid, params=params,
                failed_configs=failed,
                device_name=_required_text(path, document, "device_name"),
                kernel_name=_required_text(path, document, "kernel_name"),
                problem_size=document.get("problem_size"))


def _ktt(path, document):
    metadata = document["Metadata"]
    unit = _TIME_UNITS.get(metadata.get("TimeUnit"))
    if unit is None:
        raise DatasetError(f"{path}: unknown TimeUnit {metadata.get('TimeUnit')!r}")
    records, invalid, params, kernel = [], {}, None, None
    for index, result in enumerate(document["Results"]):
        config = {c["Name"]: c["Value"] for c in result.get("Configuration", [])}
        if params is None:
            params = list(config)
        elif set(config) != set(params):
            raise DatasetError(f"{path}: result {index} has other parameters than result 0")
        runs = result.get("ComputationResults") or []
        duration = sum(run.get("Duration", 0) for run in runs)
        if result.get("Status") != "Ok" or not _positive_number(duration):
            _count(invalid, str(result.get("Status", "no status")))
            continue
        kernel = kernel or runs[0].get("KernelFunction") or result.get("KernelName")
        records.append({**config, "time_s": duration * unit})
    return dict(format="ktt", records=records, invalid=invalid, params=params or [],
                device_name=_required_text(path, metadata, "Device"),
                kernel_name=kernel, problem_size=None)


def _t4(path, document, device_name):
    if not device_name:
        raise DatasetError(f"{path}: T4 results name no device; pass device_name")
    records, invalid, params = [], {}, None
    for index, result in enumerate(document["results"]):
        config = result.get("configuration", {})
        if params is None:
            params = list(config)
        elif set(config) != set(params):
            raise DatasetError(f"{path}: result {index} has other parameters than result 0")
        objective = (result.get("objectives") or ["TotalDuration"])[0]
        measured = next((m for m in result.get("measurements", [])
                         if m.get("name") == objective), {})
        unit = _TIME_UNITS.get(measured.get("unit"))
        if result.get("invalidity") != "correct" or unit is None \
                or not _positive_number(measured.get("value")):
            _count(invalid, str(result.get("invalidity", "no measurement")))
            continue
        records.append({**config, "time_s": measured["value"] * unit})
    return dict(format="t4", records=records, invalid=invalid, params=params or [],
                device_name=device_name, kernel_name=None, problem_size=None)


def _required_text(path, document, key):
    value = document.get(key)
    if not isinstance(value, str) or not value:
        raise DatasetError(f"{path}: missing '{key}'")
    return value
