//===- ChoicesHeader.cpp - The choices as a C header for nvcc -------------===//
//
// The macros follow energy.cuh's contract (ENERGY_CHOICES):
//   ENERGY_CHOICE_TUNABLE_<NAME>   ~, <value>
//   ENERGY_CHOICE_KERNEL_<k>       ~, (bx, by, bz, smem, items, bounds)
//   ENERGY_CHOICE_TEMPLATE_<k>     ~, 1  (a kernel template has entries)
//   ENERGY_CHOICE_TEMPLATE_LIST_<k>(M)  M(k, (args), (bx, by, bz, smem, items))
// The leading "~," lets energy.cuh tell a defined entry from an absent one
// inside a macro expansion, where #ifdef cannot go.
//
//===----------------------------------------------------------------------===//

#include "ChoicesHeader.h"
#include "OptimizationReport.h"
#include "TuningSpec.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;

namespace energy {

namespace {

/// One instantiation of a kernel template: its template arguments as C++.
struct TemplateEntry {
  std::string Args;
  const KernelPlan *Plan;
};

/// Whether Name can be part of a macro name: letters, digits and '_', not
/// first a digit. IR names need not be ('k.1', as llvm-link renames a second
/// 'k'; '$' is an extension of some compilers only).
bool isCIdentifier(StringRef Name) {
  return !Name.empty() && !isDigit(Name.front()) &&
         llvm::all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
}

/// The record's name, when the header can name it: a C identifier, and not
/// with template arguments that have no spelling in C++ (lambdas, anonymous
/// namespaces).
std::optional<RecordName> entryName(StringRef Record) {
  auto N = parseRecordName(Record);
  if (N && !isCIdentifier(N->Kernel))
    return std::nullopt;
  if (N && N->Args)
    for (StringRef Unspellable : {"(anonymous", "lambda", "unnamed"})
      if (StringRef(*N->Args).contains(Unspellable))
        return std::nullopt;
  return N;
}

/// S for a // comment: a line break in an IR name would end it early.
std::string commentText(StringRef S) {
  std::string Out = S.str();
  for (char &C : Out)
    if (C == '\n' || C == '\r')
      C = '?';
  return Out;
}

std::string choiceTuple(const KernelPlan &P) {
  const Candidate &C = P.chosen();
  return (Twine(C.Block[0]) + ", " + Twine(C.Block[1]) + ", " +
          Twine(C.Block[2]) + ", " + Twine(P.dynamicSharedBytes(C.Block)) +
          ", " + Twine(workPerThread(P.Tunables, P.Assignments[C.Assignment])))
      .str();
}

/// The header's first definitions: energy.cuh checks the format.
constexpr const char *FormatLine = "#define ENERGY_CHOICES_FORMAT 1\n";

/// The entry of tunable Name folded to Value.
std::string tunableLine(StringRef Name, int Value) {
  return ("#define ENERGY_CHOICE_TUNABLE_" + Name + " ~, " + Twine(Value) +
          "\n")
      .str();
}

unsigned threads(const KernelPlan &P) {
  const BlockShape &B = P.chosen().Block;
  return B[0] * B[1] * B[2];
}

} // namespace

Error writeChoicesHeader(StringRef Path, StringRef ModuleName,
                         ArrayRef<KernelPlan> Plans) {
  // A tunable's entry cannot be left out as a kernel's can: its kernels'
  // entries assume its value.
  for (const KernelPlan &P : Plans) {
    if (!P.Apply)
      continue;
    for (const Tunable &T : P.Tunables)
      if (!isCIdentifier(T.Name))
        return createStringError(
            inconvertibleErrorCode(),
            "cannot write header '" + Path + "': tunable '" + T.Name +
                "' of kernel '" + P.Name +
                "' has no C identifier name for ENERGY_CHOICE_TUNABLE_<NAME>");
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write header '" + Path +
                                     "': " + EC.message());
  OS << "// The launch choices of energy.so (-energy-header) for "
     << commentText(ModuleName)
     << ".\n// Generated: do not edit. Build with it, without the plugin:\n"
        "//   nvcc -DENERGY_CHOICES='\"" << sys::path::filename(Path)
     << "\"' ... (energy.cuh reads it)\n#pragma once\n"
     << FormatLine;

  std::map<std::string, int> Tunables; // one value each: the plugin checks
  std::map<std::string, std::vector<TemplateEntry>> Templates;
  // energy.cuh looks entries up by the unqualified name: a name two
  // namespaces share has none.
  std::map<std::string, std::set<std::string>> Qualifiers;
  for (const KernelPlan &P : Plans)
    if (auto N = P.Apply ? entryName(P.Record) : std::nullopt)
      Qualifiers[N->Kernel].insert(N->Qualifier);
  for (const KernelPlan &P : Plans) {
    OS << "\n// " << commentText(P.Name) << ": "
       << commentText(explainChoice(P).str()) << "\n";
    if (!P.Apply) {
      OS << "// advice only (" << (P.UserBounded ? "launch bounds in the source"
                                                 : "not opted in")
         << "): no entry, its launches are the host's\n";
      continue;
    }
    const Assignment &Values = P.Assignments[P.chosen().Assignment];
    for (size_t I = 0; I < P.Tunables.size(); ++I)
      Tunables[P.Tunables[I].Name] = Values[I];
    auto Name = entryName(P.Record);
    if (!Name || Qualifiers[Name->Kernel].size() > 1) {
      OS << "// no entry: "
         << commentText(Name ? "kernels in several namespaces are named " +
                                   Name->Kernel
                             : "the header cannot name its record " +
                                   P.Record +
                                   " (not a C identifier, or template "
                                   "arguments C++ cannot spell)")
         << "; under ENERGY_CHOICES it keeps its declared default\n";
      continue;
    }
    if (Name->Args) {
      Templates[Name->Kernel].push_back({*Name->Args, &P});
      OS << "// (in ENERGY_CHOICE_TEMPLATE_LIST_" << Name->Kernel << ")\n";
      continue;
    }
    const std::string &K = Name->Kernel;
    const BlockShape &B = P.chosen().Block;
    OS << "#define ENERGY_CHOICE_" << K << "_BLOCK_X " << B[0] << "\n"
       << "#define ENERGY_CHOICE_" << K << "_BLOCK_Y " << B[1] << "\n"
       << "#define ENERGY_CHOICE_" << K << "_BLOCK_Z " << B[2] << "\n"
       << "#define ENERGY_CHOICE_" << K << "_DYNAMIC_SMEM "
       << P.dynamicSharedBytes(B) << "\n"
       << "#define ENERGY_CHOICE_" << K << "_ITEMS_PER_THREAD "
       << workPerThread(P.Tunables, Values) << "\n"
       << "#define ENERGY_CHOICE_" << K << "_LAUNCH_BOUNDS __launch_bounds__("
       << threads(P) << ")\n"
       << "#define ENERGY_CHOICE_KERNEL_" << K << " ~, (" << choiceTuple(P)
       << ", __launch_bounds__(" << threads(P) << "))\n";
  }

  if (!Tunables.empty())
    OS << "\n// Tunables, folded to these constants.\n";
  for (const auto &[Name, Value] : Tunables)
    OS << tunableLine(Name, Value);

  for (const auto &[Kernel, Entries] : Templates) {
    OS << "\n// Instantiations of kernel template " << Kernel
       << ": (template arguments), (block x, y, z, dynamic shared memory, "
          "items per thread).\n"
       << "#define ENERGY_CHOICE_TEMPLATE_" << Kernel << " ~, 1\n"
       << "#define ENERGY_CHOICE_TEMPLATE_LIST_" << Kernel << "(M)";
    for (const TemplateEntry &E : Entries)
      OS << " \\\n  M(" << Kernel << ", (" << E.Args << "), ("
         << choiceTuple(*E.Plan) << "))";
    OS << "\n";
  }
  return Error::success();
}

std::string
tunablesChoicesHeader(ArrayRef<std::pair<std::string, int>> Values) {
  std::string Text = std::string("#pragma once\n") + FormatLine;
  for (const auto &[Name, Value] : Values)
    Text += tunableLine(Name, Value);
  return Text;
}

} // namespace energy
