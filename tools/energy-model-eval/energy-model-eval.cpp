//===- energy-model-eval.cpp - The analytic model on recorded launches ----===//
//
//   energy-model-eval ROWS.jsonl [--constants=FILE.json | --datasheet]
//                     [--serve | --refresh=OUT.jsonl]
//
// Reads dataset rows (docs/dataset-format.md) whose features are the
// plugin's model inputs, as `python3 -m energy.kt_eval --rows` writes them,
// rebuilds each row's cost query (the kernel's features, the block, the
// grid, the occupancy and the board named by `gpu`) and predicts it with the
// analytic model. That makes the model's constants cheap to vary without
// compiling anything: the calibration (python/energy/calibrate.py) runs this
// once per family with --serve.
//
// Constants: each board's own (calibrated for its family, else the
// defaults); --datasheet: the defaults everywhere; --constants=FILE: a JSON
// object {name: value} over the defaults, for every row.
// Output: one JSON line per row, {"time_s", "energy_j", "limiter", "family",
// "constants"}: the board's architecture family and where its constants
// come from.
// --serve: reads one JSON object of constants per stdin line and answers
// each with one line, the JSON array of predicted times in row order.
// --refresh=OUT: writes the rows again with the model inputs (`features`)
// and analytic_time_s/analytic_energy_j of this build's model, so that
// rows written by an older plugin train models for this one. The kernel's
// own features are kept: a change to the feature analysis needs new rows.
//
//===----------------------------------------------------------------------===//

#include "energy/CostModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <iostream>
#include <string>

using namespace energy;
using namespace llvm;

// --help lists these, not the options of every LLVM library linked in.
static cl::OptionCategory Category("energy-model-eval options");
static cl::opt<std::string> RowsFile(cl::Positional, cl::Required,
                                     cl::desc("<rows.jsonl>"),
                                     cl::cat(Category));
static cl::opt<std::string>
    ConstantsFile("constants",
                  cl::desc("JSON object of analytic constants for every row"),
                  cl::cat(Category));
static cl::opt<bool> Datasheet("datasheet",
                               cl::desc("use the default constants everywhere"),
                               cl::cat(Category));
static cl::opt<bool>
    Serve("serve", cl::desc("answer constants from stdin, one line each"),
          cl::cat(Category));
static cl::opt<std::string>
    Refresh("refresh",
            cl::desc("write the rows with this build's model inputs to FILE"),
            cl::value_desc("FILE"), cl::cat(Category));

namespace {

/// One row's cost query and the storage it points into.
struct Row {
  KernelFeatures Features;
  CostQuery Query;
  json::Object Record; // the row as read
};

[[noreturn]] void fail(const Twine &Message) {
  WithColor::error(errs(), "energy-model-eval") << Message << '\n';
  std::exit(1);
}

double number(const json::Object &O, StringRef Key, const Twine &Where) {
  std::optional<double> V = O.getNumber(Key);
  if (!V || !std::isfinite(*V))
    fail(Where + ": no number '" + Key + "'");
  return *V;
}

Row parseRow(const json::Object &O, const Twine &Where) {
  Row R;
  std::optional<StringRef> Gpu = O.getString("gpu");
  if (!Gpu)
    fail(Where + ": no 'gpu'");
  R.Query.Arch = lookupGpuBoard(*Gpu);
  if (!R.Query.Arch)
    fail(Where + ": unknown board '" + *Gpu + "'");
  const json::Object *F = O.getObject("features");
  if (!F)
    fail(Where + ": no 'features' object");
  for (StringRef Name : KernelFeatures::numericNames())
    R.Features.setNumeric(Name, number(*F, Name, Where + ": features"));
  CostQuery &Q = R.Query; // Features is set by readRows, once Rows is built
  Q.Block = {unsigned(number(*F, "block_x", Where)),
             unsigned(number(*F, "block_y", Where)),
             unsigned(number(*F, "block_z", Where))};
  // The exact grid where the row records it; the model input is a float log.
  const json::Object *Launch = O.getObject("launch");
  std::optional<double> Blocks =
      Launch ? Launch->getNumber("grid_blocks") : std::nullopt;
  Q.Blocks =
      Blocks
          ? uint64_t(*Blocks)
          : uint64_t(std::llround(std::exp2(number(*F, "log2_blocks", Where))));
  if (const json::Array *Grid = Launch ? Launch->getArray("grid") : nullptr)
    if (!Grid->empty() && (*Grid)[0].getAsNumber())
      Q.GridColumns = uint64_t(*(*Grid)[0].getAsNumber());
  Q.SharedBytesPerBlock = unsigned(number(*F, "shared_bytes_per_block", Where));
  Q.Occ.ActiveBlocksPerSM = unsigned(number(*F, "active_blocks_per_sm", Where));
  Q.Occ.ActiveWarpsPerSM = unsigned(number(*F, "active_warps_per_sm", Where));
  Q.Occ.Fraction = number(*F, "occupancy", Where);
  return R;
}

std::vector<Row> readRows(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    fail(Path + ": cannot read: " + Buffer.getError().message());
  std::vector<Row> Rows;
  StringRef Rest = (*Buffer)->getBuffer();
  for (unsigned Line = 1; !Rest.empty(); ++Line) {
    auto [Text, Next] = Rest.split('\n');
    Rest = Next;
    if (Text.trim().empty())
      continue;
    std::string Where = (Path + ":" + Twine(Line)).str();
    Expected<json::Value> V = json::parse(Text);
    if (!V)
      fail(Where + ": invalid JSON: " + toString(V.takeError()));
    const json::Object *O = V->getAsObject();
    if (!O)
      fail(Where + ": not a JSON object");
    if (O->getString("status").value_or("ok") != "ok")
      continue;
    Rows.push_back(parseRow(*O, Where));
    Rows.back().Record = *O;
  }
  // The queries point into their own rows: fix them up once the vector
  // stops moving.
  for (Row &R : Rows)
    R.Query.Features = &R.Features;
  return Rows;
}

/// The defaults overridden by a JSON object of constants.
AnalyticConstants parseConstants(StringRef Text, const Twine &Where) {
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    fail(Where + ": invalid JSON: " + toString(V.takeError()));
  const json::Object *O = V->getAsObject();
  if (!O)
    fail(Where + ": constants must be a JSON object");
  AnalyticConstants K;
  for (const auto &[Name, Value] : *O) {
    std::optional<double> N = Value.getAsNumber();
    if (!N || !std::isfinite(*N) || *N <= 0)
      fail(Where + ": constant '" + Name.str() + "' must be a positive number");
    if (!K.set(Name, *N))
      fail(Where + ": unknown constant '" + Name.str() + "'");
  }
  return K;
}

} // namespace

