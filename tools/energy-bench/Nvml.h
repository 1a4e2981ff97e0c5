//===- Nvml.h - NVML power, energy and clock readings -----------*- C++ -*-===//
//
// There is no nvml.h on the build machines: the few types and entry points
// energy-bench needs are declared here as NVML's public header (nvml.h,
// NVML 12.x, e.g. gitlab.com/nvidia/headers/cuda-individual/nvml_dev
// v12.9.40) defines them, and resolved from libnvidia-ml.so.1 with dlsym:
//
//   nvmlReturn_t nvmlInit_v2(void);
//   nvmlReturn_t nvmlShutdown(void);
//   const char *nvmlErrorString(nvmlReturn_t result);
//   nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length);
//   nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
//   nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId, nvmlDevice_t *device);
//   nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length);
//   nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device,
//                                                    unsigned long long *energy);  // mJ
//   nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power);  // mW
//   nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount,
//                                         nvmlFieldValue_t *values);
//   nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type,
//                                       unsigned int *clock);                        // MHz
//   nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device,
//                                         nvmlTemperatureSensors_t sensorType,
//                                         unsigned int *temp);                       // C
//   nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device,
//                                         unsigned long long *clocksEventReasons);
//       (before NVML 12.2: nvmlDeviceGetCurrentClocksThrottleReasons, same type)
//   nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device,
//                                                unsigned int *limit);             // mW
//
// The last two are optional (read-only queries; a missing one gives no value).
// Reason bits: GpuIdle 0x1, ApplicationsClocksSetting 0x2, SwPowerCap 0x4,
// HwSlowdown 0x8, SyncBoost 0x10, SwThermalSlowdown 0x20, HwThermalSlowdown
// 0x40, HwPowerBrakeSlowdown 0x80, DisplayClockSetting 0x100.
//
// Constants from the same header: NVML_SUCCESS 0, NVML_CLOCK_SM 1,
// NVML_CLOCK_MEM 2, NVML_TEMPERATURE_GPU 0, NVML_FI_DEV_POWER_INSTANT 186
// ("Current GPU power", milliwatts; 185 is NVML_FI_DEV_POWER_AVERAGE, the
// 1 s average), NVML_VALUE_TYPE_DOUBLE 0 .. NVML_VALUE_TYPE_UNSIGNED_SHORT 6.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_NVML_H
#define ENERGY_BENCH_NVML_H

#include <cstdint>
#include <string>

namespace bench {

namespace nvml {
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef int nvmlReturn_t; // a C enum
const nvmlReturn_t NVML_SUCCESS = 0;
const int NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2; // nvmlClockType_t
const int NVML_TEMPERATURE_GPU = 0;              // nvmlTemperatureSensors_t
const unsigned NVML_FI_DEV_POWER_INSTANT = 186;
enum ValueType { Double = 0, UInt = 1, ULong = 2, ULongLong = 3, SLongLong = 4, SInt = 5, UShort = 6 };

typedef union nvmlValue_st {
  double dVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
  signed int siVal;
  unsigned short usVal;
} nvmlValue_t;

typedef struct nvmlFieldValue_st {
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;   // CPU time of the value, us since 1970
  long long latencyUsec;
  int valueType;         // nvmlValueType_t
  nvmlReturn_t nvmlReturn;
  nvmlValue_t value;
} nvmlFieldValue_t;
} // namespace nvml

/// One GPU's NVML readings. Every getter returns false when NVML cannot
/// give the value (not supported, no permission).
class Nvml {
public:
  /// dlopen Library (libnvidia-ml.so.1), nvmlInit_v2, and pick the device with
  /// this PCI bus id ("0000:65:00.0"), else the one with this index.
  bool open(const char *Library, const std::string &PciBusId, unsigned Index,
            std::string &Error);
  void close();
  ~Nvml() { close(); }

  bool energyMillijoules(unsigned long long &MilliJoules) const;
  /// Instantaneous board power (NVML_FI_DEV_POWER_INSTANT), falling back to
  /// nvmlDeviceGetPowerUsage.
  bool powerWatts(double &Watts) const;
  bool clockMHz(int Type, unsigned &MHz) const;
  bool temperatureC(unsigned &C) const;
  /// Why the clocks are below their maximum now (the reason bits above).
  bool throttleReasons(unsigned long long &Mask) const;
  /// The power limit the driver enforces.
  bool powerLimitWatts(double &Watts) const;
  std::string name() const;
  std::string driverVersion() const;

private:
  typedef nvml::nvmlReturn_t Ret;
  typedef nvml::nvmlDevice_t Dev;
  void *Handle = nullptr;
  bool Initialized = false;
  Dev Device = nullptr;
  Ret (*Init)() = nullptr;
  Ret (*Shutdown)() = nullptr;
  const char *(*ErrorString)(Ret) = nullptr;
  Ret (*SystemGetDriverVersion)(char *, unsigned) = nullptr;
  Ret (*GetHandleByIndex)(unsigned, Dev *) = nullptr;
  Ret (*GetHandleByPciBusId)(const char *, Dev *) = nullptr;
  Ret (*GetName)(Dev, char *, unsigned) = nullptr;
  Ret (*GetTotalEnergyConsumption)(Dev, unsigned long long *) = nullptr;
  Ret (*GetPowerUsage)(Dev, unsigned *) = nullptr;
  Ret (*GetFieldValues)(Dev, int, nvml::nvmlFieldValue_t *) = nullptr;
  Ret (*GetClockInfo)(Dev, int, unsigned *) = nullptr;
  Ret (*GetTemperature)(Dev, int, unsigned *) = nullptr;
  Ret (*GetClocksEventReasons)(Dev, unsigned long long *) = nullptr; // optional
  Ret (*GetEnforcedPowerLimit)(Dev, unsigned *) = nullptr;           // optional
};

/// "sw_power_cap,hw_thermal_slowdown" for a reason mask ("" for none).
std::string throttleReasonNames(unsigned long long Mask);

} // namespace bench

#endif
