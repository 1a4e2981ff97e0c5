#!/usr/bin/env bash
# The CMake package from a separate project, found in the build tree
# (energy_DIR=<build>) and in an install (cmake --install): find_package,
# energy_add_cuda_executable (the plugin ran: its report; a header the source
# includes is a dependency: touching it rebuilds that program and nothing
# else) and, when nvcc is found, energy_tune_target's one line on an existing
# project (docs/cmake.md): a static library with the kernel (.cu), an
# executable with host C++ (.cpp) reading its choices, the library's include
# directories, definitions and standard from another library it links; the
# plan's header follows a header the kernel includes; a clang CUDA target's
# compiles get the plugin and energy-cuda's CUDA 13 compatibility.
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
cat > "$work/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app LANGUAGES CXX)
find_package(energy CONFIG REQUIRED)
message(STATUS "energy plugin: \${ENERGY_PLUGIN}")
energy_add_cuda_executable(example "$src/tools/example/energy_example.cu"
  OPTIONS --energy-report=\${CMAKE_BINARY_DIR}/report.json)
energy_add_cuda_executable(scale scale.cu)

CMAKE

# check <name> <cmake args...>: configure and build the app, then the checks.
check() {
  local name=$1 app=$work/build-$1
  shift
  cmake -S "$work/app" -B "$app" -G Ninja "$@" > "$work/$name.configure.log"
  grep -q "energy plugin: $plugin" "$work/$name.configure.log"
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

if [ ! -x "$nvcc" ]; then
  echo "downstream build ok (no nvcc: energy_tune_target not checked)"
  exit 0
fi

# An existing CUDA project: the kernel in a static library, host C++ in the
# executable; the library's include directory and definition come from an
# interface library it links, its standard from CUDA_STANDARD. One line
# adopts it.
mkdir -p "$work/proj/kern/params"
cat > "$work/proj/kern/params/params.h" <<'H'
// The tunable's default and candidates: editing this re-plans kern.cu.
#define ITEMS_DEFAULT 1
#define ITEMS_CANDIDATES 1
H
cat > "$work/proj/kern/kern.cu" <<'CU'
// The library's kernel: its tunable comes from params.h (an include
// directory of the interface library kern links), SCALE from that library's
// definitions, and the target's CUDA_STANDARD (14) reaches every compile.
#include <energy/energy.cuh>
#include "params.h"
#if __cplusplus != 201402L
#error "kern.cu: compiled without the target's CUDA_STANDARD 14"
#endif
ENERGY_TUNABLE_PER_THREAD(ITEMS, ITEMS_DEFAULT, ITEMS_CANDIDATES);
ENERGY_WORKLOAD(scale, 1 << 24);
ENERGY_KERNEL(scale) void scale(int n, float *x) {
  const int items = ENERGY_VALUE(ITEMS);
  int first = (blockIdx.x * blockDim.x + threadIdx.x) * items;
  for (int i = first; i < first + items && i < n; ++i)
    x[i] *= SCALE;
}
void launch_scale(int n, float *x, dim3 grid, dim3 block) {
  scale<<<grid, block>>>(n, x);
}
CU
cp "$work/proj/kern/kern.cu" "$work/proj/kern/clang.cu"
cat > "$work/proj/main.cpp" <<'CPP'
// Host C++, compiled by the project's C++ compiler: reads the choices of
// the library's kernel and launches it through the library's wrapper.
#include <energy/energy.cuh>
#include <cstdio>
ENERGY_KERNEL_EXTERN(scale);
ENERGY_TUNABLE_EXTERN(ITEMS);
void launch_scale(int n, float *x, dim3 grid, dim3 block);
int main() {
  int n = 1 << 20;
  float *x = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  dim3 block = ENERGY_BLOCK_DIM(scale);
  int items = ENERGY_HOST_VALUE(ITEMS);
  unsigned per_block = block.x * items;
  launch_scale(n, x, dim3((n + per_block - 1) / per_block), block);
  std::printf("block %u, items %d\n", block.x, items);
  return cudaDeviceSynchronize() != cudaSuccess;
}
CPP
cat > "$work/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(proj LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
add_library(params INTERFACE)
target_include_directories(params INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/kern/params)
target_compile_definitions(params INTERFACE SCALE=2.0f)
add_library(kern STATIC kern/kern.cu)
target_link_libraries(kern PUBLIC params)
set_target_properties(kern PROPERTIES CUDA_STANDARD 14 CUDA_STANDARD_REQUIRED ON
                                      CUDA_ARCHITECTURES 90)
add_executable(app main.cpp)
target_link_libraries(app PRIVATE kern CUDA::cudart_static)

find_package(energy CONFIG REQUIRED)
energy_tune_target(kern OBJECTIVE time)

# CMake cannot take clang as the CUDA compiler against CUDA 13 (its compiler
# checks need the fatbinary step clang 19 lacks for it): what
# energy_tune_target gives a clang CUDA target is read from the target.
set(CMAKE_CUDA_COMPILER_ID Clang)
add_library(clangk STATIC EXCLUDE_FROM_ALL kern/clang.cu)
target_link_libraries(clangk PUBLIC params)
energy_tune_target(clangk BOARD rtx-a4000 OPTIONS --energy-min-gain=0.05)
get_target_property(options clangk COMPILE_OPTIONS)
get_target_property(links clangk INTERFACE_LINK_LIBRARIES)
message(STATUS "clangk: ${options} | ${links}")
unset(CMAKE_CUDA_COMPILER_ID)
CMAKE

choices=CMakeFiles/kern.dir/kern/kern.cu.o.choices.h
# tune <name> <cmake args...>: configure and build the project, then the
# checks.
tune() {
  local name=$1 app=$work/tune-$1
  shift
  cp "$work/proj/kern/params/params.h" "$work/params.h.orig"
  cmake -S "$work/proj" -B "$app" -G Ninja -DCMAKE_CUDA_COMPILER="$nvcc" "$@" \
    > "$work/$name.configure.log"
  # The clang route: the plugin, each option, energy-cuda's CUDA 13
  # compatibility (its shims, nvcc's host min/max, CCCL, the version warning
  # off: cmake/EnergyCudaCompat.cmake), energy::headers
  # for the target and its users.
  local cuda_root
  cuda_root=$(cd "$(dirname "$nvcc")/.." && pwd)
  grep -qF "clangk: \$<\$<COMPILE_LANGUAGE:CUDA>:-fplugin=$plugin;-fpass-plugin=$plugin;SHELL:-mllvm -energy-min-gain=0.05;SHELL:-mllvm -energy-gpu=rtx-a4000;SHELL:-isystem $include/energy/cuda-compat -include $include/energy/cuda-compat/energy_host_min_max.h -isystem $cuda_root/include/cccl -Wno-unknown-cuda-version> | params;energy::headers" \
    "$work/$name.configure.log"
  cmake --build "$app" -v > "$work/$name.build.log"
  # The nvcc route: the plan ran before nvcc, which read its header.
  grep -q "energy-nvcc-launcher.sh .*energy-cuda .*--energy-objective=time -- $nvcc .*kern.cu" \
    "$work/$name.build.log"
  grep -q "ENERGY_CHOICE_KERNEL_scale ~, (256," "$app/$choices"
  grep -q "ENERGY_CHOICE_TUNABLE_ITEMS ~, 1$" "$app/$choices"
  ninja -C "$app" -t deps CMakeFiles/kern.dir/kern/kern.cu.o > "$work/$name.deps"
  grep -q "$choices" "$work/$name.deps"
  test -x "$app/app"
  ninja -C "$app" > "$work/$name.noop.log"
  grep -q "no work to do" "$work/$name.noop.log"
  # A header the kernel includes changes the tunable: the library is planned
  # and built again with the new header, the program relinked, the host
  # C++ left alone.
  sed -i 's/ITEMS_DEFAULT 1/ITEMS_DEFAULT 2/; s/ITEMS_CANDIDATES 1/ITEMS_CANDIDATES 2/' \
    "$work/proj/kern/params/params.h"
  ninja -C "$app" > "$work/$name.replan.log"
  grep -q "Building CUDA object CMakeFiles/kern.dir/kern/kern.cu.o" "$work/$name.replan.log"
  grep -q "Linking CXX executable app" "$work/$name.replan.log"
  if grep -q "main.cpp.o" "$work/$name.replan.log"; then
    echo "$name: editing params.h recompiles main.cpp" >&2
    return 1
  fi
  grep -q "ENERGY_CHOICE_TUNABLE_ITEMS ~, 2$" "$app/$choices"
  cp "$work/params.h.orig" "$work/proj/kern/params/params.h"
  echo "tune $name: ok"
}
plugin=$build/lib/energy.so include=$src/include
tune build-tree -Denergy_DIR="$build"
plugin=$work/prefix/lib/energy.so include=$work/prefix/include
tune install-tree -DCMAKE_PREFIX_PATH="$work/prefix"
echo "downstream build ok"
