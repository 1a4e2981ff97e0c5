//===- CallClassifier.cpp - What a call by name costs ---------------------===//

#include "CallClassifier.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <optional>

using namespace llvm;

namespace energy {

// A special function that is not a single MUFU op is one plus floating-point
// work around it: range reduction (exp, sin), Newton steps and special-case
// fixups (IEEE div, sqrt.rn). Estimate from libdevice/ptxas expansions,
// which run ~4-12 instructions per call. The `.approx` forms are the MUFU op
// alone (PTX ISA, "Floating Point Instructions"), and libdevice's inlined
// bodies count their own work.
constexpr double ExpandedSpecialOps = 8;

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
  // __fadd_rn, __dmul_rz ...: rounded arithmetic, not math library calls.
  for (StringRef Op : {"fadd_", "fsub_", "fmul_", "dadd_", "dsub_", "dmul_"})
    if (Base.starts_with(Op))
      return CallKind::FloatOp;
  if (Base.starts_with("fmaf_") || Base.starts_with("fma_"))
    return CallKind::FloatFMA;
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
  if (Starts("bar.warp.sync"))
    return CallKind::Other; // __syncwarp synchronizes a warp, not the block
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
  if (Starts("tex.") || Starts("tld4.") || Starts("suld."))
    return CallKind::TextureRead;
  if (Starts("sqrt") || Starts("rsqrt") || Starts("ex2") || Starts("lg2") ||
      Starts("sin.") || Starts("cos.") || Starts("div.") || Starts("rcp."))
    // sqrt.approx.f, ex2.approx.ftz.f, div.full.f: one MUFU op (div.full is
    // rcp.approx and a multiply); div.rn.f, sqrt.rn.d: expanded by ptxas.
    return Rest.contains(".approx") || Starts("div.full")
               ? CallKind::ApproxSpecial
               : CallKind::Special;
  if (Starts("fma."))
    return CallKind::FloatFMA;
  if (Starts("add.") || Starts("mul."))
    return CallKind::FloatOp; // add.rn.f, mul.rz.d: __fadd_rn and friends
  if (Starts("fmin") || Starts("fmax") || Starts("fabs") || Starts("floor") ||
      Starts("ceil") || Starts("trunc") || Starts("round") || Starts("saturate"))
    return CallKind::FloatOp;
  if (Starts("f2i") || Starts("i2f") || Starts("f2ui") || Starts("ui2f") ||
      Starts("d2") || Starts("f2h") || Starts("f2bf") || Starts("ff2"))
    return CallKind::Conversion;
  return CallKind::Other;
}

/// The element kind and lane count a PTX type suffix names.
static std::optional<std::pair<ScalarKind, unsigned>> ptxType(StringRef Suffix) {
  using K = ScalarKind;
  return StringSwitch<std::optional<std::pair<ScalarKind, unsigned>>>(Suffix)
      .Cases("f16", "bf16", std::pair(K::F16, 1u))
      .Cases("f16x2", "bf16x2", std::pair(K::F16, 2u))
      .Case("f32", std::pair(K::F32, 1u))
      .Case("f64", std::pair(K::F64, 1u))
      .Cases("s16", "u16", "s32", "u32", "s64", "u64", std::pair(K::Other, 1u))
      .Default(std::nullopt);
}

/// Bytes a texture or surface fetch reads: lanes (v2, v4) times the
/// destination type, the first type suffix (`tex.2d.v4.f32.s32`,
/// `suld.b.2d.v2.b32.trap`).
static std::optional<unsigned> fetchBytes(ArrayRef<StringRef> Parts) {
  unsigned Lanes = 1;
  for (StringRef P : Parts.drop_front()) {
    if (P == "v2" || P == "v4") {
      Lanes = P[1] - '0';
      continue;
    }
    unsigned Bits;
    if (P.size() > 1 && StringRef("fsub").contains(P[0]) &&
        !P.drop_front().getAsInteger(10, Bits) && Bits % 8 == 0)
      return Lanes * Bits / 8;
  }
  return std::nullopt;
}

