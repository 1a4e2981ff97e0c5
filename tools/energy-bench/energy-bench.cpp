//===- energy-bench.cpp - Measure kernel configs on the GPU ---------------===//
//
// The GPU runner of the measurement pipeline (docs/bench-format.md): reads a
// sweep manifest made by `python3 -m energy.sweep`, measures time and energy
// of every config as shared/MEASURE.md says, and appends JSON lines in the
// dataset format (docs/dataset-format.md).
//
//   energy-bench --dry-run sweep/manifest.json
//   energy-bench sweep/manifest.json -o h100.jsonl --time-limit 540
//
// Builds with a C++17 compiler and CUDA's headers only (no LLVM, no CUDA
// library at link time): `cmake -S tools/energy-bench -B build && cmake
// --build build`.
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"
#include "Runner.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace bench;

static const char *const Usage = R"(usage: energy-bench [options] MANIFEST -o OUTPUT.jsonl
       energy-bench --dry-run MANIFEST [-o OUTPUT.jsonl]

Measures the time and energy of every config of a sweep manifest
(python3 -m energy.sweep) on the GPU and appends one JSON line per
measurement to OUTPUT (docs/bench-format.md), flushed row by row; the
occupancy-heuristic baselines go to OUTPUT's name with .baselines.jsonl.
Each kernel's plugin choices, default and occupancy-heuristic configs are
measured first. Clocks and power limits are never changed: the GPU is
measured as it is, and every row records its clocks, throttle reasons and
power limit.

