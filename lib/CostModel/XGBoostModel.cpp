//===- XGBoostModel.cpp - Learned time and energy models ------------------===//
//
// Loads the energy-xgboost-v1 document written by `python3 -m energy.train`
// (docs/dataset-format.md): XGBoost 1.7 JSON models from modelInputNames().
// The time model predicts what the document's "target" says: ln(time)
// ("ln_time", also when absent) or ln(time / analytic time)
// ("ln_time_over_analytic": it learned the analytic model's error). The
// energy model, optional, predicts ln(energy); without one (the training
// data had no energy) the energy is the predicted time x the analytic
// model's average power for the same launch. Every XGBoost call is checked and
// its XGB.GetLastError() becomes the llvm::Error; the document is parsed and
// checked with llvm::json first, so a truncated or malformed file is an
// error before XGBoost sees it.
//
// XGBoost 1.7 trusts a model's tree structure: an out-of-range child or
// feature index crashes its predictor and a cycle hangs it. checkBooster()
// checks those (and the objective) first, so a corrupt file is an error.
// XGBoost then receives each booster's original bytes, not llvm::json's
// re-serialization: XGBoost's JSON is typed (1.0 is a Number, 1 an Integer,
// and it rejects one for the other), and llvm::json prints 1.0 as 1.
//
//===----------------------------------------------------------------------===//

#include "energy/CostModel.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

using namespace energy;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {

constexpr StringRef ModelFormat = "energy-xgboost-v1";

/// What the time booster predicts (the document's "target").
enum class TimeTarget { LnTime, LnTimeOverAnalytic };

// In-place prediction of all trees ("iteration_end": 0) as plain values
// ("type": 0). XGBoost 1.7 needs "cache_id"; NaN marks a missing value,
// which our inputs never are. A fixed text, not llvm::json: XGBoost reads
// its NaN literal, which JSON (and llvm::json) cannot write.
constexpr const char *PredictConfig =
    R"({"type": 0, "training": false, "iteration_begin": 0, )"
    R"("iteration_end": 0, "strict_shape": false, "cache_id": 0, )"
    R"("missing": NaN})";

std::string jsonText(llvm::json::Value V) {
  std::string Text;
  llvm::raw_string_ostream(Text) << V;
  return Text;
}

Error modelError(StringRef Origin, const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 Origin + ": " + What);
}

/// XGBoost's C API, opened on first use: the default analytic model needs
/// none of it, and loading libxgboost with its OpenMP runtime would add a
/// few milliseconds to every compile that loads the plugin.
struct XGBoostAPI {
  decltype(&::XGBGetLastError) GetLastError = nullptr;
  decltype(&::XGBSetGlobalConfig) SetGlobalConfig = nullptr;
  decltype(&::XGBoosterCreate) BoosterCreate = nullptr;
  decltype(&::XGBoosterFree) BoosterFree = nullptr;
  decltype(&::XGBoosterLoadModelFromBuffer) LoadModelFromBuffer = nullptr;
  decltype(&::XGBoosterSetParam) SetParam = nullptr;
  decltype(&::XGBoosterGetNumFeature) GetNumFeature = nullptr;
  decltype(&::XGBoosterPredictFromDense) PredictFromDense = nullptr;
};
XGBoostAPI XGB; // filled by loadXGBoost()

