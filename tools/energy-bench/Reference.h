//===- Reference.h - CPU references for the energy-bench corpus -*- C++ -*-===//
//
// Dependency-free C++17 (no exceptions, no LLVM). Every corpus kernel has a CPU
// reference in tools/energy-bench/corpus/<name>_ref.cpp (docs/bench-format.md):
//
//   #include "Reference.h"
//   ENERGY_REFERENCE(saxpy) {   // (const ReferenceInputs &in, ReferenceOutputs &out)
//     int64_t n = in.param("n");
//     const float *x = in.buffer<float>("x");
//     const float *y = in.buffer<float>("y");   // initial contents
//     float *want = out.buffer<float>("y");     // sized like the output buffer
//     for (int64_t i = 0; i < n; ++i) want[i] = 2.5f * x[i] + y[i];
//   }
//
// f16 buffers are stored as uint16_t (IEEE binary16 bits); use energy_ref::halfToFloat
// and energy_ref::floatToHalf. Asking for a missing name or the wrong element type is a
// bug in the reference: it prints `energy-bench: reference error: ...` and aborts.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_REFERENCE_H
#define ENERGY_BENCH_REFERENCE_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace energy_ref {

/// Element types of corpus buffers (bench-format.md `buffers[].type`).
enum class ElemType { F16, F32, F64, I32, U32, I64, U8, Unknown };

inline const char *elemTypeName(ElemType t) {
  switch (t) {
  case ElemType::F16: return "f16";
  case ElemType::F32: return "f32";
  case ElemType::F64: return "f64";
  case ElemType::I32: return "i32";
  case ElemType::U32: return "u32";
  case ElemType::I64: return "i64";
  case ElemType::U8: return "u8";
  default: return "?";
  }
}

inline ElemType parseElemType(const std::string &s) {
  if (s == "f16") return ElemType::F16;
  if (s == "f32") return ElemType::F32;
  if (s == "f64") return ElemType::F64;
  if (s == "i32") return ElemType::I32;
  if (s == "u32") return ElemType::U32;
  if (s == "i64") return ElemType::I64;
  if (s == "u8") return ElemType::U8;
  return ElemType::Unknown;
}

inline size_t elemSize(ElemType t) {
  switch (t) {
  case ElemType::F16: return 2;
  case ElemType::F32: case ElemType::I32: case ElemType::U32: return 4;
  case ElemType::F64: case ElemType::I64: return 8;
  case ElemType::U8: return 1;
  default: return 0;
  }
}

// Which C++ element types may view which buffer type. Types not listed here are
// accepted when their size matches (e.g. a user-defined half struct).
template <typename T> struct ElemTraits { static constexpr bool known = false; };
#define ENERGY_REF_ELEM(CT, ET)                                                \
  template <> struct ElemTraits<CT> {                                          \
    static constexpr bool known = true;                                        \
    static bool accepts(ElemType t) { return t == ET; }                        \
  };
ENERGY_REF_ELEM(float, ElemType::F32)
ENERGY_REF_ELEM(double, ElemType::F64)
ENERGY_REF_ELEM(int32_t, ElemType::I32)
ENERGY_REF_ELEM(uint32_t, ElemType::U32)
ENERGY_REF_ELEM(int64_t, ElemType::I64)
ENERGY_REF_ELEM(uint16_t, ElemType::F16)
#undef ENERGY_REF_ELEM
template <> struct ElemTraits<uint8_t> {
  static constexpr bool known = true;
  static bool accepts(ElemType t) { return t == ElemType::U8; }
};
template <> struct ElemTraits<int8_t> {
  static constexpr bool known = true;
  static bool accepts(ElemType t) { return t == ElemType::U8; }
};
template <> struct ElemTraits<char> {
  static constexpr bool known = true;
  static bool accepts(ElemType t) { return t == ElemType::U8; }
};

[[noreturn]] inline void referenceError(const char *what, const std::string &name) {
  std::fprintf(stderr, "energy-bench: reference error: %s '%s'\n", what, name.c_str());
  std::fflush(stderr);
  std::abort();
}

/// One named host array (not owned).
struct RefBuffer {
  std::string name;
  ElemType type = ElemType::Unknown;
  void *data = nullptr;
  int64_t count = 0;
};

template <typename T> inline void checkElem(const RefBuffer &b) {
  bool ok;
  if constexpr (ElemTraits<T>::known)
    ok = ElemTraits<T>::accepts(b.type);
  else
    ok = sizeof(T) == elemSize(b.type);
  if (!ok) {
    std::string msg = b.name + "' is " + elemTypeName(b.type) + ", not viewable as '" +
                      std::to_string(sizeof(T)) + "-byte element";
    referenceError("wrong element type: buffer", msg);
  }
}

inline const RefBuffer *findBuffer(const std::vector<RefBuffer> &v, const std::string &name) {
  for (const RefBuffer &b : v)
    if (b.name == name) return &b;
  return nullptr;
}

} // namespace energy_ref

