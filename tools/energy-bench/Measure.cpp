//===- Measure.cpp - Time and energy of one config on the GPU -------------===//

#include "Measure.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace bench {

double monotonicSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

static double now() { return monotonicSeconds(); }

/// The library to open: the standard name, or (for tests) the environment's.
static const char *libraryName(const char *Variable, const char *Default) {
  const char *V = std::getenv(Variable);
  return V && *V ? V : Default;
}

bool Gpu::open(int Index, std::string &Error) {
  if (!Cu.load(libraryName("ENERGY_BENCH_CUDA_LIBRARY", "libcuda.so.1"), Error)) {
    Error = "cannot load the CUDA driver: " + Error;
    return false;
  }
  CUresult R = Cu.cuInit(0);
  if (R != CUDA_SUCCESS) {
    Error = "cuInit: " + Cu.describe(R);
    return false;
  }
  int Count = 0;
  if ((R = Cu.cuDeviceGetCount(&Count)) != CUDA_SUCCESS || Index >= Count) {
    Error = R != CUDA_SUCCESS ? "cuDeviceGetCount: " + Cu.describe(R)
                              : "no CUDA device " + std::to_string(Index) + " (" +
                                    std::to_string(Count) + " found)";
    return false;
  }
  if ((R = Cu.cuDeviceGet(&Device, Index)) != CUDA_SUCCESS) {
    Error = "cuDeviceGet: " + Cu.describe(R);
    return false;
  }
  char Buf[256] = {0};
  Cu.cuDeviceGetName(Buf, sizeof Buf, Device);
  Name = Buf;
  CudaVersion = Cu.version();
  char Bus[64] = {0};
  std::string BusId;
  if (Cu.cuDeviceGetPCIBusId(Bus, sizeof Bus, Device) == CUDA_SUCCESS)
    BusId = Bus;
  if (!Nv.open(libraryName("ENERGY_BENCH_NVML_LIBRARY", "libnvidia-ml.so.1"), BusId,
               static_cast<unsigned>(Index), Error)) {
    Error = "cannot use NVML (needed for energy): " + Error;
    return false;
  }
  std::string NvName = Nv.name();
  if (!NvName.empty())
    Name = NvName; // the dataset's `gpu` is NVML's name
  Driver = Nv.driverVersion();
  if ((R = Cu.cuDevicePrimaryCtxRetain(&Context, Device)) != CUDA_SUCCESS ||
      (R = Cu.cuCtxSetCurrent(Context)) != CUDA_SUCCESS) {
    Error = "cannot create a CUDA context: " + Cu.describe(R);
    return false;
  }
  return true;
}

bool Gpu::resetContext(std::string &Error) {
  Cu.cuCtxSetCurrent(nullptr);
  Cu.cuDevicePrimaryCtxRelease(Device);
  CUresult R = Cu.cuDevicePrimaryCtxReset(Device);
  if (R == CUDA_SUCCESS)
    R = Cu.cuDevicePrimaryCtxRetain(&Context, Device);
  if (R == CUDA_SUCCESS)
    R = Cu.cuCtxSetCurrent(Context);
  if (R != CUDA_SUCCESS) {
    Error = "cannot re-create the CUDA context: " + Cu.describe(R);
    return false;
  }
  return true;
}

namespace {

/// Polls NVML on its own thread: every update of the energy counter (host
/// time, mJ), instant power every 10 ms, clocks and throttle reasons every
/// 100 ms.
class Sampler {
public:
  struct Edge {
    double Time;
    unsigned long long MilliJoules;
  };
  explicit Sampler(const Nvml &Nv) : Nv(Nv) {}
  ~Sampler() { stop(); }

  void start() {
    Stop = false;
    Thread = std::thread([this] { loop(); });
  }
  void stop() {
    if (!Thread.joinable())
      return;
    Stop = true;
    Thread.join();
  }

