//===- CallClassifier.cpp - What a call by name costs ---------------------===//

#include "CallClassifier.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace energy {

/// `__nv_expf` -> "exp": libdevice names, float suffix dropped.
static StringRef libdeviceBase(StringRef Name) {
  Name.consume_front("__nv_");
  // Only the cheap names below need an exact match; the rest are Special
  // with or without the suffix.
  Name.consume_back("f");
  return Name;
}

static CallKind classifyLibdevice(StringRef Name) {
  StringRef Base = libdeviceBase(Name);
  // float2int_rn, int2float_rz, double2float_rn, ull2double_rd ...
  if (Base.contains("2float") || Base.contains("2double") ||
      Base.contains("2int") || Base.contains("2uint") ||
      Base.contains("2ll") || Base.contains("2ull") || Base.contains("2half"))
    return CallKind::Conversion;
  return StringSwitch<CallKind>(Base)
      .Cases("fabs", "fmin", "fmax", "floor", "ceil", "trunc", "round",
             CallKind::FloatOp)
      .Cases("rint", "nearbyint", "copysign", "fdim", "saturate",
             CallKind::FloatOp)
      .Case("fma", CallKind::FloatFMA)
      .Cases("min", "max", "umin", "umax", "abs", "llabs", "llmin", "llmax",
             CallKind::IntOp)
      .Cases("popc", "popcll", "clz", "clzll", "ffs", "ffsll", "brev",
             CallKind::IntOp)
      .Cases("mul24", "umul24", "mulhi", "umulhi", "sad", "usad",
             CallKind::IntOp)
      .Default(CallKind::Special);
}

static CallKind classifyNVVM(StringRef Rest) {
  auto Starts = [&](StringRef P) { return Rest.starts_with(P); };
  if (Starts("barrier") || Starts("bar."))
    return CallKind::Barrier;
  if (Starts("shfl."))
    return CallKind::Shuffle;
  if (Starts("vote.") || Starts("match."))
    return CallKind::Vote;
  if (Starts("mma.") || (Starts("wmma.") && Rest.contains(".mma.")))
    return CallKind::TensorCore;
  if (Starts("atomic."))
    return CallKind::Atomic;
  if (Starts("ldg.global.") || Starts("ldu.global."))
    return CallKind::GlobalLoad;
  if (Starts("sqrt") || Starts("rsqrt") || Starts("ex2") || Starts("lg2") ||
      Starts("sin.") || Starts("cos.") || Starts("div.") || Starts("rcp."))
    return CallKind::Special;
  if (Starts("fma."))
    return CallKind::FloatFMA;
  if (Starts("fmin") || Starts("fmax") || Starts("fabs") || Starts("floor") ||
      Starts("ceil") || Starts("trunc") || Starts("round") || Starts("saturate"))
    return CallKind::FloatOp;
  if (Starts("f2i") || Starts("i2f") || Starts("f2ui") || Starts("ui2f") ||
      Starts("d2") || Starts("f2h") || Starts("f2bf") || Starts("ff2"))
    return CallKind::Conversion;
  return CallKind::Other;
}

CallKind classifyCallee(StringRef Name) {
  if (Name.starts_with("__nv_"))
    return classifyLibdevice(Name);
  if (Name.consume_front("llvm.nvvm."))
    return classifyNVVM(Name);
  if (!Name.consume_front("llvm."))
    return CallKind::Other;
  StringRef Base = Name.split('.').first;
  return StringSwitch<CallKind>(Base)
      .Cases("fma", "fmuladd", CallKind::FloatFMA)
      .Cases("sqrt", "exp", "exp2", "exp10", "log", "log2", "log10",
             CallKind::Special)
      .Cases("sin", "cos", "tan", "pow", "powi", CallKind::Special)
      .Cases("minnum", "maxnum", "minimum", "maximum", "fabs", "copysign",
             CallKind::FloatOp)
      .Cases("floor", "ceil", "trunc", "rint", "nearbyint", "round",
             "roundeven", CallKind::FloatOp)
      .Cases("smin", "smax", "umin", "umax", "abs", "ctpop", "ctlz", "cttz",
             CallKind::IntOp)
      .Cases("bitreverse", "bswap", "fshl", "fshr", CallKind::IntOp)
      .Cases("sadd", "uadd", "ssub", "usub", "umul", "smul", CallKind::IntOp)
      .Cases("lrint", "llrint", "lround", "llround", "fptosi", "fptoui",
             CallKind::Conversion)
      .Default(CallKind::Other);
}

} // namespace energy