/// What a reference reads: the problem-size params, literal (`value`) kernel arguments by
/// argument index, and the initial contents of every buffer (outputs included).
/// param() also knows BLOCK_X/Y/Z, GRID_X/Y/Z and the tunables of the config being
/// checked. energy-bench runs the reference once per kernel, or once per config when
/// the kernel's buffer sizes depend on the config (e.g. one partial sum per block).
class ReferenceInputs {
public:
  int64_t param(const std::string &name) const {
    for (const auto &p : params_)
      if (p.first == name) return p.second;
    energy_ref::referenceError("unknown param", name);
  }
  bool hasParam(const std::string &name) const {
    for (const auto &p : params_)
      if (p.first == name) return true;
    return false;
  }
  /// The literal value of kernel argument `argIndex` (0-based, position in `args`).
  double value(int argIndex) const {
    for (const auto &v : values_)
      if (v.first == argIndex) return v.second;
    energy_ref::referenceError("no literal value for argument", std::to_string(argIndex));
  }
  template <typename T> const T *buffer(const std::string &name) const {
    const energy_ref::RefBuffer *b = energy_ref::findBuffer(buffers_, name);
    if (!b) energy_ref::referenceError("unknown buffer", name);
    energy_ref::checkElem<T>(*b);
    return static_cast<const T *>(b->data);
  }
  /// Number of elements of buffer `name`.
  int64_t count(const std::string &name) const {
    const energy_ref::RefBuffer *b = energy_ref::findBuffer(buffers_, name);
    if (!b) energy_ref::referenceError("unknown buffer", name);
    return b->count;
  }

  // Filled by the runner / tests.
  void setParam(const std::string &name, int64_t v) { params_.emplace_back(name, v); }
  void setValue(int argIndex, double v) { values_.emplace_back(argIndex, v); }
  void addBuffer(const std::string &name, energy_ref::ElemType t, const void *data,
                 int64_t count) {
    buffers_.push_back({name, t, const_cast<void *>(data), count});
  }

private:
  std::vector<std::pair<std::string, int64_t>> params_;
  std::vector<std::pair<int, double>> values_;
  std::vector<energy_ref::RefBuffer> buffers_;
};

/// What a reference writes: one expected array per output buffer, sized like it.
/// The runner pre-fills each with the output buffer's initial contents.
class ReferenceOutputs {
public:
  template <typename T> T *buffer(const std::string &name) {
    const energy_ref::RefBuffer *b = energy_ref::findBuffer(buffers_, name);
    if (!b) energy_ref::referenceError("unknown output buffer", name);
    energy_ref::checkElem<T>(*b);
    return static_cast<T *>(b->data);
  }
  int64_t count(const std::string &name) const {
    const energy_ref::RefBuffer *b = energy_ref::findBuffer(buffers_, name);
    if (!b) energy_ref::referenceError("unknown output buffer", name);
    return b->count;
  }

  // Filled by the runner / tests.
  void addBuffer(const std::string &name, energy_ref::ElemType t, void *data, int64_t count) {
    buffers_.push_back({name, t, data, count});
  }

private:
  std::vector<energy_ref::RefBuffer> buffers_;
};

using ReferenceFn = void (*)(const ReferenceInputs &, ReferenceOutputs &);

namespace energy_ref {
struct RegistryEntry {
  const char *name;
  ReferenceFn fn;
};
/// All registered references (one list for the whole program: C++17 inline function).
inline std::vector<RegistryEntry> &registry() {
  static std::vector<RegistryEntry> r;
  return r;
}
struct Registrar {
  Registrar(const char *name, ReferenceFn fn) { registry().push_back({name, fn}); }
};

/// IEEE binary16 <-> float (round to nearest even), for f16 buffers.
inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal
      int e = -1;
      do { ++e; mant <<= 1; } while (!(mant & 0x400u));
      bits = sign | (uint32_t(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // inf / nan
    return uint16_t(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
  if (absx >= 0x477ff000u) // overflows to inf after rounding
    return uint16_t(sign | 0x7c00u);
  if (absx < 0x38800000u) { // subnormal half (or zero)
    if (absx < 0x33000000u) return sign;
    uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    int shift = 126 - int(absx >> 23); // 14..24
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = ((absx >> 13) - ((127 - 15) << 10));
  uint32_t rem = absx & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;
  return uint16_t(sign | half);
}
} // namespace energy_ref

/// The reference registered under `name` (the corpus kernel name), or nullptr.
inline ReferenceFn findReference(const std::string &name) {
  for (const auto &e : energy_ref::registry())
    if (name == e.name) return e.fn;
  return nullptr;
}

/// Defines and registers `void energy_reference_<name>(const ReferenceInputs &in,
/// ReferenceOutputs &out)`; the body follows the macro.
#define ENERGY_REFERENCE(NAME)                                                 \
  static void energy_reference_##NAME(const ReferenceInputs &in,               \
                                      ReferenceOutputs &out);                  \
  static ::energy_ref::Registrar energy_reference_registrar_##NAME(            \
      #NAME, &energy_reference_##NAME);                                        \
  static void energy_reference_##NAME(                                         \
      [[maybe_unused]] const ReferenceInputs &in,                              \
      [[maybe_unused]] ReferenceOutputs &out)

#endif // ENERGY_BENCH_REFERENCE_H