  std::vector<Edge> Edges;
  std::vector<std::pair<double, double>> Power; // (time, W)
  std::vector<double> Sm, Mem;
  bool HaveThrottle = false;
  unsigned long long Throttle = 0; // every reason seen

private:
  const Nvml &Nv;
  std::atomic<bool> Stop{false};
  std::thread Thread;

  void loop() {
    unsigned long long Last = 0;
    bool HaveLast = Nv.energyMillijoules(Last);
    double LastPower = -1, LastClock = -1;
    while (!Stop) {
      double T = now();
      unsigned long long E;
      if (Nv.energyMillijoules(E)) {
        if (HaveLast && E != Last)
          Edges.push_back({T, E});
        Last = E;
        HaveLast = true;
      }
      if (T - LastPower >= 0.01) {
        double W;
        if (Nv.powerWatts(W))
          Power.emplace_back(T, W);
        LastPower = T;
      }
      if (T - LastClock >= 0.1) {
        unsigned MHz;
        if (Nv.clockMHz(nvml::NVML_CLOCK_SM, MHz))
          Sm.push_back(MHz);
        if (Nv.clockMHz(nvml::NVML_CLOCK_MEM, MHz))
          Mem.push_back(MHz);
        unsigned long long Reasons;
        if (Nv.throttleReasons(Reasons)) {
          Throttle |= Reasons;
          HaveThrottle = true;
        }
        LastClock = T;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
  }
};

/// Everything one measurement holds on the device, released on scope exit.
struct DeviceScope {
  Gpu &G;
  CUmodule Module = nullptr;
  std::vector<CUdeviceptr> Buffers;
  std::vector<CUevent> Events;
  bool Lost = false;

  explicit DeviceScope(Gpu &G) : G(G) {}
  ~DeviceScope() {
    if (Lost)
      return; // the context is reset as a whole
    for (CUevent E : Events)
      G.Cu.cuEventDestroy(E);
    for (CUdeviceptr P : Buffers)
      if (P)
        G.Cu.cuMemFree(P);
    if (Module)
      G.Cu.cuModuleUnload(Module);
  }
};

/// Packs one scalar argument into an 8-byte slot, as the kernel reads it.
void packScalar(const ArgSpec &A, uint64_t &Slot) {
  Slot = 0;
  switch (A.Type) {
  case ElemType::F16: {
    uint16_t H = energy_ref::floatToHalf(static_cast<float>(A.Value));
    std::memcpy(&Slot, &H, 2);
    return;
  }
  case ElemType::F32: {
    float F = static_cast<float>(A.Value);
    std::memcpy(&Slot, &F, 4);
    return;
  }
  case ElemType::F64: std::memcpy(&Slot, &A.Value, 8); return;
  case ElemType::I32:
  case ElemType::U32: {
    uint32_t U = static_cast<uint32_t>(A.IntValue);
    std::memcpy(&Slot, &U, 4);
    return;
  }
  case ElemType::I64: std::memcpy(&Slot, &A.IntValue, 8); return;
  case ElemType::U8: {
    uint8_t U = static_cast<uint8_t>(A.IntValue);
    std::memcpy(&Slot, &U, 1);
    return;
  }
  default: return;
  }
}

class Measurer {
public:
  Measurer(Gpu &G, const KernelSpec &K, const ConfigSpec &C, const HostData &Data,
           const MeasureOptions &Opts)
      : G(G), Cu(G.Cu), K(K), C(C), Data(Data), Opts(Opts), Scope(G) {}

  Measurement run() {
    if (load() && upload() && check() && warmUp() && energyRun() &&
        (M.EnergySpread > Opts.MaxEnergySpread || M.TimeSpread > Opts.MaxTimeSpread)) {
      double Energy = M.EnergySpread, Time = M.TimeSpread;
      if (energyRun()) {
        M.Remeasured = true;
        M.FirstEnergySpread = Energy;
        M.FirstTimeSpread = Time;
      }
    }
    M.ContextLost = Scope.Lost;
    return M;
  }

private:
  Gpu &G;
  CudaDriver &Cu;
  const KernelSpec &K;
  const ConfigSpec &C;
  const HostData &Data;
  const MeasureOptions &Opts;
  DeviceScope Scope;
  Measurement M;
  CUfunction Fn = nullptr;
  std::vector<uint64_t> Slots;
  std::vector<void *> Params;
  double LaunchSeconds = 0; // per-launch estimate after warm-up

  bool fail(const char *Failure, const std::string &Error) {
    M.Status = "failed";
    M.Failure = Failure;
    M.Error = Error;
    return false;
  }
  bool cudaFail(const char *Failure, const char *Call, CUresult R) {
    if (isStickyError(R))
      Scope.Lost = true;
    return fail(Failure, std::string(Call) + ": " + Cu.describe(R));
  }

  bool load() {
    std::string Ptx, Why;
    if (!readFile(C.PtxPath, Ptx, Why))
      return fail("load", C.PtxPath + ": cannot read: " + Why);
    char ErrorLog[8192] = {0};
    CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *Values[] = {ErrorLog, reinterpret_cast<void *>(uintptr_t(sizeof ErrorLog))};
    CUresult R = Cu.cuModuleLoadDataEx(&Scope.Module, Ptx.c_str(), 2, Options, Values);
    if (R != CUDA_SUCCESS) {
      Scope.Module = nullptr;
      cudaFail("load", "cuModuleLoadDataEx", R);
      if (ErrorLog[0])
        M.Error += std::string(" (") + ErrorLog + ")";
      return false;
    }
    if ((R = Cu.cuModuleGetFunction(&Fn, Scope.Module, K.Entry.c_str())) != CUDA_SUCCESS)
      return cudaFail("load", "cuModuleGetFunction", R);
    Cu.cuFuncGetAttribute(&M.Registers, CU_FUNC_ATTRIBUTE_NUM_REGS, Fn);
    Cu.cuFuncGetAttribute(&M.SpillBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, Fn);
    int MaxThreads = 0;
    Cu.cuFuncGetAttribute(&MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Fn);
    int Threads = int(C.Block[0] * C.Block[1] * C.Block[2]);
    if (MaxThreads > 0 && Threads > MaxThreads)
      return fail("resources", "block of " + std::to_string(Threads) +
                                   " threads exceeds the compiled kernel's limit of " +
                                   std::to_string(MaxThreads) + " (" +
                                   std::to_string(M.Registers) + " registers per thread)");
    if (C.DynamicSmem > 48 * 1024 &&
        (R = Cu.cuFuncSetAttribute(Fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   int(C.DynamicSmem))) != CUDA_SUCCESS)
      return cudaFail("resources", "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", R);
    return true;
  }

  bool upload() {
    for (const HostBuffer &B : Data.Inputs) {
      CUdeviceptr P = 0;
      CUresult R = Cu.cuMemAlloc(&P, B.Data.size());
      if (R != CUDA_SUCCESS)
        return cudaFail("resources", ("cuMemAlloc (buffer '" + B.Spec->Name + "')").c_str(), R);
      Scope.Buffers.push_back(P);
      if ((R = Cu.cuMemcpyHtoD(P, B.Data.data(), B.Data.size())) != CUDA_SUCCESS)
        return cudaFail("launch", "cuMemcpyHtoD", R);
    }
    Slots.assign(K.Args.size(), 0);
    for (size_t I = 0; I < K.Args.size(); ++I) {
      const ArgSpec &A = K.Args[I];
      if (A.K != ArgSpec::Kind::Buffer) {
        packScalar(A, Slots[I]);
        continue;
      }
      for (size_t B = 0; B < Data.Inputs.size(); ++B)
        if (Data.Inputs[B].Spec->Name == A.Name)
          Slots[I] = Scope.Buffers[B];
    }
    for (uint64_t &S : Slots)
      Params.push_back(&S);
    return true;
  }

  CUresult launch() {
    return Cu.cuLaunchKernel(Fn, C.Grid[0], C.Grid[1], C.Grid[2], C.Block[0], C.Block[1],
                             C.Block[2], unsigned(C.DynamicSmem), nullptr,
                             Params.empty() ? nullptr : Params.data(), nullptr);
  }

  CUevent event() {
    CUevent E = nullptr;
    if (Cu.cuEventCreate(&E, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
      return nullptr;
    Scope.Events.push_back(E);
    return E;
  }

  /// One launch on fresh inputs; every output must match the reference.
  bool check() {
    CUresult R = launch();
    if (R != CUDA_SUCCESS)
      return cudaFail("launch", "cuLaunchKernel", R);
    if ((R = Cu.cuCtxSynchronize()) != CUDA_SUCCESS)
      return cudaFail("launch", "kernel execution", R);
    if (!Opts.Check)
      return true;
    M.Checked = true;
    size_t Out = 0;
    std::vector<unsigned char> Got;
    for (size_t B = 0; B < Data.Inputs.size(); ++B) {
      const BufferSpec &S = *Data.Inputs[B].Spec;
      if (!S.Output)
        continue;
      const HostBuffer &Want = Data.Expected[Out++];
      Got.resize(S.bytes());
      if ((R = Cu.cuMemcpyDtoH(Got.data(), Scope.Buffers[B], Got.size())) != CUDA_SUCCESS)
        return cudaFail("launch", "cuMemcpyDtoH", R);
      std::string Diff = compareOutput(S, Got.data(), Want.Data.data(), K.Rel, K.Abs);
      if (!Diff.empty())
        return fail("wrong_result", Diff);
    }
    return true;
  }

  /// Times `Count` launches with events; false on a launch error.
  bool timeLaunches(long long Count, double &Seconds) {
    CUevent A = event(), B = event();
    if (!A || !B)
      return fail("launch", "cuEventCreate failed");
    Cu.cuEventRecord(A, nullptr);
    for (long long I = 0; I < Count; ++I)
      if (CUresult R = launch(); R != CUDA_SUCCESS)
        return cudaFail("launch", "cuLaunchKernel", R);
    Cu.cuEventRecord(B, nullptr);
    if (CUresult R = Cu.cuEventSynchronize(B); R != CUDA_SUCCESS)
      return cudaFail("launch", "kernel execution", R);
    float Ms = 0;
    Cu.cuEventElapsedTime(&Ms, A, B);
    Seconds = Ms * 1e-3;
    return true;
  }

  /// Launches for about WarmupSeconds so that clocks and caches settle, and
  /// estimates the time of one launch.
  bool warmUp() {
    double One = 0;
    if (!timeLaunches(1, One))
      return false;
    One = std::max(One, 1e-6);
    long long Count = std::clamp<long long>(std::llround(Opts.WarmupSeconds / One), 1, 200000);
    double Total = 0;
    if (!timeLaunches(Count, Total))
      return false;
    LaunchSeconds = std::max(Total / double(Count), 1e-7);
    return true;
  }

  /// One energy run; fills M's time, energy and run fields. False on error.
  bool energyRun() {
    long long PerBatch =
        std::clamp<long long>(std::llround(Opts.BatchSeconds / LaunchSeconds), 1, 1000000);
    const int MaxBatches = 1000;
    unsigned Temp;
    if (G.Nv.temperatureC(Temp))
      M.TempStart = int(Temp);
    G.Nv.powerLimitWatts(M.PowerLimitW);

    Sampler S(G.Nv);
    std::vector<CUevent> Marks;
    Marks.reserve(MaxBatches + 1);
    Marks.push_back(event());
    S.start();
    double HostStart = now();
    Cu.cuEventRecord(Marks[0], nullptr);
    CUresult R = CUDA_SUCCESS;
    int Batches = 0;
    while (R == CUDA_SUCCESS) {
      for (long long I = 0; I < PerBatch && R == CUDA_SUCCESS; ++I)
        R = launch();
      if (R != CUDA_SUCCESS)
        break;
      CUevent E = event();
      if (!E) {
        R = CUDA_ERROR_OUT_OF_MEMORY;
        break;
      }
      Cu.cuEventRecord(E, nullptr);
      Marks.push_back(E);
      ++Batches;
      // Stay at most two batches ahead of the GPU, so that host time tracks
      // GPU time and the GPU never runs dry.
      if (Batches >= 2 && (R = Cu.cuEventSynchronize(Marks[Batches - 2])) != CUDA_SUCCESS)
        break;
      if (Batches >= MaxBatches ||
          (Batches >= Opts.MinBatches && now() - HostStart >= Opts.EnergySeconds))
        break;
    }
    if (R == CUDA_SUCCESS)
      R = Cu.cuEventSynchronize(Marks.back());
    double HostEnd = now();
    S.stop();
    if (R != CUDA_SUCCESS)
      return cudaFail("launch", "energy run", R);
    if (G.Nv.temperatureC(Temp))
      M.TempEnd = int(Temp);

    M.Batches.clear();
    for (int B = 0; B < Batches; ++B) {
      float Ms = 0;
      Cu.cuEventElapsedTime(&Ms, Marks[B], Marks[B + 1]);
      M.Batches.push_back(Ms * 1e-3 / double(PerBatch));
    }
    float RunMs = 0;
    Cu.cuEventElapsedTime(&RunMs, Marks[0], Marks[Batches]);
    M.RunS = RunMs * 1e-3;
    M.Launches = PerBatch * Batches;
    M.TimeS = statsOf(M.Batches).Median;
    // Per-launch time of four consecutive quarters of the batches.
    std::vector<double> Quarters;
    for (int Q = 0; Q < 4 && Batches >= 4; ++Q) {
      double Sum = 0;
      int From = Batches * Q / 4, To = Batches * (Q + 1) / 4;
      for (int B = From; B < To; ++B)
        Sum += M.Batches[B];
      Quarters.push_back(Sum / (To - From));
    }
    M.TimeSpread = spreadOf(Quarters);

    std::vector<double> Watts, SampleTimes;
    for (const auto &P : S.Power)
      if (P.first >= HostStart && P.first <= HostEnd) {
        Watts.push_back(P.second);
        SampleTimes.push_back(P.first);
      }
    M.Power = statsOf(Watts);
    M.SmClock = statsOf(S.Sm);
    M.MemClock = statsOf(S.Mem);
    M.HaveThrottle = S.HaveThrottle;
    M.ThrottleMask = S.Throttle;

    // Average power between the first and last counter updates inside the
    // run, after its settling time.
    double From = HostStart + Opts.SettleSeconds;
    M.SettleS = Opts.SettleSeconds;
    std::vector<double> Times, Joules;
    for (const Sampler::Edge &E : S.Edges)
      if (E.Time > From && E.Time <= HostEnd) {
        Times.push_back(E.Time);
        Joules.push_back(double(E.MilliJoules) * 1e-3);
      }
    M.CounterUpdates = int(Times.size());
    std::vector<double> Gaps;
    for (size_t I = 1; I < Times.size(); ++I)
      Gaps.push_back(Times[I] - Times[I - 1]);
    M.UpdateGapS = statsOf(Gaps).Median;
    if (Times.size() >= 2 && Times.back() - Times.front() >= 0.5 * (HostEnd - From)) {
      M.WindowS = Times.back() - Times.front();
      M.WindowStartS = Times.front() - HostStart;
      M.AvgPowerW = (Joules.back() - Joules.front()) / M.WindowS;
      M.EnergySpread = spreadOf(subWindowPowers(Times, Joules));
      M.Method = "nvml-energy-counter";
    } else if (Opts.AllowPowerSamples && M.Power.Count >= 5) {
      // Power x time, integrated over the samples, stands in for the counter.
      std::vector<double> Cumulative(1, 0.0);
      for (size_t I = 1; I < Watts.size(); ++I)
        Cumulative.push_back(Cumulative.back() + 0.5 * (Watts[I] + Watts[I - 1]) *
                                                     (SampleTimes[I] - SampleTimes[I - 1]));
      M.AvgPowerW = M.Power.Median;
      M.WindowS = SampleTimes.back() - SampleTimes.front();
      M.WindowStartS = SampleTimes.front() - HostStart;
      M.EnergySpread = spreadOf(subWindowPowers(SampleTimes, Cumulative));
      M.Method = "nvml-power-samples";
    } else {
      M.Fatal = true;
      char Buf[64];
      std::snprintf(Buf, sizeof Buf, "%.2f", HostEnd - From);
      return fail("energy", "NVML's energy counter updated " + std::to_string(Times.size()) +
                                " time(s) in the last " + Buf +
                                " s of the run: it cannot measure energy here (" +
                                std::to_string(M.Power.Count) +
                                " power samples; --allow-power-samples measures with them)");
    }
    M.EnergyJ = M.AvgPowerW * M.RunS / double(M.Launches);
    if (!(M.TimeS > 0) || !(M.EnergyJ > 0))
      return fail("energy", "non-positive time or energy (time " + std::to_string(M.TimeS) +
                                " s, energy " + std::to_string(M.EnergyJ) + " J)");
    return true;
  }
};

} // namespace

Measurement measureConfig(Gpu &G, const KernelSpec &K, const ConfigSpec &C,
                          const HostData &Data, const MeasureOptions &Opts) {
  return Measurer(G, K, C, Data, Opts).run();
}

// cuOccupancyMaxPotentialBlockSize takes a plain function for the dynamic
// shared memory of each block size: it reads this table (one call at a time).
static const std::vector<std::pair<int, int64_t>> *SmemTable = nullptr;
static size_t CUDA_CB smemForBlock(int Threads) {
  int64_t Bytes = 0;
  int Best = -1;
  for (const auto &E : *SmemTable)
    if (E.first >= Threads && (Best < 0 || E.first < Best)) {
      Best = E.first;
      Bytes = E.second;
    }
  return size_t(Bytes);
}

OccupancyPick occupancyPick(Gpu &G, const KernelSpec &K) {
  OccupancyPick P;
  DeviceScope Scope(G);
  std::string Ptx, Why;
  if (!readFile(K.BaselinePtx, Ptx, Why)) {
    P.Error = K.BaselinePtx + ": cannot read: " + Why;
    return P;
  }
  CUresult R = G.Cu.cuModuleLoadDataEx(&Scope.Module, Ptx.c_str(), 0, nullptr, nullptr);
  CUfunction Fn = nullptr;
  if (R == CUDA_SUCCESS)
    R = G.Cu.cuModuleGetFunction(&Fn, Scope.Module, K.Entry.c_str());
  if (R == CUDA_SUCCESS) {
    SmemTable = &K.BaselineSmem;
    R = G.Cu.cuOccupancyMaxPotentialBlockSize(&P.MinGridSize, &P.BlockThreads, Fn,
                                              K.BaselineSmem.empty() ? nullptr : smemForBlock,
                                              0, 0);
    SmemTable = nullptr;
    G.Cu.cuFuncGetAttribute(&P.Registers, CU_FUNC_ATTRIBUTE_NUM_REGS, Fn);
  }
  if (R != CUDA_SUCCESS) {
    P.Error = "baseline PTX: " + G.Cu.describe(R);
    return P;
  }
  P.OK = true;
  return P;
}

Stats idlePower(Gpu &G, double Seconds) {
  std::vector<double> W;
  double End = now() + Seconds;
  while (now() < End) {
    double V;
    if (G.Nv.powerWatts(V))
      W.push_back(V);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return statsOf(W);
}

} // namespace bench
