//===- BenchJson.cpp - JSON for energy-bench through nlohmann-json --------===//

#include "BenchJson.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

namespace bench {

namespace {

/// nlohmann's DOM builder, with its error kept as text (it would otherwise
/// only be thrown) and duplicate keys rejected (nlohmann keeps the last).
class Builder : public nlohmann::detail::json_sax_dom_parser<Json> {
public:
  Builder(Json &Root, const std::string &Text)
      : json_sax_dom_parser(Root, /*allow_exceptions=*/false), Text(Text) {}

  std::string Error;

  bool start_object(std::size_t N) {
    Keys.emplace_back();
    return json_sax_dom_parser::start_object(N);
  }
  bool end_object() {
    Keys.pop_back();
    return json_sax_dom_parser::end_object();
  }
  bool key(std::string &K) {
    if (!Keys.back().insert(K).second) {
      Error = "duplicate key '" + K + "'";
      return false;
    }
    return json_sax_dom_parser::key(K);
  }
  bool parse_error(std::size_t Position, const std::string &,
                   const nlohmann::detail::exception &E) {
    // nlohmann's convention: the column of the last character read.
    size_t At = std::min(Position, Text.size());
    size_t Line = 1 + std::count(Text.begin(), Text.begin() + At, '\n');
    size_t LineStart = Line == 1 ? 0 : Text.rfind('\n', At - 1) + 1;
    Error = "line " + std::to_string(Line) + ", column " +
            std::to_string(std::max<size_t>(1, At - LineStart)) + ": " + strip(E.what());
    return false;
  }

private:
  /// nlohmann's text without its id, position and parser state:
  /// "[json.exception.parse_error.101] parse error at line 1, column 2:
  /// syntax error while parsing value - unexpected ']'" -> "unexpected ']'".
  static std::string strip(std::string What) {
    auto CutThrough = [&What](const char *Prefix, const char *Sep) {
      size_t At = What.find(Sep);
      if (What.compare(0, std::strlen(Prefix), Prefix) == 0 && At != std::string::npos)
        What.erase(0, At + std::strlen(Sep));
    };
    CutThrough("[json.exception.", "] ");
    CutThrough("parse error", ": ");
    CutThrough("syntax error", " - ");
    return What;
  }

  const std::string &Text;
  std::vector<std::set<std::string>> Keys; // of each open object
};

void write(const Json &V, std::string &Out) {
  if (V.is_object()) {
    Out += '{';
    const char *Sep = "";
    for (const auto &M : V.items()) {
      Out += Sep;
      write(Json(M.key()), Out);
      Out += ": ";
      write(M.value(), Out);
      Sep = ", ";
    }
    Out += '}';
  } else if (V.is_array()) {
    Out += '[';
    const char *Sep = "";
    for (const Json &E : V) {
      Out += Sep;
      write(E, Out);
      Sep = ", ";
    }
    Out += ']';
  } else {
    // Rows may hold text from the driver: replace bytes that are not UTF-8
    // rather than abort on them.
    Out += V.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

} // namespace

bool parseJson(const std::string &Text, Json &Out, std::string &Error) {
  Out = Json();
  Builder B(Out, Text);
  if (Json::sax_parse(Text, &B) && !B.is_errored())
    return true;
  Error = B.Error.empty() ? "invalid JSON" : B.Error;
  return false;
}

const Json *member(const Json &V, const char *Key) {
  if (!V.is_object())
    return nullptr;
  auto It = V.find(Key);
  return It == V.end() ? nullptr : &*It;
}

bool isInt64(const Json &V) {
  if (V.is_number_unsigned())
    return V.get<uint64_t>() <= uint64_t(INT64_MAX);
  return V.is_number_integer();
}

int64_t asInt64(const Json &V) { return V.get<int64_t>(); }

std::string toLine(const Json &V) {
  std::string Out;
  write(V, Out);
  return Out;
}

} // namespace bench
