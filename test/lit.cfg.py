# lit configuration for the energy plugin's regression tests.
#
# Substitutions:
#   %opt %llc %clang %mlir-opt   the LLVM 19 tools
#   %energy                      path of energy.so
#   %loadenergy                  -load-pass-plugin=<energy.so> (for opt)
#   %cudaflags                   clang-19 device-only CUDA 13 flags + our headers
#   %cccl                        CUDA's CCCL include directory, in C++17
#   %shared_repro                ../shared/repro (feature "shared-repro" when present)
#   %clangplugin                 -fplugin=<energy.so> -fpass-plugin=<energy.so>
#   energy-features ...          the project's tools are on PATH
#   %python                      /usr/bin/python3 with Debian's packages
#   %cuda_path                   the CUDA 13 root (its CCCL headers: Thrust, CUB)
#   %nvcc                        its nvcc (feature "nvcc" when present)
#   %ptxas                       its ptxas (feature "ptxas" when present)
#   %energy_cuda                 the energy-cuda driver of this build
#   %host_cxx                    the C++ compiler that built the project (host-only .cpp files)
import os
import lit.formats

config.name = "energy"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".ll", ".cu", ".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.energy_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.energy_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["PYTHONPATH"] = os.path.join(config.energy_src_root, "python")

# The CUDA 13 compatibility flags come from cmake/EnergyCudaCompat.cmake, the
# list energy-cuda and the tools use (test/Tools/compat-flags-agree.test).
include = os.path.join(config.energy_src_root, "include")
cudaflags = ("-x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path={} {} -I {}").format(
    config.cuda_path, " ".join(config.cuda_compat_flags), include)

subs = [
    # Before %energy, a prefix of it.
    ("%energy_cuda", os.path.join(config.energy_tools_dir, "energy-cuda")),
    ("%opt", os.path.join(config.llvm_tools_dir, "opt")),
    ("%llc", os.path.join(config.llvm_tools_dir, "llc")),
    ("%mlir-opt", os.path.join(config.llvm_tools_dir, "mlir-opt")),
    ("%clangplugin", "-fplugin={0} -fpass-plugin={0}".format(config.energy_plugin)),
    ("%clang", config.clang),
    ("%cudaflags", cudaflags),
    # CUDA's CCCL headers (CUB, Thrust, cooperative groups) for a device
    # compile, which they need in C++17 (as energy.sweep compiles every
    # corpus kernel).
    ("%cccl", "-isystem {} -std=c++17".format(
        os.path.join(config.cuda_path, "include", "cccl"))),
    ("%loadenergy", "-load-pass-plugin=" + config.energy_plugin),
    ("%energy-mlir", config.mlir_plugin),
    ("%energy", config.energy_plugin),
    ("%python", config.python),
    ("%srcroot", config.energy_src_root),
    ("%cuda_path", config.cuda_path),
    ("%nvcc", os.path.join(config.cuda_path, "bin", "nvcc")),
    ("%ptxas", os.path.join(config.cuda_path, "bin", "ptxas")),
    ("%host_cxx", config.host_cxx),
]
config.substitutions.extend(subs)

# The shared reproducers (../shared/repro beside the checkout); tests that
# need them are unsupported, so reported as skipped, where they are absent.
shared_repro = os.path.join(os.path.dirname(config.energy_src_root), "shared", "repro")
if os.path.isdir(shared_repro):
    config.available_features.add("shared-repro")
    config.substitutions.append(("%shared_repro", shared_repro))

if config.mlir_plugin and os.path.exists(config.mlir_plugin):
    config.available_features.add("mlir")
# -debug-only and -stats exist only in an LLVM built with assertions (the
# plugin is then built without NDEBUG too); Debian's is not.
if config.llvm_assertions.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asserts")
if os.access(os.path.join(config.cuda_path, "bin", "nvcc"), os.X_OK):
    config.available_features.add("nvcc")
# CUDA's assembler, for tests that compare the plugin's register counts with
# its own.
if os.access(os.path.join(config.cuda_path, "bin", "ptxas"), os.X_OK):
    config.available_features.add("ptxas")
