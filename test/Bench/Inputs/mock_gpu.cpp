// A stand-in CUDA driver (-DMOCK_CUDA: libcuda.so.1) and NVML
// (-DMOCK_NVML: libnvidia-ml.so.1) for testing energy-bench's measurement
// loop on machines without a GPU. Made-up numbers, for the pipeline's
// mechanics only: they are never data.
//
// "Device memory" is host memory. Kernels named fixture_* (the sweep's test
// fixtures) run on the host; any other kernel does nothing. Time is virtual:
// each launch takes 2 us + 10 ps per thread. NVML reports 300 W and an energy
// counter that follows wall time in 20 ms steps.
//
// Environment: MOCK_CUDA_INIT_ERROR=<code> makes cuInit fail;
// MOCK_CUDA_WRONG=<kernel> corrupts the result of fixture_axpy or
// fixture_blocksum;
// MOCK_CUDA_LAUNCH_ERROR=<kernel> makes its launches fail with
// CUDA_ERROR_ILLEGAL_ADDRESS; MOCK_CUDA_HANG=<kernel> makes every wait after
// its first launch block forever (a hung kernel); MOCK_CUDA_CRASH=<kernel>
// aborts the process at its first launch. MOCK_NVML_NO_ENERGY=1 hides the
// energy counter; MOCK_NVML_NOISY=1 makes the counter's power double every
// 0.5 s (so any run's four sub-windows differ); MOCK_NVML_THROTTLE=<mask>
// reports these throttle reasons (else none); MOCK_NVML_NAME names the GPU.
// The enforced power limit is 700 W.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

static const char *env(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? V : "";
}

#ifdef MOCK_CUDA
#include <cuda.h>

struct CUmod_st {
  std::string Entry;
};
struct CUfunc_st {
  std::string Name;
};
struct CUevent_st {
  double Time;
};
static double VirtualTime = 0;
static int Context;
static bool Hung = false;

/// A wait on the "GPU": forever once a hanging kernel was launched.
static CUresult wait() {
  while (Hung)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return CUDA_SUCCESS;
}

template <typename T> static T arg(void **Params, int I) { return *static_cast<T *>(Params[I]); }