options:
  -o, --output FILE      JSON lines to append to
  --dry-run              check the manifest, its PTX files and references,
                         print a summary (and progress, with -o); no GPU
  --check-references     run each kernel's CPU reference on its generated
                         inputs (no GPU; use a manifest made with --small)
  --resume / --no-resume skip measurements already in OUTPUT for this GPU
                         (default), or start OUTPUT afresh
  --only KERNEL[,...]    measure only these kernels (repeatable)
  --limit N              measure at most N planned configs this run
  --time-limit SECONDS   stop between configs before this much time is used
  --timeout SECONDS      watchdog: a config without a result after this long
                         (a hung kernel) gets a 'timeout' row and the run
                         ends (default 60; 0: no watchdog)
  --check config|kernel  compare every config's first launch with the CPU
                         reference (default), or each kernel's first config
                         per run only (a mismatch fails the kernel's others)
  --seed N               input data and order (default 1)
  --device N             CUDA device (default 0)
  --repeat-fraction F    measure this fraction of each kernel's configs
                         twice, interleaved with the rest (default 0.2; the
                         manifest's 'repeat' configs always)
  --drift-every N        re-measure a drift-reference config every N
                         measurements (default 15; 0: never)
  --warmup-seconds S     warm-up before each energy run (default 0.5)
  --energy-seconds S     length of each energy run (default 2.0)
  --settle-seconds S     energy-counter updates ignored at the start of a
                         run (default 0.25)
  --max-energy-spread F  re-measure once when the energy of the run's four
                         sub-windows differs by more than F (default 0.03)
  --max-time-spread F    ... or their time per launch (default 0.05)
  --allow-power-samples  when NVML's energy counter does not move, measure
                         with instant power samples (row 'method'
                         nvml-power-samples); without it that is an error
  --batch-seconds S      GPU time of one timed batch (default 0.05)
  --idle-seconds S       idle power sampling at start (default 1.0)
  -h, --help             this text

A config that hangs or crashes the process leaves OUTPUT.inflight behind;
the next run records it as a 'hang_or_crash' row instead of retrying it.
SIGINT/SIGTERM stop cleanly after the current config (or 2 s into it: it is
measured again next run; a second signal a second later stops at once); the
output stays valid and the next run resumes it. ENERGY_BENCH_CUDA_LIBRARY and ENERGY_BENCH_NVML_LIBRARY name other
libraries than libcuda.so.1 and libnvidia-ml.so.1 (tests use stand-ins).
)";

static int usageError(const std::string &What) {
  std::fprintf(stderr, "energy-bench: error: %s (see --help)\n", What.c_str());
  return 1;
}

static bool parseDouble(const std::string &S, double &Out) {
  char *End;
  errno = 0;
  Out = std::strtod(S.c_str(), &End);
  return !S.empty() && *End == 0 && errno == 0 && std::isfinite(Out) && Out >= 0;
}

static bool parseInt(const std::string &S, long long &Out) {
  char *End;
  errno = 0;
  Out = std::strtoll(S.c_str(), &End, 10);
  return !S.empty() && *End == 0 && errno == 0 && Out >= 0;
}

/// Parses the command line; returns -1 to go on, else an exit status.
static int parseArgs(int Argc, char **Argv, RunOptions &O) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I], Value;
    bool HasValue = false;
    if (A.size() > 2 && A[0] == '-' && A[1] == '-') {
      size_t Eq = A.find('=');
      if (Eq != std::string::npos) {
        Value = A.substr(Eq + 1);
        A = A.substr(0, Eq);
        HasValue = true;
      }
    }
    auto Need = [&](std::string &Out) -> bool {
      if (HasValue) {
        Out = Value;
        return true;
      }
      if (I + 1 >= Argc)
        return false;
      Out = Argv[++I];
      return true;
    };
    auto Flag = [&](bool &Out, bool V) {
      if (HasValue)
        return false;
      Out = V;
      return true;
    };
    std::string V;
    long long N;
    double D;
    if (A == "-h" || A == "--help") {
      std::fputs(Usage, stdout);
      return 0;
    }
    if (A == "--dry-run" || A == "--check-references" || A == "--resume" ||
        A == "--no-resume" || A == "--allow-power-samples") {
      bool OK = A == "--dry-run"               ? Flag(O.DryRun, true)
                : A == "--check-references"    ? Flag(O.CheckReferences, true)
                : A == "--allow-power-samples" ? Flag(O.Measure.AllowPowerSamples, true)
                                               : Flag(O.Resume, A == "--resume");
      if (!OK)
        return usageError("option '" + A + "' takes no value");
      continue;
    }
    if (A == "-o" || A == "--output") {
      if (!Need(O.Output) || O.Output.empty())
        return usageError("option '" + A + "' needs a file");
      continue;
    }
    if (A == "--check") {
      if (!Need(V) || (V != "config" && V != "kernel"))
        return usageError("option '--check' needs 'config' or 'kernel'");
      O.CheckEveryConfig = V == "config";
      continue;
    }
    if (A == "--only") {
      if (!Need(V) || V.empty())
        return usageError("option '--only' needs kernel names");
      size_t Start = 0;
      while (Start <= V.size()) {
        size_t Comma = V.find(',', Start);
        std::string Name = V.substr(Start, Comma - Start);
        if (!Name.empty())
          O.Only.push_back(Name);
        if (Comma == std::string::npos)
          break;
        Start = Comma + 1;
      }
      continue;
    }
    if (A == "--limit" || A == "--seed" || A == "--device" || A == "--drift-every") {
      if (!Need(V) || !parseInt(V, N))
        return usageError("option '" + A + "' needs a non-negative integer");
      if (A == "--limit")
        O.Limit = N;
      else if (A == "--seed")
        O.Seed = uint64_t(N);
      else if (A == "--device")
        O.Device = int(N);
      else
        O.DriftEvery = int(N);
      continue;
    }
    if (A == "--max-energy-spread" || A == "--max-time-spread" || A == "--repeat-fraction") {
      if (!Need(V) || !parseDouble(V, D) || (A == "--repeat-fraction" && D > 1))
        return usageError("option '" + A + "' needs a fraction" +
                          (A == "--repeat-fraction" ? " from 0 to 1" : " (0.03 is 3%)"));
      (A == "--max-energy-spread" ? O.Measure.MaxEnergySpread
       : A == "--max-time-spread" ? O.Measure.MaxTimeSpread
                                  : O.RepeatFraction) = D;
      continue;
    }
    if (A == "--time-limit" || A == "--energy-seconds" || A == "--warmup-seconds" ||
        A == "--batch-seconds" || A == "--idle-seconds" || A == "--settle-seconds" ||
        A == "--timeout") {
      if (!Need(V) || !parseDouble(V, D))
        return usageError("option '" + A + "' needs a number of seconds");
      if (A == "--time-limit")
        O.TimeLimit = D;
      else if (A == "--timeout")
        O.TimeoutSeconds = D;
      else if (A == "--settle-seconds")
        O.Measure.SettleSeconds = D;
      else if (A == "--energy-seconds")
        O.Measure.EnergySeconds = D;
      else if (A == "--warmup-seconds")
        O.Measure.WarmupSeconds = D;
      else if (A == "--batch-seconds")
        O.Measure.BatchSeconds = D > 0 ? D : 1e-3;
      else
        O.IdleSeconds = D;
      continue;
    }
    if (A.size() > 1 && A[0] == '-')
      return usageError("unknown option '" + A + "'");
    if (!O.ManifestPath.empty())
      return usageError("more than one manifest given ('" + O.ManifestPath + "', '" + A + "')");
    O.ManifestPath = A;
  }
  if (O.ManifestPath.empty())
    return usageError("no manifest given");
  if (!O.DryRun && !O.CheckReferences && O.Output.empty())
    return usageError("no output file given (-o FILE)");
  return -1;
}

static std::string mib(double Bytes) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f MiB", Bytes / (1024.0 * 1024.0));
  return Buf;
}

