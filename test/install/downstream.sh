#!/usr/bin/env bash
# Installs the project into a fresh prefix, then builds the bundled example
# from a separate CMake project through find_package(energy) and
# energy_add_cuda_executable, and checks the plugin ran (its report).
# Usage: downstream.sh <build-dir> <source-dir>
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
mkdir "$work/app"
cat > "$work/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app LANGUAGES CXX)
find_package(energy CONFIG REQUIRED)
message(STATUS "energy plugin: \${ENERGY_PLUGIN}")
energy_add_cuda_executable(example "$src/tools/example/energy_example.cu"
  OPTIONS --energy-report=\${CMAKE_BINARY_DIR}/report.json)
CMAKE
cmake -S "$work/app" -B "$work/app/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  > "$work/configure.log"
grep "energy plugin: $work/prefix/lib/energy.so" "$work/configure.log"
cmake --build "$work/app/build" > "$work/build.log"
test -x "$work/app/build/bin/example"
grep -q '"format": "energy-report-v1"' "$work/app/build/report.json"
grep -q '"kernel": "sgemm"' "$work/app/build/report.json"
echo "downstream build ok"
