//===- AnalyticConstants.cpp - Fitted constants of the analytic model -----===//
//
// The analytic model's efficiency constants per architecture family. The
// fitted values live in CalibratedConstants.inc, which
// `python3 -m energy.calibrate` writes together with the data it learned
// from and its out-of-sample figures (data/calibration/). A family without
// an entry there keeps the defaults of CostModel.h, and Origin says so.
//
//===----------------------------------------------------------------------===//

#include "energy/CostModel.h"

#include "llvm/ADT/StringMap.h"

using namespace energy;

namespace {

struct CalibratedFamily {
  const char *Family;
  const char *Origin;
  AnalyticConstants Constants;
};

std::vector<std::string> &unknownNames() {
  static std::vector<std::string> Unknown;
  return Unknown;
}

/// Fills a family's constants from its name-value pairs. An unknown name is
/// recorded for the unit tests, so a misspelled one cannot ship.
[[maybe_unused]] AnalyticConstants
constantsOf(std::initializer_list<std::pair<const char *, double>> Values) {
  AnalyticConstants K;
  for (auto [Name, Value] : Values)
    if (!K.set(Name, Value))
      unknownNames().push_back(Name);
  return K;
}

const std::vector<CalibratedFamily> &calibratedFamilies() {
  static const std::vector<CalibratedFamily> Families = [] {
    std::vector<CalibratedFamily> F;
#define ENERGY_CALIBRATED(Family, Origin, ...)                                 \
  F.push_back({Family, Origin, constantsOf({__VA_ARGS__})});
#include "CalibratedConstants.inc"
#undef ENERGY_CALIBRATED
    for (CalibratedFamily &C : F)
      C.Constants.Origin = C.Origin;
    return F;
  }();
  return Families;
}

} // namespace

std::vector<std::string> energy::unknownCalibratedConstants() {
  calibratedFamilies();
  return unknownNames();
}

std::vector<llvm::StringRef> AnalyticConstants::names() {
  return {
#define ENERGY_CONSTANT_NAME(Field, Default, Doc) #Field,
      ENERGY_ANALYTIC_CONSTANTS(ENERGY_CONSTANT_NAME)
#undef ENERGY_CONSTANT_NAME
  };
}

bool AnalyticConstants::set(llvm::StringRef Name, double Value) {
#define ENERGY_CONSTANT_SET(Field, Default, Doc)                               \
  if (Name == #Field) {                                                        \
    Field = Value;                                                             \
    return true;                                                               \
  }
  ENERGY_ANALYTIC_CONSTANTS(ENERGY_CONSTANT_SET)
#undef ENERGY_CONSTANT_SET
  return false;
}

llvm::StringRef energy::archFamily(const GpuArch &Arch) {
  switch (Arch.BoardSm / 10) {
  case 6:
    return "pascal";
  case 7:
    return Arch.BoardSm >= 75 ? "turing" : "volta";
  case 8:
    if (Arch.BoardSm == 80)
      return "ampere-ga100";
    return Arch.BoardSm == 89 ? "ada" : "ampere-ga10x";
  case 9:
    return "hopper";
  default:
    return Arch.BoardSm >= 100 ? "blackwell" : "unknown";
  }
}

const AnalyticConstants &energy::analyticConstants(const GpuArch &Arch) {
  static const AnalyticConstants Defaults;
  llvm::StringRef Family = archFamily(Arch);
  for (const CalibratedFamily &C : calibratedFamilies())
    if (Family == C.Family)
      return C.Constants;
  return Defaults;
}
