//===- InitSpec.cpp - Buffer init specs and element value ranges ----------===//

#include "InitSpec.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace bench {

static std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t"), E = S.find_last_not_of(" \t");
  return B == std::string::npos ? std::string() : S.substr(B, E - B + 1);
}

static bool parseNumber(const std::string &S, double &Out) {
  std::string T = trim(S);
  if (T.empty())
    return false;
  char *End;
  errno = 0;
  Out = std::strtod(T.c_str(), &End);
  return *End == 0 && errno == 0 && std::isfinite(Out);
}

bool isFloatType(ElemType T) {
  return T == ElemType::F16 || T == ElemType::F32 || T == ElemType::F64;
}

/// Integer range of an element type, as doubles.
void typeRange(ElemType T, double &Lo, double &Hi) {
  switch (T) {
  case ElemType::I32: Lo = -2147483648.0; Hi = 2147483647.0; return;
  case ElemType::U32: Lo = 0; Hi = 4294967295.0; return;
  case ElemType::I64: Lo = -9.2e18; Hi = 9.2e18; return;
  case ElemType::U8: Lo = 0; Hi = 255; return;
  case ElemType::F16: Lo = -65504; Hi = 65504; return;
  default: Lo = -1e308; Hi = 1e308; return;
  }
}

/// Parses "uniform(lo,hi)", "randint(lo,hi)", "zeros", "csr_row_ptr(k)",
/// "iota"; returns an empty string or what is wrong.
std::string parseInit(const std::string &Text, ElemType Type, InitSpec &Out) {
  Out.Text = Text;
  std::string T = trim(Text);
  std::string Name = T, ArgText;
  std::vector<double> Args;
  size_t Open = T.find('(');
  if (Open != std::string::npos) {
    if (T.back() != ')')
      return "init '" + Text + "' is not NAME(ARGS)";
    Name = trim(T.substr(0, Open));
    ArgText = T.substr(Open + 1, T.size() - Open - 2);
    size_t Start = 0;
    while (true) {
      size_t Comma = ArgText.find(',', Start);
      double V;
      if (!parseNumber(ArgText.substr(Start, Comma - Start), V))
        return "init '" + Text + "' has an argument that is not a number";
      Args.push_back(V);
      if (Comma == std::string::npos)
        break;
      Start = Comma + 1;
    }
  }
  auto Want = [&](size_t N) -> std::string {
    if (Args.size() != N)
      return "init '" + Text + "' takes " + std::to_string(N) + " argument(s)";
    return "";
  };
  double TLo, THi;
  typeRange(Type, TLo, THi);
  if (Name == "uniform") {
    if (std::string E = Want(2); !E.empty())
      return E;
    if (!isFloatType(Type))
      return "init '" + Text + "' needs a float buffer (f16 f32 f64), not " +
             energy_ref::elemTypeName(Type) + " (use randint)";
    if (!(Args[0] < Args[1]))
      return "init '" + Text + "' needs lo < hi";
    Out.K = InitSpec::Kind::Uniform;
    Out.Lo = Args[0];
    Out.Hi = Args[1];
    return "";
  }
  if (Name == "randint") {
    if (std::string E = Want(2); !E.empty())
      return E;
    if (Args[0] != std::floor(Args[0]) || Args[1] != std::floor(Args[1]) || !(Args[0] < Args[1]))
      return "init '" + Text + "' needs integers lo < hi";
    if (Args[0] < TLo || Args[1] - 1 > THi)
      return "init '" + Text + "' does not fit " + energy_ref::elemTypeName(Type);
    Out.K = InitSpec::Kind::Randint;
    Out.Lo = Args[0];
    Out.Hi = Args[1];
    return "";
  }
  if (Name == "csr_row_ptr") {
    if (std::string E = Want(1); !E.empty())
      return E;
    if (Type != ElemType::I32 && Type != ElemType::I64 && Type != ElemType::U32)
      return "init '" + Text + "' needs an i32, u32 or i64 buffer";
    if (Args[0] != std::floor(Args[0]) || Args[0] < 0)
      return "init '" + Text + "' needs a non-negative integer";
    Out.K = InitSpec::Kind::CsrRowPtr;
    Out.PerRow = static_cast<int64_t>(Args[0]);
    return "";
  }
  if (Name == "zeros" || Name == "iota") {
    if (Open != std::string::npos && !(Args.empty()))
      return "init '" + Text + "' takes no arguments";
    Out.K = Name == "zeros" ? InitSpec::Kind::Zeros : InitSpec::Kind::Iota;
    return "";
  }
  return "unknown init '" + Text +
         "' (expected uniform(lo,hi), randint(lo,hi), zeros, csr_row_ptr(k) or iota)";
}

} // namespace bench
