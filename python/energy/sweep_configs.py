"""Which launch configurations a sweep measures, and how it names and forces them."""

import json

from energy.sweep_error import SweepError


def config_name(block, tunables):
    """'b256.ITEMS=2', 'b16x16.TILE=16', 'b32x4x2': the dataset's `config`."""
    dims = list(block)
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return "b" + "x".join(str(d) for d in dims) + "".join(
        f".{name}={value}" for name, value in tunables.items())


def force_option(kernel, block, tunables, grid=None, arguments=()):
    """The plugin option that applies this config; with the launch's grid and its integer
    arguments ((position from 1, value)), its model inputs describe that launch (the grid
    sets the workload, the arguments the loop bounds that read them)."""
    shape = "x".join(str(d) for d in block)
    launch = f",grid={'x'.join(str(g) for g in grid)}" if grid else ""
    launch += "".join(f",arg{n}={value}" for n, value in arguments)
    return f"-energy-force-config={kernel}:{shape}{launch}" + "".join(
        f",{name}={value}" for name, value in tunables.items())


INTEGER_TYPES = ("i32", "u32", "i64", "u8")


def integer_arguments(args, names):
    """(position from 1, value) of the kernel's non-negative integer arguments, each a
    param's value (from names) or a literal value."""
    out = []
    for position, a in enumerate(args, 1):
        if "buffer" in a or a.get("type") not in INTEGER_TYPES:
            continue
        value = names[a["param"]] if "param" in a else a["value"]
        if isinstance(value, int) and value >= 0:
            out.append((position, value))
    return out


def config_of(entry, tunable_order):
    tunables = entry.get("tunables", {})
    return (tuple(entry["block"]), tuple((name, tunables[name]) for name in tunable_order))


def load_earlier_configs(path):
    """kernel -> its configs (block, ((tunable, value), ...)) in an earlier manifest, in
    its order; the tunables in the order the manifest lists them."""
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
        return {k["name"]: [(tuple(c["block"]), tuple(c.get("tunables", {}).items()))
                            for c in k["configs"]]
                for k in manifest["kernels"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SweepError(f"{path}: not a sweep manifest ({e})") from None


def even_subsample(items, count):
    """`count` items spread evenly over the list, first and last included."""
    if count <= 0:
        return []
    if count >= len(items):
        return list(items)
    if count == 1:
        return [items[len(items) // 2]]
    picks = sorted({round(i * (len(items) - 1) / (count - 1)) for i in range(count)})
    return [items[i] for i in picks]


def choose_configs(candidates, required, cap):
    """Required configs first, then an even subsample of the others up to `cap` in all."""
    chosen = list(dict.fromkeys(required))
    rest = [c for c in candidates if c not in chosen]
    if cap is None:
        return chosen + rest
    return chosen + even_subsample(rest, cap - len(chosen))
