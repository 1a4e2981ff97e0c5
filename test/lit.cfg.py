# lit configuration for the energy plugin's regression tests.
#
# Substitutions:
#   %opt %llc %clang %mlir-opt   the LLVM 19 tools
#   %energy                      path of energy.so
#   %loadenergy                  -load-pass-plugin=<energy.so> (for opt)
#   %cudaflags                   clang-19 device-only CUDA 13 flags + our headers
#   %clangplugin                 -fplugin=<energy.so> -fpass-plugin=<energy.so>
#   energy-features ...          the project's tools are on PATH
#   %python                      /usr/bin/python3 with Debian's packages
#   %cuda_path                   the CUDA 13 root (its CCCL headers: Thrust, CUB)
#   %nvcc                        its nvcc (feature "nvcc" when present)
#   %energy_cuda                 the energy-cuda driver of this build
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

compat = os.path.join(config.energy_src_root, "include", "energy", "cuda-compat")
include = os.path.join(config.energy_src_root, "include")
cudaflags = ("-x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path={} "
             "-isystem {} -I {} -Wno-unknown-cuda-version").format(config.cuda_path, compat, include)

subs = [
    # Before %energy, a prefix of it.
    ("%energy_cuda", os.path.join(config.energy_tools_dir, "energy-cuda")),
    ("%opt", os.path.join(config.llvm_tools_dir, "opt")),
    ("%llc", os.path.join(config.llvm_tools_dir, "llc")),
    ("%mlir-opt", os.path.join(config.llvm_tools_dir, "mlir-opt")),
    ("%clangplugin", "-fplugin={0} -fpass-plugin={0}".format(config.energy_plugin)),
    ("%clang", config.clang),
    ("%cudaflags", cudaflags),
    ("%loadenergy", "-load-pass-plugin=" + config.energy_plugin),
    ("%energy-mlir", config.mlir_plugin),
    ("%energy", config.energy_plugin),
    ("%python", config.python),
    ("%srcroot", config.energy_src_root),
    ("%cuda_path", config.cuda_path),
    ("%nvcc", os.path.join(config.cuda_path, "bin", "nvcc")),
]
config.substitutions.extend(subs)

if config.mlir_plugin and os.path.exists(config.mlir_plugin):
    config.available_features.add("mlir")
# -debug-only and -stats exist only in an LLVM built with assertions (the
# plugin is then built without NDEBUG too); Debian's is not.
if config.llvm_assertions.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asserts")
if os.access(os.path.join(config.cuda_path, "bin", "nvcc"), os.X_OK):
    config.available_features.add("nvcc")
