"""JSON Lines files of rows, JSON files, and numpy values made plain for json.

Shared by the tools that read or write rows (energy.kt_eval --rows, energy.calibrate,
energy.power_check); energy.dataset validates training rows on top of its own reader.
"""

import json

import numpy as np

from energy.dataset import DatasetError


def read_json(path):
    """The JSON value in `path`; a file that cannot be read or parsed is a DatasetError."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise DatasetError(f"{path}: cannot read: {e.strerror}") from None
    except ValueError as e:
        raise DatasetError(f"{path}: invalid JSON: {e}") from None


def read_objects(path):
    """[(line number, object)] of a JSON Lines file; blank lines are skipped."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise DatasetError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") \
            from None
    objects = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as e:
            raise DatasetError(f"{path}:{number}: invalid JSON: {e}") from None
        if not isinstance(record, dict):
            raise DatasetError(f"{path}:{number}: expected a JSON object")
        objects.append((number, record))
    return objects


def plain(value):
    """numpy scalars and booleans as Python values, for json."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value.item() if isinstance(value, np.generic) else value
