"""The sweep's compiles: clang with the plugin, run in parallel, and the report they write.

Unlike energy.plugin_compile (the tuner's cached compile of one config), a sweep compiles
every config once and stops at the first failure.
"""

import concurrent.futures
import json
import os
import subprocess

from energy.sweep_error import SweepError

REPORT_FORMAT = "energy-report-v1"


class Toolchain:
    """clang-19 device-only compiles with the plugin, as test/lit.cfg.py's %cudaflags,
    with CUDA's CCCL headers (CUB, Thrust; C++17) on the path as test/Corpus's %cccl:
    a corpus kernel may use CUB's block primitives."""

    def __init__(self, plugin, clang, cuda_path, arch, include_dir):
        self.plugin, self.clang, self.arch = plugin, clang, arch
        self.flags = ["-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={arch}",
                      f"--cuda-path={cuda_path}",
                      "-isystem", os.path.join(include_dir, "energy", "cuda-compat"),
                      "-isystem", os.path.join(cuda_path, "include", "cccl"), "-std=c++17",
                      "-I", include_dir, "-Wno-unknown-cuda-version", "-O3", "-S"]

    def command(self, source, output, mllvm=(), plugin=True):
        cmd = [self.clang] + self.flags
        if plugin:
            cmd += [f"-fplugin={self.plugin}", f"-fpass-plugin={self.plugin}"]
            for option in mllvm:
                cmd += ["-mllvm", option]
        return cmd + [source, "-o", output]

    def compile(self, what, source, output, mllvm=(), plugin=True):
        cmd = self.command(source, output, mllvm, plugin)
        try:
            done = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise SweepError(f"{what}: cannot run {self.clang}: {e.strerror}") from None
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-15:])
            raise SweepError(f"{what}: compile failed (exit {done.returncode}):\n"
                             f"  {' '.join(cmd)}\n{tail}")


def read_report(what, path, kernel):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise SweepError(f"{what}: cannot read the plugin's report {path}: {e}") from None
    if report.get("format") != REPORT_FORMAT:
        raise SweepError(f"{what}: the plugin's report is not {REPORT_FORMAT}")
    for k in report.get("kernels", []):
        if k.get("kernel") == kernel:
            return report, k
    found = ", ".join(k.get("kernel", "?") for k in report.get("kernels", [])) or "none"
    raise SweepError(f"{what}: the plugin reports no kernel '{kernel}' (found: {found}); "
                     f"is it opted in with ENERGY_KERNEL({kernel})?")


def run_all(jobs, tasks):
    """Runs the callables with at most `jobs` at a time; the first error wins."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(task) for task in tasks]
        try:
            for future in concurrent.futures.as_completed(futures):
                future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise
