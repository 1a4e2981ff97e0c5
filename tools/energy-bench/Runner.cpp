//===- Runner.cpp - Run the measurements of a manifest --------------------===//
//
// Measures the plan (RunPlan.cpp) on the GPU: resume state, the watchdog,
// stop signals, occupancy baselines, and one row per measurement.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "Buffers.h"
#include "HostDataCache.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <time.h>
#include <unistd.h>

namespace bench {

static double now() { return monotonicSeconds(); }

static void note(const std::string &S) {
  std::fprintf(stderr, "energy-bench: %s\n", S.c_str());
  std::fflush(stderr);
}

namespace {

volatile std::sig_atomic_t StopSignal = 0;
struct timespec FirstSignalAt;

/// The first signal asks to stop; a second one more than a second later
/// stops at once. (`timeout` signals the process and then its group: the
/// echo arrives within microseconds and must not kill the run.)
void onSignal(int Sig) {
  struct timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now); // async-signal-safe
  if (!StopSignal) {
    FirstSignalAt = Now;
    StopSignal = Sig;
    return;
  }
  if (Now.tv_sec - FirstSignalAt.tv_sec +
          1e-9 * double(Now.tv_nsec - FirstSignalAt.tv_nsec) > 1.0) {
    signal(Sig, SIG_DFL);
    raise(Sig);
  }
}

void installSignalHandlers() {
  struct sigaction A;
  std::memset(&A, 0, sizeof A);
  A.sa_handler = onSignal;
  A.sa_flags = SA_RESTART;
  sigaction(SIGINT, &A, nullptr);
  sigaction(SIGTERM, &A, nullptr);
}

std::string formatSeconds(double S) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.1f s", S);
  return Buf;
}

/// Writes the occupancy-heuristic baseline of kernel K; returns the id of
/// the measured config that matches the heuristic's pick ("" if none).
std::string writeBaseline(Gpu &G, const Manifest &M, const KernelSpec &K,
                          const std::string &GpuName, FILE *F) {
  std::string Pick;
  Json R = Json::object();
  R["kernel"] = K.Name;
  R["arch"] = M.Arch;
  R["gpu"] = GpuName;
  const ConfigSpec *Default = nullptr;
  for (const ConfigSpec &C : K.Configs)
    if (C.Id == K.DefaultConfig)
      Default = &C;
  R["default_config"] = Default ? Json(Default->Name) : Json();
  R["plugin_occupancy_config"] = K.PluginOccupancyConfig.empty()
                                     ? Json()
                                     : Json(K.PluginOccupancyConfig.substr(K.Name.size() + 1));
  if (K.BaselinePtx.empty() && !Default) {
    R["method"] = "none";
    R["error"] = "the manifest has no baseline for this kernel";
  } else if (K.BaselinePtx.empty()) {
    // The tunables fix the block shape: the heuristic has nothing to pick.
    R["method"] = "fixed by tunables";
    R["config"] = Default->Name;
    R["block_threads"] = int64_t(Default->Block[0]) * Default->Block[1] * Default->Block[2];
  } else {
    OccupancyPick P = occupancyPick(G, K);
    R["method"] = "cuOccupancyMaxPotentialBlockSize";
    if (!P.OK) {
      R["error"] = P.Error;
    } else {
      R["block_threads"] = P.BlockThreads;
      R["min_grid_size"] = P.MinGridSize;
      R["registers"] = P.Registers;
      // The measured config with the default tunables and that many threads,
      // preferring the default's block height and depth.
      const ConfigSpec *Match = nullptr;
      for (const ConfigSpec &C : K.Configs) {
        if (!Default || C.Tunables != Default->Tunables ||
            int64_t(C.Block[0]) * C.Block[1] * C.Block[2] != P.BlockThreads)
          continue;
        if (!Match || (C.Block[1] == Default->Block[1] && C.Block[2] == Default->Block[2]))
          Match = &C;
      }
      R["config"] = Match ? Json(Match->Name) : Json();
      if (Match)
        Pick = Match->Id;
    }
  }
  R["timestamp"] = isoTimestamp();
  R["sweep_created"] = M.Created;
  appendLine(F, R);
  return Pick;
}

