#!/bin/bash
# Compile time of the plugin's passes, writing a small Markdown report:
#  1. print<energy-features> on one 40k-instruction kernel with many blocks
#     (llvm-stress -seed=7 -size=40000, as /work/shared/repro/big-function.sh)
#     against opt parsing and verifying it;
#  2. opt -O2 on unoptimized device IR (clang -O0 -Xclang -disable-O0-optnone)
#     of the example, the test kernels and the corpus, with and without the
#     plugin (default options: energy-optimize runs at the pipeline start and
#     advises on every kernel), alternating; per file the median of the
#     repeats, then the median and the sum of the added times.
# usage: tools/bench/compile-time.sh [-p PLUGIN] [-r REPEATS] [-o REPORT.md]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PLUGIN=$ROOT/build/lib/energy.so
REPEATS=7
REPORT=/dev/stdout
while getopts p:r:o: Opt; do
  case $Opt in
  p) PLUGIN=$OPTARG ;;
  r) REPEATS=$OPTARG ;;
  o) REPORT=$OPTARG ;;
  *) echo "usage: $0 [-p PLUGIN] [-r REPEATS] [-o REPORT.md]" >&2; exit 1 ;;
  esac
done
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-19/bin}
CUDA=${CUDA:-/usr/local/cuda}
if [ ! -f "$PLUGIN" ]; then
  echo "error: plugin not found: $PLUGIN" >&2
  exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Milliseconds one run of "$@" takes; its output is dropped.
ms() {
  local Start End
  Start=$(date +%s%N)
  "$@" > /dev/null 2>&1 || { echo "error: failed: $*" >&2; exit 1; }
  End=$(date +%s%N)
  echo $(((End - Start) / 1000000))
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

{ echo 'target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"'
  echo 'target triple = "nvptx64-nvidia-cuda"'
  "$LLVM_BIN/llvm-stress" -seed=7 -size=40000 | grep -v '^; ModuleID\|^source_filename'
  echo '!nvvm.annotations = !{!0}'
  echo '!0 = !{ptr @autogen_SD7, !"kernel", i32 1}'; } > "$TMP/big.ll"
Plain=() Features=()
for _ in $(seq "$REPEATS"); do
  Plain+=("$(ms "$LLVM_BIN/opt" -passes=verify -disable-output "$TMP/big.ll")")
  Features+=("$(ms "$LLVM_BIN/opt" -load-pass-plugin="$PLUGIN" \
    -passes='print<energy-features>' -disable-output "$TMP/big.ll")")
done
PeakKB=$(/usr/bin/time -f %M "$LLVM_BIN/opt" -load-pass-plugin="$PLUGIN" \
  -passes='print<energy-features>' -disable-output "$TMP/big.ll" 2>&1 >/dev/null | tail -1)

Rows=() Added=() AddedPermille=()
SumWithout=0 SumWith=0
for Src in "$ROOT"/tools/example/*.cu "$ROOT"/test/Transform/Inputs/kernels.cu \
           "$ROOT"/test/CUDA/*.cu "$ROOT"/tools/energy-bench/corpus/*.cu; do
  IR=$TMP/$(basename "$Src" .cu).ll
  "$LLVM_BIN/clang" -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 \
    --cuda-path="$CUDA" -isystem "$ROOT/include/energy/cuda-compat" \
    -isystem "$CUDA/include/cccl" -std=c++17 \
    -I "$ROOT/include" -Wno-unknown-cuda-version -w -O0 -Xclang \
    -disable-O0-optnone -emit-llvm -S "$Src" -o "$IR"
  Without=() With=()
  for _ in $(seq "$REPEATS"); do
    Without+=("$(ms "$LLVM_BIN/opt" -O2 -disable-output "$IR")")
    With+=("$(ms "$LLVM_BIN/opt" -load-pass-plugin="$PLUGIN" -O2 -disable-output "$IR")")
  done
  W=$(median "${Without[@]}") P=$(median "${With[@]}")
  Rows+=("| ${Src#"$ROOT"/} | $W | $P | $((P - W)) |")
  Added+=($((P - W)))
  AddedPermille+=($(((P - W) * 1000 / W)))
  SumWithout=$((SumWithout + W)) SumWith=$((SumWith + P))
done

{
  echo "# Compile time of the energy plugin"
  echo
  echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, median of $REPEATS runs, milliseconds."
  echo
  echo "## print<energy-features> on the 40k-instruction kernel"
  echo
  echo "| opt -passes=verify | print<energy-features> | peak memory |"
  echo "|---|---|---|"
  echo "| $(median "${Plain[@]}") ms | $(median "${Features[@]}") ms | $((PeakKB / 1024)) MB |"
  echo
  echo "## opt -O2 on device IR, without and with the plugin"
  echo
  echo "| file | without | with | added |"
  echo "|---|---|---|---|"
  printf '%s\n' "${Rows[@]}"
  echo "| total (${#Rows[@]} files) | $SumWithout | $SumWith | $((SumWith - SumWithout)) |"
  echo
  echo "Median added time per file: $(median "${Added[@]}") ms;" \
    "relative to the file's own time: $(median "${AddedPermille[@]}") per mille."
} > "$REPORT"