/// Opens ENERGY_XGBOOST_LIBRARY once per process.
Error loadXGBoost(StringRef Origin) {
  static const std::string Failure = [] {
    std::string Err;
    auto Lib = llvm::sys::DynamicLibrary::getPermanentLibrary(
        ENERGY_XGBOOST_LIBRARY, &Err);
    if (!Lib.isValid())
      return "cannot load " ENERGY_XGBOOST_LIBRARY ": " + Err;
    std::string Missing;
    auto Get = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
          Lib.getAddressOfSymbol(Name));
      if (!Fn)
        Missing += (Missing.empty() ? "" : ", ") + std::string(Name);
    };
    Get(XGB.GetLastError, "XGBGetLastError");
    Get(XGB.SetGlobalConfig, "XGBSetGlobalConfig");
    Get(XGB.BoosterCreate, "XGBoosterCreate");
    Get(XGB.BoosterFree, "XGBoosterFree");
    Get(XGB.LoadModelFromBuffer, "XGBoosterLoadModelFromBuffer");
    Get(XGB.SetParam, "XGBoosterSetParam");
    Get(XGB.GetNumFeature, "XGBoosterGetNumFeature");
    Get(XGB.PredictFromDense, "XGBoosterPredictFromDense");
    return Missing.empty() ? std::string()
                           : ENERGY_XGBOOST_LIBRARY " lacks " + Missing;
  }();
  if (!Failure.empty())
    return modelError(Origin, Failure);
  return Error::success();
}

/// Origin: <What>: <XGBoost's message>, without its "[hh:mm:ss] " time
/// stamp and the stack trace that follows it.
Error xgboostError(StringRef Origin, const llvm::Twine &What) {
  StringRef Message = XGB.GetLastError();
  Message = Message.take_front(Message.find("Stack trace:")).rtrim(" \n:");
  if (Message.starts_with("[") && Message.contains("] "))
    Message = Message.split("] ").second;
  return modelError(Origin, What + ": " + Message);
}

struct BoosterFree {
  void operator()(void *Handle) const { XGB.BoosterFree(Handle); }
};
using Booster = std::unique_ptr<void, BoosterFree>;

/// Index just past the JSON value starting at I in Text, which llvm::json
/// has accepted as valid.
size_t skipValue(StringRef Text, size_t I) {
  unsigned Depth = 0;
  for (; I < Text.size(); ++I) {
    switch (Text[I]) {
    case '"':
      for (++I; Text[I] != '"'; ++I)
        if (Text[I] == '\\')
          ++I;
      if (Depth == 0)
        return I + 1;
      break;
    case '{':
    case '[':
      ++Depth;
      break;
    case '}':
    case ']':
      if (Depth == 0) // the end of the enclosing container
        return I;
      if (--Depth == 0)
        return I + 1;
      break;
    case ',':
      if (Depth == 0)
        return I;
      break;
    }
  }
  return I;
}

/// The source text of the value of member Key of the top-level object in
/// Text (valid JSON), the last one if repeated as llvm::json keeps the last.
StringRef rawMember(StringRef Text, StringRef Key) {
  auto SkipSpace = [&](size_t I) {
    return std::min(Text.find_first_not_of(" \t\r\n", I), Text.size());
  };
  StringRef Found;
  size_t I = SkipSpace(0) + 1; // past '{'
  while (true) {
    I = SkipSpace(I);
    if (I >= Text.size() || Text[I] == '}')
      return Found;
    size_t KeyEnd = skipValue(Text, I);
    // Decode the key as llvm::json does (it may hold escapes).
    Expected<llvm::json::Value> Name =
        llvm::json::parse(Text.slice(I, KeyEnd));
    std::optional<StringRef> NameString =
        Name ? Name->getAsString() : std::nullopt;
    if (!Name)
      llvm::consumeError(Name.takeError());
    size_t Start = SkipSpace(SkipSpace(KeyEnd) + 1); // past ':'
    size_t End = skipValue(Text, Start);
    if (NameString && *NameString == Key)
      Found = Text.slice(Start, End);
    I = SkipSpace(End) + 1; // past ',' or '}'
  }
}

/// The integer in a string-valued field, as XGBoost writes its parameters
/// ("num_nodes": "15").
std::optional<int64_t> intParam(const llvm::json::Object *O, StringRef Key) {
  std::optional<StringRef> S = O ? O->getString(Key) : std::nullopt;
  int64_t V;
  if (!S || S->getAsInteger(10, V))
    return std::nullopt;
  return V;
}