/// Ends the process when the measurement in progress passes its deadline,
/// or when a stop signal came and it does not end within a grace period: a
/// hung kernel cannot be interrupted, so the main thread is left behind.
/// Every field, and the output files, are guarded by Mu.
class Watchdog {
public:
  static constexpr double SignalGraceSeconds = 2.0;
  Watchdog(std::mutex &Mu, std::function<void()> OnTimeout, std::function<void()> OnSignal)
      : Mu(Mu), OnTimeout(std::move(OnTimeout)), OnSignal(std::move(OnSignal)) {
    Thread = std::thread([this] { loop(); });
  }
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> L(Mu);
      Quit = true;
    }
    Thread.join();
  }
  /// With Mu held: a measurement starts, with Seconds to finish (0: forever).
  void arm(double Seconds) {
    Armed = true;
    Deadline = Seconds > 0 ? monotonicSeconds() + Seconds : 0;
  }
  /// With Mu held: it ended.
  void disarm() { Armed = false; }

private:
  std::mutex &Mu;
  std::function<void()> OnTimeout, OnSignal;
  bool Armed = false, Quit = false;
  double Deadline = 0, SignalAt = 0;
  std::thread Thread;

  void loop() {
    while (true) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      std::lock_guard<std::mutex> L(Mu);
      if (Quit)
        return;
      double T = monotonicSeconds();
      if (StopSignal && SignalAt == 0)
        SignalAt = T;
      if (!Armed)
        continue;
      if (Deadline > 0 && T >= Deadline)
        OnTimeout(); // does not return
      if (SignalAt > 0 && T - SignalAt >= SignalGraceSeconds)
        OnSignal(); // does not return
    }
  }
};

} // namespace

/// The config of M with this kernel and config name, or false.
static bool findConfig(const Manifest &M, const std::string &Kernel, const std::string &Config,
                       size_t &KI, size_t &CI) {
  for (KI = 0; KI < M.Kernels.size(); ++KI)
    if (M.Kernels[KI].Name == Kernel)
      for (CI = 0; CI < M.Kernels[KI].Configs.size(); ++CI)
        if (M.Kernels[KI].Configs[CI].Name == Config)
          return true;
  return false;
}

