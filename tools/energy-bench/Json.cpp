//===- Json.cpp - Minimal JSON values, parser and writer ------------------===//

#include "Json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {

JsonValue JsonValue::boolean(bool B) {
  JsonValue V;
  V.K = Kind::Bool;
  V.B = B;
  return V;
}
JsonValue JsonValue::number(double D) {
  JsonValue V;
  V.K = Kind::Number;
  V.D = D;
  V.I = static_cast<int64_t>(D);
  return V;
}
JsonValue JsonValue::integer(int64_t I) {
  JsonValue V;
  V.K = Kind::Number;
  V.IsInt = true;
  V.I = I;
  V.D = static_cast<double>(I);
  return V;
}
JsonValue JsonValue::string(std::string S) {
  JsonValue V;
  V.K = Kind::String;
  V.S = std::move(S);
  return V;
}
JsonValue JsonValue::array() {
  JsonValue V;
  V.K = Kind::Array;
  return V;
}
JsonValue JsonValue::object() {
  JsonValue V;
  V.K = Kind::Object;
  return V;
}

const JsonValue *JsonValue::get(const std::string &Key) const {
  if (K != Kind::Object)
    return nullptr;
  for (const auto &M : Obj)
    if (M.first == Key)
      return &M.second;
  return nullptr;
}

JsonValue &JsonValue::push(JsonValue V) {
  Arr.push_back(std::move(V));
  return Arr.back();
}

JsonValue &JsonValue::set(const std::string &Key, JsonValue V) {
  for (auto &M : Obj)
    if (M.first == Key) {
      M.second = std::move(V);
      return M.second;
    }
  Obj.emplace_back(Key, std::move(V));
  return Obj.back().second;
}

std::string formatDouble(double D) {
  if (!std::isfinite(D))
    return "null";
  char Buf[32];
  for (int Precision = 15; Precision <= 17; ++Precision) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Precision, D);
    if (std::strtod(Buf, nullptr) == D)
      break;
  }
  return Buf;
}

