"""Load measured (kernel, config) rows from JSON Lines or CSV files.

The format is specified in docs/dataset-format.md. Every problem with an input file is
raised as DatasetError whose text is `<file>:<line>: <what>` (or `<file>: <what>`); the
command-line tools print it as `error: ...` and exit with status 1.
"""

import csv
import dataclasses
import hashlib
import io
import json
import math
import os

import pandas as pd

REQUIRED_TEXT = ("kernel", "config", "arch", "gpu", "status")
MEASURED = ("time_s", "energy_j")
# Measured values an "ok" row may lack: many public measurements have no energy.
OPTIONAL_MEASURED = ("energy_j",)
ANALYTIC = ("analytic_time_s", "analytic_energy_j")
FEATURE_PREFIX = "f."   # CSV column prefix and DataFrame column prefix of features
# XGBoost rejects feature names containing these characters.
FORBIDDEN_IN_NAMES = "[]<"


class DatasetError(Exception):
    """A bad input file; str(error) is the message without the `error: ` prefix."""


@dataclasses.dataclass
class DataFile:
    path: str
    sha256: str
    rows: int      # rows with status "ok"
    skipped: int   # rows with any other status


@dataclasses.dataclass
class Dataset:
    """Rows with status "ok" from one or more files.

    frame columns: kernel, config, arch, gpu, time_s, energy_j, analytic_time_s,
    analytic_energy_j (the last three NaN where absent), source, line, and one `f.<name>` column per
    feature, in feature order.
    """
    frame: pd.DataFrame
    feature_names: list
    files: list

    def notes(self):
        """One message per file that had rows skipped for their status."""
        return [f"note: {f.path}: skipped {f.skipped} row(s) whose status is not 'ok'"
                for f in self.files if f.skipped]

    def has_energy(self):
        """Whether every row has a measured energy."""
        return bool(self.frame["energy_j"].notna().all())


def feature_columns(feature_names):
    return [FEATURE_PREFIX + name for name in feature_names]


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def load(paths):
    """Load and concatenate the files; all must have the same features in the same order."""
    if not paths:
        raise DatasetError("no data files given")
    reader = _Reader()
    files = [reader.read_file(path) for path in paths]
    if not reader.rows:
        raise DatasetError(f"{', '.join(paths)}: no rows with status 'ok'")
    frame = pd.DataFrame.from_records(reader.rows)
    return Dataset(frame=frame, feature_names=reader.feature_names, files=files)


def load_measurements(paths):
    """The measured fields alone (kernel, config, arch, gpu, time_s, energy_j) of the
    files' "ok" rows as a DataFrame, whatever features the rows carry: rows of sweeps that
    different plugins compiled (a sweep resumed into one file) combine here, where a
    training set would mix two feature sets."""
    rows = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise DatasetError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") \
                from None
        for line, record in _jsonl_records(path, text):
            where = f"{path}:{line}"
            row = {key: _text(where, record, key) for key in REQUIRED_TEXT}
            if row.pop("status") != "ok":
                continue
            for key in MEASURED:
                row[key] = _positive(where, key, record.get(key),
                                     required=key not in OPTIONAL_MEASURED)
            rows.append(row)
    if not rows:
        raise DatasetError(f"{', '.join(paths)}: no rows with status 'ok'")
    return pd.DataFrame.from_records(rows)


class _Reader:
    """Accumulates rows across files and checks that their feature keys agree."""

    def __init__(self):
        self.rows = []
        self.feature_names = None
        self.feature_origin = None   # "file:line" that fixed the feature order

    def read_file(self, path):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise DatasetError(f"{path}: cannot read: {e.strerror}") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise DatasetError(f"{path}: not UTF-8 text") from None
        if not text.strip():
            raise DatasetError(f"{path}: empty file")
        ext = os.path.splitext(path)[1].lower()
        if ext in (".jsonl", ".ndjson"):
            records = _jsonl_records(path, text)
        elif ext == ".csv":
            records = _csv_records(path, text)
        else:
            raise DatasetError(f"{path}: unknown file type '{ext}' (expected .jsonl or .csv)")
        ok = skipped = 0
        for line, record in records:
            if self._add(path, line, record):
                ok += 1
            else:
                skipped += 1
        if ok + skipped == 0:
            raise DatasetError(f"{path}: no rows")
        return DataFile(path=path, sha256=hashlib.sha256(data).hexdigest(),
                        rows=ok, skipped=skipped)

    def _add(self, path, line, record):
        """Validate one record; returns False when it is skipped for its status."""
        where = f"{path}:{line}"
        row = {}
        for key in REQUIRED_TEXT:
            row[key] = _text(where, record, key)
        if row["status"] != "ok":
            return False
        del row["status"]
        for key in MEASURED:
            row[key] = _positive(where, key, record.get(key),
                                 required=key not in OPTIONAL_MEASURED)
        for key in ANALYTIC:
            row[key] = _positive(where, key, record.get(key), required=False)
        features = record.get("features")
        if not features:
            raise DatasetError(f"{where}: missing or empty field 'features'")
        names = [name for name, _ in features]
        self._check_names(where, names)
        row["source"] = path
        row["line"] = line
        for name, value in features:
            row[FEATURE_PREFIX + name] = _number(where, f"feature '{name}'", value)
        self.rows.append(row)
        return True

    def _check_names(self, where, names):
        if self.feature_names is None:
            seen = set()
            for name in names:
                if not name or any(c in name for c in FORBIDDEN_IN_NAMES):
                    raise DatasetError(f"{where}: invalid feature name '{name}' "
                                       f"(must be non-empty, without {FORBIDDEN_IN_NAMES})")
                if name in seen:
                    raise DatasetError(f"{where}: duplicate feature '{name}'")
                seen.add(name)
            self.feature_names = names
            self.feature_origin = where
        elif names != self.feature_names:
            raise DatasetError(f"{where}: features differ from those of {self.feature_origin}: "
                               f"{describe_difference(self.feature_names, names)}")