/// Checks what XGBoost 1.7 trusts without checking, and would crash or hang
/// on: the tree structure (child and feature indices; its predictor goes to
/// LeftChild() + 1 for the right branch), the tree count, and a plain
/// regression objective (whose predictions are our natural logs).
Error checkBooster(const llvm::json::Object &Model, size_t NumInputs) {
  auto Bad = [](const llvm::Twine &What) {
    return llvm::createStringError(What);
  };
  const llvm::json::Object *Learner = Model.getObject("learner");
  const llvm::json::Object *Objective =
      Learner ? Learner->getObject("objective") : nullptr;
  if (!Objective || Objective->getString("name") != "reg:squarederror")
    return Bad("the objective is not reg:squarederror");
  const llvm::json::Object *Param =
      Learner->getObject("learner_model_param");
  if (intParam(Param, "num_class").value_or(-1) != 0 ||
      intParam(Param, "num_target").value_or(1) != 1)
    return Bad("the model does not predict one value");
  const llvm::json::Object *Gb = Learner->getObject("gradient_booster");
  if (!Gb || Gb->getString("name") != "gbtree")
    return Bad("the booster is not gbtree");
  const llvm::json::Object *GbModel = Gb->getObject("model");
  const llvm::json::Array *Trees =
      GbModel ? GbModel->getArray("trees") : nullptr;
  const llvm::json::Array *Info =
      GbModel ? GbModel->getArray("tree_info") : nullptr;
  if (!Trees || !Info || Info->size() != Trees->size() ||
      intParam(GbModel->getObject("gbtree_model_param"), "num_trees") !=
          int64_t(Trees->size()))
    return Bad("the tree list is malformed");
  if (intParam(Param, "num_feature") != int64_t(NumInputs))
    return Bad(llvm::formatv("it takes {0} inputs, the plugin gives {1}; "
                             "retrain the model",
                             intParam(Param, "num_feature").value_or(0),
                             NumInputs)
                   .str());

  for (size_t T = 0; T < Trees->size(); ++T) {
    auto BadNode = [&](int64_t Node, StringRef What) {
      return Bad(llvm::formatv("tree {0}, node {1}: {2}", T, Node, What).str());
    };
    const llvm::json::Object *Tree = (*Trees)[T].getAsObject();
    std::optional<int64_t> Nodes =
        intParam(Tree ? Tree->getObject("tree_param") : nullptr, "num_nodes");
    const llvm::json::Array *Left = Tree ? Tree->getArray("left_children") : nullptr;
    const llvm::json::Array *Right = Tree ? Tree->getArray("right_children") : nullptr;
    const llvm::json::Array *Split = Tree ? Tree->getArray("split_indices") : nullptr;
    const llvm::json::Array *Parents = Tree ? Tree->getArray("parents") : nullptr;
    auto HasNodes = [&](const llvm::json::Array *A) {
      return A && A->size() == size_t(*Nodes);
    };
    if (!Tree || !Nodes || *Nodes < 1 || (*Info)[T].getAsInteger() != 0 ||
        Tree->getInteger("id") != int64_t(T) || !HasNodes(Left) ||
        !HasNodes(Right) || !HasNodes(Split) || !HasNodes(Parents))
      return Bad(llvm::formatv("tree {0} is malformed", T).str());
    // XGBoost follows every node's parent link when it loads the tree.
    for (int64_t Node = 1; Node < *Nodes; ++Node) {
      std::optional<int64_t> P = (*Parents)[Node].getAsInteger();
      if (!P || *P < 0 || *P >= *Nodes)
        return BadNode(Node, "parent out of range");
    }
    if (const llvm::json::Array *Types = Tree->getArray("split_type")) {
      if (!HasNodes(Types))
        return Bad(llvm::formatv("tree {0} is malformed", T).str());
      for (const llvm::json::Value &Type : *Types)
        if (Type.getAsInteger() != 0)
          return Bad(llvm::formatv("tree {0} has categorical splits", T).str());
    }
    // Every node reachable from the root, each once.
    std::vector<bool> Seen(*Nodes);
    std::vector<int64_t> Pending = {0};
    while (!Pending.empty()) {
      int64_t Node = Pending.back();
      Pending.pop_back();
      if (Seen[Node])
        return BadNode(Node, "reached twice");
      Seen[Node] = true;
      std::optional<int64_t> L = (*Left)[Node].getAsInteger();
      std::optional<int64_t> R = (*Right)[Node].getAsInteger();
      std::optional<int64_t> F = (*Split)[Node].getAsInteger();
      if (!L || !R || !F)
        return BadNode(Node, "malformed");
      if (*L == -1 && *R == -1)
        continue; // a leaf
      if (*L < 0 || *L + 1 >= *Nodes || *R != *L + 1)
        return BadNode(Node, "children out of range");
      if (*F < 0 || uint64_t(*F) >= NumInputs)
        return BadNode(Node, "split input out of range");
      Pending.push_back(*L);
      Pending.push_back(*R);
    }
  }
  return Error::success();
}