std::string quoteJson(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"': Out += "\\\""; break;
    case '\\': Out += "\\\\"; break;
    case '\n': Out += "\\n"; break;
    case '\r': Out += "\\r"; break;
    case '\t': Out += "\\t"; break;
    default:
      if (C < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  return Out + "\"";
}

void JsonValue::write(std::string &Out) const {
  switch (K) {
  case Kind::Null: Out += "null"; return;
  case Kind::Bool: Out += B ? "true" : "false"; return;
  case Kind::Number:
    Out += IsInt ? std::to_string(I) : formatDouble(D);
    return;
  case Kind::String: Out += quoteJson(S); return;
  case Kind::Array:
    Out += '[';
    for (size_t N = 0; N < Arr.size(); ++N) {
      if (N)
        Out += ", ";
      Arr[N].write(Out);
    }
    Out += ']';
    return;
  case Kind::Object:
    Out += '{';
    for (size_t N = 0; N < Obj.size(); ++N) {
      if (N)
        Out += ", ";
      Out += quoteJson(Obj[N].first);
      Out += ": ";
      Obj[N].second.write(Out);
    }
    Out += '}';
    return;
  }
}

std::string JsonValue::str() const {
  std::string Out;
  write(Out);
  return Out;
}

namespace {

/// Recursive-descent parser over the whole text; no exceptions.
class Parser {
public:
  explicit Parser(const std::string &T) : T(T) {}

  bool parse(JsonValue &Out, std::string &Error) {
    skipSpace();
    bool OK = value(Out, 0);
    if (OK) {
      skipSpace();
      if (P != T.size())
        OK = fail("unexpected text after the value");
    }
    if (!OK)
      Error = where() + ": " + Why;
    return OK;
  }

private:
  const std::string &T;
  size_t P = 0;
  std::string Why;

  bool fail(const std::string &What) {
    if (Why.empty())
      Why = What;
    return false;
  }

  std::string where() const {
    size_t Line = 1, Col = 1;
    for (size_t N = 0; N < P && N < T.size(); ++N) {
      if (T[N] == '\n') {
        ++Line;
        Col = 1;
      } else {
        ++Col;
      }
    }
    return "line " + std::to_string(Line) + ", column " + std::to_string(Col);
  }

  void skipSpace() {
    while (P < T.size() && (T[P] == ' ' || T[P] == '\t' || T[P] == '\n' || T[P] == '\r'))
      ++P;
  }

  bool literal(const char *Word) {
    size_t L = std::strlen(Word);
    if (T.compare(P, L, Word) != 0)
      return fail("invalid literal");
    P += L;
    return true;
  }

  bool value(JsonValue &Out, int Depth) {
    if (Depth > 200)
      return fail("nesting too deep");
    if (P >= T.size())
      return fail("unexpected end of input");
    char C = T[P];
    if (C == '{')
      return object(Out, Depth);
    if (C == '[')
      return array(Out, Depth);
    if (C == '"') {
      std::string S;
      if (!string(S))
        return false;
      Out = JsonValue::string(std::move(S));
      return true;
    }
    if (C == 't') {
      Out = JsonValue::boolean(true);
      return literal("true");
    }
    if (C == 'f') {
      Out = JsonValue::boolean(false);
      return literal("false");
    }
    if (C == 'n') {
      Out = JsonValue::null();
      return literal("null");
    }
    if (C == '-' || (C >= '0' && C <= '9'))
      return number(Out);
    return fail(std::string("unexpected character '") + C + "'");
  }

  bool number(JsonValue &Out) {
    size_t Start = P;
    bool IsInt = true;
    if (T[P] == '-')
      ++P;
    auto Digits = [&] {
      size_t D = P;
      while (P < T.size() && T[P] >= '0' && T[P] <= '9')
        ++P;
      return P > D;
    };
    if (P < T.size() && T[P] == '0')
      ++P;
    else if (!Digits())
      return fail("invalid number");
    if (P < T.size() && T[P] == '.') {
      ++P;
      IsInt = false;
      if (!Digits())
        return fail("invalid number");
    }
    if (P < T.size() && (T[P] == 'e' || T[P] == 'E')) {
      ++P;
      IsInt = false;
      if (P < T.size() && (T[P] == '+' || T[P] == '-'))
        ++P;
      if (!Digits())
        return fail("invalid number");
    }
    std::string Text = T.substr(Start, P - Start);
    if (IsInt) {
      errno = 0;
      long long I = std::strtoll(Text.c_str(), nullptr, 10);
      if (errno != ERANGE) {
        Out = JsonValue::integer(I);
        return true;
      }
    }
    Out = JsonValue::number(std::strtod(Text.c_str(), nullptr));
    return true;
  }

  static void appendUtf8(std::string &S, uint32_t CP) {
    if (CP < 0x80) {
      S += static_cast<char>(CP);
    } else if (CP < 0x800) {
      S += static_cast<char>(0xc0 | (CP >> 6));
      S += static_cast<char>(0x80 | (CP & 0x3f));
    } else if (CP < 0x10000) {
      S += static_cast<char>(0xe0 | (CP >> 12));
      S += static_cast<char>(0x80 | ((CP >> 6) & 0x3f));
      S += static_cast<char>(0x80 | (CP & 0x3f));
    } else {
      S += static_cast<char>(0xf0 | (CP >> 18));
      S += static_cast<char>(0x80 | ((CP >> 12) & 0x3f));
      S += static_cast<char>(0x80 | ((CP >> 6) & 0x3f));
      S += static_cast<char>(0x80 | (CP & 0x3f));
    }
  }

  bool hex4(uint32_t &CP) {
    if (P + 4 > T.size())
      return fail("invalid \\u escape");
    CP = 0;
    for (int N = 0; N < 4; ++N) {
      char C = T[P++];
      CP <<= 4;
      if (C >= '0' && C <= '9')
        CP |= C - '0';
      else if (C >= 'a' && C <= 'f')
        CP |= C - 'a' + 10;
      else if (C >= 'A' && C <= 'F')
        CP |= C - 'A' + 10;
      else
        return fail("invalid \\u escape");
    }
    return true;
  }

  bool string(std::string &S) {
    ++P; // opening quote
    while (true) {
      if (P >= T.size())
        return fail("unterminated string");
      char C = T[P++];
      if (C == '"')
        return true;
      if (static_cast<unsigned char>(C) < 0x20)
        return fail("control character in string");
      if (C != '\\') {
        S += C;
        continue;
      }
      if (P >= T.size())
        return fail("unterminated string");
      char E = T[P++];
      switch (E) {
      case '"': S += '"'; break;
      case '\\': S += '\\'; break;
      case '/': S += '/'; break;
      case 'b': S += '\b'; break;
      case 'f': S += '\f'; break;
      case 'n': S += '\n'; break;
      case 'r': S += '\r'; break;
      case 't': S += '\t'; break;
      case 'u': {
        uint32_t CP;
        if (!hex4(CP))
          return false;
        if (CP >= 0xd800 && CP < 0xdc00 && T.compare(P, 2, "\\u") == 0) {
          P += 2;
          uint32_t Lo;
          if (!hex4(Lo))
            return false;
          CP = 0x10000 + ((CP - 0xd800) << 10) + (Lo - 0xdc00);
        }
        appendUtf8(S, CP);
        break;
      }
      default:
        return fail(std::string("invalid escape '\\") + E + "'");
      }
    }
  }

  bool array(JsonValue &Out, int Depth) {
    ++P;
    Out = JsonValue::array();
    skipSpace();
    if (P < T.size() && T[P] == ']') {
      ++P;
      return true;
    }
    while (true) {
      skipSpace();
      JsonValue V;
      if (!value(V, Depth + 1))
        return false;
      Out.push(std::move(V));
      skipSpace();
      if (P < T.size() && T[P] == ',') {
        ++P;
        continue;
      }
      if (P < T.size() && T[P] == ']') {
        ++P;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool object(JsonValue &Out, int Depth) {
    ++P;
    Out = JsonValue::object();
    skipSpace();
    if (P < T.size() && T[P] == '}') {
      ++P;
      return true;
    }
    while (true) {
      skipSpace();
      if (P >= T.size() || T[P] != '"')
        return fail("expected a string key");
      size_t KeyAt = P;
      std::string Key;
      if (!string(Key))
        return false;
      if (Out.get(Key)) {
        P = KeyAt;
        return fail("duplicate key '" + Key + "'");
      }
      skipSpace();
      if (P >= T.size() || T[P] != ':')
        return fail("expected ':'");
      ++P;
      skipSpace();
      JsonValue V;
      if (!value(V, Depth + 1))
        return false;
      Out.set(Key, std::move(V));
      skipSpace();
      if (P < T.size() && T[P] == ',') {
        ++P;
        continue;
      }
      if (P < T.size() && T[P] == '}') {
        ++P;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }
};

} // namespace

bool parseJson(const std::string &Text, JsonValue &Out, std::string &Error) {
  return Parser(Text).parse(Out, Error);
}

} // namespace bench
