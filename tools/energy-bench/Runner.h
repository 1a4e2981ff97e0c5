//===- Runner.h - Plan and run the measurements of a manifest ---*- C++ -*-===//
//
// The plan: every config of every selected kernel, and a second measurement
// of RepeatFraction of them (the manifest's `repeat` ones first, then others
// picked with the seed), minus what the output file already has for this GPU.
// Each kernel's plugin choices, default config and occupancy-heuristic config
// come first, so that a short run already says how good the choice was; the
// rest follow shuffled with the seed, with the repeats spread evenly among
// them, each at least one config after its first measurement. Kernels take turns, so that no kernel runs many configs in a
// row on a heating card. Every DriftEvery measurements one kernel's
// drift-reference config is measured again (kernels in turn).
//
// A watchdog gives every measurement TimeoutSeconds: past that it writes a
// `timeout` row and ends the process (a hung kernel cannot be interrupted).
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
  int DriftEvery = 15;      // 0: no drift checks
  double RepeatFraction = 0.2; // of each kernel's configs, measured twice
  double TimeoutSeconds = 60;  // per measurement; 0: no watchdog
  double IdleSeconds = 1.0;
  MeasureOptions Measure;
};

struct PlanItem {
  size_t Kernel = 0, Config = 0;
  int RepeatIndex = 0;
};

/// Kernels selected by --only (all when empty), as indices.
std::vector<size_t> selectedKernels(const Manifest &M, const RunOptions &Opts);

/// The configs (indices) of K measured first: the plugin's choices, the
/// default and the occupancy-heuristic configs (State's pick for this GPU,
/// else the manifest's emulation of it).
std::vector<size_t> priorityConfigs(const KernelSpec &K, const ResumeState &State);

/// Which configs of K are measured twice: the manifest's `repeat` ones, then
/// others in a seeded order until Fraction of the configs are.
std::vector<bool> repeatedConfigs(const KernelSpec &K, double Fraction, uint64_t Seed);

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
