#!/usr/bin/env bash
# The CMake package from a separate project, found in the build tree
# (energy_DIR=<build>) and in an install (cmake --install): find_package,
# energy_add_cuda_executable (the plugin ran: its report; a header the source
# includes is a dependency: touching it rebuilds that program and nothing
# else), energy_tune_target (a clang CUDA target's compile gets the plugin;
# an nvcc target is an error that says why) and energy::headers (an nvcc
# target includes <energy/energy.cuh>; checked when nvcc is found).
# Usage: downstream.sh <build-dir> <source-dir>
set -eEuo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'echo "downstream.sh: line $LINENO failed (logs in the work directory)" >&2' ERR
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}

mkdir "$work/app"
cat > "$work/app/scale.h" <<'CU'
#define SCALE 2.0f
CU
cat > "$work/app/scale.cu" <<'CU'
#include <energy/energy.cuh>
#include "scale.h"
ENERGY_KERNEL(scale) void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= SCALE;
}
int main() {
  dim3 block = ENERGY_BLOCK_DIM(scale);
  scale<<<1, block>>>(0, nullptr);
  return 0;
}
CU
cp "$work/app/scale.cu" "$work/app/nv.cu"
echo 'int tuned_stub() { return 0; }' > "$work/app/stub.cpp"
cat > "$work/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app LANGUAGES CXX)
find_package(energy CONFIG REQUIRED)
message(STATUS "energy plugin: \${ENERGY_PLUGIN}")
energy_add_cuda_executable(example "$src/tools/example/energy_example.cu"
  OPTIONS --energy-report=\${CMAKE_BINARY_DIR}/report.json)
energy_add_cuda_executable(scale scale.cu)

# CMake cannot take clang as the CUDA compiler against CUDA 13 (its compiler
# checks need the fatbinary step clang 19 lacks for it): what
# energy_tune_target gives a clang CUDA target is read from the target.
set(CMAKE_CUDA_COMPILER_ID Clang)
add_library(tuned STATIC stub.cpp)
energy_tune_target(tuned OPTIONS --energy-objective=time)
get_target_property(options tuned COMPILE_OPTIONS)
get_target_property(includes tuned INCLUDE_DIRECTORIES)
get_target_property(links tuned LINK_LIBRARIES)
message(STATUS "tuned: \${options} | \${includes} | \${links}")
unset(CMAKE_CUDA_COMPILER_ID)

if(APP_NVCC)
  enable_language(CUDA)
  add_executable(nv nv.cu)
  set_target_properties(nv PROPERTIES CUDA_ARCHITECTURES 90)
  target_link_libraries(nv PRIVATE energy::headers)
  if(APP_NVCC_TUNE)
    energy_tune_target(nv)
  endif()
endif()
CMAKE

# check <name> <cmake args...>: configure and build the app, then the checks.
check() {
  local name=$1 app=$work/build-$1
  shift
  cmake -S "$work/app" -B "$app" -G Ninja "$@" > "$work/$name.configure.log"
  grep -q "energy plugin: $plugin" "$work/$name.configure.log"
  grep -q "tuned: .*COMPILE_LANGUAGE:CUDA>:-fplugin=$plugin;-fpass-plugin=$plugin;SHELL:-mllvm -energy-objective=time>" \
    "$work/$name.configure.log"
  grep -q "tuned: .*| .*COMPILE_LANGUAGE:CUDA>:$include/energy/cuda-compat>.* | .*energy::headers" \
    "$work/$name.configure.log"
  cmake --build "$app" > "$work/$name.build.log"
  test -x "$app/bin/example"
  test -x "$app/bin/scale"
  grep -q '"format": "energy-report-v1"' "$app/report.json"
  grep -q '"kernel": "sgemm"' "$app/report.json"
  # The header scale.cu includes is a dependency of scale alone.
  ninja -C "$app" -n > "$work/$name.noop.log"
  grep -q "no work to do" "$work/$name.noop.log"
  touch "$work/app/scale.h"
  ninja -C "$app" -n > "$work/$name.touched.log"
  grep -q "energy-cuda scale" "$work/$name.touched.log"
  if grep -q "energy-cuda example" "$work/$name.touched.log"; then
    echo "$name: touching scale.h rebuilds example" >&2
    return 1
  fi
  cmake --build "$app" > "$work/$name.rebuild.log"
  echo "$name: ok"
}

plugin=$build/lib/energy.so include=$src/include
check build-tree -Denergy_DIR="$build"
plugin=$work/prefix/lib/energy.so include=$work/prefix/include
check install-tree -DCMAKE_PREFIX_PATH="$work/prefix"

if [ -x "$nvcc" ]; then
  app=$work/build-nvcc
  if cmake -S "$work/app" -B "$app" -G Ninja -Denergy_DIR="$build" \
       -DAPP_NVCC=ON -DAPP_NVCC_TUNE=ON -DCMAKE_CUDA_COMPILER="$nvcc" \
       > "$work/nvcc-tune.log" 2>&1; then
    echo "energy_tune_target accepted an nvcc target" >&2
    exit 1
  fi
  # CMake wraps the message: one line of it, spaces squeezed.
  tr -s '\n ' '  ' < "$work/nvcc-tune.log" |
    grep -q "energy_tune_target: target 'nv': its CUDA compiler is nvcc, which cannot load the energy pass plugin"
  cmake -S "$work/app" -B "$app" -DAPP_NVCC_TUNE=OFF > "$work/nvcc.log"
  cmake --build "$app" --target nv > "$work/nvcc.build.log"
  echo "nvcc: ok"
fi
echo "downstream build ok"