int runMeasurements(const Manifest &M, const RunOptions &Opts) {
  const double Start = now(); // --time-limit counts from here
  installSignalHandlers();
  std::string Error;
  Gpu G;
  if (!G.open(Opts.Device, Error)) {
    note("error: " + Error +
         " (energy-bench measures on a machine with an NVIDIA GPU and its driver; "
         "--dry-run checks a manifest without one)");
    return 1;
  }
  const std::string Marker = inflightPath(Opts.Output);
  ResumeState State;
  if (Opts.Resume) {
    if (!readResumeState(Opts.Output, M.Created, G.Name, State, Error) ||
        !readBaselineKernels(baselinesPath(Opts.Output), G.Name, State, Error)) {
      note("error: " + Error);
      return 1;
    }
    if (State.Truncated)
      note("warning: " + Opts.Output + ": cut an incomplete last line");
    if (State.Unreadable)
      note("warning: " + Opts.Output + ": " + std::to_string(State.Unreadable) +
           " line(s) are not rows; ignored");
    if (State.FromOtherSweep)
      note("warning: " + Opts.Output + ": " + std::to_string(State.FromOtherSweep) +
           " row(s) come from another sweep (not created " + M.Created + ")");
    if (State.OtherGpus)
      note("note: " + Opts.Output + ": " + std::to_string(State.OtherGpus) +
           " row(s) of other GPUs are kept; this run resumes the rows of " + G.Name);
  } else {
    unlink(Marker.c_str());
  }
  FILE *Out = std::fopen(Opts.Output.c_str(), Opts.Resume ? "a" : "w");
  FILE *Baselines = std::fopen(baselinesPath(Opts.Output).c_str(), Opts.Resume ? "a" : "w");
  if (!Out || !Baselines) {
    note("error: " + std::string(!Out ? Opts.Output : baselinesPath(Opts.Output)) +
         ": cannot write: " + std::strerror(errno));
    return 1;
  }

  RunInfo Info;
  Info.Gpu = G.Name;
  Info.Driver = G.Driver;
  Info.Cuda = G.CudaVersion;
  Info.Seed = Opts.Seed;

  // A measurement that a previous process started and never finished hung
  // or crashed it: record that instead of trying it again.
  InFlight Left;
  if (readInFlight(Marker, Left, Error)) {
    size_t KI, CI;
    bool Known = findConfig(M, Left.Kernel, Left.Config, KI, CI);
    std::string Id = Left.Kernel + "/" + Left.Config;
    if (Known && (Left.Gpu != G.Name || Left.Drift || !State.Done.count(doneKey(Id, Left.RepeatIndex)))) {
      Measurement Lost;
      Lost.Status = "failed";
      Lost.Failure = "hang_or_crash";
      Lost.Error = "the run that started measuring it at " + Left.Started +
                   " ended without a result (a hung kernel, a crash or a kill); not retried";
      RunInfo LeftInfo = Info;
      LeftInfo.Gpu = Left.Gpu;
      if (!appendLine(Out, makeRow(M, M.Kernels[KI], M.Kernels[KI].Configs[CI], Lost, LeftInfo,
                                   Left.RepeatIndex, Left.Drift))) {
        note("error: " + Opts.Output + ": cannot write: " + std::strerror(errno));
        return 1;
      }
      if (Left.Gpu == G.Name && Left.Drift)
        ++State.DriftRows[Id];
      else if (Left.Gpu == G.Name)
        State.Done.insert(doneKey(Id, Left.RepeatIndex));
      note("warning: " + Id + ": the previous run did not finish measuring it (hung or "
           "crashed); recorded as 'hang_or_crash'");
    } else if (!Known) {
      note("warning: " + Marker + ": names " + Id + ", which is not in the manifest; ignored");
    }
    unlink(Marker.c_str());
  } else if (!Error.empty()) {
    note("error: " + Error);
    return 1;
  }

  size_t Total = 0;
  std::vector<PlanItem> Plan = buildPlan(M, Opts, State, Total);
  if (Plan.empty()) {
    note("nothing to do: all " + std::to_string(Total) + " measurements are in " + Opts.Output);
    return 0;
  }
  // The occupancy heuristic's pick is among the configs measured first.
  std::vector<size_t> Kernels = selectedKernels(M, Opts);
  for (size_t KI : Kernels) {
    const KernelSpec &K = M.Kernels[KI];
    if (State.BaselineKernels.insert(K.Name).second) {
      std::string Pick = writeBaseline(G, M, K, G.Name, Baselines);
      if (!Pick.empty())
        State.OccupancyPicks[K.Name] = Pick;
    }
  }
  Plan = buildPlan(M, Opts, State, Total);

  Info.IdlePowerW = idlePower(G, Opts.IdleSeconds).Median;
  note("GPU " + G.Name + ", driver " + G.Driver + ", CUDA " + G.CudaVersion + ", idle " +
       std::to_string(int(Info.IdlePowerW + 0.5)) + " W; " + std::to_string(Plan.size()) +
       " of " + std::to_string(Total) + " measurements to go");

  size_t Count = Opts.Limit >= 0 ? std::min(Plan.size(), size_t(Opts.Limit)) : Plan.size();
  HostDataCache Cache(M, Opts.Seed);
  for (size_t I = 0; I < Count; ++I)
    Cache.request(Plan[I].Kernel, Plan[I].Config);
  for (size_t KI : Kernels)
    Cache.request(KI, M.Kernels[KI].ReferenceConfig);
  Cache.start();

  // Seconds one measurement takes, at most (so far; a first guess before).
  double Longest = Opts.Measure.EnergySeconds + Opts.Measure.WarmupSeconds + 0.5;
  size_t Measured = 0, Failed = 0, Drifts = 0, NextDrift = 0;
  std::string Stopped;

  auto ShouldStop = [&]() -> bool {
    if (StopSignal) {
      Stopped = StopSignal == SIGINT ? "interrupted" : "terminated";
      return true;
    }
    if (Opts.TimeLimit > 0 && now() - Start + 1.2 * Longest > Opts.TimeLimit) {
      Stopped = "time limit";
      return true;
    }
    return false;
  };

  // The measurement in progress, for the watchdog.
  struct Current {
    size_t Kernel = 0, Config = 0;
    int RepeatIndex = 0;
    bool Drift = false;
  } Now;
  std::mutex WriteMu;
  auto Leave = [&](int Status) {
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(Status);
  };
  Watchdog Dog(
      WriteMu,
      [&] {
        const KernelSpec &K = M.Kernels[Now.Kernel];
        const ConfigSpec &C = K.Configs[Now.Config];
        Measurement Hung;
        Hung.Status = "failed";
        Hung.Failure = "timeout";
        Hung.Error = "no result after " + formatSeconds(Opts.TimeoutSeconds) +
                     " (--timeout): a hung kernel?";
        bool Written = appendLine(Out, makeRow(M, K, C, Hung, Info, Now.RepeatIndex, Now.Drift));
        unlink(Marker.c_str());
        note("error: " + C.Id + ": no result after " + formatSeconds(Opts.TimeoutSeconds) +
             " (a hung kernel?); " +
             (Written ? "wrote a 'timeout' row and stopped; the next run goes on after it"
                      : "cannot write its row: " + std::string(std::strerror(errno))));
        Leave(1);
      },
      [&] {
        unlink(Marker.c_str());
        note("stopped while measuring " + M.Kernels[Now.Kernel].Configs[Now.Config].Id +
             " (it did not end within " + formatSeconds(Watchdog::SignalGraceSeconds) +
             "); the next run measures it again");
        Leave(128 + int(StopSignal));
      });

  std::set<std::string> CheckedKernels;
  std::map<std::string, std::string> WrongKernels; // with --check kernel
  enum class Outcome { Measured, Stopped, Error };
  auto Measure = [&](size_t KI, size_t CI, int RepeatIndex, bool Drift) -> Outcome {
    const KernelSpec &K = M.Kernels[KI];
    const ConfigSpec &C = K.Configs[CI];
    // Waits for the CPU reference if need be, ready to stop meanwhile.
    while (!Cache.ready(KI, CI)) {
      if (ShouldStop())
        return Outcome::Stopped;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (ShouldStop())
      return Outcome::Stopped;
    const HostData &Data = Cache.get(KI, CI);
    MeasureOptions MO = Opts.Measure;
    MO.Check = Opts.CheckEveryConfig || !CheckedKernels.count(K.Name);
    Measurement Result;
    auto Bad = WrongKernels.find(K.Name);
    if (!Opts.CheckEveryConfig && Bad != WrongKernels.end()) {
      Result.Status = "failed";
      Result.Failure = "wrong_result";
      Result.Error = "not measured: " + Bad->second;
    } else {
      std::string Why;
      if (!writeInFlight(Marker, {K.Name, C.Name, G.Name, isoTimestamp(), RepeatIndex, Drift},
                         Why)) {
        note("error: " + Why);
        return Outcome::Error;
      }
      {
        std::lock_guard<std::mutex> L(WriteMu);
        Now = {KI, CI, RepeatIndex, Drift};
        Dog.arm(Opts.TimeoutSeconds);
      }
      double T0 = now();
      Result = measureConfig(G, K, C, Data, MO);
      Longest = std::max(Longest, now() - T0);
      if (Result.Checked)
        CheckedKernels.insert(K.Name);
      if (Result.Checked && Result.Failure == "wrong_result")
        WrongKernels[K.Name] = "config " + C.Id + " gave wrong results (" + Result.Error + ")";
    }
    {
      std::lock_guard<std::mutex> L(WriteMu);
      Dog.disarm();
      bool Written =
          Result.Fatal || appendLine(Out, makeRow(M, K, C, Result, Info, RepeatIndex, Drift));
      unlink(Marker.c_str());
      if (!Written) {
        note("error: " + Opts.Output + ": cannot write: " + std::strerror(errno));
        return Outcome::Error;
      }
    }
    if (Result.Fatal) {
      note("error: " + C.Id + ": " + Result.Error);
      return Outcome::Error;
    }
    char Line[512];
    if (Result.Status == "ok")
      std::snprintf(Line, sizeof Line,
                    "%s%s: %.4g s, %.4g J per launch (%.0f W, %lld launches, %d counter "
                    "updates, spread %.1f%% energy %.1f%% time%s)",
                    C.Id.c_str(), Drift ? " (drift check)" : "", Result.TimeS, Result.EnergyJ,
                    Result.AvgPowerW, Result.Launches, Result.CounterUpdates,
                    100 * Result.EnergySpread, 100 * Result.TimeSpread,
                    Result.Remeasured ? ", re-measured" : "");
    else
      std::snprintf(Line, sizeof Line, "%s: FAILED (%s): %.300s", C.Id.c_str(),
                    Result.Failure.c_str(), Result.Error.c_str());
    note(Line);
    if (Result.Status != "ok")
      ++Failed;
    if (Result.ContextLost) {
      std::string Why;
      if (!G.resetContext(Why)) {
        note("error: " + Why);
        return Outcome::Error;
      }
      note("note: re-created the CUDA context after that error");
    }
    return Outcome::Measured;
  };

  // The next item is the first planned one whose data is ready (the first
  // planned one if none is: then it waits), so that a slow CPU reference
  // does not hold up the GPU.
  std::vector<bool> Taken(Count, false);
  size_t Cursor = 0;
  bool DriftDue = false;
  int Status = 0;
  for (size_t Step = 0; Step < Count; ++Step) {
    while (Taken[Cursor])
      ++Cursor;
    size_t I = Cursor;
    for (size_t J = Cursor; J < Count; ++J)
      if (!Taken[J] && Cache.ready(Plan[J].Kernel, Plan[J].Config)) {
        I = J;
        break;
      }
    Taken[I] = true;
    const PlanItem &P = Plan[I];
    Outcome O = Measure(P.Kernel, P.Config, P.RepeatIndex, false);
    if (O != Outcome::Measured) {
      Status = O == Outcome::Error ? 1 : 0;
      break;
    }
    ++Measured;
    DriftDue |= Opts.DriftEvery > 0 && Measured % size_t(Opts.DriftEvery) == 0;
    if (!DriftDue || Step + 1 == Count)
      continue;
    size_t KI = Kernels[NextDrift % Kernels.size()];
    const KernelSpec &K = M.Kernels[KI];
    if (!Cache.ready(KI, K.ReferenceConfig))
      continue; // after the next measurement
    const ConfigSpec &Ref = K.Configs[K.ReferenceConfig];
    O = Measure(KI, K.ReferenceConfig, (Ref.Repeat ? 2 : 1) + State.DriftRows[Ref.Id], true);
    if (O != Outcome::Measured) {
      Status = O == Outcome::Error ? 1 : 0;
      break;
    }
    ++State.DriftRows[Ref.Id];
    ++NextDrift;
    ++Drifts;
    DriftDue = false;
  }
  {
    std::lock_guard<std::mutex> L(WriteMu);
    std::fclose(Out);
    std::fclose(Baselines);
  }

  size_t Remaining = Plan.size() - Measured;
  std::string Summary = "measured " + std::to_string(Measured) + " config(s) (" +
                        std::to_string(Failed) + " failed) and " + std::to_string(Drifts) +
                        " drift check(s) in " + formatSeconds(now() - Start) + "; ";
  if (Remaining == 0)
    Summary += "all " + std::to_string(Total) + " measurements are in " + Opts.Output;
  else
    Summary += std::to_string(Remaining) + " of " + std::to_string(Total) +
               " measurements remain" + (Stopped.empty() ? "" : " (stopped: " + Stopped + ")") +
               "; run the same command again to resume";
  note(Summary);
  if (Status == 0 && StopSignal)
    Status = 128 + int(StopSignal);
  if (!Cache.finish(1.0)) {
    // A CPU reference is still running: leave without waiting for it (the
    // output files are closed).
    Leave(Status);
  }
  return Status;
}

int checkReferences(const Manifest &M, const RunOptions &Opts) {
  for (size_t KI : selectedKernels(M, Opts)) {
    const KernelSpec &K = M.Kernels[KI];
    const ConfigSpec &C = K.Configs[K.ReferenceConfig];
    HostData D;
    makeInputs(K.buffersOf(C), Opts.Seed, K.Name, D.Inputs);
    double T0 = now();
    runReference(K, C, D);
    double Seconds = now() - T0;
    std::string Line = K.Name + ": reference ran in " + formatSeconds(Seconds) + ";";
    size_t Out = 0;
    for (const HostBuffer &In : D.Inputs) {
      if (!In.Spec->Output)
        continue;
      const HostBuffer &E = D.Expected[Out++];
      double Sum = 0;
      for (int64_t I = 0; I < In.Spec->Count; ++I)
        Sum += elementAsDouble(In.Spec->Type, E.Data.data(), I);
      char Buf[128];
      std::snprintf(Buf, sizeof Buf, " %s[%lld] sum %.6g", In.Spec->Name.c_str(),
                    static_cast<long long>(In.Spec->Count), Sum);
      Line += Buf;
      if (E.Data == In.Data)
        Line += " (unchanged: does the reference write it?)";
    }
    std::printf("%s\n", Line.c_str());
  }
  return 0;
}

} // namespace bench
