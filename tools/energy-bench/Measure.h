//===- Measure.h - Time and energy of one config on the GPU -----*- C++ -*-===//
//
// shared/MEASURE.md's protocol for one (kernel, config):
//   load the PTX (cuModuleLoadDataEx), upload the seeded inputs, launch once
//   and compare the outputs with the CPU reference; warm up; then one run of
//   back-to-back launches of at least EnergySeconds with a CUDA event after
//   every batch: time = median over batches of (batch time / launches),
//   energy = average power over the run x run time / launches, where the
//   average power comes from NVML's total-energy counter between its first
//   and last update inside the run. Instant power is sampled meanwhile as a
//   cross-check.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_MEASURE_H
#define ENERGY_BENCH_MEASURE_H

#include "Buffers.h"
#include "CudaDriver.h"
#include "Manifest.h"
#include "Nvml.h"

#include <string>
#include <vector>

namespace bench {

struct MeasureOptions {
  double WarmupSeconds = 0.2;
  double BatchSeconds = 0.05; // GPU time per timed batch
  double EnergySeconds = 1.0; // length of the energy run
  int MinBatches = 5;
  bool Check = true; // compare the first launch's outputs with the reference
};

/// The device, its context and its NVML handle.
struct Gpu {
  CudaDriver Cu;
  Nvml Nv;
  CUdevice Device = 0;
  CUcontext Context = nullptr;
  std::string Name, Driver, CudaVersion;

  /// Loads the driver and NVML, creates the primary context of device Index.
  bool open(int Index, std::string &Error);
  /// Drops and re-creates the primary context after a sticky error.
  bool resetContext(std::string &Error);
};

/// Seconds on the monotonic clock.
double monotonicSeconds();

struct Stats {
  double Median = 0, Min = 0, Max = 0;
  size_t Count = 0;
};
Stats statsOf(std::vector<double> V);

struct Measurement {
  std::string Status = "ok"; // "ok" or "failed"
  std::string Failure;       // load, resources, launch, wrong_result, energy
  std::string Error;
  bool ContextLost = false;  // a sticky CUDA error: reset before going on
  bool Checked = false;      // the outputs were compared with the reference

  int Registers = -1, SpillBytes = -1;
  double TimeS = 0, EnergyJ = 0;
  std::vector<double> Batches; // per-launch time of each batch
  long long Launches = 0;
  double RunS = 0;             // GPU time of the energy run
  double WindowS = 0;          // span of the energy-counter updates used
  double AvgPowerW = 0;
  std::string Method;
  Stats Power;                 // instant power samples during the run
  Stats SmClock, MemClock;
  int TempStart = -1, TempEnd = -1;
};

Measurement measureConfig(Gpu &G, const KernelSpec &K, const ConfigSpec &C,
                          const HostData &Data, const MeasureOptions &Opts);

/// What cuOccupancyMaxPotentialBlockSize picks for the kernel's baseline PTX.
struct OccupancyPick {
  bool OK = false;
  std::string Error;
  int BlockThreads = 0, MinGridSize = 0, Registers = -1;
};
OccupancyPick occupancyPick(Gpu &G, const KernelSpec &K);

/// Board power of the idle GPU, sampled for Seconds.
Stats idlePower(Gpu &G, double Seconds);

} // namespace bench

#endif
