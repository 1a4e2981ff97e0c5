//===- Units.cpp - Durations and energies as people read them -------------===//

#include "energy/Units.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace energy {

namespace {
struct Unit {
  double Scale;
  const char *Name;
};
} // namespace

/// %.4g of X, which never has an exponent for 1e-4 <= |X| < 1e4.
static std::string significant(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.4g", X);
  return Buf;
}

/// The largest unit in which |Value| is at least 1 once rounded to four
/// digits (999.96 us is 1 ms), else the smallest.
static std::string formatQuantity(double Value, const Unit (&Units)[4]) {
  if (!std::isfinite(Value))
    return "n/a";
  if (Value == 0)
    return std::string("0 ") + Units[3].Name;
  const Unit *Chosen = &Units[0];
  for (const Unit &U : Units)
    if (std::fabs(std::strtod(significant(Value / U.Scale).c_str(), nullptr)) >= 1)
      Chosen = &U;
  double Scaled = Value / Chosen->Scale;
  if (std::fabs(Scaled) >= 1e4) { // beyond the largest unit
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.0f %s", Scaled, Chosen->Name);
    return Buf;
  }
  return significant(Scaled) + " " + Chosen->Name;
}

std::string formatDuration(double Seconds) {
  static const Unit Units[4] = {{1e-9, "ns"}, {1e-6, "us"}, {1e-3, "ms"}, {1, "s"}};
  return formatQuantity(Seconds, Units);
}

std::string formatEnergy(double Joules) {
  static const Unit Units[4] = {{1e-9, "nJ"}, {1e-6, "uJ"}, {1e-3, "mJ"}, {1, "J"}};
  return formatQuantity(Joules, Units);
}

} // namespace energy
