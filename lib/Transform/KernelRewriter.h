//===- KernelRewriter.h - IR edits that apply a chosen config ---*- C++ -*-===//
#ifndef ENERGY_LIB_KERNELREWRITER_H
#define ENERGY_LIB_KERNELREWRITER_H

#include "energy/ConfigSpace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <vector>

namespace llvm {
class ArrayType;
class Function;
class Type;
class GlobalVariable;
class Module;
} // namespace llvm

namespace energy {

/// Replaces every read of Tunable's value in the given functions by Value.
/// Any other use of the tunable in them is an error.
llvm::Error replaceTunableReads(llvm::GlobalVariable &Tunable, int Value,
                                llvm::ArrayRef<llvm::Function *> Scope);

/// Stores Value as the tunable's chosen value for the host to read.
void setTunableRecord(llvm::GlobalVariable &Tunable, int Value);


/// The levels of a (nested) array type, outermost first.
llvm::SmallVector<llvm::ArrayType *, 4> arrayLevels(llvm::Type *T);

/// Bytes of Array resized to Dims (outermost first): an error when Dims does
/// not give one size per dimension, nothing when a size is not positive or
/// exceeds the declared one (the array cannot hold it).
llvm::Expected<std::optional<uint64_t>>
resizedArrayBytes(const llvm::GlobalVariable &Array,
                  llvm::ArrayRef<int64_t> Dims);

/// Shrinks a shared array to Dims (outermost first), rewriting the GEPs that
/// index it, and returns the array now in its place (Array itself when Dims
/// are its sizes). The array must be indexed through typed GEPs, as clang
/// emits them before optimization.
llvm::Expected<llvm::GlobalVariable *>
resizeSharedArray(llvm::GlobalVariable &Array, llvm::ArrayRef<int64_t> Dims);

/// Gives F a shared array of its own in place of Array, shrunk to Dims as
/// the build shrinks Array (the other functions keep Array), and returns
/// it: the caller erases it once F is gone. F must be indexed as
/// resizeSharedArray requires, its callees inlined.
llvm::Expected<llvm::GlobalVariable *>
resizeSharedArrayIn(llvm::Function &F, llvm::GlobalVariable &Array,
                    llvm::ArrayRef<int64_t> Dims);

/// Replaces blockDim reads in F by the constant shape (valid under reqntid),
/// inlining the always-inline helpers clang reads blockDim through.
void foldBlockDim(llvm::Function &F, const BlockShape &Block);

/// Replaces gridDim reads in F by the launch's grid (a forced config's
/// grid=, for its prediction only). F's helpers must be inlined already.
void foldGridDim(llvm::Function &F, const std::array<uint64_t, 3> &Grid);

/// Moves F's body, name, attributes and uses into a new Function placed
/// where F was, and returns it; F is left an empty declaration for the
/// caller to erase once no new Function can reuse its address. NVPTX caches
/// launch-bound annotations per Function object, and NVVMIntrRange fills that
/// cache at PipelineStart, before this pass: a fresh object makes the new
/// bounds visible to the PTX printer inside clang.
llvm::Function *moveToFreshFunction(llvm::Function &F);

/// Sets the host-visible launch record RecordName to Block, its dynamic
/// shared memory and the work items each thread handles (creating it in
/// global memory when the source declared none); an error when a global of
/// that name is not an energy::launch_record.
llvm::Error writeLaunchRecord(llvm::Module &M, llvm::StringRef RecordName,
                              const BlockShape &Block, unsigned DynamicSmem,
                              unsigned ItemsPerThread);

} // namespace energy

#endif