int main(int Argc, char **Argv) {
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      Argc, Argv, "the analytic model on dataset rows (energy.calibrate)\n");
  if (!ConstantsFile.empty() && Datasheet)
    fail("--constants and --datasheet exclude each other");
  std::vector<Row> Rows = readRows(RowsFile);

  if (Serve) {
    std::ios::sync_with_stdio(false);
    std::string Line;
    for (unsigned N = 1; std::getline(std::cin, Line); ++N) {
      AnalyticConstants K = parseConstants(Line, "stdin:" + Twine(N));
      json::Array Times;
      for (const Row &R : Rows)
        Times.push_back(analyzeAnalytic(R.Query, K).Prediction.TimeSeconds);
      outs() << json::Value(std::move(Times)) << '\n';
      outs().flush();
    }
    return 0;
  }

  if (!Refresh.empty()) {
    if (!ConstantsFile.empty() || Datasheet)
      fail("--refresh uses each board's own constants, as the plugin does");
    std::error_code EC;
    raw_fd_ostream Out(Refresh, EC, sys::fs::OF_Text);
    if (EC)
      fail(Refresh + ": cannot write: " + EC.message());
    std::vector<std::string> Names = modelInputNames();
    for (Row &R : Rows) {
      std::vector<float> Inputs;
      appendModelInputs(R.Query, Inputs);
      CostPrediction P = analyzeAnalytic(R.Query).Prediction;
      json::Object Record = R.Record;
      Record["analytic_time_s"] = P.TimeSeconds;
      Record["analytic_energy_j"] = P.EnergyJoules;
      // Keys sorted as json::Value prints them; the features in the
      // model's order, which a json::Object would not keep.
      std::vector<StringRef> Keys;
      for (const auto &KV : Record)
        Keys.push_back(KV.first);
      llvm::sort(Keys);
      json::OStream J(Out);
      J.object([&] {
        for (StringRef Key : Keys) {
          if (Key != "features") {
            J.attribute(Key, *Record.get(Key));
            continue;
          }
          J.attributeObject("features", [&] {
            for (size_t I = 0; I < Names.size(); ++I)
              J.attribute(Names[I], double(Inputs[I]));
          });
        }
      });
      Out << '\n';
    }
    return Out.has_error() ? 1 : 0;
  }

  std::optional<AnalyticConstants> Fixed;
  if (Datasheet)
    Fixed.emplace();
  if (!ConstantsFile.empty()) {
    auto Buffer = MemoryBuffer::getFile(ConstantsFile, /*IsText=*/true);
    if (!Buffer)
      fail(ConstantsFile + ": cannot read: " + Buffer.getError().message());
    Fixed = parseConstants((*Buffer)->getBuffer(), ConstantsFile);
  }
  for (const Row &R : Rows) {
    const AnalyticConstants &K =
        Fixed ? *Fixed : analyticConstants(*R.Query.Arch);
    AnalyticBreakdown B = analyzeAnalytic(R.Query, K);
    outs() << json::Value(json::Object{{"time_s", B.Prediction.TimeSeconds},
                                       {"energy_j", B.Prediction.EnergyJoules},
                                       {"limiter", B.Limiter},
                                       {"family", archFamily(*R.Query.Arch)},
                                       {"constants", K.Origin}})
           << '\n';
  }
  return 0;
}
