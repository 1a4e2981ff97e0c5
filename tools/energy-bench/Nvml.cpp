//===- Nvml.cpp - NVML power, energy and clock readings -------------------===//

#include "Nvml.h"

#include <dlfcn.h>

#include <initializer_list>
#include <type_traits>

namespace bench {

bool Nvml::open(const char *Library, const std::string &PciBusId, unsigned Index,
                std::string &Error) {
  Handle = dlopen(Library, RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    Error = Why ? Why : std::string(Library) + ": cannot open";
    return false;
  }
  bool Missing = false;
  auto Resolve = [&](auto &Fn, const char *Symbol) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(Handle, Symbol));
    if (!Fn && !Missing) {
      Error = std::string(Library) + " has no symbol '" + Symbol + "'";
      Missing = true;
    }
  };
  Resolve(Init, "nvmlInit_v2");
  Resolve(Shutdown, "nvmlShutdown");
  Resolve(ErrorString, "nvmlErrorString");
  Resolve(SystemGetDriverVersion, "nvmlSystemGetDriverVersion");
  Resolve(GetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2");
  Resolve(GetHandleByPciBusId, "nvmlDeviceGetHandleByPciBusId_v2");
  Resolve(GetName, "nvmlDeviceGetName");
  Resolve(GetTotalEnergyConsumption, "nvmlDeviceGetTotalEnergyConsumption");
  Resolve(GetPowerUsage, "nvmlDeviceGetPowerUsage");
  Resolve(GetFieldValues, "nvmlDeviceGetFieldValues");
  Resolve(GetClockInfo, "nvmlDeviceGetClockInfo");
  Resolve(GetTemperature, "nvmlDeviceGetTemperature");
  if (Missing)
    return false;
  auto Optional = [&](auto &Fn, std::initializer_list<const char *> Symbols) {
    for (const char *Symbol : Symbols)
      if (!Fn)
        Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(Handle, Symbol));
  };
  Optional(GetClocksEventReasons, {"nvmlDeviceGetCurrentClocksEventReasons",
                                   "nvmlDeviceGetCurrentClocksThrottleReasons"});
  Optional(GetEnforcedPowerLimit, {"nvmlDeviceGetEnforcedPowerLimit"});
  Ret R = Init();
  if (R != nvml::NVML_SUCCESS) {
    Error = std::string("nvmlInit_v2: ") + ErrorString(R);
    return false;
  }
  Initialized = true;
  if (PciBusId.empty() || GetHandleByPciBusId(PciBusId.c_str(), &Device) != nvml::NVML_SUCCESS) {
    R = GetHandleByIndex(Index, &Device);
    if (R != nvml::NVML_SUCCESS) {
      Error = "nvmlDeviceGetHandleByIndex_v2(" + std::to_string(Index) + "): " + ErrorString(R);
      return false;
    }
  }
  return true;
}

void Nvml::close() {
  if (Initialized)
    Shutdown();
  Initialized = false;
  // The library stays loaded: NVML may keep threads of its own.
}

bool Nvml::energyMillijoules(unsigned long long &MilliJoules) const {
  return Initialized && GetTotalEnergyConsumption(Device, &MilliJoules) == nvml::NVML_SUCCESS;
}

bool Nvml::powerWatts(double &Watts) const {
  if (!Initialized)
    return false;
  nvml::nvmlFieldValue_t F{};
  F.fieldId = nvml::NVML_FI_DEV_POWER_INSTANT;
  if (GetFieldValues(Device, 1, &F) == nvml::NVML_SUCCESS && F.nvmlReturn == nvml::NVML_SUCCESS) {
    double MilliWatts;
    switch (F.valueType) {
    case nvml::Double: MilliWatts = F.value.dVal; break;
    case nvml::UInt: MilliWatts = F.value.uiVal; break;
    case nvml::ULong: MilliWatts = static_cast<double>(F.value.ulVal); break;
    case nvml::ULongLong: MilliWatts = static_cast<double>(F.value.ullVal); break;
    case nvml::SLongLong: MilliWatts = static_cast<double>(F.value.sllVal); break;
    case nvml::SInt: MilliWatts = F.value.siVal; break;
    default: MilliWatts = F.value.usVal; break;
    }
    Watts = MilliWatts / 1000.0;
    return true;
  }
  unsigned MilliWatts;
  if (GetPowerUsage(Device, &MilliWatts) != nvml::NVML_SUCCESS)
    return false;
  Watts = MilliWatts / 1000.0;
  return true;
}

bool Nvml::clockMHz(int Type, unsigned &MHz) const {
  return Initialized && GetClockInfo(Device, Type, &MHz) == nvml::NVML_SUCCESS;
}

bool Nvml::temperatureC(unsigned &C) const {
  return Initialized && GetTemperature(Device, nvml::NVML_TEMPERATURE_GPU, &C) == nvml::NVML_SUCCESS;
}

bool Nvml::throttleReasons(unsigned long long &Mask) const {
  return Initialized && GetClocksEventReasons &&
         GetClocksEventReasons(Device, &Mask) == nvml::NVML_SUCCESS;
}

bool Nvml::powerLimitWatts(double &Watts) const {
  unsigned MilliWatts;
  if (!Initialized || !GetEnforcedPowerLimit ||
      GetEnforcedPowerLimit(Device, &MilliWatts) != nvml::NVML_SUCCESS)
    return false;
  Watts = MilliWatts / 1000.0;
  return true;
}

std::string throttleReasonNames(unsigned long long Mask) {
  static const char *const Names[] = {
      "gpu_idle",          "applications_clocks", "sw_power_cap",
      "hw_slowdown",       "sync_boost",          "sw_thermal_slowdown",
      "hw_thermal_slowdown", "hw_power_brake",    "display_clocks"};
  std::string Out;
  for (unsigned Bit = 0; Bit < 64; ++Bit) {
    if (!(Mask >> Bit & 1))
      continue;
    if (!Out.empty())
      Out += ',';
    Out += Bit < sizeof Names / sizeof *Names ? Names[Bit] : "bit" + std::to_string(Bit);
  }
  return Out;
}

std::string Nvml::name() const {
  char Buf[256] = {0};
  if (!Initialized || GetName(Device, Buf, sizeof Buf) != nvml::NVML_SUCCESS)
    return "";
  return Buf;
}

std::string Nvml::driverVersion() const {
  char Buf[96] = {0};
  if (!Initialized || SystemGetDriverVersion(Buf, sizeof Buf) != nvml::NVML_SUCCESS)
    return "";
  return Buf;
}

} // namespace bench
