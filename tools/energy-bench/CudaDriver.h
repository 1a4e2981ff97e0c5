//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// energy-bench links no CUDA library: it builds wherever cuda.h exists (types
// and prototypes only) and opens libcuda.so.1 with dlopen when it measures.
// Members are named like the API's functions; cuda.h's macros rename the
// versioned ones (cuMemAlloc -> cuMemAlloc_v2) in declarations and calls
// alike, so `Cu.cuMemAlloc(&P, N)` calls the symbol named in the table.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_CUDADRIVER_H
#define ENERGY_BENCH_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace bench {

// Entry points and the exported symbol each one is (cuda.h, CUDA 13.0: the
// #defines at its top map cuMemAlloc to cuMemAlloc_v2 and so on; the second
// name is a fallback for drivers that export only the older symbol).
#define ENERGY_CUDA_FUNCTIONS(X)                                               \
  X(cuInit, "cuInit", nullptr)                                                 \
  X(cuDriverGetVersion, "cuDriverGetVersion", nullptr)                         \
  X(cuGetErrorName, "cuGetErrorName", nullptr)                                 \
  X(cuGetErrorString, "cuGetErrorString", nullptr)                             \
  X(cuDeviceGetCount, "cuDeviceGetCount", nullptr)                             \
  X(cuDeviceGet, "cuDeviceGet", nullptr)                                       \
  X(cuDeviceGetName, "cuDeviceGetName", nullptr)                               \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", nullptr)                     \
  X(cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId", nullptr)                       \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr)             \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",                 \
    "cuDevicePrimaryCtxRelease")                                               \
  X(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset_v2",                     \
    "cuDevicePrimaryCtxReset")                                                 \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", nullptr)                               \
  X(cuCtxSynchronize, "cuCtxSynchronize", nullptr)                             \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", nullptr)                         \
  X(cuModuleUnload, "cuModuleUnload", nullptr)                                 \
  X(cuModuleGetFunction, "cuModuleGetFunction", nullptr)                       \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", nullptr)                         \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", nullptr)                         \
  X(cuMemAlloc, "cuMemAlloc_v2", nullptr)                                      \
  X(cuMemFree, "cuMemFree_v2", nullptr)                                        \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", nullptr)                                  \
  X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", nullptr)                                  \
  X(cuLaunchKernel, "cuLaunchKernel", nullptr)                                 \
  X(cuEventCreate, "cuEventCreate", nullptr)                                   \
  X(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy")                     \
  X(cuEventRecord, "cuEventRecord", nullptr)                                   \
  X(cuEventSynchronize, "cuEventSynchronize", nullptr)                         \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")         \
  X(cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize",      \
    nullptr)

/// The driver's entry points, resolved with dlsym.
struct CudaDriver {
#define ENERGY_CUDA_MEMBER(Name, Symbol, Fallback) decltype(&::Name) Name = nullptr;
  ENERGY_CUDA_FUNCTIONS(ENERGY_CUDA_MEMBER)
#undef ENERGY_CUDA_MEMBER

  /// dlopen(Library) and resolve every entry point; on failure Error says
  /// which library or symbol is missing.
  bool load(const char *Library, std::string &Error);

  /// "CUDA_ERROR_OUT_OF_MEMORY: out of memory".
  std::string describe(CUresult R) const;

  /// "13.0" from cuDriverGetVersion.
  std::string version() const;

private:
  void *Handle = nullptr;
};

/// Errors that leave the context unusable until it is reset.
bool isStickyError(CUresult R);

} // namespace bench

#endif