extern "C" {
CUresult cuInit(unsigned) {
  return *env("MOCK_CUDA_INIT_ERROR") ? CUresult(std::atoi(env("MOCK_CUDA_INIT_ERROR")))
                                      : CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int *V) {
  *V = 13000;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult R, const char **S) {
  *S = R == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS"
       : R == CUDA_ERROR_STUB_LIBRARY  ? "CUDA_ERROR_STUB_LIBRARY"
       : R == CUDA_ERROR_INVALID_PTX   ? "CUDA_ERROR_INVALID_PTX"
                                       : "CUDA_ERROR_MOCK";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult, const char **S) {
  *S = "mock error";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *N) {
  *N = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *D, int) {
  *D = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *Name, int Len, CUdevice) {
  std::strncpy(Name, "Mock GPU", size_t(Len));
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *V, CUdevice_attribute, CUdevice) {
  *V = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetPCIBusId(char *Bus, int Len, CUdevice) {
  std::strncpy(Bus, "0000:00:00.0", size_t(Len));
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice) {
  *C = reinterpret_cast<CUcontext>(&Context);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxReset(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxSynchronize() { return wait(); }

CUresult cuModuleLoadDataEx(CUmodule *M, const void *Image, unsigned N, CUjit_option *Opts,
                            void **Values) {
  std::string Ptx = static_cast<const char *>(Image);
  if (Ptx.find("MOCK_INVALID_PTX") != std::string::npos) {
    for (unsigned I = 0; I < N; ++I)
      if (Opts[I] == CU_JIT_ERROR_LOG_BUFFER)
        std::strcpy(static_cast<char *>(Values[I]), "ptxas fatal: mock syntax error");
    return CUDA_ERROR_INVALID_PTX;
  }
  size_t At = Ptx.find(".entry ");
  if (At == std::string::npos)
    return CUDA_ERROR_INVALID_PTX;
  At += 7;
  size_t End = Ptx.find_first_of("( \t\r\n", At);
  *M = new CUmod_st{Ptx.substr(At, End - At)};
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule M) {
  delete M;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *F, CUmodule M, const char *Name) {
  if (M->Entry != Name)
    return CUDA_ERROR_NOT_FOUND;
  *F = new CUfunc_st{Name}; // leaked: the mock lives as long as the test
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *V, CUfunction_attribute A, CUfunction) {
  *V = A == CU_FUNC_ATTRIBUTE_NUM_REGS               ? 32
       : A == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024
                                                      : 0;
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }

CUresult cuMemAlloc(CUdeviceptr *P, size_t Bytes) {
  *P = reinterpret_cast<CUdeviceptr>(std::malloc(Bytes ? Bytes : 1));
  return *P ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult cuMemFree(CUdeviceptr P) {
  std::free(reinterpret_cast<void *>(P));
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr D, const void *S, size_t N) {
  std::memcpy(reinterpret_cast<void *>(D), S, N);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *D, CUdeviceptr S, size_t N) {
  std::memcpy(D, reinterpret_cast<const void *>(S), N);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                        unsigned BY, unsigned BZ, unsigned, CUstream, void **P, void **) {
  const std::string &K = F->Name;
  if (K == env("MOCK_CUDA_LAUNCH_ERROR"))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  if (K == env("MOCK_CUDA_CRASH"))
    std::abort();
  Hung |= K == env("MOCK_CUDA_HANG");
  if (K == "fixture_axpy") {
    int N = arg<int>(P, 0);
    float A = arg<float>(P, 1);
    const float *X = arg<const float *>(P, 2);
    float *Y = arg<float *>(P, 3);
    for (int I = 0; I < N; ++I)
      Y[I] = A * X[I] + Y[I];
  } else if (K == "fixture_transpose") {
    int Rows = arg<int>(P, 0), Cols = arg<int>(P, 1);
    const int *In = arg<const int *>(P, 2);
    int *Out = arg<int *>(P, 3);
    for (int R = 0; R < Rows; ++R)
      for (int C = 0; C < Cols; ++C)
        Out[C * Rows + R] = In[R * Cols + C];
  } else if (K == "fixture_blocksum") {
    int N = arg<int>(P, 0);
    const float *X = arg<const float *>(P, 1);
    float *Sums = arg<float *>(P, 2);
    for (unsigned B = 0; B < GX; ++B) {
      float S = 0;
      for (unsigned T = 0; T < BX; ++T)
        S += int(B * BX + T) < N ? X[B * BX + T] : 0.0f;
      Sums[B] = S;
    }
  }
  if (K == env("MOCK_CUDA_WRONG")) {
    float *First = arg<float *>(P, int(K == "fixture_axpy" ? 3 : 2));
    First[0] += 1000.0f;
  }
  VirtualTime += 2e-6 + 1e-11 * double(GX) * GY * GZ * BX * BY * BZ;
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *E, unsigned) {
  *E = new CUevent_st{0};
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent E) {
  delete E;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent E, CUstream) {
  E->Time = VirtualTime;
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return wait(); }
CUresult cuEventElapsedTime(float *Ms, CUevent A, CUevent B) {
  *Ms = float((B->Time - A->Time) * 1e3);
  return CUDA_SUCCESS;
}
CUresult cuOccupancyMaxPotentialBlockSize(int *MinGrid, int *Block, CUfunction,
                                          CUoccupancyB2DSize Smem, size_t, int) {
  *Block = Smem && Smem(1024) > 2048 ? 512 : 1024; // made up, but uses the callback
  *MinGrid = 264;
  return CUDA_SUCCESS;
}
} // extern "C"
#endif // MOCK_CUDA

#ifdef MOCK_NVML
static double wallSeconds() {
  using namespace std::chrono;
  static const auto Start = steady_clock::now();
  return duration<double>(steady_clock::now() - Start).count();
}

typedef struct nvmlDevice_st *nvmlDevice_t;
struct nvmlDevice_st {
  int Unused;
};
static nvmlDevice_st Device;
typedef struct {
  unsigned fieldId, scopeId;
  long long timestamp, latencyUsec;
  int valueType, nvmlReturn;
  union {
    double dVal;
    unsigned uiVal;
    unsigned long long ullVal;
  } value;
} nvmlFieldValue_t;
static const double Watts = 300;

extern "C" {
int nvmlInit_v2() {
  wallSeconds();
  return 0;
}
int nvmlShutdown() { return 0; }
const char *nvmlErrorString(int) { return "mock NVML error"; }
int nvmlSystemGetDriverVersion(char *V, unsigned Len) {
  std::strncpy(V, "999.99-mock", Len);
  return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned, nvmlDevice_t *D) {
  *D = &Device;
  return 0;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char *, nvmlDevice_t *D) {
  *D = &Device;
  return 0;
}
int nvmlDeviceGetName(nvmlDevice_t, char *Name, unsigned Len) {
  std::strncpy(Name, *env("MOCK_NVML_NAME") ? env("MOCK_NVML_NAME") : "Mock GPU (not a measurement)",
               Len);
  return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t, unsigned long long *MilliJoules) {
  if (*env("MOCK_NVML_NO_ENERGY"))
    return 3; // NVML_ERROR_NOT_SUPPORTED
  double T = double(static_cast<long long>(wallSeconds() / 0.02)) * 0.02;
  // Noisy: the integral of Watts * 2^(t / 0.5).
  double Joules = *env("MOCK_NVML_NOISY") ? Watts * 0.5 / std::log(2.0) * (std::exp2(T / 0.5) - 1)
                                          : T * Watts;
  *MilliJoules = 1000000ull + static_cast<unsigned long long>(Joules * 1000);
  return 0;
}
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t, unsigned long long *Reasons) {
  *Reasons = std::strtoull(env("MOCK_NVML_THROTTLE"), nullptr, 0);
  return 0;
}
int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t, unsigned *MilliWatts) {
  *MilliWatts = 700000;
  return 0;
}
int nvmlDeviceGetPowerUsage(nvmlDevice_t, unsigned *MilliWatts) {
  *MilliWatts = unsigned(Watts * 1000);
  return 0;
}
int nvmlDeviceGetFieldValues(nvmlDevice_t, int N, nvmlFieldValue_t *V) {
  for (int I = 0; I < N; ++I) {
    V[I].nvmlReturn = V[I].fieldId == 186 ? 0 : 3;
    V[I].valueType = 1; // unsigned int, mW
    V[I].value.uiVal = unsigned(Watts * 1000);
  }
  return 0;
}
int nvmlDeviceGetClockInfo(nvmlDevice_t, int Type, unsigned *MHz) {
  *MHz = Type == 1 ? 1980 : 2619;
  return 0;
}
int nvmlDeviceGetTemperature(nvmlDevice_t, int, unsigned *C) {
  *C = 40;
  return 0;
}
} // extern "C"
#endif // MOCK_NVML
