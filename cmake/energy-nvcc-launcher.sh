#!/usr/bin/env bash
# The CUDA_COMPILER_LAUNCHER energy_tune_target gives a target nvcc compiles
# (cmake/EnergyNvccPlan.cmake): before nvcc compiles a .cu, energy-cuda plans
# it with the energy plugin from the same command line (the target's include
# directories, definitions, standard, architectures and options, transitive
# ones included, as CMake wrote them), writing the choices header
# <object>.choices.h; nvcc then compiles with -DENERGY_CHOICES naming it.
# Planning inside the object's own build step means every input of the
# object (the source, each header in nvcc's depfile) re-plans it.
#
# Usage: energy-nvcc-launcher.sh <energy-cuda> <nvcc> [--energy-*...]
#          [--plan-only=<source>...] -- [launcher...] <nvcc> <nvcc arguments...>
# With --plan-only (energy_nvcc_plan's SOURCES), a compile of any other
# source runs unplanned.
set -eu
driver=$1 nvcc=$2
shift 2
options=() only=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case "$1" in
    --plan-only=*) only+=("${1#--plan-only=}") ;;
    *) options+=("$1") ;;
  esac
  shift
done
[ $# -gt 0 ] || { echo "energy-nvcc-launcher: error: no -- before the compile command" >&2; exit 2; }
shift
command=("$@")
if [ ${#only[@]} -gt 0 ]; then
  planned=0
  for a in "${command[@]}"; do
    case "$a" in /*) ;; *) a=$PWD/$a ;; esac
    for s in "${only[@]}"; do [ "$a" != "$s" ] || planned=1; done
  done
  [ "$planned" = 1 ] || exec "${command[@]}"
fi

# nvcc's arguments follow its path (after any launcher of the project's own,
# e.g. ccache).
at=-1
for ((i = 0; i < ${#command[@]}; i++)); do
  if [ "${command[$i]}" = "$nvcc" ]; then at=$i; break; fi
done
[ "$at" -ge 0 ] || { echo "energy-nvcc-launcher: error: the compile command does not run $nvcc" >&2; exit 2; }

# The plan: nvcc's command line without what names the object's outputs
# (energy-cuda writes its own), nor CMake's -forward-unknown-to-host-compiler
# (energy-cuda passes what it does not know to clang), with the options files
# CMake's Makefiles write the include directories to read in (xargs splits
# and unquotes as nvcc does).
plan=() object=
for ((i = at + 1; i < ${#command[@]}; i++)); do
  a=${command[$i]}
  case "$a" in
    -forward-unknown-to-host-compiler|--forward-unknown-to-host-compiler|-MD) ;;
    -MT|-MF) i=$((i + 1)) ;;
    -o) i=$((i + 1)); object=${command[$i]} ;;
    -optf|--options-file|-optf=*|--options-file=*)
      if [[ "$a" == *=* ]]; then file=${a#*=}; else i=$((i + 1)); file=${command[$i]}; fi
      mapfile -t words < <(xargs printf '%s\n' < "$file")
      plan+=("${words[@]}") ;;
    *) plan+=("$a") ;;
  esac
done
[ -n "$object" ] || { echo "energy-nvcc-launcher: error: no -o in the compile command" >&2; exit 2; }
case "$object" in /*) ;; *) object=$PWD/$object ;; esac
header=$object.choices.h
status=0
"$driver" --no-summary "--energy-header=$header" "--energy-nvcc=$nvcc" "${options[@]}" \
  "${plan[@]}" -o "$object.plan.o" || status=$?
if [ "$status" != 0 ]; then
  echo "energy-nvcc-launcher: error: energy-cuda could not plan $object (above); nvcc did not run (energy_tune_target, docs/cmake.md)" >&2
  exit "$status"
fi
exec "${command[@]}" "-DENERGY_CHOICES=\"$header\""
