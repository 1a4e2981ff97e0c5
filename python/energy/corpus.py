"""corpus.json (docs/bench-format.md) read and checked before anything is compiled."""

import copy
import json
import os
import re

from energy.sweep_error import SweepError

CORPUS_FORMAT = "energy-corpus-v1"
TYPES = ("f16", "f32", "f64", "i32", "u32", "i64", "u8")


def _identifier(value):
    return isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value)


def load_corpus(corpus_dir):
    """corpus.json's kernels, checked; source paths made absolute."""
    path = os.path.join(corpus_dir, "corpus.json")
    if not os.path.isdir(corpus_dir):
        raise SweepError(f"{corpus_dir}: no such corpus directory")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise SweepError(f"{path}: no corpus.json in the corpus directory") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SweepError(f"{path}: cannot read: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != CORPUS_FORMAT:
        raise SweepError(f"{path}: format must be '{CORPUS_FORMAT}'")
    kernels = doc.get("kernels")
    if not isinstance(kernels, list) or not kernels:
        raise SweepError(f"{path}: 'kernels' must be a non-empty list")
    seen = set()
    out = []
    for k in kernels:
        name = k.get("name") if isinstance(k, dict) else None
        where = f"{path}: kernel '{name}'" if _identifier(name) else f"{path}: kernel"
        if not isinstance(k, dict) or not _identifier(name):
            raise SweepError(f"{where}: 'name' must be an identifier")
        if name in seen:
            raise SweepError(f"{where}: duplicate name")
        seen.add(name)
        k = copy.deepcopy(k)
        for key in ("source", "entry", "params", "grid", "buffers", "args", "tolerance"):
            if key not in k:
                raise SweepError(f"{where}: missing '{key}'")
        k["source"] = os.path.join(corpus_dir, k["source"])
        if not os.path.isfile(k["source"]):
            raise SweepError(f"{where}: source '{k['source']}' not found")
        for key in ("params", "small_params"):
            params = k.get(key, {})
            if not isinstance(params, dict) or not all(
                    _identifier(p) and isinstance(v, int) and not isinstance(v, bool)
                    for p, v in params.items()):
                raise SweepError(f"{where}: '{key}' must map names to integers")
        if not isinstance(k["grid"], list) or len(k["grid"]) != 3:
            raise SweepError(f"{where}: 'grid' must be a list of 3 expressions")
        _check_buffers(where, k)
        out.append(k)
    return path, out


def _check_buffers(where, k):
    buffers = k["buffers"]
    if not isinstance(buffers, list) or not buffers:
        raise SweepError(f"{where}: 'buffers' must be a non-empty list")
    names = set()
    for b in buffers:
        if not isinstance(b, dict) or not _identifier(b.get("name")):
            raise SweepError(f"{where}: each buffer needs a 'name'")
        if b["name"] in names:
            raise SweepError(f"{where}: duplicate buffer '{b['name']}'")
        names.add(b["name"])
        if b.get("type") not in TYPES:
            raise SweepError(f"{where}: buffer '{b['name']}': type '{b.get('type')}' is not "
                             f"one of {' '.join(TYPES)}")
        for key in ("count", "init"):
            if key not in b:
                raise SweepError(f"{where}: buffer '{b['name']}': missing '{key}'")
    if not any(b.get("output") for b in buffers):
        raise SweepError(f"{where}: no buffer has \"output\": true")
    if not isinstance(k["args"], list):
        raise SweepError(f"{where}: 'args' must be a list")
    for i, a in enumerate(k["args"]):
        kinds = [key for key in ("param", "value", "buffer") if isinstance(a, dict) and key in a]
        if len(kinds) != 1:
            raise SweepError(f"{where}: argument {i} needs exactly one of param, value, buffer")
        if kinds == ["buffer"] and a["buffer"] not in names:
            raise SweepError(f"{where}: argument {i} names unknown buffer '{a['buffer']}'")
        if kinds == ["param"] and a["param"] not in k["params"]:
            raise SweepError(f"{where}: argument {i} names unknown param '{a['param']}'")
        if kinds != ["buffer"] and a.get("type") not in TYPES:
            raise SweepError(f"{where}: argument {i}: type '{a.get('type')}' is not one of "
                             f"{' '.join(TYPES)}")
