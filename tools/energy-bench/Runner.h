//===- Runner.h - Plan and run the measurements of a manifest ---*- C++ -*-===//
//
// The plan: every config of every selected kernel (and a second measurement
// of the `repeat` ones), minus what the output file already has, ordered
// round-robin over kernels (each kernel's configs shuffled with the seed) so
// that no kernel runs many configs in a row on a heating card. Every
// DriftEvery measurements one kernel's drift-reference config is measured
// again (kernels in turn).
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_RUNNER_H
#define ENERGY_BENCH_RUNNER_H

#include "Manifest.h"
#include "Measure.h"
#include "Results.h"

#include <string>
#include <vector>

namespace bench {

struct RunOptions {
  std::string ManifestPath, Output;
  bool DryRun = false, CheckReferences = false, Resume = true;
  /// Compare every config's outputs with the reference (--check config), or
  /// only each kernel's first config of the run (--check kernel: a mismatch
  /// fails the kernel's remaining configs unmeasured).
  bool CheckEveryConfig = true;
  std::vector<std::string> Only;
  long long Limit = -1;     // planned measurements this run; -1: all
  double TimeLimit = 0;     // seconds; 0: none
  uint64_t Seed = 1;
  int Device = 0;
  int DriftEvery = 25;      // 0: no drift checks
  double IdleSeconds = 1.0;
  MeasureOptions Measure;
};

struct PlanItem {
  size_t Kernel = 0, Config = 0;
  int RepeatIndex = 0;
};

/// Kernels selected by --only (all when empty), as indices.
std::vector<size_t> selectedKernels(const Manifest &M, const RunOptions &Opts);

/// All planned measurements not yet in State, in measuring order; Total is
/// the plan's size before removing what is done.
std::vector<PlanItem> buildPlan(const Manifest &M, const RunOptions &Opts,
                                const ResumeState &State, size_t &Total);

/// Measures the plan on the GPU; returns the exit status.
int runMeasurements(const Manifest &M, const RunOptions &Opts);

/// --check-references: runs every selected kernel's CPU reference on its
/// generated inputs (no GPU); returns the exit status.
int checkReferences(const Manifest &M, const RunOptions &Opts);

} // namespace bench

#endif