/// One of the document's two boosters, loaded from its source text.
Expected<Booster> loadBooster(StringRef JSON, const llvm::json::Object &Doc,
                              StringRef Key, size_t NumInputs,
                              StringRef Origin) {
  const llvm::json::Value *Model = Doc.get(Key);
  if (!Model || !Model->getAsObject())
    return modelError(Origin, "'" + Key + "' is missing or not an object");
  if (Error E = checkBooster(*Model->getAsObject(), NumInputs))
    return modelError(Origin, "'" + Key + "' is not a valid XGBoost model: " +
                                  toString(std::move(E)));
  StringRef Text = rawMember(JSON, Key);

  BoosterHandle Raw = nullptr;
  if (XGB.BoosterCreate(nullptr, 0, &Raw) != 0)
    return xgboostError(Origin, "cannot create a booster for '" + Key + "'");
  Booster B(Raw);
  if (XGB.LoadModelFromBuffer(B.get(), Text.data(), Text.size()) != 0)
    return xgboostError(Origin, "cannot load '" + Key + "'");
  if (XGB.SetParam(B.get(), "nthread", "1") != 0)
    return xgboostError(Origin, "cannot configure '" + Key + "'");
  bst_ulong NumFeatures = 0;
  if (XGB.GetNumFeature(B.get(), &NumFeatures) != 0)
    return xgboostError(Origin, "cannot read the input count of '" + Key + "'");
  if (NumFeatures != NumInputs)
    return modelError(Origin, llvm::formatv("'{0}' takes {1} inputs, the "
                                            "plugin gives {2}",
                                            Key, NumFeatures, NumInputs)
                                  .str());
  return B;
}

/// The document's "target"; files written before it existed predict ln(time).
Expected<TimeTarget> parseTarget(const llvm::json::Object &Doc,
                                 StringRef Origin) {
  const llvm::json::Value *Target = Doc.get("target");
  if (!Target)
    return TimeTarget::LnTime;
  std::optional<StringRef> Name = Target->getAsString();
  if (Name == "ln_time")
    return TimeTarget::LnTime;
  if (Name == "ln_time_over_analytic")
    return TimeTarget::LnTimeOverAnalytic;
  std::string Shown =
      Name ? Name->str() : llvm::formatv("{0}", *Target).str();
  return modelError(Origin, "unknown target '" + Shown +
                                "' (expected 'ln_time' or "
                                "'ln_time_over_analytic')");
}

