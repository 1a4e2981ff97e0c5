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
static std::string gpuOf(const JsonValue &Row) {
  const JsonValue *G = Row.get("gpu");
  return G && G->isString() ? G->asString() : "";
}

bool readResumeState(const std::string &Path, const std::string &SweepCreated,
                     const std::string &Gpu, ResumeState &State, std::string &Error) {
  std::vector<std::string> Lines;
  if (!readLines(Path, Lines, State.Truncated, Error))
    return false;
  for (const std::string &Line : Lines) {
    if (Line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    JsonValue Row;
    std::string Why;
    const JsonValue *Kernel, *Config, *Repeat;
    if (!parseJson(Line, Row, Why) || !(Kernel = Row.get("kernel")) || !Kernel->isString() ||
        !(Config = Row.get("config")) || !Config->isString()) {
      ++State.Unreadable;
      continue;
    }
    State.Gpus.insert(gpuOf(Row));
    if (gpuOf(Row) != Gpu) {
      ++State.OtherGpus;
      continue;
    }
    ++State.Rows;
    std::string Id = Kernel->asString() + "/" + Config->asString();
    const JsonValue *Sweep = Row.get("sweep_created");
    if (Sweep && Sweep->isString() && Sweep->asString() != SweepCreated)
      ++State.FromOtherSweep;
    const JsonValue *Drift = Row.get("drift");
    if (Drift && Drift->isBool() && Drift->asBool()) {
      ++State.DriftRows[Id];
      continue;
    }
    Repeat = Row.get("repeat_index");
    State.Done.insert(doneKey(Id, Repeat && Repeat->isInteger() ? int(Repeat->asInt()) : 0));
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
    JsonValue Row;
    std::string Why;
    if (!parseJson(Line, Row, Why) || !Row.get("kernel") || !Row.get("kernel")->isString() ||
        gpuOf(Row) != Gpu)
      continue;
    const std::string &Kernel = Row.get("kernel")->asString();
    State.BaselineKernels.insert(Kernel);
    const JsonValue *Config = Row.get("config");
    if (Config && Config->isString())
      State.OccupancyPicks[Kernel] = Kernel + "/" + Config->asString();
  }
  return true;
}

std::string inflightPath(const std::string &Output) { return Output + ".inflight"; }

bool writeInFlight(const std::string &Path, const InFlight &F, std::string &Error) {
  JsonValue R = JsonValue::object();
  R.set("kernel", JsonValue::string(F.Kernel));
  R.set("config", JsonValue::string(F.Config));
  R.set("repeat_index", JsonValue::integer(F.RepeatIndex));
  R.set("drift", JsonValue::boolean(F.Drift));
  R.set("gpu", JsonValue::string(F.Gpu));
  R.set("started", JsonValue::string(F.Started));
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
  JsonValue R;
  const JsonValue *Kernel, *Config, *Repeat, *Drift, *Gpu, *Started;
  if (!parseJson(Text, R, Why) || !(Kernel = R.get("kernel")) || !Kernel->isString() ||
      !(Config = R.get("config")) || !Config->isString() ||
      !(Repeat = R.get("repeat_index")) || !Repeat->isInteger() ||
      !(Drift = R.get("drift")) || !Drift->isBool() || !(Gpu = R.get("gpu")) ||
      !Gpu->isString() || !(Started = R.get("started")) || !Started->isString()) {
    Error = Path + ": not an in-flight record" + (Why.empty() ? "" : ": " + Why);
    return false;
  }
  F.Kernel = Kernel->asString();
  F.Config = Config->asString();
  F.RepeatIndex = int(Repeat->asInt());
  F.Drift = Drift->asBool();
  F.Gpu = Gpu->asString();
  F.Started = Started->asString();
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

static JsonValue numberOrNull(double V, bool Present) {
  return Present ? JsonValue::number(V) : JsonValue::null();
}

static JsonValue dims(const unsigned D[3]) {
  JsonValue A = JsonValue::array();
  for (int I = 0; I < 3; ++I)
    A.push(JsonValue::integer(D[I]));
  return A;
}

static JsonValue statsJson(const Stats &S) {
  JsonValue O = JsonValue::object();
  O.set("median", numberOrNull(S.Median, S.Count));
  O.set("min", numberOrNull(S.Min, S.Count));
  O.set("max", numberOrNull(S.Max, S.Count));
  O.set("count", JsonValue::integer(int64_t(S.Count)));
  return O;
}

JsonValue makeRow(const Manifest &Man, const KernelSpec &K, const ConfigSpec &C,
                  const Measurement &M, const RunInfo &Info, int RepeatIndex, bool Drift) {
  bool OK = M.Status == "ok";
  JsonValue R = JsonValue::object();
  R.set("kernel", JsonValue::string(K.Name));
  R.set("config", JsonValue::string(C.Name));
  R.set("arch", JsonValue::string(Man.Arch));
  R.set("gpu", JsonValue::string(Info.Gpu));
  R.set("status", JsonValue::string(M.Status));
  if (OK) {
    R.set("time_s", JsonValue::number(M.TimeS));
    R.set("energy_j", JsonValue::number(M.EnergyJ));
  }
  R.set("analytic_time_s", numberOrNull(C.AnalyticTime, C.AnalyticTime > 0));
  R.set("analytic_energy_j", numberOrNull(C.AnalyticEnergy, C.AnalyticEnergy > 0));
  JsonValue Features = JsonValue::object();
  for (size_t I = 0; I < Man.ModelInputNames.size() && I < C.ModelInputs.size(); ++I)
    Features.set(Man.ModelInputNames[I], JsonValue::number(C.ModelInputs[I]));
  R.set("features", std::move(Features));
  if (!OK) {
    R.set("failure", JsonValue::string(M.Failure));
    R.set("error", JsonValue::string(M.Error));
  }
  R.set("block", dims(C.Block));
  R.set("grid", dims(C.Grid));
  R.set("dynamic_smem", JsonValue::integer(C.DynamicSmem));
  JsonValue Tunables = JsonValue::object();
  for (const auto &T : C.Tunables)
    Tunables.set(T.first, JsonValue::integer(T.second));
  R.set("tunables", std::move(Tunables));
  JsonValue Problem = JsonValue::object();
  for (const auto &P : K.Params)
    Problem.set(P.first, JsonValue::integer(P.second));
  R.set("problem_size", std::move(Problem));
  R.set("registers", M.Registers >= 0 ? JsonValue::integer(M.Registers) : JsonValue::null());
  R.set("spills_bytes", M.SpillBytes >= 0 ? JsonValue::integer(M.SpillBytes) : JsonValue::null());
  if (OK) {
    R.set("method", JsonValue::string(M.Method));
    R.set("launches", JsonValue::integer(M.Launches));
    JsonValue Batches = JsonValue::array();
    for (double B : M.Batches)
      Batches.push(JsonValue::number(B));
    R.set("time_batches_s", std::move(Batches));
    Stats T = statsOf(M.Batches);
    R.set("time_spread", JsonValue::number(T.Median > 0 ? (T.Max - T.Min) / T.Median : 0));
    R.set("run_s", JsonValue::number(M.RunS));
    R.set("energy_window_s", JsonValue::number(M.WindowS));
    R.set("energy_window_start_s", JsonValue::number(M.WindowStartS));
    R.set("energy_settle_s", JsonValue::number(M.SettleS));
    R.set("counter_updates", JsonValue::integer(M.CounterUpdates));
    R.set("counter_update_gap_s", numberOrNull(M.UpdateGapS, M.CounterUpdates >= 2));
    R.set("energy_spread", JsonValue::number(M.EnergySpread));
    R.set("time_spread_windows", JsonValue::number(M.TimeSpread));
    R.set("remeasured", JsonValue::boolean(M.Remeasured));
    if (M.Remeasured) {
      R.set("first_energy_spread", JsonValue::number(M.FirstEnergySpread));
      R.set("first_time_spread_windows", JsonValue::number(M.FirstTimeSpread));
    }
    R.set("throttle_reasons", M.HaveThrottle ? JsonValue::integer(int64_t(M.ThrottleMask))
                                             : JsonValue::null());
    R.set("throttle_reason_names", M.HaveThrottle
                                       ? JsonValue::string(throttleReasonNames(M.ThrottleMask))
                                       : JsonValue::null());
    R.set("power_limit_w", numberOrNull(M.PowerLimitW, M.PowerLimitW > 0));
    R.set("avg_power_w", JsonValue::number(M.AvgPowerW));
    R.set("power_samples_w", statsJson(M.Power));
    R.set("sm_clock_mhz", numberOrNull(M.SmClock.Median, M.SmClock.Count));
    R.set("mem_clock_mhz", numberOrNull(M.MemClock.Median, M.MemClock.Count));
    R.set("temp_start_c", M.TempStart >= 0 ? JsonValue::integer(M.TempStart) : JsonValue::null());
    R.set("temp_end_c", M.TempEnd >= 0 ? JsonValue::integer(M.TempEnd) : JsonValue::null());
  }
  R.set("idle_power_w", JsonValue::number(Info.IdlePowerW));
  R.set("driver", JsonValue::string(Info.Driver));
  R.set("cuda", JsonValue::string(Info.Cuda));
  R.set("seed", JsonValue::integer(int64_t(Info.Seed)));
  std::string Now = isoTimestamp();
  R.set("timestamp", JsonValue::string(Now));
  R.set("date", JsonValue::string(Now));
  R.set("repeat_index", JsonValue::integer(RepeatIndex));
  R.set("reference", JsonValue::boolean(C.Reference));
  R.set("drift", JsonValue::boolean(Drift));
  R.set("sweep_created", JsonValue::string(Man.Created));
  return R;
}

bool appendLine(FILE *F, const JsonValue &Row) {
  std::string Line = Row.str();
  Line += '\n';
  return std::fwrite(Line.data(), 1, Line.size(), F) == Line.size() && std::fflush(F) == 0 &&
         fsync(fileno(F)) == 0;
}

} // namespace bench
