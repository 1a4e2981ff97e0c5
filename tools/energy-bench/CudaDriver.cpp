//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include <dlfcn.h>

namespace bench {

bool CudaDriver::load(const char *Library, std::string &Error) {
  Handle = dlopen(Library, RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    Error = Why ? Why : std::string(Library) + ": cannot open";
    return false;
  }
  auto Resolve = [&](const char *Symbol, const char *Fallback) -> void * {
    void *P = dlsym(Handle, Symbol);
    if (!P && Fallback)
      P = dlsym(Handle, Fallback);
    if (!P)
      Error = std::string(Library) + " has no symbol '" + Symbol + "'";
    return P;
  };
#define ENERGY_CUDA_RESOLVE(Name, Symbol, Fallback)                            \
  Name = reinterpret_cast<decltype(Name)>(Resolve(Symbol, Fallback));         \
  if (!Name)                                                                   \
    return false;
  ENERGY_CUDA_FUNCTIONS(ENERGY_CUDA_RESOLVE)
#undef ENERGY_CUDA_RESOLVE
  return true;
}

std::string CudaDriver::describe(CUresult R) const {
  const char *Name = nullptr, *Text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(R, &Name);
  if (cuGetErrorString)
    cuGetErrorString(R, &Text);
  std::string S = Name ? Name : "CUDA error " + std::to_string(static_cast<int>(R));
  if (Text)
    S += std::string(": ") + Text;
  return S;
}

std::string CudaDriver::version() const {
  int V = 0;
  if (!cuDriverGetVersion || cuDriverGetVersion(&V) != CUDA_SUCCESS)
    return "unknown";
  return std::to_string(V / 1000) + "." + std::to_string(V % 1000 / 10);
}

bool isStickyError(CUresult R) {
  switch (R) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    return true;
  default:
    return false;
  }
}

} // namespace bench
