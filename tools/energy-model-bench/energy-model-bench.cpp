//===- energy-model-bench.cpp - How fast the cost models score candidates -===//
//
//   energy-model-bench [--arch=sm_90] [--candidates=1000] [--repeats=21]
//                      [--model=models/sm_90.json]
//
// Times CostModel::predict on one batch of candidate launches, as the pass
// calls it: for the XGBoost model (model inputs, the analytic model inside
// them, two in-place predictions) and for the analytic model alone. Prints
// the median over the repeats, in ms per 1,000 candidates and predictions
// per second.
//
// Without --model the XGBoost model is trained here on FAKE data: rows of the
// real input width, with made-up labels. Only its size (300 rounds of depth-6
// trees per target, the defaults of `python3 -m energy.train`) matters for
// the timing; its predictions mean nothing.
//
//===----------------------------------------------------------------------===//

#include "energy/ConfigSpace.h"
#include "energy/CostModel.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <xgboost/c_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace energy;
using namespace llvm;

// --help lists these, not the options of every LLVM library linked in.
static cl::OptionCategory Category("energy-model-bench options");
static cl::opt<std::string> ArchName("arch", cl::desc("target architecture"),
                                     cl::init("sm_90"), cl::cat(Category));
static cl::opt<unsigned> Candidates("candidates",
                                    cl::desc("candidates per batch"),
                                    cl::init(1000), cl::cat(Category));
static cl::opt<unsigned> Repeats("repeats", cl::desc("timed batches"),
                                 cl::init(21), cl::cat(Category));
static cl::opt<std::string>
    ModelFile("model",
              cl::desc("an energy-xgboost-v1 model file (default: "
                       "train one on fake data)"),
              cl::cat(Category));
static cl::opt<unsigned> Rounds("rounds",
                                cl::desc("boosting rounds of the fake model"),
                                cl::init(300), cl::cat(Category));

