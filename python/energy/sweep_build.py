"""Sweep: plans each corpus kernel's configs from the plugin's reports, compiles one PTX
per config and writes the manifest (the steps energy.sweep's docstring lists)."""

import datetime
import hashlib
import json
import math
import os
import random
import re
import shutil
import sys
import tarfile
import tempfile

from energy.corpus import load_corpus
from energy.corpus_expr import evaluate, evaluate_init
from energy.sweep_compile import Toolchain, read_report, run_all
from energy.sweep_configs import (choose_configs, config_name, config_of, force_option,
                                  integer_arguments, load_earlier_configs)
from energy.sweep_error import SweepError

MANIFEST_FORMAT = "energy-sweep-v1"
OBJECTIVES = ("energy", "time", "edp")
TAR_LIMIT = 64 * 2**20
# energy-bench's defaults: 2 s energy run, 0.5 s warm-up, set-up (a noisy run is
# measured once more).
SECONDS_PER_MEASUREMENT = 3.0
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Block threads cuOccupancyMaxPotentialBlockSize may pick (multiples of a warp).
OCCUPANCY_BLOCKS = range(32, 1025, 32)


class Sweep:
    def __init__(self, args):
        self.args = args
        self.corpus_path, kernels = load_corpus(args.corpus)
        plugin = os.path.abspath(args.plugin)
        if not os.path.isfile(plugin):
            raise SweepError(f"{args.plugin}: plugin not found (build it: ninja -C build)")
        if not os.path.isfile(args.clang):
            raise SweepError(f"{args.clang}: clang++ 19 not found (--clang)")
        self.tools = Toolchain(plugin, args.clang, args.cuda_path, args.arch, args.include)
        if args.kernels:
            wanted = [k for k in args.kernels.split(",") if k]
            known = {k["name"] for k in kernels}
            unknown = [k for k in wanted if k not in known]
            if unknown:
                raise SweepError(f"{self.corpus_path}: no kernel named {', '.join(unknown)}")
            kernels = [k for k in kernels if k["name"] in wanted]
        self.earlier = load_earlier_configs(args.configs_of) if args.configs_of else None
        if self.earlier is not None:
            # Re-scoring measured configs: a kernel the earlier sweep did not
            # measure (added to the corpus since) has none to score.
            unmeasured = [k["name"] for k in kernels if k["name"] not in self.earlier]
            if unmeasured:
                self.warn(f"{args.configs_of} has no configs of {', '.join(unmeasured)}: "
                          "left out")
            kernels = [k for k in kernels if k["name"] in self.earlier]
            if not kernels:
                raise SweepError(f"{args.configs_of}: no configs of any kernel to compile")
        self.kernels = kernels
        self.out = os.path.abspath(args.output)

    @staticmethod
    def warn(text):
        print(f"warning: {text}", file=sys.stderr)

    def params(self, k):
        return dict(k.get("small_params") or k["params"]) if self.args.small else dict(k["params"])

    def expr(self, k, what, text, names):
        try:
            return evaluate(text, names)
        except ValueError as e:
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': {what} "
                             f"'{text}': {e}") from None

    def workload_options(self, k):
        if "workload" not in k:
            return []
        items = self.expr(k, "workload", k["workload"], self.params(k))
        if items <= 0:
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': workload must be "
                             f"positive, got {items}")
        return [f"-energy-workload={items}"]

    def run(self):
        self.prepare_output()
        with tempfile.TemporaryDirectory(prefix="energy-sweep-") as tmp:
            self.tmp = tmp
            plans = self.plan_kernels()
            entries = self.compile_configs(plans)
        manifest = self.manifest(plans, entries)
        tmp_path = os.path.join(self.out, "manifest.json.tmp")
        with open(tmp_path, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")
        os.replace(tmp_path, os.path.join(self.out, "manifest.json"))
        configs = sum(len(k["configs"]) for k in manifest["kernels"])
        repeats = sum(c["repeat"] for k in manifest["kernels"] for c in k["configs"])
        minutes = (configs + repeats) * SECONDS_PER_MEASUREMENT / 60
        lines = [f"wrote {os.path.join(self.args.output, 'manifest.json')}: "
                 f"{len(manifest['kernels'])} kernels, {configs} configs, "
                 f"{configs + repeats} measurements (about {minutes:.1f} min of GPU time)"]
        if self.args.tar:
            lines.append(self.write_tar())
        return lines

    def prepare_output(self):
        if os.path.exists(self.out):
            if not os.path.isdir(self.out):
                raise SweepError(f"{self.args.output}: exists and is not a directory")
            extra = set(os.listdir(self.out)) - {"manifest.json", "ptx", "manifest.json.tmp"}
            if extra:
                raise SweepError(f"{self.args.output}: exists and holds more than a sweep "
                                 f"({', '.join(sorted(extra))}); choose another -o")
            # A failed sweep leaves no manifest naming missing PTX.
            shutil.rmtree(os.path.join(self.out, "ptx"), ignore_errors=True)
            for name in ("manifest.json", "manifest.json.tmp"):
                if os.path.exists(os.path.join(self.out, name)):
                    os.remove(os.path.join(self.out, name))
        os.makedirs(os.path.join(self.out, "ptx"), exist_ok=True)

    def plan_kernels(self):
        """Reports for the three objectives, then the configs to measure per kernel."""
        tasks = []
        for k in self.kernels:
            for objective in OBJECTIVES:
                report = os.path.join(self.tmp, f"{k['name']}.{objective}.json")
                options = [f"-energy-objective={objective}", f"-energy-report={report}"]
                options += self.workload_options(k)
                tasks.append(lambda k=k, objective=objective, options=options:
                             self.tools.compile(f"kernel '{k['name']}' (objective {objective})",
                                                k["source"], os.devnull, options))
        run_all(self.args.jobs, tasks)
        plans = []
        for k in self.kernels:
            plans.append(self.plan_kernel(k))
        return plans

    def plan_kernel(self, k):
        name = k["name"]
        reports = {}
        for objective in OBJECTIVES:
            path = os.path.join(self.tmp, f"{name}.{objective}.json")
            reports[objective] = read_report(f"kernel '{name}'", path, name)
        report, entry = reports["energy"]
        if entry.get("ir_name") != k["entry"]:
            raise SweepError(f"{self.corpus_path}: kernel '{name}': its PTX entry is "
                             f"'{entry.get('ir_name')}', not '{k['entry']}' (declare the "
                             "kernel inside extern \"C\" { ... } so that entry == name)")
        if not entry.get("applied"):
            raise SweepError(f"kernel '{name}': the plugin does not tune it "
                             f"(opted in: {entry.get('opted_in')}, bounded by the user: "
                             f"{entry.get('user_bounded')})")
        order = [t["name"] for t in entry["tunables"]]
        candidates = [config_of(c, order) for c in entry["candidates"] if "pruned" not in c]
        choices = {objective: config_of(reports[objective][1]["choice"], order)
                   for objective in OBJECTIVES}
        baselines = entry["baselines"]
        default = config_of(baselines["default"], order)
        occupancy = config_of(baselines["occupancy_heuristic"], order)
        # A baseline the resources rule out is reported as pruned: it cannot launch.
        launchable = [config for config, key in ((default, "default"),
                                                 (occupancy, "occupancy_heuristic"))
                      if "pruned" not in baselines[key]]
        same_tunables = [c for c in candidates if c[1] == default[1]] or candidates
        largest = max(same_tunables, key=lambda c: (math.prod(c[0]), c[0]))
        required = list(choices.values()) + launchable + [largest]
        if self.earlier is not None:
            # Re-scoring a measured sweep: its configs, whatever this plugin lists,
            # chooses or prunes (they were measured; a forced config compiles).
            configs = [(block, tuple((t, dict(tunables)[t]) for t in order))
                       for block, tunables in self.earlier.get(name, [])]
        else:
            configs = choose_configs(candidates, required, self.args.max_configs_per_kernel)
        assignments = math.prod(len(t["candidates"]) for t in entry["tunables"])
        tiled = bool(order) and entry["candidates_total"] == assignments
        reference = default if default in launchable else choices["energy"]
        # Bad expressions fail here, before the per-config compiles.
        names = self.names(k, reference)
        for i, g in enumerate(k["grid"]):
            self.expr(k, f"grid[{i}]", g, names)
        self.expr(k, "dynamic_smem", k.get("dynamic_smem", "0"), names)
        self.buffers(k, names)
        return {"kernel": k, "report": report, "entry": entry, "order": order,
                "choices": choices, "default": default if default in launchable else None,
                "occupancy": occupancy if occupancy in launchable else None,
                "configs": configs, "tiled": tiled, "reference": reference}

    def names(self, k, config):
        block, tunables = config
        names = self.params(k)
        names.update(BLOCK_X=block[0], BLOCK_Y=block[1], BLOCK_Z=block[2])
        names.update(dict(tunables))
        return names

    def compile_configs(self, plans):
        tasks, slots = [], []
        for plan in plans:
            k = plan["kernel"]
            os.makedirs(os.path.join(self.out, "ptx", k["name"]), exist_ok=True)
            for config in plan["configs"]:
                block, tunables = config
                cid = f"{k['name']}/{config_name(block, dict(tunables))}"
                ptx = os.path.join(self.out, "ptx", cid + ".ptx")
                report = os.path.join(self.tmp, cid.replace("/", "__") + ".json")
                # The measured launch's grid (a bad one is reported in config_entry).
                names = self.names(k, config)
                grid = [self.expr(k, f"grid[{i}]", g, names) for i, g in enumerate(k["grid"])]
                options = [force_option(k["name"], block, dict(tunables),
                                        grid if all(g >= 1 for g in grid) else None,
                                        integer_arguments(k["args"], names)),
                           f"-energy-report={report}"] + self.workload_options(k)
                tasks.append(lambda k=k, cid=cid, ptx=ptx, options=options:
                             self.tools.compile(f"kernel '{k['name']}': config '{cid}'",
                                                k["source"], ptx, options))
                slots.append((plan, config, cid, report))
            if not plan["tiled"]:
                ptx = os.path.join(self.out, "ptx", k["name"], "baseline.ptx")
                tasks.append(lambda k=k, ptx=ptx: self.tools.compile(
                    f"kernel '{k['name']}': plugin-free baseline", k["source"], ptx,
                    plugin=False))
        run_all(self.args.jobs, tasks)
        entries = {}
        for plan, config, cid, report in slots:
            entries[cid] = self.config_entry(plan, config, cid, report)
        return entries

    def config_entry(self, plan, config, cid, report_path):
        k = plan["kernel"]
        what = f"kernel '{k['name']}': config '{cid}'"
        report, entry = read_report(what, report_path, k["name"])
        chosen = config_of(entry["choice"], plan["order"])
        if chosen != config:
            raise SweepError(f"{what}: the plugin applied {chosen}, not the forced config")
        names = self.names(k, config)
        inputs = entry["choice_model_inputs"]
        input_names = report["model_input_names"]
        if len(inputs) != len(input_names) or not all(
                isinstance(v, (int, float)) and math.isfinite(v) for v in inputs):
            raise SweepError(f"{what}: the plugin's model inputs are not "
                             f"{len(input_names)} finite numbers")
        if entry.get("model", "").startswith("analytic"):
            analytic = (entry["choice"]["time_s"], entry["choice"]["energy_j"])
        elif "analytic_ln_time" in input_names and "analytic_ln_energy" in input_names:
            analytic = (math.exp(inputs[input_names.index("analytic_ln_time")]),
                        math.exp(inputs[input_names.index("analytic_ln_energy")]))
        else:
            analytic = (None, None)
        grid = [self.expr(k, f"grid[{i}]", g, names) for i, g in enumerate(k["grid"])]
        if any(g < 1 for g in grid):
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': config '{cid}' has "
                             f"grid {grid}; every dimension must be positive")
        smem = self.expr(k, "dynamic_smem", k.get("dynamic_smem", "0"), names)
        if smem < 0:
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': dynamic_smem of "
                             f"config '{cid}' is negative ({smem})")
        assumed = entry["choice"].get("grid_blocks")
        launched = math.prod(grid)
        # (--small launches are small on purpose: only real sizes are checked.)
        if assumed and not self.args.small and not plan.get("warned") \
                and not 0.5 <= launched / assumed <= 2:
            plan["warned"] = True
            self.warn(f"kernel '{k['name']}': config '{cid}' launches {launched} blocks but "
                      f"the plugin assumed {assumed} (work items {entry.get('work_items')}); "
                      "give the kernel a corpus.json 'workload' (or ENERGY_WORKLOAD) so that "
                      "the model inputs describe the measured launch")
        return {"id": cid, "ptx": f"ptx/{cid}.ptx", "block": list(config[0]), "grid": grid,
                "dynamic_smem": smem, "tunables": dict(config[1]),
                "model_inputs": inputs, "analytic_time_s": analytic[0],
                "analytic_energy_j": analytic[1], "repeat": False,
                "_buffers": self.buffers(k, names), "_input_names": input_names}

    def buffers(self, k, names):
        out = []
        for b in k["buffers"]:
            count = self.expr(k, f"buffer '{b['name']}' count", b["count"], names)
            if count < 1:
                raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': buffer "
                                 f"'{b['name']}' has count {count}")
            try:
                init = evaluate_init(b["init"], names)
            except ValueError as e:
                raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': buffer "
                                 f"'{b['name']}': {e}") from None
            out.append({"name": b["name"], "type": b["type"], "count": count, "init": init,
                        "output": bool(b.get("output", False))})
        return out

    def args_of(self, k):
        out = []
        for a in k["args"]:
            if "buffer" in a:
                out.append({"buffer": a["buffer"]})
            elif "param" in a:
                out.append({"param": a["param"], "type": a["type"]})
            else:
                out.append({"value": a["value"], "type": a["type"]})
        return out

    def manifest(self, plans, entries):
        input_names = None
        kernels = []
        for plan in plans:
            k = plan["kernel"]
            name = k["name"]
            # The choices and baselines are named even where they are not compiled
            # (--configs-of: the configs of an earlier sweep).
            named = [*plan["configs"], *plan["choices"].values(), plan["reference"],
                     plan["default"], plan["occupancy"]]
            ids = {c: f"{name}/{config_name(c[0], dict(c[1]))}" for c in named
                   if c is not None}
            configs = [entries[ids[c]] for c in plan["configs"]]
            compiled = {c["id"] for c in configs}
            for c in configs:
                if input_names is None:
                    input_names = c["_input_names"]
                elif c["_input_names"] != input_names:
                    raise SweepError(f"kernel '{name}': the plugin's model_input_names differ "
                                     "between compiles")
            reference = ids[plan["reference"]]
            if reference not in compiled:
                reference = configs[0]["id"]
            default_entry = entries[reference]
            self.mark_repeats(name, configs, [cid for cid in (ids[plan["choices"]["energy"]],
                                                              reference) if cid in compiled])
            for c in configs:
                c["reference"] = c["id"] == reference
                if c["_buffers"] != default_entry["_buffers"]:
                    c["buffers"] = c["_buffers"]
            kernel = {
                "name": name, "entry": k["entry"], "params": self.params(k),
                "buffers": default_entry["_buffers"], "args": self.args_of(k),
                "tolerance": k["tolerance"],
                "choices": {o: ids[c] for o, c in plan["choices"].items()},
                "baseline": self.baseline(plan, ids),
                "configs": [{key: v for key, v in c.items() if not key.startswith("_")}
                            for c in configs]}
            if "workload" in k:
                kernel["workload"] = self.expr(k, "workload", k["workload"], self.params(k))
            kernels.append(kernel)
            print(f"{name}: {plan['entry']['candidates_total']} candidates, "
                  f"{len(configs)} configs", file=sys.stderr)
        return {
            "format": MANIFEST_FORMAT,
            "arch": self.args.arch,
            "created": datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%SZ"),
            "plugin": self.plugin_description(),
            "corpus": os.path.relpath(self.corpus_path, os.getcwd()),
            "small": bool(self.args.small),
            "seed": self.args.seed,
            "model_input_names": input_names,
            "kernels": kernels,
        }

    def baseline(self, plan, ids):
        out = {}
        if plan["default"] is not None:
            out["default_config"] = ids[plan["default"]]
        if plan["occupancy"] is not None:
            out["occupancy_config"] = ids[plan["occupancy"]]
        if not plan["tiled"]:
            k = plan["kernel"]
            out["ptx"] = f"ptx/{k['name']}/baseline.ptx"
            default = plan["default"] or plan["reference"]
            table = []
            for threads in OCCUPANCY_BLOCKS:
                names = self.names(k, ((threads, 1, 1), default[1]))
                table.append([threads, self.expr(k, "dynamic_smem",
                                                 k.get("dynamic_smem", "0"), names)])
            out["dynamic_smem_by_threads"] = table
        return out

    def mark_repeats(self, name, configs, first):
        """--repeat-fraction of the configs, the plugin's choice and the default first."""
        count = math.ceil(self.args.repeat_fraction * len(configs))
        if count <= 0:
            return
        chosen = [cid for cid in dict.fromkeys(first)][:count]
        rest = sorted(c["id"] for c in configs if c["id"] not in chosen)
        rng = random.Random(f"{self.args.seed}/{name}")
        chosen += rng.sample(rest, min(len(rest), count - len(chosen)))
        for c in configs:
            c["repeat"] = c["id"] in chosen

    def plugin_description(self):
        version = "?"
        try:
            with open(os.path.join(REPO, "CMakeLists.txt"), encoding="utf-8") as f:
                m = re.search(r"project\(energy VERSION ([0-9.]+)", f.read())
                version = m.group(1) if m else version
        except OSError:
            pass
        with open(self.tools.plugin, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:12]
        return f"energy.so {version} (sha256 {digest})"

    def write_tar(self):
        path = self.out.rstrip("/") + ".tar.gz"
        with tarfile.open(path, "w:gz") as tar:
            tar.add(self.out, arcname=os.path.basename(self.out.rstrip("/")))
        size = os.path.getsize(path)
        if size >= TAR_LIMIT:
            raise SweepError(f"{path}: {size / 2**20:.1f} MiB, over the 64 MiB limit "
                             "(use --max-configs-per-kernel)")
        return f"wrote {path}: {size / 2**20:.2f} MiB"
