//===- FeatureAnalysis.h - Static features of NVPTX kernels -----*- C++ -*-===//
//
// KernelFeaturesAnalysis (`energy-features`) computes the KernelFeatures of
// every NVPTX kernel: instruction mix weighted by estimated trip counts,
// memory traffic per address space, coalescing class, divergence, shared
// memory, register pressure.
//
//   opt -load-pass-plugin=energy.so -passes="print<energy-features>"
//       -disable-output kernel.ll
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_FEATUREANALYSIS_H
#define ENERGY_FEATUREANALYSIS_H

#include "energy/KernelFeatures.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DataLayout;
class DebugLoc;
class GlobalVariable;
class Instruction;
} // namespace llvm

namespace energy {

struct FeatureOptions {
  unsigned DefaultTripCount = energy::DefaultTripCount;
  unsigned DefaultExtent = energy::DefaultExtent;
  /// The block shape the features are for (a candidate's), or zeros when
  /// it is not known; the global footprint needs it.
  std::array<unsigned, 3> Block = {0, 0, 0};
  /// The launch's grid in blocks, or zeros when it is not known: with the
  /// sizes a bounds check compares with, it tells how many threads are past
  /// the problem's end.
  std::array<uint64_t, 3> Grid = {0, 0, 0};
  /// Values of the kernel's integer arguments in the launch the features
  /// are for (argument index from 0, value): a forced config's argN=V. Loop
  /// bounds read them as they read ENERGY_ASSUME, which they override.
  std::vector<std::pair<unsigned, unsigned>> StatedArguments;
};

/// The largest -energy-default-trip-count: nested unknown loops multiply it,
/// and beyond this a per-thread count says nothing a model can use.
constexpr unsigned MaxDefaultTripCount = 1u << 20;

/// The -energy-default-extent range: an extent of 0 would make every
/// unknown bound an empty loop, and one above 2^24 (the default workload in
/// items) a weight no launch has.
constexpr unsigned MinDefaultExtent = 1;
constexpr unsigned MaxDefaultExtent = 1u << 24;

/// Whether Value lies in [Min, Max]; else prints an `error:` naming O.
bool checkOptionBounds(const llvm::cl::Option &O, llvm::StringRef Arg,
                       unsigned Value, unsigned Min, unsigned Max);

/// Whether Arg may follow O's earlier occurrences on this command line
/// (First: the value of O's first one, kept here): a flag given again must
/// repeat its value. Else prints an `error:` naming O, where LLVM would let
/// the last occurrence win without a word. The occurrences count again from
/// one when clang resets the options for its next in-process compile.
bool checkRepeatedOption(const llvm::cl::Option &O, llvm::StringRef Arg,
                         std::string &First);

/// Parses an unsigned option, rejecting values outside [Min, Max] (and a
/// second, different value) with an `error:` while the command line is
/// parsed.
template <unsigned Min, unsigned Max>
class BoundedUnsignedParser : public llvm::cl::parser<unsigned> {
public:
  using llvm::cl::parser<unsigned>::parser;
  bool parse(llvm::cl::Option &O, llvm::StringRef ArgName, llvm::StringRef Arg,
             unsigned &Value) {
    return !checkRepeatedOption(O, Arg, First) ||
           llvm::cl::parser<unsigned>::parse(O, ArgName, Arg, Value) ||
           !checkOptionBounds(O, Arg, Value, Min, Max);
  }

private:
  std::string First;
};

/// At least one iteration: 0 would weigh every uncounted loop as never run.
constexpr unsigned MinDefaultTripCount = 1;

/// -energy-default-trip-count and -energy-default-extent.
using DefaultTripCountParser =
    BoundedUnsignedParser<MinDefaultTripCount, MaxDefaultTripCount>;
using DefaultExtentParser =
    BoundedUnsignedParser<MinDefaultExtent, MaxDefaultExtent>;

/// Features of F as if it were a kernel; called device functions are folded
/// in, weighted by how often each call executes.
KernelFeatures computeKernelFeatures(llvm::Function &F,
                                     const FeatureOptions &Opts = {});

/// The loops of F whose trip count is assumed or stated, as
/// computeKernelFeatures lists them (without those of called functions).
std::vector<AssumedTrip> assumedTrips(llvm::Function &F,
                                      const FeatureOptions &Opts = {});

/// Machine instructions I issues on NVPTX: none for debug records, lifetime
/// markers, phis, freezes, no-op casts and vector element and aggregate field moves (register renames),
/// one per lane for a vector operation, one per 16 bytes for a vector load
/// or store, else one.
unsigned issueSlots(const llvm::Instruction &I, const llvm::DataLayout &DL);

/// "file:line" of a source location, for remarks and reports; empty
/// without debug info.
std::string sourceLocation(const llvm::DebugLoc &Loc);

/// Shared-memory variables F or the functions it calls reference.
std::vector<const llvm::GlobalVariable *> sharedGlobalsUsedBy(const llvm::Function &F);

class KernelFeaturesAnalysis
    : public llvm::AnalysisInfoMixin<KernelFeaturesAnalysis> {
public:
  /// Empty for functions that are not NVPTX kernels.
  using Result = std::optional<KernelFeatures>;
  explicit KernelFeaturesAnalysis(FeatureOptions Opts = {}) : Opts(Opts) {}
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &);

private:
  FeatureOptions Opts;
  friend llvm::AnalysisInfoMixin<KernelFeaturesAnalysis>;
  static llvm::AnalysisKey Key;
};

/// `print<energy-features>`: the features of each kernel as stable text.
class KernelFeaturesPrinterPass
    : public llvm::PassInfoMixin<KernelFeaturesPrinterPass> {
public:
  explicit KernelFeaturesPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

/// Writes `{"module": ..., "kernels": [...]}` for the kernels of an NVPTX
/// module to a file (`-energy-features-json=FILE`); a no-op elsewhere.
class KernelFeaturesJSONPass
    : public llvm::PassInfoMixin<KernelFeaturesJSONPass> {
public:
  explicit KernelFeaturesJSONPass(std::string Path) : Path(std::move(Path)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  std::string Path;
};

/// Writes the JSON document of KernelFeaturesJSONPass to OS.
void writeFeaturesJSON(llvm::raw_ostream &OS, llvm::StringRef ModuleName,
                       llvm::ArrayRef<KernelFeatures> Kernels);

} // namespace energy

#endif
