//===- HostDataCache.h - Inputs and expected outputs, made ahead -*- C++ -*-===//
//
// Inputs and expected outputs per kernel (or per config), made by worker
// threads in the order the plan needs them, so that slow CPU references run
// while the GPU measures the kernels whose data is ready.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_HOSTDATACACHE_H
#define ENERGY_BENCH_HOSTDATACACHE_H

#include "Buffers.h"
#include "Manifest.h"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bench {

class HostDataCache {
public:
  HostDataCache(const Manifest &M, uint64_t Seed) : M(M), Seed(Seed) {}
  ~HostDataCache() { finish(); }

  /// Stops the workers taking more work and joins them; false (and the
  /// workers left running) if one is still busy after WaitSeconds: a slow
  /// CPU reference must not hold a time-limited run past its limit.
  bool finish(double WaitSeconds = 1e9);

  /// Queues the data of (K, C) unless queued already (before start()).
  void request(size_t K, size_t C);

  /// Leaves two cores to the measuring thread and the NVML sampler.
  void start();

  bool ready(size_t K, size_t C);

  /// The data of (K, C) (requested before start()), waiting if needed.
  const HostData &get(size_t K, size_t C);

private:
  struct Entry {
    size_t Kernel = 0, Config = 0;
    HostData Data;
    bool Ready = false;
  };
  const Manifest &M;
  uint64_t Seed;
  std::map<std::string, std::unique_ptr<Entry>> Entries;
  std::vector<std::string> Order;
  size_t Next = 0; // first entry of Order no worker has taken
  size_t Busy = 0; // workers making an entry
  std::mutex Mu;
  std::condition_variable Cv;
  bool Quit = false;
  std::vector<std::thread> Workers;

  void work();
};

} // namespace bench

#endif
