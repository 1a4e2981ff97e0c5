//===- KernelFeatures.cpp - Printing and merging kernel features ----------===//

#include "energy/KernelFeatures.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>

using namespace llvm;

namespace energy {

bool LaunchBounds::any() const {
  return MaxNTid[0] || ReqNTid[0] || MinCTASM || MaxNReg;
}

LaunchBounds LaunchBounds::requiring(const std::array<unsigned, 3> &Block) {
  LaunchBounds B;
  B.ReqNTid = Block;
  return B;
}

unsigned LaunchBounds::maxThreads() const {
  auto Product = [](const std::array<unsigned, 3> &D) {
    return std::max(D[0], 1u) * std::max(D[1], 1u) * std::max(D[2], 1u);
  };
  if (ReqNTid[0])
    return Product(ReqNTid);
  if (MaxNTid[0])
    return Product(MaxNTid);
  return 0;
}

std::array<double, KernelFeatures::NumNumeric> KernelFeatures::numeric() const {
  return {
#define ENERGY_VALUE(Field, Merge, Unit, Doc) Field,
      ENERGY_KERNEL_FEATURES(ENERGY_VALUE)
#undef ENERGY_VALUE
  };
}

bool KernelFeatures::setNumeric(StringRef Name, double Value) {
#define ENERGY_SET(Field, Merge, Unit, Doc)                                     \
  if (Name == #Field) {                                                        \
    Field = Value;                                                             \
    return true;                                                               \
  }
  ENERGY_KERNEL_FEATURES(ENERGY_SET)
#undef ENERGY_SET
  return false;
}

std::array<StringRef, KernelFeatures::NumNumeric> KernelFeatures::numericNames() {
  return {
#define ENERGY_NAME(Field, Merge, Unit, Doc) #Field,
      ENERGY_KERNEL_FEATURES(ENERGY_NAME)
#undef ENERGY_NAME
  };
}

namespace {
enum MergeKind { Weighted, Sum, Max, Or, Kernel };

void mergeField(double &Into, double From, MergeKind Kind, double Weight) {
  switch (Kind) {
  case Weighted:
    Into += From * Weight;
    return;
  case Sum:
    Into += From;
    return;
  case Max:
    Into = std::max(Into, From);
    return;
  case Or:
    Into = (Into != 0 || From != 0) ? 1 : 0;
    return;
  case Kernel:
    return;
  }
}

void mergeDims(std::string &Into, const std::string &From) {
  for (char C : From)
    if (Into.find(C) == std::string::npos)
      Into.push_back(C);
  std::sort(Into.begin(), Into.end());
}
} // namespace

std::string BoundValue::describe() const {
  if (IsArgument)
    return Name.empty() ? formatv("argument {0}", ArgNo + 1).str()
                        : "argument '" + Name + "'";
  return Name.empty() ? "a value computed in the kernel" : Name;
}

bool AssumedTrip::stated() const {
  return StatedInLoop ||
         (!Values.empty() &&
          llvm::all_of(Values, [](const BoundValue &V) { return V.Stated; }));
}

bool AssumedTrip::followsLaunch() const {
  return llvm::any_of(Values,
                      [](const BoundValue &V) { return V.LaunchExtent; });
}

/// A trip count as a reader wants it: whole, or to two decimals (a
/// grid-stride loop's average).
static std::string formatTrips(double Trips) {
  if (Trips == std::floor(Trips))
    return std::to_string(static_cast<unsigned long long>(Trips));
  return formatv("{0:F2}", Trips).str();
}

std::string AssumedTrip::describe() const {
  std::string S;
  raw_string_ostream OS(S);
  OS << "loop " << (Location.empty() ? "(compile with -g for its line)"
                                     : "at " + Location)
     << ": trip count ";
  if (StatedInLoop) {
    OS << formatTrips(TripCount) << ", stated in the loop (ENERGY_TRIP)";
    return S;
  }
  if (Values.empty()) {
    OS << "assumed " << formatTrips(TripCount)
       << " (not computable from the code; -energy-default-trip-count)";
    return S;
  }
  if (followsLaunch()) {
    OS << "assumed " << formatTrips(TripCount)
       << " (-energy-default-trip-count): the loop strides over the "
          "launch's threads by ";
    ListSeparator LS(" and ");
    for (const BoundValue &V : Values)
      OS << LS << V.describe();
    OS << ", not known here; its count follows the block and grid "
          "(ENERGY_GRID, ENERGY_WORKLOAD or a forced grid=)";
    return S;
  }
  auto Statement = [](const BoundValue &V, const std::string &Value) {
    if (V.FromLaunch)
      return V.describe() + " = " + Value + " (the forced launch's arg" +
             std::to_string(V.ArgNo + 1) + ")";
    return "ENERGY_ASSUME(" +
           (V.IsArgument && !V.Name.empty() ? V.Name : "<" + V.describe() + ">") +
           ", " + Value + ")";
  };
  if (stated()) {
    OS << formatTrips(TripCount) << ", from ";
    ListSeparator LS(" and ");
    for (const BoundValue &V : Values)
      OS << LS << Statement(V, std::to_string(V.TakenAs));
    return S;
  }
  OS << "assumed " << formatTrips(TripCount) << " (bound depends on ";
  ListSeparator LS(", ");
  for (const BoundValue &V : Values)
    OS << LS << V.describe() << (V.Stated ? ", stated as " : ", taken as ")
       << V.TakenAs;
  OS << ")";
  std::string Hint;
  for (const BoundValue &V : Values)
    if (!V.Stated && V.IsArgument)
      Hint += (Hint.empty() ? "" : " and ") + Statement(V, "value");
  if (!Hint.empty())
    OS << "; state it with " << Hint;
  return S;
}

void KernelFeatures::mergeCallee(const KernelFeatures &Callee, double Weight) {
#define ENERGY_MERGE(Field, Merge, Unit, Doc)                                  \
  mergeField(Field, Callee.Field, Merge, Weight);
  ENERGY_KERNEL_FEATURES(ENERGY_MERGE)
#undef ENERGY_MERGE
  mergeDims(Dims.ThreadIdx, Callee.Dims.ThreadIdx);
  mergeDims(Dims.BlockIdx, Callee.Dims.BlockIdx);
  mergeDims(Dims.BlockDim, Callee.Dims.BlockDim);
  mergeDims(Dims.GridDim, Callee.Dims.GridDim);
  for (const std::string &Note : Callee.Notes)
    addNote(Note);
  // A callee's loops, once however often it is called.
  for (const AssumedTrip &A : Callee.AssumedTrips)
    if (llvm::none_of(AssumedTrips, [&](const AssumedTrip &Mine) {
          return Mine.describe() == A.describe();
        }))
      AssumedTrips.push_back(A);
}

double KernelFeatures::averageExecutions() const {
  if (StaticIssueSlots <= 0)
    return 1;
  return std::max(1.0, instructions / StaticIssueSlots);
}

void KernelFeatures::addNote(StringRef Note) {
  if (!llvm::is_contained(Notes, Note))
    Notes.push_back(Note.str());
}

void KernelFeatures::finalize() {
  if (register_estimate > MaxRegistersPerThread) {
    addNote(formatv("register_estimate clamped to {0} from {1}: ptxas will "
                    "spill the rest",
                    MaxRegistersPerThread,
                    static_cast<unsigned long long>(register_estimate))
                .str());
    register_estimate = MaxRegistersPerThread;
  }
  flops = fp32_ops + fp16_ops + fp64_ops + 2 * (fp32_fma + fp16_fma + fp64_fma);
  double GlobalBytes = global_load_bytes + global_store_bytes;
  arithmetic_intensity = GlobalBytes > 0 ? flops / GlobalBytes : flops;
  ilp = critical_path > 0 ? std::max(1.0, instructions / critical_path) : 1;
  auto Reads = [](const std::string &S, char C) {
    return S.find(C) != std::string::npos;
  };
  for (const std::string *S :
       {&Dims.ThreadIdx, &Dims.BlockIdx, &Dims.BlockDim}) {
    if (Reads(*S, 'y'))
      reads_dim_y = 1;
    if (Reads(*S, 'z'))
      reads_dim_z = 1;
  }
}

bool KernelFeatures::usesBlockY() const {
  return Dims.ThreadIdx.find('y') != std::string::npos ||
         Dims.BlockDim.find('y') != std::string::npos;
}

bool KernelFeatures::doesWork() const {
  for (double Count :
       {fp32_ops, fp32_fma, fp16_ops, fp16_fma, fp64_ops, fp64_fma, int_ops,
        conversions, special_fns, global_loads, global_stores, shared_loads,
        shared_stores, local_loads, local_stores, const_loads, param_loads,
        generic_loads, generic_stores, global_atomics, shared_atomics,
        barriers, warp_shuffles, warp_votes, tensor_ops})
    if (Count > 0)
      return true;
  return false;
}

/// Stable numbers: integers print as integers, others with 6 digits.
static void printNumber(raw_ostream &OS, double V) {
  if (V == static_cast<double>(static_cast<long long>(V)))
    OS << static_cast<long long>(V);
  else
    OS << format("%.6g", V);
}

static void printTriple(raw_ostream &OS, const std::array<unsigned, 3> &T) {
  OS << T[0] << ',' << T[1] << ',' << T[2];
}

void KernelFeatures::printText(raw_ostream &OS) const {
  OS << "kernel " << Name << "\n";
#define ENERGY_PRINT(Field, Merge, Unit, Doc)                                  \
  OS << "  " #Field ": ";                                                      \
  printNumber(OS, Field);                                                      \
  OS << " " Unit "\n";
  ENERGY_KERNEL_FEATURES(ENERGY_PRINT)
#undef ENERGY_PRINT
  OS << "  dims: tid=" << Dims.ThreadIdx << " ctaid=" << Dims.BlockIdx
     << " ntid=" << Dims.BlockDim << " nctaid=" << Dims.GridDim << "\n";
  OS << "  launch_bounds: maxntid=";
  printTriple(OS, Bounds.MaxNTid);
  OS << " reqntid=";
  printTriple(OS, Bounds.ReqNTid);
  OS << " minctasm=" << Bounds.MinCTASM << " maxnreg=" << Bounds.MaxNReg
     << "\n";
  for (const std::string &Note : Notes)
    OS << "  note: " << Note << "\n";
  for (const AssumedTrip &A : AssumedTrips)
    OS << "  assumed: " << A.describe() << "\n";
}

void KernelFeatures::writeJSON(json::OStream &J) const {
  J.object([&] {
    J.attribute("kernel", Name);
    J.attributeObject("features", [&] {
#define ENERGY_JSON(Field, Merge, Unit, Doc) J.attribute(#Field, Field);
      ENERGY_KERNEL_FEATURES(ENERGY_JSON)
#undef ENERGY_JSON
    });
    J.attributeObject("dims", [&] {
      J.attribute("threadIdx", Dims.ThreadIdx);
      J.attribute("blockIdx", Dims.BlockIdx);
      J.attribute("blockDim", Dims.BlockDim);
      J.attribute("gridDim", Dims.GridDim);
    });
    J.attributeObject("launch_bounds", [&] {
      auto Triple = [&](StringRef Key, const std::array<unsigned, 3> &T) {
        J.attributeArray(Key, [&] {
          for (unsigned V : T)
            J.value(V);
        });
      };
      Triple("maxntid", Bounds.MaxNTid);
      Triple("reqntid", Bounds.ReqNTid);
      J.attribute("minctasm", Bounds.MinCTASM);
      J.attribute("maxnreg", Bounds.MaxNReg);
    });
    J.attributeArray("notes", [&] {
      for (const std::string &Note : Notes)
        J.value(Note);
    });
    J.attributeArray("assumed_trips", [&] {
      for (const AssumedTrip &A : AssumedTrips)
        J.object([&] {
          J.attribute("location", A.Location);
          J.attribute("trip_count", A.TripCount);
          J.attribute("stated", A.stated());
          if (A.followsLaunch())
            J.attribute("follows_launch", true);
          J.attributeArray("values", [&] {
            for (const BoundValue &V : A.Values)
              J.object([&] {
                J.attribute("name", V.Name);
                if (V.IsArgument)
                  J.attribute("argument", V.ArgNo);
                J.attribute("taken_as", V.TakenAs);
                J.attribute("stated", V.Stated);
                if (V.LaunchExtent)
                  J.attribute("launch_extent", true);
              });
          });
          J.attribute("note", A.describe());
        });
    });
  });
}

void KernelFeatures::printCSVHeader(raw_ostream &OS) {
  OS << "kernel";
  for (StringRef Name : numericNames())
    OS << ',' << Name;
  OS << ",tid,ctaid,ntid,nctaid,maxntid,reqntid,minctasm,maxnreg\n";
}

void KernelFeatures::printCSVRow(raw_ostream &OS) const {
  // Kernel names are C identifiers or Itanium manglings: no commas or quotes.
  OS << Name;
  for (double V : numeric()) {
    OS << ',';
    printNumber(OS, V);
  }
  OS << ',' << Dims.ThreadIdx << ',' << Dims.BlockIdx << ',' << Dims.BlockDim
     << ',' << Dims.GridDim << ',';
  auto Joined = [&](const std::array<unsigned, 3> &T) {
    OS << T[0] << 'x' << T[1] << 'x' << T[2];
  };
  Joined(Bounds.MaxNTid);
  OS << ',';
  Joined(Bounds.ReqNTid);
  OS << ',' << Bounds.MinCTASM << ',' << Bounds.MaxNReg << '\n';
}

} // namespace energy
