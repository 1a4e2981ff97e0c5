#!/usr/bin/env bash
# Installs everything the project needs on Debian 12 (run as root).
# CUDA 13.0 is expected at /usr/local/cuda already (it is not a Debian package).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
  cmake ninja-build g++ \
  llvm-19-dev llvm-19-tools clang-19 libclang-19-dev libclang-rt-19-dev \
  libmlir-19-dev mlir-19-tools \
  libxgboost-dev python3-xgboost xgboost \
  python3 python3-numpy python3-scipy python3-pandas python3-matplotlib python3-jsonschema \
  libgtest-dev nlohmann-json3-dev
if [ ! -x /usr/local/cuda/bin/ptxas ]; then
  echo "error: CUDA 13 not found at /usr/local/cuda (needed for CUDA headers and ptxas)" >&2
  exit 1
fi
