//===- InitSpec.h - Buffer init specs and element value ranges --*- C++ -*-===//
//
// The manifest's `init` strings ("uniform(lo,hi)", "randint(lo,hi)", "zeros",
// "csr_row_ptr(k)", "iota"; docs/bench-format.md) and the value ranges of
// the element types they and scalar arguments must fit.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_INITSPEC_H
#define ENERGY_BENCH_INITSPEC_H

#include "Reference.h"

#include <cstdint>
#include <string>

namespace bench {

using energy_ref::ElemType;

/// How a buffer's initial contents are made (bench-format.md `init`).
struct InitSpec {
  enum class Kind { Uniform, Randint, Zeros, CsrRowPtr, Iota } K = Kind::Zeros;
  double Lo = 0, Hi = 0;  // uniform(lo,hi), randint(lo,hi)
  int64_t PerRow = 0;     // csr_row_ptr(nnz_per_row)
  std::string Text;       // as written in the manifest
};

/// Parses Text for a buffer of Type into Out; returns "" or what is wrong.
std::string parseInit(const std::string &Text, ElemType Type, InitSpec &Out);

bool isFloatType(ElemType T);

/// The values an element of type T holds, as doubles.
void typeRange(ElemType T, double &Lo, double &Hi);

} // namespace bench

#endif
