//===- Measure.h - Time and energy of one config on the GPU -----*- C++ -*-===//
//
// shared/MEASURE.md's protocol for one (kernel, config):
//   load the PTX (cuModuleLoadDataEx), upload the seeded inputs, launch once
//   and compare the outputs with the CPU reference; warm up (0.5 s); then one
//   run of back-to-back launches of at least EnergySeconds (2 s) with a CUDA
//   event after every batch: time = median over batches of (batch time /
//   launches), energy = average power over the run x run time / launches,
//   where the average power comes from NVML's total-energy counter between
//   its first and last update inside the run, ignoring the updates of its
//   first SettleSeconds (0.25 s: the counter updates every 20-100 ms and
//   lags). The run is split into four sub-windows; when their energy (or
//   time) differs by more than MaxEnergySpread (MaxTimeSpread), the run is
//   made once more and the second one kept. Instant power, clocks and the
//   throttle reasons are sampled meanwhile. Power samples replace the counter
//   only when AllowPowerSamples says so; otherwise a counter that does not
//   move is a fatal error.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_MEASURE_H
#define ENERGY_BENCH_MEASURE_H

#include "Buffers.h"
#include "CudaDriver.h"
#include "Manifest.h"
#include "Nvml.h"
#include "Stats.h"

#include <string>
#include <vector>

namespace bench {

struct MeasureOptions {
  double WarmupSeconds = 0.5;
  double BatchSeconds = 0.05;   // GPU time per timed batch
  double EnergySeconds = 2.0;   // length of the energy run
  double SettleSeconds = 0.25;  // counter updates ignored at the run's start
  double MaxEnergySpread = 0.03; // re-measure above these sub-window spreads
  double MaxTimeSpread = 0.05;
  bool AllowPowerSamples = false; // else a still counter is an error
  int MinBatches = 8;
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


struct Measurement {
  std::string Status = "ok"; // "ok" or "failed"
  /// load, resources, launch, wrong_result, energy; from the runner also
  /// timeout and hang_or_crash.
  std::string Failure;
  std::string Error;
  bool ContextLost = false;  // a sticky CUDA error: reset before going on
  bool Fatal = false;        // the run cannot go on (no energy counter)
  bool Checked = false;      // the outputs were compared with the reference

  int Registers = -1, SpillBytes = -1;
  double TimeS = 0, EnergyJ = 0;
  std::vector<double> Batches; // per-launch time of each batch
  long long Launches = 0;
  double RunS = 0;             // GPU time of the energy run
  double WindowS = 0;          // span of the energy-counter updates used
  double WindowStartS = 0;     // first update used, after the run's start
  double SettleS = 0;          // updates before this were ignored
  double AvgPowerW = 0;
  std::string Method;          // nvml-energy-counter or nvml-power-samples
  int CounterUpdates = 0;      // counter updates used
  double UpdateGapS = 0;       // median time between them
  double EnergySpread = 0;     // (max - min) / median of four sub-windows
  double TimeSpread = 0;
  bool Remeasured = false;     // the first run's spread was too large
  double FirstEnergySpread = 0, FirstTimeSpread = 0; // when re-measured
  bool HaveThrottle = false;
  unsigned long long ThrottleMask = 0; // every reason seen during the run
  double PowerLimitW = 0;              // 0: unknown
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