def describe_difference(expected, got):
    """How the feature-name list `got` differs from `expected` (names are unique)."""
    missing = [n for n in expected if n not in got]
    extra = [n for n in got if n not in expected]
    if missing or extra:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(f"'{n}'" for n in missing))
        if extra:
            parts.append("unexpected " + ", ".join(f"'{n}'" for n in extra))
        return "; ".join(parts)
    i = next(i for i, (a, b) in enumerate(zip(expected, got)) if a != b)
    return f"order differs: expected '{expected[i]}' at position {i + 1}, found '{got[i]}'"


def _text(where, record, key):
    value = record.get(key)
    if value is None or value == "":
        raise DatasetError(f"{where}: missing field '{key}'")
    if not isinstance(value, str):
        raise DatasetError(f"{where}: field '{key}' must be a string")
    return value


def _number(where, what, value):
    # CSV cells arrive as strings, JSON values as numbers; bools are not numbers.
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise DatasetError(f"{where}: {what} is not a number: '{value}'") from None
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DatasetError(f"{where}: {what} is not a number: {json.dumps(value)}")
    value = float(value)
    if not math.isfinite(value):
        raise DatasetError(f"{where}: {what} is not finite")
    return value


def _positive(where, key, value, required):
    if value is None or value == "":
        if required:
            raise DatasetError(f"{where}: missing field '{key}'")
        return math.nan
    value = _number(where, f"field '{key}'", value)
    if value <= 0:
        raise DatasetError(f"{where}: field '{key}' must be positive")
    return value


def _reject_constant(name):
    raise ValueError(f"'{name}' is not valid JSON")


class _Object(list):
    """A JSON object as its ordered (key, value) pairs."""


def _object_without_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"duplicate key '{dup}'")
    return _Object(pairs)


def _jsonl_records(path, text):
    """Yield (line, record); record keeps `features` as an ordered list of pairs."""
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            value = json.loads(raw, object_pairs_hook=_object_without_duplicates,
                               parse_constant=_reject_constant)
        except ValueError as e:
            raise DatasetError(f"{path}:{number}: invalid JSON: {e}") from None
        if not isinstance(value, _Object):
            raise DatasetError(f"{path}:{number}: expected a JSON object")
        record = dict(value)
        features = record.get("features")
        if features is not None and not isinstance(features, _Object):
            raise DatasetError(f"{path}:{number}: field 'features' must be an object")
        yield number, record


def _csv_records(path, text):
    """Yield (line, record) with the `f.<name>` columns gathered into `features`."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except csv.Error as e:
        raise DatasetError(f"{path}:1: invalid CSV: {e}") from None
    if len(set(header)) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        raise DatasetError(f"{path}:1: duplicate column '{dup}'")
    feature_at = [(i, h[len(FEATURE_PREFIX):]) for i, h in enumerate(header)
                  if h.startswith(FEATURE_PREFIX)]
    if not feature_at:
        raise DatasetError(f"{path}:1: no feature columns (named {FEATURE_PREFIX}<name>)")
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise DatasetError(f"{path}:{reader.line_num}: invalid CSV: {e}") from None
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise DatasetError(f"{path}:{reader.line_num}: {len(cells)} cells, "
                               f"header has {len(header)}")
        record = {h: c for h, c in zip(header, cells) if not h.startswith(FEATURE_PREFIX)}
        record["features"] = [(name, cells[i]) for i, name in feature_at]
        yield reader.line_num, record


def load_tuning_cache(path, device_name=None):
    """Measurements of a Kernel Tuner cache, KTT output or T4 results file, as an
    energy.tuning_cache.TuningCache; `device_name` is needed for T4 files only."""
    from energy import tuning_cache   # it raises DatasetError from here: import late
    return tuning_cache.read_tuning_cache(path, device_name)
