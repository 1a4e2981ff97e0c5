//===- BenchJson.h - JSON for energy-bench through nlohmann-json -*- C++ -*-===//
//
// energy-bench also builds on the GPU machine, which has no LLVM, so it reads
// and writes JSON with Debian's header-only nlohmann-json3-dev. It builds
// without exceptions, where nlohmann aborts on a failed throw: parse only
// through parseJson, and check a value's type before reading it.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_BENCHJSON_H
#define ENERGY_BENCH_BENCHJSON_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace bench {

/// Objects keep their key order: rows list their fields as written.
using Json = nlohmann::ordered_json;

/// Parses Text; a duplicate key is an error. On failure returns false and
/// sets Error to "line L, column C: <what>".
bool parseJson(const std::string &Text, Json &Out, std::string &Error);

/// Member Key of an object, or nullptr (also when V is not an object).
const Json *member(const Json &V, const char *Key);

/// An integer that fits int64 (nlohmann keeps large non-negative ones as
/// uint64).
bool isInt64(const Json &V);
/// V's value; V must satisfy isInt64.
int64_t asInt64(const Json &V);

/// One line in Python's json.dumps layout (", " and ": "), like the rows the
/// Python tools write. Non-finite numbers become null.
std::string toLine(const Json &V);

} // namespace bench

#endif
