#!/usr/bin/env bash
# The main job on the bundled example: set everything up, compile a real CUDA
# program (a tiled SGEMM and a SAXPY) with the energy plugin through the
# CUDA 13 split build, and show each kernel's choice and Pareto front.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
out=build/example
mkdir -p "$out"
echo "== compiling tools/example/energy_example.cu with energy.so"
build/bin/energy-cuda --energy-report="$out/report.json" \
  tools/example/energy_example.cu -o "$out/energy_example"
echo "== built $out/energy_example (runs on an NVIDIA GPU); the plugin's choices:"
PYTHONPATH=python /usr/bin/python3 -m energy.report "$out/report.json" --plot "$out"
