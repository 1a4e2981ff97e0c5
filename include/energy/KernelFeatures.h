//===- KernelFeatures.h - Static features of one GPU kernel -----*- C++ -*-===//
//
// The feature set every part of the project agrees on: the LLVM analysis and
// the MLIR pass fill it, the cost models read it, the JSON/CSV dumps print it.
// This list is the single place where each feature and its unit is documented.
//
// Counts are per thread and weighted by the estimated number of times the
// instruction executes: the product of the trip counts of its enclosing
// loops. A loop's trip count is what an ENERGY_TRIP(count) in its body
// states, else ScalarEvolution's exact constant; a loop that strides over
// the launch's threads (grid-stride, block-strided) counts n / stride on
// average per thread with the launch's block and grid known, and the
// default below for every candidate without (lib/Features/TripCounts.h);
// else a constant maximum (not one that only the index type's range
// gives), else its symbolic count with every unknown value in the bound
// (kernel arguments ...) taken as the value an ENERGY_ASSUME(n, value) in
// the source states for it, else DefaultExtent (4096,
// `-energy-default-extent`: `k < n; k += TILE` runs 4096/TILE times), else
// DefaultTripCount (8, `-energy-default-trip-count`). Every loop whose
// count is not fixed by the code is listed in AssumedTrips, with the values
// its bound depends on, so that reports say which numbers are assumptions.
// Vector operations count once per element; texture and surface fetches
// count as global loads.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_KERNELFEATURES_H
#define ENERGY_KERNELFEATURES_H

#include "llvm/ADT/StringRef.h"
#include <array>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
namespace json {
class OStream;
}
} // namespace llvm