std::vector<AsmOp> classifyInlineAsm(StringRef Asm) {
  std::vector<AsmOp> Ops;
  SmallVector<StringRef, 8> Statements;
  Asm.split(Statements, ';');
  for (StringRef Stmt : Statements) {
    Stmt = Stmt.trim(" \t\n{}");
    if (Stmt.consume_front("@")) // predicate guard
      Stmt = Stmt.drop_until([](char C) { return C == ' ' || C == '\t'; }).trim();
    StringRef Opcode = Stmt.take_until([](char C) { return C == ' ' || C == '\t'; });
    SmallVector<StringRef, 4> Parts;
    Opcode.split(Parts, '.');
    if (Parts.empty())
      continue;
    if (Parts[0] == "tex" || Parts[0] == "tld4" || Parts[0] == "suld") {
      if (auto Bytes = fetchBytes(Parts))
        Ops.push_back({CallKind::TextureRead, ScalarKind::Other, 1, *Bytes});
      continue;
    }
    std::optional<std::pair<ScalarKind, unsigned>> Type;
    for (StringRef P : ArrayRef<StringRef>(Parts).drop_front())
      if (auto T = ptxType(P))
        Type = T;
    if (!Type)
      continue;
    bool Float = Type->first != ScalarKind::Other;
    CallKind Kind =
        StringSwitch<CallKind>(Parts[0])
            .Cases("add", "sub", "mul", "neg", "min", "max", "abs", "setp",
                   Float ? CallKind::FloatOp : CallKind::IntOp)
            .Cases("fma", "mad", Float ? CallKind::FloatFMA : CallKind::IntOp)
            .Cases("rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh",
                   "div", Float ? CallKind::Special : CallKind::IntOp)
            .Case("cvt", CallKind::Conversion)
            .Default(CallKind::Other);
    Kind = approximatedIf(Kind, llvm::is_contained(Parts, "approx") ||
                                    llvm::is_contained(Parts, "full"));
    if (Kind != CallKind::Other)
      Ops.push_back({Kind, Type->first, Type->second});
  }
  return Ops;
}

void countFloatOps(KernelFeatures &Out, ScalarKind S, double N, bool FMA) {
  switch (S) {
  case ScalarKind::F16:
    (FMA ? Out.fp16_fma : Out.fp16_ops) += N;
    return;
  case ScalarKind::F32:
    (FMA ? Out.fp32_fma : Out.fp32_ops) += N;
    return;
  case ScalarKind::F64:
    (FMA ? Out.fp64_fma : Out.fp64_ops) += N;
    return;
  case ScalarKind::Other:
    return;
  }
}

void countClassifiedOp(KernelFeatures &Out, CallKind Kind, ScalarKind S,
                       unsigned Lanes, double W) {
  double N = W * Lanes;
  switch (Kind) {
  case CallKind::FloatOp:
  case CallKind::FloatFMA:
    return countFloatOps(Out, S, N, Kind == CallKind::FloatFMA);
  case CallKind::IntOp:
    Out.int_ops += N;
    return;
  case CallKind::Conversion:
    Out.conversions += N;
    return;
  case CallKind::Special:
    // An FP64 function expands into FP64 work; the others (f16 included)
    // into FP32.
    Out.special_fns += N;
    (S == ScalarKind::F64 ? Out.fp64_ops : Out.fp32_ops) +=
        N * ExpandedSpecialOps;
    Out.instructions += N * ExpandedSpecialOps;
    return;
  case CallKind::ApproxSpecial:
    Out.special_fns += N;
    return;
  case CallKind::Barrier:
    Out.barriers += W;
    return;
  case CallKind::Shuffle:
    Out.warp_shuffles += W;
    return;
  case CallKind::Vote:
    Out.warp_votes += W;
    return;
  case CallKind::TensorCore:
    Out.tensor_ops += W;
    return;
  case CallKind::Atomic:
  case CallKind::GlobalLoad:
  case CallKind::TextureRead:
  case CallKind::Other:
    return;
  }
}

void countTextureRead(KernelFeatures &Out, double Bytes, double W) {
  // Through the texture cache, which serves 2-D neighbourhoods: no
  // coalescing class, which the cost models count as coalesced.
  Out.global_loads += W;
  Out.global_load_bytes += W * Bytes;
  Out.max_access_bytes = std::max(Out.max_access_bytes, Bytes);
}

CallKind approximatedIf(CallKind Kind, bool MayApproximate) {
  return Kind == CallKind::Special && MayApproximate ? CallKind::ApproxSpecial
                                                     : Kind;
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
      .Cases("sinh", "cosh", "tanh", "asin", "acos", "atan", CallKind::Special)
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