namespace {

/// Per-thread features of a few kernel shapes, spanning memory- and
/// compute-bound.
std::vector<KernelFeatures> sampleKernels() {
  std::vector<KernelFeatures> Kernels;
  for (unsigned I = 0; I < 8; ++I) {
    KernelFeatures F;
    F.Name = "kernel" + std::to_string(I);
    F.fp32_fma = 1 << (2 * I);
    F.flops = 2 * F.fp32_fma;
    F.int_ops = 6 + I;
    F.instructions = F.fp32_fma + F.int_ops + 8;
    F.global_loads = 2 + I % 3;
    F.global_load_bytes = 4 * F.global_loads * (1 + I % 2);
    F.global_stores = 1;
    F.global_store_bytes = 4;
    F.global_coalesced = F.global_loads + F.global_stores - I % 2;
    F.global_strided = I % 2;
    F.shared_loads = I;
    F.shared_load_bytes = 4 * I;
    F.barriers = I / 2;
    F.register_estimate = 16 + 8 * (I % 4);
    F.arithmetic_intensity =
        F.flops / (F.global_load_bytes + F.global_store_bytes);
    Kernels.push_back(F);
  }
  return Kernels;
}

/// Count candidates cycling over kernels, block shapes and workloads.
std::vector<CostQuery> candidates(const std::vector<KernelFeatures> &Kernels,
                                  const GpuArch &Arch, unsigned Count) {
  std::vector<BlockShape> Shapes =
      freeBlockShapes(/*TwoD=*/false, Arch.WarpSize, Arch.MaxThreadsPerBlock);
  std::vector<CostQuery> Out;
  for (unsigned I = 0; Out.size() < Count; ++I) {
    CostQuery Q;
    Q.Features = &Kernels[I % Kernels.size()];
    Q.Arch = &Arch;
    Q.Block = Shapes[I % Shapes.size()];
    unsigned WorkPerThread = 1u << (I / Shapes.size() % 4);
    Q.Blocks = blocksForWorkload(DefaultWorkItems >> (I % 5), WorkPerThread,
                                 Q.Block);
    Q.SharedBytesPerBlock = (I % 3) * 8192;
    Q.Occ = computeOccupancy(Arch, {Q.threadsPerBlock(),
                                    unsigned(Q.Features->register_estimate),
                                    Q.SharedBytesPerBlock});
    Out.push_back(Q);
  }
  return Out;
}

Error xgboostError(const Twine &What) {
  return createStringError(What + ": " + XGBGetLastError());
}

/// One booster trained on FAKE labels (each row's last input, the analytic
/// ln energy, plus a made-up wobble); returns its XGBoost JSON.
Expected<std::string> trainFakeBooster(ArrayRef<CostQuery> Queries,
                                       unsigned Seed) {
  std::vector<float> X, Labels;
  for (size_t I = 0; I < Queries.size(); ++I) {
    appendModelInputs(Queries[I], X);
    Labels.push_back(float(X.back() + 0.3 * std::sin(double(I * 7 + Seed))));
  }
  size_t Width = X.size() / Queries.size();
  DMatrixHandle D = nullptr;
  if (XGDMatrixCreateFromMat(X.data(), Labels.size(), Width, NAN, &D))
    return xgboostError("cannot create the training matrix");
  auto FreeD = make_scope_exit([&] { XGDMatrixFree(D); });
  if (XGDMatrixSetFloatInfo(D, "label", Labels.data(), Labels.size()))
    return xgboostError("cannot set labels");
  BoosterHandle B = nullptr;
  if (XGBoosterCreate(&D, 1, &B))
    return xgboostError("cannot create a booster");
  auto FreeB = make_scope_exit([&] { XGBoosterFree(B); });
  std::string SeedText = std::to_string(Seed);
  const char *Params[][2] = {{"objective", "reg:squarederror"},
                             {"tree_method", "hist"},
                             {"max_depth", "6"},
                             {"eta", "0.1"},
                             {"subsample", "0.8"},
                             {"seed", SeedText.c_str()},
                             {"nthread", "2"},
                             {"verbosity", "0"}};
  for (auto &P : Params)
    if (XGBoosterSetParam(B, P[0], P[1]))
      return xgboostError(Twine("cannot set ") + P[0]);
  for (unsigned Iter = 0; Iter < Rounds; ++Iter)
    if (XGBoosterUpdateOneIter(B, Iter, D))
      return xgboostError("cannot train");
  bst_ulong Len = 0;
  const char *Data = nullptr;
  if (XGBoosterSaveModelToBuffer(B, R"({"format": "json"})", &Len, &Data))
    return xgboostError("cannot save");
  return std::string(Data, Len);
}

/// An energy-xgboost-v1 document with two boosters trained on fake data.
Expected<std::string> fakeModelDocument(const GpuArch &Arch) {
  std::vector<KernelFeatures> Kernels = sampleKernels();
  std::vector<CostQuery> Rows = candidates(Kernels, Arch, 2000);
  Expected<std::string> Time = trainFakeBooster(Rows, 1);
  if (!Time)
    return Time.takeError();
  Expected<std::string> Energy = trainFakeBooster(Rows, 2);
  if (!Energy)
    return Energy.takeError();
  json::Array Names;
  for (std::string &N : modelInputNames())
    Names.push_back(std::move(N));
  json::Object Doc{{"format", "energy-xgboost-v1"},
                   {"arch", Arch.Name},
                   {"feature_names", std::move(Names)},
                   {"training", json::Object{{"synthetic", true}}}};
  std::string Text;
  raw_string_ostream(Text) << json::Value(std::move(Doc));
  // The boosters' text goes in as XGBoost wrote it: XGBoost's JSON is typed,
  // and llvm::json would print 1.0 as 1.
  Text.pop_back(); // '}'
  return Text + R"(, "time_model": )" + *Time + R"(, "energy_model": )" +
         *Energy + "}";
}

/// Median seconds of one predict() over the whole batch.
Expected<double> timeModel(const CostModel &M, ArrayRef<CostQuery> Queries) {
  std::vector<CostPrediction> Out(Queries.size());
  std::vector<double> Seconds;
  for (unsigned R = 0; R <= Repeats; ++R) { // the first run warms up
    auto Start = std::chrono::steady_clock::now();
    if (Error E = M.predict(Queries, Out))
      return E;
    std::chrono::duration<double> D = std::chrono::steady_clock::now() - Start;
    if (R)
      Seconds.push_back(D.count());
  }
  std::sort(Seconds.begin(), Seconds.end());
  return Seconds[Seconds.size() / 2];
}

Error run() {
  std::optional<unsigned> Version = parseSmVersion(ArchName);
  const GpuArch *Arch = Version ? lookupGpuArch(*Version) : nullptr;
  if (!Arch)
    return createStringError("unknown architecture '" + ArchName + "'");
  if (!Candidates || !Repeats)
    return createStringError("--candidates and --repeats must be positive");

  std::string Origin, Text;
  if (ModelFile.empty()) {
    auto Start = std::chrono::steady_clock::now();
    Expected<std::string> Doc = fakeModelDocument(*Arch);
    if (!Doc)
      return Doc.takeError();
    Text = std::move(*Doc);
    std::chrono::duration<double> D = std::chrono::steady_clock::now() - Start;
    Origin = "FAKE data, in-process";
    outs() << formatv("trained a model on fake data: 2 x {0} rounds, depth 6, "
                      "{1} inputs ({2:f1} s)\n",
                      Rounds, modelInputNames().size(), D.count());
  } else {
    auto Buffer = MemoryBuffer::getFile(ModelFile, /*IsText=*/true);
    if (!Buffer)
      return createStringError("cannot read model '" + ModelFile +
                               "': " + Buffer.getError().message());
    Origin = ModelFile;
    Text = (*Buffer)->getBuffer().str();
  }
  Expected<std::unique_ptr<CostModel>> XGBoost =
      createXGBoostModel(Text, Origin);
  if (!XGBoost)
    return XGBoost.takeError();
  std::unique_ptr<CostModel> Analytic = createAnalyticModel(Arch);

  std::vector<KernelFeatures> Kernels = sampleKernels();
  std::vector<CostQuery> Queries = candidates(Kernels, *Arch, Candidates);
  outs() << formatv("{0} candidates on {1}, median of {2} batches\n",
                    Candidates, Arch->Name, Repeats);
  for (const CostModel *M : {XGBoost->get(), Analytic.get()}) {
    Expected<double> Seconds = timeModel(*M, Queries);
    if (!Seconds)
      return Seconds.takeError();
    outs() << formatv("  {0,-10} {1,8:f3} ms per 1,000 {2,12:e2} "
                      "predictions/s   {3}\n",
                      M == Analytic.get() ? "analytic" : "xgboost",
                      *Seconds / Candidates * 1000 * 1000,
                      Candidates / *Seconds, M->describe());
  }
  return Error::success();
}

} // namespace

int main(int Argc, char **Argv) {
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(Argc, Argv,
                              "times the cost models on a batch of candidates\n");
  if (Error E = run()) {
    WithColor::error(errs(), "energy-model-bench") << toString(std::move(E))
                                                   << '\n';
    return 1;
  }
  return 0;
}
