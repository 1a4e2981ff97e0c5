"""Registers and spills of a tuning configuration as the measured binary's compiler builds them.

The plugin predicts the binary clang builds, with registers from ptxas on clang's PTX. The
tuners measured nvcc's (Kernel Tuner) or NVRTC's (KTT) builds, which can need far fewer
registers: the convolution's fully unrolled 15x15 filter takes 255 under clang and 40-134
under nvcc (docs/spill-study.md). Registers decide the occupancy, so kt_eval states the
measured build's resources to the plugin (-energy-force-config=...,registers=R,...).

A problem spec names its measured build (`"measured_build": {"compiler": "nvcc", "flags":
[...]}`); this module compiles the configuration that way (`nvcc -arch=sm_XX -cubin
-Xptxas -v -D<tunable>=<value>`, as Kernel Tuner passes tunables) and reads ptxas's report
for the kernel. NVRTC is NVIDIA's same compiler as a library: nvcc stands in for it.
Results are cached on disk by nvcc's identity, the sources' contents and the command.

`#pragma unroll NAME` with a tunable NAME: CUDA 13's nvcc does not expand macros in the
pragma ("identifier is undefined"), while the tuners' builds unrolled by the value (Kernel
Tuner declares such tunables `constexpr int`, and drops the pragma for 0). The pragma gets
the value, or goes for 0, in a copy of the source compiled beside the original's folder.
"""

import os
import re
import subprocess
import tempfile

from energy import plugin_compile

NVCC = os.path.join(plugin_compile.CUDA_PATH, "bin", "nvcc")
COMPILE_TIMEOUT_S = 600
CACHE_FORMAT = 1
ENTRY = re.compile(r"Compiling entry function '([^']+)'")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
REGISTERS = re.compile(r"Used (\d+) registers")


def nvcc_identity(nvcc=NVCC):
    """A string that changes when nvcc does, or None when there is no usable nvcc."""
    try:
        done = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def is_kernel(entry, kernel):
    """Whether ptxas's entry name is `kernel`: its C name or a C++ mangling of it."""
    return entry == kernel or entry.startswith(f"_Z{len(kernel)}{kernel}")


def parse_ptxas(stderr, kernel):
    """{"registers", "stack_frame", "spill_stores", "spill_loads"} of kernel, or None."""
    starts = [(m.start(), m[1]) for m in ENTRY.finditer(stderr)]
    for k, (start, entry) in enumerate(starts):
        if not is_kernel(entry, kernel):
            continue
        end = starts[k + 1][0] if k + 1 < len(starts) else len(stderr)
        frame, registers = FRAME.search(stderr, start, end), REGISTERS.search(stderr, start, end)
        if not frame or not registers:
            return None
        return {"registers": int(registers[1]), "stack_frame": int(frame[1]),
                "spill_stores": int(frame[2]), "spill_loads": int(frame[3])}
    return None


UNROLL_BY_NAME = re.compile(r"#[ \t]*pragma[ \t]+unroll[ \t]+([A-Za-z_]\w*)[ \t]*$", re.M)


def unroll_by_value(text, config):
    """text with `#pragma unroll NAME` of each tunable NAME given its value (none for 0)."""
    def value(match):
        if match[1] not in config:
            return match[0]
        factor = int(config[match[1]])
        return f"#pragma unroll {factor}" if factor > 0 else ""
    return UNROLL_BY_NAME.sub(value, text)


def command(problem, config, arch, main=None, nvcc=NVCC):
    """nvcc's argv; main replaces the last source (a copy), its folder stays on -I."""
    build = problem.measured_build
    *included, original = problem.sources
    return [nvcc, f"-arch={arch}", "-cubin", "-o", os.devnull, "-Xptxas", "-v",
            *build.get("flags", []), *(f"-D{k}={v}" for k, v in config.items()),
            f"-I{os.path.dirname(original)}",
            *(a for s in included for a in ("-include", s)), main or original]


def resources(problem, config, arch, cache_dir, identity, nvcc=NVCC):
    """The measured build's resources of one configuration.

    Returns {"ok": True, "registers", "stack_frame", "spill_stores", "spill_loads"} or
    {"ok": False, "error"}; None where the problem names no measured build this module
    can compile, or there is no nvcc (identity None).
    """
    build = problem.measured_build
    if not build or build.get("compiler") not in ("nvcc", "nvrtc") or identity is None:
        return None
    key = [CACHE_FORMAT, identity, [plugin_compile.file_hash(s) for s in problem.sources],
           command(problem, config, arch, nvcc=nvcc)[1:]]
    result = plugin_compile.cached(os.path.join(cache_dir, "nvcc"), key,
                                   lambda: _compile(problem, config, arch, nvcc))
    if result is not None:
        return result
    return {"ok": False, "error": f"nvcc timed out after {COMPILE_TIMEOUT_S} s"}


def _compile(problem, config, arch, nvcc):
    """resources()'s result, compiled now; None when nvcc timed out."""
    with open(problem.sources[-1], encoding="utf-8") as f:
        text = f.read()
    rewritten = unroll_by_value(text, config)
    with tempfile.TemporaryDirectory(prefix="energy-nvcc-") as tmp:
        main = None
        if rewritten != text:
            main = os.path.join(tmp, os.path.basename(problem.sources[-1]))
            with open(main, "w", encoding="utf-8") as f:
                f.write(rewritten)
        try:
            done = subprocess.run(command(problem, config, arch, main, nvcc),
                                  capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return None
    if done.returncode != 0:
        return {"ok": False, "error": "nvcc: " + plugin_compile.first_error(done.stderr)}
    found = parse_ptxas(done.stderr, problem.kernel)
    if not found:
        return {"ok": False, "error": f"nvcc: no ptxas report for {problem.kernel}"}
    return {"ok": True, **found}


def force_suffix(found):
    """The -energy-force-config fields that state `found` (a resources() result)."""
    return ",".join(f"{k}={found[k]}"
                    for k in ("registers", "stack_frame", "spill_stores", "spill_loads"))
