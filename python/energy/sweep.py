"""Make a sweep: one PTX per candidate launch configuration of every corpus kernel.

    /usr/bin/python3 -m energy.sweep --corpus tools/energy-bench/corpus \\
        --plugin build/lib/energy.so -o sweep [--arch sm_90] [--kernels a,b] \\
        [--max-configs-per-kernel N] [--repeat-fraction 0.2] [--seed S] [--small] [--tar]

For each kernel of corpus.json (docs/bench-format.md) this

1. compiles its source with the plugin three times (objectives energy, time and edp),
   each with -energy-report, to learn the candidate configurations (block shape and
   tunables; pruned ones are left out) and the config the plugin chooses per objective;
2. picks the configs to measure: all candidates, or an even subsample of at most
   --max-configs-per-kernel, always with the plugin's three choices, the default config
   (the kernel's default block, usually 256 threads, with default tunables), the largest
   block, and the plugin's occupancy-heuristic pick;
3. compiles one PTX per config with -energy-force-config (block, tunables, the grid
   the runner launches and its integer arguments, so that its model inputs describe the
   measured launch), whose
   report gives that config's model inputs and analytic prediction, plus (for kernels whose block shape
   the tunables do not fix) one plugin-free PTX for cuOccupancyMaxPotentialBlockSize;
4. evaluates the corpus expressions (grid, dynamic shared memory, buffer counts) per
   config, marks --repeat-fraction of the configs `repeat` and the default config as the
   drift `reference`, and writes OUTDIR/manifest.json and OUTDIR/ptx/.

The GPU runner tools/energy-bench measures the manifest. Compiles run at most --jobs (2)
at a time. --small uses each kernel's small_params (for tests without a GPU).
corpus.json may give a kernel a `workload` expression: the work items per launch the
plugin's cost model assumes (-energy-workload); without it the plugin uses the source's
ENERGY_WORKLOAD (or 2^24), and a launch whose grid differs is warned about.
"""

import argparse
import os
import re
import sys

from energy.sweep_build import REPO, Sweep
from energy.sweep_error import SweepError

DEFAULT_CLANG = "/usr/lib/llvm-19/bin/clang++"
DEFAULT_CUDA = "/usr/local/cuda"


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.sweep",
        description="Compile one PTX per candidate config of every corpus kernel and "
                    "write the manifest the GPU runner (energy-bench) measures.")
    parser.add_argument("--corpus", required=True, help="folder with corpus.json")
    parser.add_argument("--plugin", default=os.environ.get(
        "ENERGY_PLUGIN", os.path.join(REPO, "build", "lib", "energy.so")),
        help="energy.so (default: $ENERGY_PLUGIN or build/lib/energy.so)")
    parser.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                        help="folder for manifest.json and ptx/")
    parser.add_argument("--arch", default="sm_90", help="GPU architecture (default sm_90)")
    parser.add_argument("--kernels", help="comma-separated kernel names (default: all)")
    parser.add_argument("--max-configs-per-kernel", type=int, metavar="N",
                        help="measure at most N configs per kernel (plus required ones "
                             "beyond N): an even subsample of the candidates")
    parser.add_argument("--configs-of", metavar="MANIFEST",
                        help="compile the configs of this earlier manifest instead of a "
                             "subsample (to score its measurements with this plugin: "
                             "energy.oracle, energy.bench_rows)")
    parser.add_argument("--repeat-fraction", type=float, default=0.2,
                        help="fraction of each kernel's configs measured twice (default 0.2, as "
                             "energy-bench's --repeat-fraction)")
    parser.add_argument("--seed", type=int, default=0, help="random seed for repeats")
    parser.add_argument("--small", action="store_true",
                        help="use each kernel's small_params (tests, --check-references)")
    parser.add_argument("--tar", action="store_true", help="also write OUTDIR.tar.gz")
    parser.add_argument("--jobs", type=int, default=2, help="parallel compiles (default 2)")
    parser.add_argument("--clang", default=os.environ.get("ENERGY_CLANG", DEFAULT_CLANG),
                        help=f"clang++ 19 (default {DEFAULT_CLANG})")
    parser.add_argument("--cuda-path", default=DEFAULT_CUDA, help="CUDA root")
    parser.add_argument("--include", default=os.path.join(REPO, "include"),
                        help="folder with energy/energy.cuh (default: the repository's)")
    args = parser.parse_args(argv)
    if args.max_configs_per_kernel is not None and args.max_configs_per_kernel < 1:
        parser.error("--max-configs-per-kernel must be at least 1")
    if not 0 <= args.repeat_fraction <= 1:
        parser.error("--repeat-fraction must be between 0 and 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if not re.fullmatch(r"sm_[0-9]+[a-z]?", args.arch):
        parser.error(f"--arch '{args.arch}' is not sm_XX")
    try:
        lines = Sweep(args).run()
    except SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