/// Checks that the document's feature_names are modelInputNames().
Error checkFeatureNames(const llvm::json::Object &Doc,
                        llvm::ArrayRef<std::string> Expected,
                        StringRef Origin) {
  const llvm::json::Array *Names = Doc.getArray("feature_names");
  if (!Names)
    return modelError(Origin, "'feature_names' is missing or not an array");
  auto Counts = [&] {
    return llvm::formatv("the model has {0} inputs, the plugin {1}",
                         Names->size(), Expected.size())
        .str();
  };
  for (size_t I = 0; I < std::max(Names->size(), Expected.size()); ++I) {
    std::optional<StringRef> Name;
    if (I < Names->size()) {
      Name = (*Names)[I].getAsString();
      if (!Name)
        return modelError(Origin, "feature_names[" + llvm::Twine(I) +
                                      "] is not a string");
    }
    if (I < Expected.size() && Name && *Name == Expected[I])
      continue;
    std::string Model = Name ? "'" + Name->str() + "'" : "nothing";
    std::string Plugin =
        I < Expected.size() ? "'" + Expected[I] + "'" : "nothing";
    return modelError(Origin,
                      llvm::formatv("model inputs differ from the plugin's at "
                                    "input {0}: the model has {1}, the plugin "
                                    "{2} ({3}); retrain the model",
                                    I, Model, Plugin, Counts())
                          .str());
  }
  return Error::success();
}

class XGBoostModel final : public CostModel {
public:
  /// Energy may be null: energy then follows the analytic model's power.
  XGBoostModel(Booster Time, TimeTarget Target, Booster Energy,
               std::string Description, size_t NumInputs)
      : Time(std::move(Time)), Energy(std::move(Energy)), Target(Target),
        Description(std::move(Description)), NumInputs(NumInputs) {}

  std::string describe() const override { return Description; }

  Error predict(llvm::ArrayRef<CostQuery> Queries,
                llvm::MutableArrayRef<CostPrediction> Out) const override {
    if (Queries.size() != Out.size())
      return modelError(Description,
                        llvm::formatv("{0} queries but room for {1} "
                                      "predictions",
                                      Queries.size(), Out.size())
                            .str());
    if (Queries.empty())
      return Error::success();
    std::vector<float> Matrix;
    Matrix.reserve(Queries.size() * NumInputs);
    // The analytic predictions, where the time target or energy need them.
    std::vector<CostPrediction> Analytic(
        Energy && Target == TimeTarget::LnTime ? 0 : Queries.size());
    for (size_t I = 0; I < Queries.size(); ++I) {
      if (!Queries[I].Features || !Queries[I].Arch)
        return modelError(Description,
                          "a query without features or architecture");
      appendModelInputs(Queries[I], Matrix,
                        Analytic.empty() ? nullptr : &Analytic[I]);
    }
    // A numpy-style array interface over Matrix: float32, row-major.
    std::string Values = jsonText(llvm::json::Object{
        {"data", llvm::json::Array{
                     uint64_t(reinterpret_cast<uintptr_t>(Matrix.data())),
                     true}},
        {"shape", llvm::json::Array{uint64_t(Queries.size()),
                                    uint64_t(NumInputs)}},
        {"strides", nullptr},
        {"typestr", "<f4"},
        {"version", 3}});
    if (Error E = predictLn(Time.get(), "time", Values, Out,
                            &CostPrediction::TimeSeconds))
      return E;
    if (Energy)
      if (Error E = predictLn(Energy.get(), "energy", Values, Out,
                              &CostPrediction::EnergyJoules))
        return E;
    for (size_t I = 0; I < Analytic.size(); ++I) {
      const CostPrediction &A = Analytic[I];
      if (Target == TimeTarget::LnTimeOverAnalytic)
        Out[I].TimeSeconds *= A.TimeSeconds;
      if (!Energy) // predicted time x predicted board power
        Out[I].EnergyJoules =
            Out[I].TimeSeconds * (A.EnergyJoules / A.TimeSeconds);
    }
    return Error::success();
  }

private:
  /// Runs one booster on the whole batch and stores exp(prediction).
  Error predictLn(BoosterHandle B, StringRef What, const std::string &Values,
                  llvm::MutableArrayRef<CostPrediction> Out,
                  double CostPrediction::*Field) const {
    const bst_ulong *Shape = nullptr;
    bst_ulong Dims = 0;
    const float *Result = nullptr;
    if (XGB.PredictFromDense(B, Values.c_str(), PredictConfig, nullptr,
                                  &Shape, &Dims, &Result) != 0)
      return xgboostError(Description, "cannot predict " + What);
    bst_ulong Count = 1;
    for (bst_ulong I = 0; I < Dims; ++I)
      Count *= Shape[I];
    if (Count != Out.size())
      return modelError(Description,
                        llvm::formatv("{0} {1} predictions for {2} queries",
                                      Count, What, Out.size())
                            .str());
    for (size_t I = 0; I < Out.size(); ++I) {
      double Value = std::exp(double(Result[I]));
      if (!std::isfinite(Value) || Value <= 0)
        return modelError(Description,
                          llvm::formatv("{0} prediction ln = {1} is out of "
                                        "range",
                                        What, Result[I])
                              .str());
      Out[I].*Field = Value;
    }
    return Error::success();
  }

