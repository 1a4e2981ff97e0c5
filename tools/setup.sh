#!/usr/bin/env bash
# Installs the dependencies (Debian 12, as root), configures and builds into
# build/. Shared by tools/quickstart.sh and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