namespace energy {

// X(field, merge, unit, description). Field names are the JSON/CSV names.
// merge says how a called device function's features fold into its caller:
// Weighted (added, times the call site's execution count), Sum (added),
// Max, Or, or Kernel (computed once for the whole kernel).
#define ENERGY_KERNEL_FEATURES(X)                                              \
  X(instructions, Weighted, "instr/thread", "IR instructions that issue: not debug, lifetime, phi, freeze or no-op casts") \
  X(fp32_ops, Weighted, "ops/thread", "FP32 add, sub, mul, neg, compare, min/max")       \
  X(fp32_fma, Weighted, "ops/thread", "FP32 fused multiply-add (fma, fmuladd)")          \
  X(fp16_ops, Weighted, "ops/thread", "FP16 and BF16 arithmetic except FMA")             \
  X(fp16_fma, Weighted, "ops/thread", "FP16 and BF16 fused multiply-add")                \
  X(fp64_ops, Weighted, "ops/thread", "FP64 arithmetic except FMA")                      \
  X(fp64_fma, Weighted, "ops/thread", "FP64 fused multiply-add")                         \
  X(int_ops, Weighted, "ops/thread", "integer add, sub, mul, div, logic, shift, compare, select") \
  X(conversions, Weighted, "ops/thread", "int<->fp and fp<->fp conversions")             \
  X(special_fns, Weighted, "ops/thread",                                                 \
    "sqrt, rsqrt, fdiv, exp, log, sin, cos, pow, tanh (LLVM/NVVM intrinsics, libdevice)") \
  X(flops, Kernel, "flop/thread", "floating-point operations, FMA counted as 2")      \
  X(global_loads, Weighted, "accesses/thread",                                          \
    "loads from global memory, texture and surface fetches included")       \
  X(global_load_bytes, Weighted, "bytes/thread", "bytes loaded from global memory")     \
  X(global_stores, Weighted, "accesses/thread", "stores to global memory")              \
  X(global_store_bytes, Weighted, "bytes/thread", "bytes stored to global memory")      \
  X(shared_loads, Weighted, "accesses/thread", "loads from shared memory")              \
  X(shared_load_bytes, Weighted, "bytes/thread", "bytes loaded from shared memory")     \
  X(shared_stores, Weighted, "accesses/thread", "stores to shared memory")              \
  X(shared_store_bytes, Weighted, "bytes/thread", "bytes stored to shared memory")      \
  X(local_loads, Weighted, "accesses/thread", "loads from local (stack) memory")        \
  X(local_load_bytes, Weighted, "bytes/thread", "bytes loaded from local memory")       \
  X(local_stores, Weighted, "accesses/thread", "stores to local memory")                \
  X(local_store_bytes, Weighted, "bytes/thread", "bytes stored to local memory")        \
  X(const_loads, Weighted, "accesses/thread", "loads from constant memory")             \
  X(const_load_bytes, Weighted, "bytes/thread", "bytes loaded from constant memory")    \
  X(param_loads, Weighted, "accesses/thread", "loads from kernel parameter space")      \
  X(param_load_bytes, Weighted, "bytes/thread", "bytes loaded from parameter space")    \
  X(generic_loads, Weighted, "accesses/thread", "loads through unresolved generic pointers") \
  X(generic_load_bytes, Weighted, "bytes/thread", "bytes loaded through generic pointers") \
  X(generic_stores, Weighted, "accesses/thread", "stores through unresolved generic pointers") \
  X(generic_store_bytes, Weighted, "bytes/thread", "bytes stored through generic pointers") \
  X(vector_accesses, Weighted, "accesses/thread", "loads and stores of vector type (>=2 lanes)") \
  X(max_access_bytes, Max, "bytes", "widest single load or store")                  \
  X(global_atomics, Weighted, "ops/thread", "atomic RMW / cmpxchg on global memory")    \
  X(global_same_address_atomics, Weighted, "ops/thread",                               \
    "global atomics whose address every thread of the grid shares (an argument or a "  \
    "global plus constant offsets): one L2 slice performs them one after another; "    \
    "counted for a known block only (0 in a free search)")                             \
  X(shared_atomics, Weighted, "ops/thread", "atomic RMW / cmpxchg on shared memory")    \
  X(barriers, Weighted, "ops/thread", "block barriers (__syncthreads, barrier.sync)")   \
  X(barriers_after_global_loads, Weighted, "ops/thread",                               \
    "of the barriers, those with a global load on a path to them from the previous "   \
    "barrier: the block waits a memory latency there")                                 \
  X(warp_shuffles, Weighted, "ops/thread", "warp shuffles (shfl.sync)")                 \
  X(warp_votes, Weighted, "ops/thread", "warp votes, ballots and matches")             \
  X(tensor_ops, Weighted, "ops/thread", "tensor-core mma/wmma operations")             \
  X(branches, Weighted, "ops/thread", "conditional branches and switches")             \
  X(divergent_branches, Weighted, "ops/thread",                                          \
    "conditional branches whose condition depends on the thread index")      \
  X(global_coalesced, Weighted, "accesses/thread",                                       \
    "global accesses whose address advances by the access size per threadIdx.x") \
  X(global_strided, Weighted, "accesses/thread",                                         \
    "global accesses with another constant or symbolic stride per threadIdx.x") \
  X(global_irregular, Weighted, "accesses/thread",                                       \
    "global accesses whose address depends on threadIdx.x non-affinely or via loaded data") \
  X(global_uniform, Weighted, "accesses/thread",                                         \
    "global accesses whose address does not depend on threadIdx.x")          \
  X(static_shared_bytes, Kernel, "bytes/block", "statically allocated shared memory") \
  X(uses_dynamic_shared, Kernel, "0/1", "the kernel uses extern (dynamic) shared memory") \
  X(reads_dim_y, Or, "0/1", "reads threadIdx.y, blockIdx.y or blockDim.y")        \
  X(reads_dim_z, Or, "0/1", "reads threadIdx.z, blockIdx.z or blockDim.z")        \
  X(register_estimate, Max, "registers/thread",                                     \
    "peak simultaneously live 32-bit values plus 8 reserved, at most 255 (an estimate)") \
  X(local_frame_bytes, Max, "bytes/thread",                                         \
    "local memory one thread's frame holds (arrays not promoted to registers, spill slots): ptxas's stack frame where ptxas ran, else the kernel's allocas") \
  X(spill_bytes, Kernel, "bytes/thread",                                             \
    "local-memory bytes ptxas's spill loads and stores move: its static spill bytes, executed as often as the kernel's average instruction; 0 without ptxas") \
  X(arithmetic_intensity, Kernel, "flop/byte",                                         \
    "flops / (global_load_bytes + global_store_bytes); flops if no global bytes") \
  X(loops, Sum, "count", "natural loops in the kernel")                            \
  X(max_loop_depth, Max, "count", "deepest loop nesting")                          \
  X(unknown_trip_loops, Sum, "count", "loops without a constant trip count") \
  X(critical_path, Weighted, "instr/thread",                                       \
    "longest chain of dependent instructions in each basic block, summed over executions") \
  X(ilp, Kernel, "instr/step",                                                     \
    "instruction-level parallelism: instructions / critical_path (1 if none)") \
  X(shared_stride_x, Kernel, "bytes",                                              \
    "how far the most executed shared-memory access pattern moves per threadIdx.x; -1 if not a constant") \
  X(shared_stride_y, Kernel, "bytes",                                              \
    "the same per threadIdx.y (bank conflicts follow from both and the block shape)") \
  X(global_footprint_bytes, Kernel, "bytes/thread",                                \
    "distinct global bytes (whole sectors) the block's affine accesses touch, per thread of the block, the loads' and the stores' apart (a sector read and written is read and written back); 0 if the block shape is not known") \
  X(global_footprint_accessed_bytes, Kernel, "bytes/thread",                       \
    "global bytes those same accesses move per thread, repeats included")       \
  X(global_warp_sector_bytes, Kernel, "bytes/thread",                              \
    "the same accesses' 32-byte sectors per warp-wide access (the first warp's threads, by the block shape), per thread, repeats included: their L2 traffic without cache reuse") \
  X(global_store_warp_sector_bytes, Kernel, "bytes/thread",                        \
    "the stores' part of global_warp_sector_bytes: L1 does not keep global stores (write-through), so these reach L2 whatever the block's reuse") \
  X(global_working_set_bytes, Kernel, "bytes/thread",                              \
    "the footprint of one iteration of each access's outermost loop, per thread of the block; 0 if the block shape is not known") \
  X(global_footprint_row_shared_bytes, Kernel, "bytes/thread",                     \
    "the part of the footprint every block of a grid row reads too: its address depends on blockIdx.y but not on blockIdx.x or .z (a GEMM's tile of A)") \
  X(global_footprint_column_shared_bytes, Kernel, "bytes/thread",                  \
    "the part every block of a grid column reads too: its address depends on blockIdx.x but not on .y or .z (a GEMM's tile of B)") \
  X(global_footprint_grid_shared_bytes, Kernel, "bytes/thread",                    \
    "the part every block reads: its address depends on no blockIdx")          \
  X(global_footprint_tiled_bytes, Kernel, "bytes/thread",                          \
    "the block's share of the union of the footprints of all blocks, where a load's address moves by a constant from one block to the next: bytes a neighbouring block reads too (a stencil's halo) count once, not once per block; stores keep their own sectors; equal to global_footprint_bytes where no load moves so") \
  X(past_the_end_threads, Kernel, "share",                                         \
    "share of the launch's threads that the kernel's outermost bounds checks (grid index < a size argument) turn away: 0 unless the launch states its grid and those sizes (a forced configuration's grid and argN=V); the per-thread counts average over every launched thread, these included")

/// Launch bounds already present on a kernel (0 = absent).
struct LaunchBounds {
  std::array<unsigned, 3> MaxNTid = {0, 0, 0};
  std::array<unsigned, 3> ReqNTid = {0, 0, 0};
  unsigned MinCTASM = 0;
  unsigned MaxNReg = 0;

