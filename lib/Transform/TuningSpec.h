//===- TuningSpec.h - The tuning contract as found in IR --------*- C++ -*-===//
//
// Reads what energy.cuh leaves in a device module: kernels opted in through
// `llvm.global.annotations` ("energy.tune:record=...;block=TX,TY", or for an
// instantiation of a kernel template "energy.tune:block=TX,TY" with a pointer
// to the instantiation's record as the annotation's argument), tunables
// (`__energy_tunable_<NAME>` = {value, kind, candidates...}), resizable
// shared arrays ("energy.shape:SPEC"), per-kernel workloads, block rules
// and dynamic shared memory, recorded default blocks, and the
// `-energy-force-config` syntax.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_TUNINGSPEC_H
#define ENERGY_LIB_TUNINGSPEC_H

#include "ToolchainResources.h"
#include "energy/ConfigSpace.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class LLVMContext;
class Module;
class StructType;
} // namespace llvm

namespace energy {

constexpr llvm::StringLiteral TunablePrefix = "__energy_tunable_";
constexpr llvm::StringLiteral RecordPrefix = "__energy_launch_";
constexpr llvm::StringLiteral WorkloadPrefix = "__energy_workload_";
constexpr llvm::StringLiteral GridPrefix = "__energy_grid_";
constexpr llvm::StringLiteral RulesPrefix = "__energy_rules_";
constexpr llvm::StringLiteral DynamicSharedPrefix = "__energy_dynamic_shared_";

/// One dimension of a shared array: Name * Mul + Add (Name may be empty, a
/// tunable, or BLOCK_X / BLOCK_Y / BLOCK_Z).
struct StatedBlockRules;

struct ShapeDim {
  std::string Name;
  int64_t Mul = 1;
  int64_t Add = 0;
};

llvm::Expected<std::vector<ShapeDim>> parseShapeSpec(llvm::StringRef Spec);

/// Values a shape spec may refer to.
using ValueMap = std::map<std::string, int64_t, std::less<>>;
llvm::Expected<int64_t> evaluateDim(const ShapeDim &D, const ValueMap &Values);

struct TunableVar {
  Tunable Info;
  llvm::GlobalVariable *Var = nullptr;
};

/// A kernel opted in by ENERGY_KERNEL*.
struct KernelAnnotation {
  std::string Record; // __energy_launch_<name>, or its template's mangled
                      // instantiation (_Z21__energy_launch_scaleIfLi4EE)
  std::optional<std::array<std::string, 2>> BlockTunables; // tunables for x, y
};

struct ModuleTuningInfo {
  llvm::DenseMap<const llvm::Function *, KernelAnnotation> Kernels;
  llvm::DenseMap<const llvm::GlobalVariable *, std::vector<ShapeDim>> SharedShapes;
  std::vector<TunableVar> Tunables;
};

/// What a record's name says of its kernel: __energy_launch_saxpy,
/// a::__energy_launch_k or __energy_launch_scale<float, 4> (demangled).
struct RecordName {
  std::string Qualifier; // "a::", or empty
  std::string Kernel;    // "saxpy", "k", or the template's "scale"
  std::optional<std::string> Args; // "float, 4" for an instantiation
  /// "saxpy", "a::k", "scale<float, 4>".
  std::string display() const;
};
/// Record names (mangled or not) that are not energy.cuh's have none.
std::optional<RecordName> parseRecordName(llvm::StringRef Record);

/// The type of energy::launch_record, {[3 x i32], i32, i32} (block, dynamic
/// shared memory, items per thread), in Ctx.
llvm::StructType *launchRecordType(llvm::LLVMContext &Ctx);

/// Whether Record can hold an energy::launch_record (an error naming it if
/// not): writing one into another type would break the module.
llvm::Error checkLaunchRecord(const llvm::GlobalVariable &Record);

/// Everything energy.cuh put in M; malformed annotations, and records that
/// are not energy::launch_records, are errors.
llvm::Expected<ModuleTuningInfo> readTuningInfo(llvm::Module &M);

/// F and every defined function it calls, transitively, F first.
std::vector<llvm::Function *> callTree(llvm::Function &F);

/// The tunables F reads, directly or through functions it calls.
std::vector<const TunableVar *> tunablesReadBy(llvm::Function &F,
                                               const ModuleTuningInfo &Info);

/// "saxpy" for a kernel with record __energy_launch_saxpy, "scale<float, 4>"
/// for an instantiation with record __energy_launch_scale<float, 4>, else the
/// IR name: the name ENERGY_WORKLOAD uses.
std::string kernelDisplayName(const llvm::Function &F,
                              const ModuleTuningInfo &Info);

/// The names -energy-force-config may give F: kernelDisplayName, the IR
/// name and, for a mangled name (_Z3fooIiEvPf), the demangled signature
/// ("void foo<int>(float*)"), function name ("foo<int>") and base name
/// ("foo").
std::vector<std::string> kernelNames(const llvm::Function &F,
                                     const ModuleTuningInfo &Info);

/// `<kernel>:<block>[,grid=GXxGYxGZ][,argN=V...][,registers=R[,stack_frame=B]
/// [,spill_stores=B][,spill_loads=B]][,NAME=V...]`, e.g.
/// "sgemm:16x16,TILE=16"; ':' may replace ',' (pass parameters cannot
/// contain ','). A tunable, argument or resource given twice is an error.
struct ForcedConfig {
  std::string Kernel;
  BlockShape Block;
  std::vector<std::pair<std::string, int>> Values;
  /// grid=GXxGYxGZ: the blocks the host launches, which then set the
  /// workload (Kernel Tuner's grid divisors, a measured launch).
  std::optional<std::array<uint64_t, 3>> Grid;
  /// argN=V: the launch passes V as the kernel's integer argument N
  /// (counted from 1, as remarks name an unnamed argument), for the loop
  /// bounds that read it. Stored as (N - 1, V).
  std::vector<std::pair<unsigned, unsigned>> Arguments;
  /// registers=R (with stack_frame=, spill_stores=, spill_loads=, in bytes,
  /// 0 unless given): what the toolchain that builds the binary reports for
  /// it (`ptxas -v`, `nvcc --resource-usage`). The plugin can only compile
  /// clang's code; an nvcc build of the same source can need far fewer
  /// registers, and these then replace its own ptxas run.
  std::optional<KernelResources> Resources;

