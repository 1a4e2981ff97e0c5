//===- CallClassifier.h - What a call by name costs -------------*- C++ -*-===//
//
// Classifies calls of NVVM intrinsics and libdevice (`__nv_*`) functions by
// name, so the feature counter treats `__nv_expf`, `llvm.nvvm.ex2.approx.f`
// and `llvm.exp.f32` alike.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_CALLCLASSIFIER_H
#define ENERGY_LIB_CALLCLASSIFIER_H

#include "energy/KernelFeatures.h"

#include "llvm/ADT/StringRef.h"
#include <vector>

namespace energy {

enum class CallKind {
  Other,         // counted as an instruction only
  FloatOp,       // cheap FP op (min, max, abs, floor ...) of the result type
  FloatFMA,      // fused multiply-add of the result type
  IntOp,         // integer op (min, max, popc, clz ...)
  Conversion,    // int<->fp or fp<->fp
  Special,       // SFU-class math that ptxas expands (IEEE div, sqrt.rn,
                 // library calls): one MUFU op plus FP32 work around it
  ApproxSpecial, // one MUFU op: the `.approx` forms (rsqrt, ex2, sin ...)
  Barrier,
  Shuffle,
  Vote,
  TensorCore,
  Atomic,      // memory space from the pointer operand
  GlobalLoad,  // ldg/ldu: read-only global loads
  TextureRead, // tex, tld4, suld: a global load through the texture path
};

/// The element kinds the feature counts tell apart (F16 covers bf16).
enum class ScalarKind { F16, F32, F64, Other };

/// One arithmetic PTX instruction found in inline asm (cuda_fp16.h writes
/// __half arithmetic that way).
struct AsmOp {
  CallKind Kind;
  ScalarKind Scalar;
  unsigned Lanes;
  unsigned Bytes = 0; // what a TextureRead reads
};

/// The arithmetic instructions and texture/surface fetches of a PTX
/// inline-asm string; moves, other loads, stores and control flow are left
/// out.
std::vector<AsmOp> classifyInlineAsm(llvm::StringRef Asm);

/// Adds N floating-point operations of kind S (fused multiply-adds if FMA).
void countFloatOps(KernelFeatures &Out, ScalarKind S, double N, bool FMA);

/// Adds an operation of Kind with Lanes lanes of kind S that executes W times
/// per thread. The memory kinds (Atomic, GlobalLoad, TextureRead) and Other
/// add nothing:
/// they need the operation's operands.
void countClassifiedOp(KernelFeatures &Out, CallKind Kind, ScalarKind S,
                       unsigned Lanes, double W);

/// Adds a texture or surface fetch of Bytes that executes W times per
/// thread, as a global load.
void countTextureRead(KernelFeatures &Out, double Bytes, double W);

/// Classifies `llvm.*` intrinsic names (with or without type suffixes) and
/// libdevice names. Unknown names give CallKind::Other.
CallKind classifyCallee(llvm::StringRef Name);

/// Kind, or ApproxSpecial for a Special whose approximate form the backend
/// emits anyway: an operation allowed to approximate (fast-math `afn` or
/// `arcp`, or a function compiled with unsafe FP math, where NVPTX selects
/// div.approx, sqrt.approx, sin.approx ...).
CallKind approximatedIf(CallKind Kind, bool MayApproximate);

} // namespace energy

#endif