  bool any() const;
  /// Threads allowed per block by maxntid/reqntid, 0 if unbounded.
  unsigned maxThreads() const;
  /// The bounds of a kernel that requires blocks of Block (.reqntid), as
  /// the optimizer rewrites an opted-in kernel to its chosen block.
  static LaunchBounds requiring(const std::array<unsigned, 3> &Block);
};

/// Which special registers a kernel reads, as "x", "xy", "" ...
struct DimsRead {
  std::string ThreadIdx, BlockIdx, BlockDim, GridDim;
};

/// A value a loop bound depends on that the code does not fix.
struct BoundValue {
  /// The source name: "n" for argument n where the IR or its debug info
  /// keeps names (clang discards them unless -fno-discard-value-names, and
  /// keeps no variables in optimized device debug info), "blockDim.x";
  /// empty for an argument without a name.
  std::string Name;
  bool IsArgument = false;
  unsigned ArgNo = 0; // 0-based, for an argument
  /// What the trip count took the value as, and whether ENERGY_ASSUME
  /// stated it (else it is -energy-default-extent).
  unsigned TakenAs = 0;
  bool Stated = false;
  /// Whether the launch stated it (-energy-force-config's argN=V) rather
  /// than the source.
  bool FromLaunch = false;
  /// A block or grid extent (blockDim.x, gridDim.x) of a launch that is not
  /// known where the loop was counted: the loop strides over the launch's
  /// threads, and its count follows the block and grid (TakenAs 0).
  bool LaunchExtent = false;

