//===- Results.h - Output rows, resume state and baselines ------*- C++ -*-===//
//
// The runner's output is JSON lines in the dataset row format
// (docs/dataset-format.md) plus provenance (docs/bench-format.md), written
// and flushed one row at a time. Resuming reads the rows already written for
// the same GPU: a (config, repeat_index) that has a row is not measured
// again, so a long sweep runs as several bounded slices that append to one
// file. `<output>.inflight` names the measurement in progress; one left by
// a process that died becomes a `hang_or_crash` row on the next start.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_RESULTS_H
#define ENERGY_BENCH_RESULTS_H

#include "BenchJson.h"
#include "Manifest.h"
#include "Measure.h"

#include <cstdio>
#include <map>
#include <set>
#include <string>

namespace bench {

/// What the output file already holds for one GPU.
struct ResumeState {
  std::set<std::string> Done;             // doneKey(...) of planned rows
  std::map<std::string, int> DriftRows;    // config id -> drift rows
  std::set<std::string> BaselineKernels;   // kernels in the baselines file
  /// kernel -> config id matched to cuOccupancyMaxPotentialBlockSize
  std::map<std::string, std::string> OccupancyPicks;
  size_t Rows = 0, Unreadable = 0, FromOtherSweep = 0, OtherGpus = 0;
  std::set<std::string> Gpus; // every GPU with rows in the file
  bool Truncated = false; // an incomplete last line was cut off
};

std::string doneKey(const std::string &ConfigId, int RepeatIndex);

/// Reads Path (missing is fine) and cuts an incomplete last line, so that
/// appending leaves valid JSON lines. Rows of other GPUs than Gpu count only
/// in OtherGpus and Gpus. False (and Error) if it cannot.
bool readResumeState(const std::string &Path, const std::string &SweepCreated,
                     const std::string &Gpu, ResumeState &State, std::string &Error);
bool readBaselineKernels(const std::string &Path, const std::string &Gpu,
                         ResumeState &State, std::string &Error);

/// `<output>.inflight`: the measurement in progress.
std::string inflightPath(const std::string &Output);

/// The in-flight record: which measurement, on which GPU, since when.
struct InFlight {
  std::string Kernel, Config, Gpu, Started;
  int RepeatIndex = 0;
  bool Drift = false;
};
/// Writes Path (synced) naming the measurement about to start.
bool writeInFlight(const std::string &Path, const InFlight &F, std::string &Error);
/// Reads Path; false when there is none (or it cannot be read: Error).
bool readInFlight(const std::string &Path, InFlight &F, std::string &Error);

/// `<output>.baselines.jsonl`: the output's name without .jsonl/.ndjson.
std::string baselinesPath(const std::string &Output);

/// Facts shared by every row of a run.
struct RunInfo {
  std::string Gpu, Driver, Cuda;
  double IdlePowerW = 0;
  uint64_t Seed = 0;
};

Json makeRow(const Manifest &Man, const KernelSpec &K, const ConfigSpec &C,
                  const Measurement &M, const RunInfo &Info, int RepeatIndex, bool Drift);

/// "2026-11-22T13:00:00Z".
std::string isoTimestamp();

/// Writes one line and flushes it to the file.
bool appendLine(FILE *F, const Json &Row);

} // namespace bench

#endif
