//===- GpuAccessAnalysis.h - Memory accesses in the gpu dialect -*- C++ -*-===//
//
// The MLIR adapter's reading of memory accesses, for GpuKernelFeatures: the
// space of a memref, which values depend on the thread (the twin of
// lib/Features/ThreadDependence), and how an address moves with thread_id x
// (the twin of lib/Features/AccessStride). What they yield is the IR-neutral
// MemoryAccess and Stride of lib/Features/FeatureCore.h.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_MLIR_GPUACCESSANALYSIS_H
#define ENERGY_LIB_MLIR_GPUACCESSANALYSIS_H

#include "FeatureCore.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace energy {
namespace gpudialect {

/// How many defining ops the structural analyses follow.
constexpr unsigned MaxDepth = 16;

/// Vector lanes of T (1 for a scalar).
unsigned lanes(mlir::Type T);
/// Bytes one value of T occupies in memory.
double bytesOf(mlir::Type T);
std::optional<int64_t> constantInt(mlir::Value V);

/// The space a memref type's memory space attribute names; none for no
/// attribute or space 0.
std::optional<MemSpace> spaceOfAttr(mlir::Attribute A);
/// The memref a view was taken of.
mlir::Value memrefRoot(mlir::Value V);
/// The space from the memref type; without one, a stack allocation is local
/// and anything else (kernel arguments) global, as NVPTXLowerArgs assumes.
MemSpace spaceOf(mlir::Value M);

/// The callee of Call when its body is in the module.
mlir::func::FuncOp definedCallee(mlir::func::CallOp Call);

/// A conservative forward taint from the thread index, the MLIR twin of
/// lib/Features/ThreadDependence: a value is thread-dependent if computed
/// from gpu.thread_id/lane_id/global_id, returned by an atomic, loaded
/// through a dependent index or from private memory that received a
/// dependent store, carried by a loop or if from a dependent value, or
/// returned by a called function that reads the thread index.
class ThreadTaint {
public:
  explicit ThreadTaint(mlir::Region &Body) {
    bool Changed = true;
    while (Changed) { // a fixed point: the sets only grow
      Changed = false;
      Body.walk([&](mlir::Operation *Op) { Changed |= visit(Op); });
    }
  }
  bool dependent(mlir::Value V) const { return Tainted.contains(V); }

private:
  llvm::DenseSet<mlir::Value> Tainted;
  /// Private memory written with dependent values.
  llvm::DenseSet<mlir::Value> Slots;

  bool any(mlir::ValueRange Vs) const {
    return llvm::any_of(Vs, [&](mlir::Value V) { return dependent(V); });
  }
  bool mark(mlir::Value V) { return Tainted.insert(V).second; }
  bool markIf(bool Cond, mlir::Value V) { return Cond && mark(V); }
  bool visit(mlir::Operation *Op);
};

/// How an index moves when thread_id x grows by one, from the arith ops that
/// compute it; what is not affine in thread_id x is Unknown if it depends
/// on the thread, else Zero.
class StrideAnalysis {
public:
  explicit StrideAnalysis(const ThreadTaint &Taint) : Taint(Taint) {}

  Stride of(mlir::Value V, unsigned Depth = 0) const;
  /// In bytes, for an access of MemRef at Indices.
  Stride ofAccess(mlir::Value MemRef, mlir::ValueRange Indices) const;

private:
  const ThreadTaint &Taint;
  Stride opaque(mlir::Value V) const {
    return Taint.dependent(V) ? Stride::unknown() : Stride::zero();
  }
};

} // namespace gpudialect
} // namespace energy

#endif