  /// "argument 'n'", "argument 2", "blockDim.x", "a value computed in the
  /// kernel".
  std::string describe() const;
};

/// A loop whose trip count is an assumption, not a number from the code.
struct AssumedTrip {
  /// "file:line" of the loop; empty without debug info.
  std::string Location;
  /// Iterations of the loop body per entry: an average over the threads
  /// that enter (a grid-stride loop's threads run ceil(n / stride) or one
  /// fewer).
  double TripCount = 0;
  /// The unknown values in the bound; empty when the count could not be
  /// followed at all and is -energy-default-trip-count, or is stated.
  std::vector<BoundValue> Values;
  /// ENERGY_TRIP(count) in the loop states its count.
  bool StatedInLoop = false;

  /// Whether the count is stated: with ENERGY_TRIP, or every value with
  /// ENERGY_ASSUME (or a forced launch's argN=V).
  bool stated() const;
  /// Whether the count follows a launch whose block or grid is not known.
  bool followsLaunch() const;
  /// "loop at k.cu:7: trip count assumed 4096 (bound depends on argument
  /// 'n', taken as 4096); state it with ENERGY_ASSUME(n, value)".
  std::string describe() const;
};

struct KernelFeatures {
  std::string Name;
#define ENERGY_FIELD(Field, Merge, Unit, Doc) double Field = 0;
  ENERGY_KERNEL_FEATURES(ENERGY_FIELD)
#undef ENERGY_FIELD
  LaunchBounds Bounds;
  DimsRead Dims;
  /// What the counts could not follow or had to bound (recursion, a clamped
  /// register estimate), for whoever reads them; not a model input.
  std::vector<std::string> Notes;
  /// Loops whose trip count was assumed or stated, in the kernel and the
  /// functions it calls; not a model input.
  std::vector<AssumedTrip> AssumedTrips;
  /// Where register_estimate comes from: "estimate" (peak live IR values)
  /// or "ptxas" (CUDA's assembler compiled the candidate).
  std::string RegistersFrom = "estimate";
  /// Instructions of the simplified clone the counts come from (0: not
  /// simplified): what simplifying this code again costs; not a model input.
  unsigned SimplifiedInstructions = 0;
  /// Issue slots of the measured code with each instruction counted once
  /// (0: not counted); not a model input.
  double StaticIssueSlots = 0;

  static constexpr unsigned NumNumeric = 0
#define ENERGY_COUNT(Field, Merge, Unit, Doc) +1
      ENERGY_KERNEL_FEATURES(ENERGY_COUNT)
#undef ENERGY_COUNT
      ;
  /// Numeric features in declaration order (the model's kernel inputs).
  std::array<double, NumNumeric> numeric() const;
  static std::array<llvm::StringRef, NumNumeric> numericNames();
  /// Sets the numeric feature of that name; false if there is none.
  bool setNumeric(llvm::StringRef Name, double Value);

  /// Folds a called function's features in; Weight is how often the call
  /// executes per thread.
  void mergeCallee(const KernelFeatures &Callee, double Weight);
  /// How often per thread code runs whose place in the kernel is not known
  /// (ptxas's spill code): as often as the average instruction, the
  /// executed issue slots over the static ones, and at least once.
  double averageExecutions() const;
  /// Adds Note unless it is there already.
  void addNote(llvm::StringRef Note);
  /// Derived fields (flops, arithmetic_intensity) from the counted ones; a
  /// register estimate above MaxRegistersPerThread is clamped, with a note.
  void finalize();

  /// Whether the kernel indexes threads in y (threadIdx.y or blockDim.y), so
  /// its blocks may be 2-D. blockIdx.y alone does not count: a 2-D grid of
  /// 1-D blocks.
  bool usesBlockY() const;

  /// Whether the kernel does any work a launch configuration could speed
  /// up or slow down: a memory access, arithmetic, a barrier or warp
  /// operation. An empty kernel (cub's EmptyKernel) does none.
  bool doesWork() const;

  void printText(llvm::raw_ostream &OS) const;
  void writeJSON(llvm::json::OStream &J) const;
  static void printCSVHeader(llvm::raw_ostream &OS);
  void printCSVRow(llvm::raw_ostream &OS) const;
};

/// Trip count used for loops ScalarEvolution cannot bound.
constexpr unsigned DefaultTripCount = 8;

/// Value assumed for unknown integers in loop bounds (a 4096-wide problem
/// dimension, as in the default 2^24-item workload), unless ENERGY_ASSUME
/// states one.
constexpr unsigned DefaultExtent = 4096;

/// Registers one extra to the live count for the ABI and addressing.
constexpr unsigned ReservedRegisters = 8;

/// The most registers ptxas allocates to a thread on every architecture we
/// know; it spills the rest to local memory.
constexpr unsigned MaxRegistersPerThread = 255;

} // namespace energy

#endif
