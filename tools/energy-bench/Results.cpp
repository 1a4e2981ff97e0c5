//===- Results.cpp - Output rows, resume state and baselines --------------===//

#include "Results.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <unistd.h>

namespace bench {

std::string doneKey(const std::string &ConfigId, int RepeatIndex) {
  return ConfigId + "#" + std::to_string(RepeatIndex);
}

std::string baselinesPath(const std::string &Output) {
  for (const char *Ext : {".jsonl", ".ndjson"}) {
    size_t L = std::strlen(Ext);
    if (Output.size() > L && Output.compare(Output.size() - L, L, Ext) == 0)
      return Output.substr(0, Output.size() - L) + ".baselines.jsonl";
  }
  return Output + ".baselines.jsonl";
}

/// The complete lines of Path; an incomplete last line is cut from the file.
static bool readLines(const std::string &Path, std::vector<std::string> &Lines,
                      bool &Truncated, std::string &Error) {
  std::string Text, Why;
  if (!readFile(Path, Text, Why)) {
    if (errno == ENOENT)
      return true;
    Error = Path + ": cannot read: " + Why;
    return false;
  }
  size_t End = Text.size();
  if (End && Text[End - 1] != '\n') {
    End = Text.find_last_of('\n');
    End = End == std::string::npos ? 0 : End + 1;
    if (truncate(Path.c_str(), off_t(End)) != 0) {
      Error = Path + ": cannot cut the incomplete last line: " + std::strerror(errno);
      return false;
    }
    Truncated = true;
  }
  size_t Start = 0;
  while (Start < End) {
    size_t NL = Text.find('\n', Start);
    Lines.push_back(Text.substr(Start, NL - Start));
    Start = NL + 1;
  }
  return true;
}

/// The row's `gpu`, "" when it has none.
static std::string gpuOf(const Json &Row) {
  const Json *G = member(Row, "gpu");
  return G && G->is_string() ? G->get<std::string>() : "";
}

/// Member Key when it is a string.
static const Json *stringMember(const Json &Row, const char *Key) {
  const Json *V = member(Row, Key);
  return V && V->is_string() ? V : nullptr;
}

bool readResumeState(const std::string &Path, const std::string &SweepCreated,
                     const std::string &Gpu, ResumeState &State, std::string &Error) {
  std::vector<std::string> Lines;
  if (!readLines(Path, Lines, State.Truncated, Error))
    return false;
  for (const std::string &Line : Lines) {
    if (Line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    Json Row;
    std::string Why;
    const Json *Kernel, *Config, *Repeat;
    if (!parseJson(Line, Row, Why) || !(Kernel = stringMember(Row, "kernel")) ||
        !(Config = stringMember(Row, "config"))) {
      ++State.Unreadable;
      continue;
    }
    State.Gpus.insert(gpuOf(Row));
    if (gpuOf(Row) != Gpu) {
      ++State.OtherGpus;
      continue;
    }
    ++State.Rows;
    std::string Id = Kernel->get<std::string>() + "/" + Config->get<std::string>();
    const Json *Sweep = stringMember(Row, "sweep_created");
    if (Sweep && Sweep->get<std::string>() != SweepCreated)
      ++State.FromOtherSweep;
    const Json *Drift = member(Row, "drift");
    if (Drift && Drift->is_boolean() && Drift->get<bool>()) {
      ++State.DriftRows[Id];
      continue;
    }
    Repeat = member(Row, "repeat_index");
    State.Done.insert(doneKey(Id, Repeat && isInt64(*Repeat) ? int(asInt64(*Repeat)) : 0));
  }
  return true;
}

bool readBaselineKernels(const std::string &Path, const std::string &Gpu,
                         ResumeState &State, std::string &Error) {
  std::vector<std::string> Lines;
  bool Truncated = false;
  if (!readLines(Path, Lines, Truncated, Error))
    return false;
  for (const std::string &Line : Lines) {
    Json Row;
    std::string Why;
    if (!parseJson(Line, Row, Why) || !stringMember(Row, "kernel") || gpuOf(Row) != Gpu)
      continue;
    std::string Kernel = Row["kernel"].get<std::string>();
    State.BaselineKernels.insert(Kernel);
    if (const Json *Config = stringMember(Row, "config"))
      State.OccupancyPicks[Kernel] = Kernel + "/" + Config->get<std::string>();
  }
  return true;
}

std::string inflightPath(const std::string &Output) { return Output + ".inflight"; }

bool writeInFlight(const std::string &Path, const InFlight &F, std::string &Error) {
  Json R = {{"kernel", F.Kernel}, {"config", F.Config}, {"repeat_index", F.RepeatIndex},
            {"drift", F.Drift},   {"gpu", F.Gpu},       {"started", F.Started}};
  FILE *Out = std::fopen(Path.c_str(), "w");
  bool OK = Out && appendLine(Out, R);
  if (Out)
    OK &= std::fclose(Out) == 0;
  if (!OK)
    Error = Path + ": cannot write: " + std::strerror(errno);
  return OK;
}

bool readInFlight(const std::string &Path, InFlight &F, std::string &Error) {
  std::string Text, Why;
  if (!readFile(Path, Text, Why)) {
    if (errno != ENOENT)
      Error = Path + ": cannot read: " + Why;
    return false;
  }
  Json R;
  const Json *Kernel, *Config, *Repeat, *Drift, *Gpu, *Started;
  if (!parseJson(Text, R, Why) || !(Kernel = stringMember(R, "kernel")) ||
      !(Config = stringMember(R, "config")) || !(Repeat = member(R, "repeat_index")) ||
      !isInt64(*Repeat) || !(Drift = member(R, "drift")) || !Drift->is_boolean() ||
      !(Gpu = stringMember(R, "gpu")) || !(Started = stringMember(R, "started"))) {
    Error = Path + ": not an in-flight record" + (Why.empty() ? "" : ": " + Why);
    return false;
  }
  F.Kernel = Kernel->get<std::string>();
  F.Config = Config->get<std::string>();
  F.RepeatIndex = int(asInt64(*Repeat));
  F.Drift = Drift->get<bool>();
  F.Gpu = Gpu->get<std::string>();
  F.Started = Started->get<std::string>();
  return true;
}

std::string isoTimestamp() {
  std::time_t T = std::time(nullptr);
  std::tm U;
  gmtime_r(&T, &U);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", &U);
  return Buf;
}

static Json numberOrNull(double V, bool Present) { return Present ? Json(V) : Json(); }

static Json dims(const unsigned D[3]) { return Json::array({D[0], D[1], D[2]}); }

static Json statsJson(const Stats &S) {
  return {{"median", numberOrNull(S.Median, S.Count)},
          {"min", numberOrNull(S.Min, S.Count)},
          {"max", numberOrNull(S.Max, S.Count)},
          {"count", int64_t(S.Count)}};
}

Json makeRow(const Manifest &Man, const KernelSpec &K, const ConfigSpec &C,
                  const Measurement &M, const RunInfo &Info, int RepeatIndex, bool Drift) {
  bool OK = M.Status == "ok";
  Json R = Json::object();
  R["kernel"] = K.Name;
  R["config"] = C.Name;
  R["arch"] = Man.Arch;
  R["gpu"] = Info.Gpu;
  R["status"] = M.Status;
  if (OK) {
    R["time_s"] = M.TimeS;
    R["energy_j"] = M.EnergyJ;
  }
  R["analytic_time_s"] = numberOrNull(C.AnalyticTime, C.AnalyticTime > 0);
  R["analytic_energy_j"] = numberOrNull(C.AnalyticEnergy, C.AnalyticEnergy > 0);
  Json Features = Json::object();
  for (size_t I = 0; I < Man.ModelInputNames.size() && I < C.ModelInputs.size(); ++I)
    Features[Man.ModelInputNames[I]] = C.ModelInputs[I];
  R["features"] = std::move(Features);
  if (!OK) {
    R["failure"] = M.Failure;
    R["error"] = M.Error;
  }
  R["block"] = dims(C.Block);
  R["grid"] = dims(C.Grid);
  R["dynamic_smem"] = C.DynamicSmem;
  Json Tunables = Json::object();
  for (const auto &T : C.Tunables)
    Tunables[T.first] = T.second;
  R["tunables"] = std::move(Tunables);
  Json Problem = Json::object();
  for (const auto &P : K.Params)
    Problem[P.first] = P.second;
  R["problem_size"] = std::move(Problem);
  R["registers"] = M.Registers >= 0 ? Json(M.Registers) : Json();
  R["spills_bytes"] = M.SpillBytes >= 0 ? Json(M.SpillBytes) : Json();
  if (OK) {
    R["method"] = M.Method;
    R["launches"] = M.Launches;
    Json Batches = Json::array();
    for (double B : M.Batches)
      Batches.push_back(B);
    R["time_batches_s"] = std::move(Batches);
    Stats T = statsOf(M.Batches);
    R["time_spread"] = Json(T.Median > 0 ? (T.Max - T.Min) / T.Median : 0);
    R["run_s"] = M.RunS;
    R["energy_window_s"] = M.WindowS;
    R["energy_window_start_s"] = M.WindowStartS;
    R["energy_settle_s"] = M.SettleS;
    R["counter_updates"] = M.CounterUpdates;
    R["counter_update_gap_s"] = numberOrNull(M.UpdateGapS, M.CounterUpdates >= 2);
    R["energy_spread"] = M.EnergySpread;
    R["time_spread_windows"] = M.TimeSpread;
    R["remeasured"] = M.Remeasured;
    if (M.Remeasured) {
      R["first_energy_spread"] = M.FirstEnergySpread;
      R["first_time_spread_windows"] = M.FirstTimeSpread;
    }
    R["throttle_reasons"] = M.HaveThrottle ? Json(int64_t(M.ThrottleMask)) : Json();
    R["throttle_reason_names"] = M.HaveThrottle
                                       ? Json(throttleReasonNames(M.ThrottleMask))
                                       : Json();
    R["power_limit_w"] = numberOrNull(M.PowerLimitW, M.PowerLimitW > 0);
    R["avg_power_w"] = M.AvgPowerW;
    R["power_samples_w"] = statsJson(M.Power);
    R["sm_clock_mhz"] = numberOrNull(M.SmClock.Median, M.SmClock.Count);
    R["mem_clock_mhz"] = numberOrNull(M.MemClock.Median, M.MemClock.Count);
    R["temp_start_c"] = M.TempStart >= 0 ? Json(M.TempStart) : Json();
    R["temp_end_c"] = M.TempEnd >= 0 ? Json(M.TempEnd) : Json();
  }
  R["idle_power_w"] = Info.IdlePowerW;
  R["driver"] = Info.Driver;
  R["cuda"] = Info.Cuda;
  R["seed"] = int64_t(Info.Seed);
  std::string Now = isoTimestamp();
  R["timestamp"] = Now;
  R["date"] = Now;
  R["repeat_index"] = RepeatIndex;
  R["reference"] = C.Reference;
  R["drift"] = Drift;
  R["sweep_created"] = Man.Created;
  return R;
}

bool appendLine(FILE *F, const Json &Row) {
  std::string Line = toLine(Row);
  Line += '\n';
  return std::fwrite(Line.data(), 1, Line.size(), F) == Line.size() && std::fflush(F) == 0 &&
         fsync(fileno(F)) == 0;
}

} // namespace bench
