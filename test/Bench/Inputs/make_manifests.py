"""Writes small hand-made sweep manifests for energy-bench's tests.

    make_manifests.py OUTDIR

OUTDIR/good/manifest.json is a valid manifest of the fixture kernel fixture_axpy
(its PTX is a stub: enough for --dry-run and the stand-in GPU); OUTDIR/many has ten
configs, plugin choices b64 (energy, edp) and b96 (time), default b256, the plugin's
occupancy emulation b512 and a baseline PTX (the stand-in's heuristic picks 1024
threads: b1024); every other OUTDIR/<name>/manifest.json breaks one rule (bad-json,
truncated, duplicate-key and huge-number are not valid JSON).
"""
import copy
import json
import os
import sys

NAMES = ["instructions", "block_threads"]
GOOD = {
    "format": "energy-sweep-v1", "arch": "sm_90", "created": "2026-01-01T00:00:00Z",
    "plugin": "energy.so test", "model_input_names": NAMES,
    "kernels": [{
        "name": "fixture_axpy", "entry": "fixture_axpy", "params": {"n": 1000},
        "buffers": [
            {"name": "x", "type": "f32", "count": 1000, "init": "uniform(-1,1)"},
            {"name": "y", "type": "f32", "count": 1000, "init": "uniform(-1,1)", "output": True}],
        "args": [{"param": "n", "type": "i32"}, {"value": 2.5, "type": "f32"},
                 {"buffer": "x"}, {"buffer": "y"}],
        "tolerance": {"rel": 1e-5, "abs": 1e-6},
        "choices": {"energy": "fixture_axpy/b256", "time": "fixture_axpy/b128",
                    "edp": "fixture_axpy/b256"},
        "configs": [
            {"id": "fixture_axpy/b256", "ptx": "ptx/b256.ptx", "block": [256, 1, 1],
             "grid": [4, 1, 1], "dynamic_smem": 0, "tunables": {}, "model_inputs": [17, 256],
             "analytic_time_s": 1e-6, "analytic_energy_j": 1e-4, "repeat": True,
             "reference": True},
            {"id": "fixture_axpy/b128", "ptx": "ptx/b128.ptx", "block": [128, 1, 1],
             "grid": [8, 1, 1], "dynamic_smem": 0, "tunables": {}, "model_inputs": [17, 128],
             "analytic_time_s": None, "analytic_energy_j": None, "repeat": False}]}]}
PTX = ".version 8.5\n.target sm_90\n.address_size 64\n\n.visible .entry {}(\n)\n{{\n\tret;\n}}\n"


def kernel(doc):
    return doc["kernels"][0]


def variants():
    def change(edit):
        doc = copy.deepcopy(GOOD)
        edit(doc)
        return doc
    yield "good", GOOD, {}
    yield "bad-format", change(lambda d: d.update(format="energy-sweep-v0")), {}
    yield "missing-ptx", change(lambda d: kernel(d)["configs"][1].update(
        ptx="ptx/missing.ptx")), {}
    yield "no-entry", GOOD, {"b128.ptx": PTX.format("other_kernel")}
    yield "empty-ptx", GOOD, {"b128.ptx": ""}
    yield "unknown-reference", change(lambda d: kernel(d).update(
        name="no_such_kernel", entry="fixture_axpy",
        choices={}, configs=[dict(c, id=c["id"].replace("fixture_axpy", "no_such_kernel"))
                             for c in kernel(d)["configs"]])), {}
    yield "bad-type", change(lambda d: kernel(d)["buffers"][0].update(type="f99")), {}
    yield "bad-grid", change(lambda d: kernel(d)["configs"][0].update(grid=[0, 1, 1])), {}
    yield "bad-init", change(lambda d: kernel(d)["buffers"][0].update(init="uniform(1)")), {}
    yield "bad-inputs", change(lambda d: kernel(d)["configs"][0].update(model_inputs=[1])), {}
    yield "two-references", change(lambda d: kernel(d)["configs"][1].update(reference=True)), {}


MANY_BLOCKS = (32, 64, 96, 128, 160, 192, 224, 256, 512, 1024)


def many():
    doc = copy.deepcopy(GOOD)
    k = kernel(doc)
    k["choices"] = {"energy": "fixture_axpy/b64", "time": "fixture_axpy/b96",
                    "edp": "fixture_axpy/b64"}
    k["baseline"] = {"default_config": "fixture_axpy/b256",
                     "occupancy_config": "fixture_axpy/b512", "ptx": "ptx/baseline.ptx"}
    k["configs"] = [{"id": f"fixture_axpy/b{b}", "ptx": f"ptx/b{b}.ptx", "block": [b, 1, 1],
                     "grid": [-(-1000 // b), 1, 1], "dynamic_smem": 0, "tunables": {},
                     "model_inputs": [17, b], "analytic_time_s": None,
                     "analytic_energy_j": None, "repeat": False, "reference": b == 256}
                    for b in MANY_BLOCKS]
    return doc


def main(out):
    ptx_names = {"many": [f"b{b}" for b in MANY_BLOCKS] + ["baseline"]}
    for name, doc, ptx in list(variants()) + [("many", many(), {})]:
        folder = os.path.join(out, name)
        os.makedirs(os.path.join(folder, "ptx"), exist_ok=True)
        for config in ptx_names.get(name, ("b256", "b128")):
            with open(os.path.join(folder, "ptx", config + ".ptx"), "w") as f:
                f.write(ptx.get(config + ".ptx", PTX.format("fixture_axpy")))
        with open(os.path.join(folder, "manifest.json"), "w") as f:
            json.dump(doc, f, indent=1)
    good = json.dumps(GOOD, indent=1)
    broken = {
        "bad-json": '{\n  "format": "energy-sweep-v1"\n  "arch": "sm_90"\n}\n',
        # Cut inside the first kernel, as an interrupted copy leaves it.
        "truncated": good[:good.index('"params"')],
        "duplicate-key": good.replace('"arch": "sm_90"', '"arch": "sm_90", "arch": "sm_80"'),
        "huge-number": good.replace('"count": 1000', '"count": 1e999', 1),
    }
    for name, text in broken.items():
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "manifest.json"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1])