  /// The same block, grid, tunable and argument values, in any order.
  bool sameConfig(const ForcedConfig &Other) const;
};
llvm::Expected<ForcedConfig> parseForcedConfig(llvm::StringRef S);

// What a kernel's source declares beside its tunables, found by the
// kernel's name (its record's name for the recorded block).

/// The workload: Option, else ENERGY_WORKLOAD(kernel), else the default.
uint64_t workItems(const llvm::Module &M, llvm::StringRef Name,
                   uint64_t Option);
/// The block shape recorded in the source (ENERGY_KERNEL_BLOCK's default).
std::optional<BlockShape> recordedBlock(const llvm::Module &M,
                                        llvm::StringRef Record);
/// ENERGY_BLOCK_RULES(kernel, "..."), if the source states it.
llvm::Expected<std::optional<StatedBlockRules>>
statedRules(const llvm::Module &M, llvm::StringRef Name);
/// ENERGY_DYNAMIC_SHARED(kernel, per thread, per block), if declared.
llvm::Expected<std::optional<std::array<unsigned, 2>>>
declaredDynamicShared(const llvm::Module &M, llvm::StringRef Name);
/// ENERGY_GRID(kernel, x, y, z): the grid every launch has, whatever its
/// block, if declared.
llvm::Expected<std::optional<std::array<uint64_t, 3>>>
declaredGrid(const llvm::Module &M, llvm::StringRef Name);

} // namespace energy

#endif
