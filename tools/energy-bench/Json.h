//===- Json.h - Minimal JSON values, parser and writer ----------*- C++ -*-===//
//
// energy-bench builds on the GPU machine, which has no LLVM: this is a small
// self-contained replacement for llvm::json. Objects keep their key order;
// integers are kept exactly (int64) besides their double value.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_JSON_H
#define ENERGY_BENCH_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bench {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  JsonValue() = default;
  static JsonValue null() { return JsonValue(); }
  static JsonValue boolean(bool B);
  static JsonValue number(double D);
  static JsonValue integer(int64_t I);
  static JsonValue string(std::string S);
  static JsonValue array();
  static JsonValue object();

  Kind kind() const { return K; }
  bool isNull() const { return K == Kind::Null; }
  bool isBool() const { return K == Kind::Bool; }
  bool isNumber() const { return K == Kind::Number; }
  bool isString() const { return K == Kind::String; }
  bool isArray() const { return K == Kind::Array; }
  bool isObject() const { return K == Kind::Object; }
  /// A number written without fraction or exponent that fits int64.
  bool isInteger() const { return K == Kind::Number && IsInt; }

  bool asBool() const { return B; }
  double asDouble() const { return D; }
  int64_t asInt() const { return I; }
  const std::string &asString() const { return S; }
  const std::vector<JsonValue> &items() const { return Arr; }
  const std::vector<std::pair<std::string, JsonValue>> &members() const { return Obj; }

  /// Member `Key` of an object, or nullptr.
  const JsonValue *get(const std::string &Key) const;

  // Building.
  JsonValue &push(JsonValue V);                     // arrays
  JsonValue &set(const std::string &Key, JsonValue V); // objects (replaces)

  /// Compact one-line JSON. Non-finite numbers are written as null.
  std::string str() const;
  void write(std::string &Out) const;

private:
  Kind K = Kind::Null;
  bool B = false;
  bool IsInt = false;
  double D = 0;
  int64_t I = 0;
  std::string S;
  std::vector<JsonValue> Arr;
  std::vector<std::pair<std::string, JsonValue>> Obj;
};

/// Parses Text. On failure returns false and sets Error to
/// "line L, column C: <what>".
bool parseJson(const std::string &Text, JsonValue &Out, std::string &Error);

/// The shortest decimal that reads back as D ("1e-05", "0.1", "3").
std::string formatDouble(double D);

/// S as a JSON string literal, quotes included.
std::string quoteJson(const std::string &S);

} // namespace bench

#endif