  Booster Time, Energy;
  TimeTarget Target;
  std::string Description;
  size_t NumInputs;
};

/// "xgboost (<Origin>, sm_90, trained on <gpus>)" from what the document
/// records, then what the analytic model contributes, if anything.
std::string describeModel(const llvm::json::Object &Doc, StringRef Origin,
                          TimeTarget Target, bool HasEnergy) {
  std::string S = "xgboost (" + Origin.str();
  if (std::optional<StringRef> Arch = Doc.getString("arch"))
    S += ", " + Arch->str();
  if (const llvm::json::Object *Training = Doc.getObject("training"))
    if (const llvm::json::Array *Gpus = Training->getArray("gpus")) {
      std::string List;
      for (const llvm::json::Value &Gpu : *Gpus)
        if (std::optional<StringRef> Name = Gpu.getAsString())
          List += (List.empty() ? "" : ", ") + Name->str();
      if (!List.empty())
        S += ", trained on " + List;
    }
  if (Target == TimeTarget::LnTimeOverAnalytic)
    S += "; time = analytic time x learned factor";
  if (!HasEnergy)
    S += "; energy = time x analytic power";
  return S + ")";
}

} // namespace

Expected<std::unique_ptr<CostModel>>
energy::createXGBoostModel(StringRef JSON, StringRef Origin) {
  Expected<llvm::json::Value> Parsed = llvm::json::parse(JSON);
  if (!Parsed)
    return modelError(Origin, "invalid JSON: " + toString(Parsed.takeError()));
  const llvm::json::Object *Doc = Parsed->getAsObject();
  if (!Doc)
    return modelError(Origin, "not a model file (not a JSON object)");
  std::optional<StringRef> Format = Doc->getString("format");
  if (!Format || *Format != ModelFormat)
    return modelError(Origin, "not a model file (format is not '" +
                                  ModelFormat + "')");
  std::vector<std::string> Names = modelInputNames();
  if (Error E = checkFeatureNames(*Doc, Names, Origin))
    return E;
  Expected<TimeTarget> Target = parseTarget(*Doc, Origin);
  if (!Target)
    return Target.takeError();

  if (Error E = loadXGBoost(Origin))
    return E;
  // Process-wide, but it only silences XGBoost's own logging.
  if (XGB.SetGlobalConfig(
          jsonText(llvm::json::Object{{"verbosity", 0}}).c_str()) != 0)
    return xgboostError(Origin, "cannot configure XGBoost");
  Expected<Booster> Time =
      loadBooster(JSON, *Doc, "time_model", Names.size(), Origin);
  if (!Time)
    return Time.takeError();
  Booster Energy;
  if (Doc->get("energy_model")) {
    Expected<Booster> Loaded =
        loadBooster(JSON, *Doc, "energy_model", Names.size(), Origin);
    if (!Loaded)
      return Loaded.takeError();
    Energy = std::move(*Loaded);
  }
  std::string Description =
      describeModel(*Doc, Origin, *Target, bool(Energy));
  return std::make_unique<XGBoostModel>(std::move(*Time), *Target,
                                        std::move(Energy),
                                        std::move(Description), Names.size());
}