static void printSummary(const Manifest &M, const RunOptions &O) {
  std::printf("manifest: %s (%s, %s, created %s, %s)\n", M.Path.c_str(), M.Format.c_str(),
              M.Arch.c_str(), M.Created.empty() ? "?" : M.Created.c_str(),
              M.Plugin.empty() ? "plugin ?" : M.Plugin.c_str());
  std::vector<size_t> Kernels = selectedKernels(M, O);
  size_t Configs = 0, Repeats = 0;
  for (size_t KI : Kernels) {
    const KernelSpec &K = M.Kernels[KI];
    size_t KRepeats = 0;
    double Bytes = 0;
    for (const BufferSpec &B : K.Buffers)
      Bytes += double(B.bytes());
    std::vector<bool> Repeated = repeatedConfigs(K, O.RepeatFraction, O.Seed);
    for (bool R : Repeated)
      KRepeats += R;
    Configs += K.Configs.size();
    Repeats += KRepeats;
    std::printf("kernel %s: entry %s, %zu configs (%zu repeated), %zu buffers (%s), "
                "drift reference %s\n",
                K.Name.c_str(), K.Entry.c_str(), K.Configs.size(), KRepeats, K.Buffers.size(),
                mib(Bytes).c_str(), K.Configs[K.ReferenceConfig].Id.c_str());
    for (size_t CI = 0; CI < K.Configs.size(); ++CI) {
      const ConfigSpec &C = K.Configs[CI];
      std::printf("  %s block %ux%ux%u grid %ux%ux%u smem %lld%s%s\n", C.Id.c_str(), C.Block[0],
                  C.Block[1], C.Block[2], C.Grid[0], C.Grid[1], C.Grid[2],
                  static_cast<long long>(C.DynamicSmem), Repeated[CI] ? " repeat" : "",
                  C.Reference ? " reference" : "");
    }
  }
  size_t Measurements = Configs + Repeats;
  std::printf("total: %zu kernels, %zu configs, %zu measurements (%zu repeats)\n",
              Kernels.size(), Configs, Measurements, Repeats);
  if (!O.Output.empty()) {
    // Resume is per GPU: one line for each GPU with rows in the output.
    ResumeState All;
    std::string Error;
    if (readResumeState(O.Output, M.Created, "", All, Error)) {
      if (All.Gpus.empty())
        All.Gpus.insert("");
      size_t Left = Measurements;
      for (const std::string &GpuName : All.Gpus) {
        ResumeState State;
        readResumeState(O.Output, M.Created, GpuName, State, Error);
        readBaselineKernels(baselinesPath(O.Output), GpuName, State, Error);
        size_t Total = 0;
        Left = buildPlan(M, O, State, Total).size();
        std::printf("progress: %zu of %zu measurements in %s, %zu remaining%s%s%s\n",
                    Total - Left, Total, O.Output.c_str(), Left,
                    GpuName.empty() ? "" : " (", GpuName.c_str(), GpuName.empty() ? "" : ")");
      }
      Measurements = Left;
    }
  }
  const MeasureOptions &MO = O.Measure;
  std::printf("method: warm-up %g s, energy runs %g s (counter updates after %g s), "
              "re-measure above %g%% energy or %g%% time spread, %s; repeats %g%%, "
              "drift check every %d, timeout %g s\n",
              MO.WarmupSeconds, MO.EnergySeconds, MO.SettleSeconds, 100 * MO.MaxEnergySpread,
              100 * MO.MaxTimeSpread,
              MO.AllowPowerSamples ? "power samples if the counter is still"
                                   : "energy counter only",
              100 * O.RepeatFraction, O.DriftEvery, O.TimeoutSeconds);
  double PerMeasurement = MO.EnergySeconds + MO.WarmupSeconds + 0.3;
  std::printf("estimated GPU time: %.0f s (about %.1f s per measurement)\n",
              double(Measurements) * PerMeasurement, PerMeasurement);
}

int main(int Argc, char **Argv) {
  RunOptions O;
  int Status = parseArgs(Argc, Argv, O);
  if (Status >= 0)
    return Status;

  Manifest M;
  Diagnostics D;
  bool OK = loadManifest(O.ManifestPath, M, D);
  if (OK)
    OK = checkManifestFiles(M, D);
  for (const std::string &K : O.Only) {
    bool Found = false;
    for (const KernelSpec &KS : M.Kernels)
      Found |= KS.Name == K;
    if (OK && !Found) {
      D.error(O.ManifestPath, "--only: no kernel '" + K + "'");
      OK = false;
    }
  }
  for (const std::string &W : D.Warnings)
    std::fprintf(stderr, "energy-bench: warning: %s\n", W.c_str());
  for (const std::string &E : D.Errors)
    std::fprintf(stderr, "energy-bench: error: %s\n", E.c_str());
  if (!OK)
    return 1;

  if (O.DryRun) {
    printSummary(M, O);
    return 0;
  }
  if (O.CheckReferences)
    return checkReferences(M, O);
  return runMeasurements(M, O);
}
