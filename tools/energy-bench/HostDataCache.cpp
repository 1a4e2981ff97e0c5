//===- HostDataCache.cpp - Inputs and expected outputs, made ahead --------===//

#include "HostDataCache.h"

#include <algorithm>
#include <chrono>

namespace bench {

/// Whose inputs and expected outputs can be shared: the kernel's, unless its
/// buffer sizes follow the config; then the reference may depend on the
/// config's BLOCK_X, GRID_X ... too, and each config gets its own.
static std::string dataKey(const KernelSpec &K, const ConfigSpec &C) {
  for (const ConfigSpec &Other : K.Configs)
    if (!Other.Buffers.empty())
      return C.Id;
  return K.Name;
}

bool HostDataCache::finish(double WaitSeconds) {
  std::unique_lock<std::mutex> L(Mu);
  Quit = true;
  if (!Cv.wait_for(L, std::chrono::duration<double>(WaitSeconds), [&] { return Busy == 0; }))
    return false;
  L.unlock();
  for (std::thread &T : Workers)
    if (T.joinable())
      T.join();
  return true;
}

void HostDataCache::request(size_t K, size_t C) {
  std::string Key = dataKey(M.Kernels[K], M.Kernels[K].Configs[C]);
  if (Entries.count(Key))
    return;
  auto E = std::make_unique<Entry>();
  E->Kernel = K;
  E->Config = C;
  Entries[Key] = std::move(E);
  Order.push_back(Key);
}

void HostDataCache::start() {
  unsigned Cores = std::thread::hardware_concurrency();
  size_t N = std::clamp<size_t>(Cores > 2 ? Cores - 2 : 1, 1, Order.size());
  for (size_t I = 0; I < N; ++I)
    Workers.emplace_back([this] { work(); });
}

bool HostDataCache::ready(size_t K, size_t C) {
  std::lock_guard<std::mutex> L(Mu);
  auto It = Entries.find(dataKey(M.Kernels[K], M.Kernels[K].Configs[C]));
  return It != Entries.end() && It->second->Ready;
}

const HostData &HostDataCache::get(size_t K, size_t C) {
  std::unique_lock<std::mutex> L(Mu);
  Entry &E = *Entries.at(dataKey(M.Kernels[K], M.Kernels[K].Configs[C]));
  Cv.wait(L, [&] { return E.Ready; });
  return E.Data;
}

void HostDataCache::work() {
  while (true) {
    Entry *E;
    {
      std::lock_guard<std::mutex> L(Mu);
      if (Quit || Next == Order.size())
        return;
      E = Entries[Order[Next++]].get();
      ++Busy;
    }
    const KernelSpec &K = M.Kernels[E->Kernel];
    HostData D;
    makeInputs(K.buffersOf(K.Configs[E->Config]), Seed, K.Name, D.Inputs);
    runReference(K, K.Configs[E->Config], D);
    {
      std::lock_guard<std::mutex> L(Mu);
      E->Data = std::move(D);
      E->Ready = true;
      --Busy;
    }
    Cv.notify_all();
  }
}

} // namespace bench
