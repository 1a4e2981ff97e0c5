// Device nan() and nanf() for clang-19's CUDA, as nvcc provides them.
//
// clang-19's __clang_cuda_math_forward_declares.h declares both for the
// device (and std::nan, std::nanf name them) but no header defines them, so a
// device call compiles and ptxas fails: "Unresolved extern function
// '_ZL3nanPKc'" (cuda-samples' interval). These definitions complete those
// declarations (same signature, internal linkage) with libdevice's __nv_nan
// and __nv_nanf, which nvcc calls too. The compat texture_fetch_functions.h
// includes this header inside clang's runtime wrapper, after the declarations.
#pragma once

#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__)

static __inline__ __attribute__((always_inline)) __attribute__((device)) double
nan(const char *__tagp) {
  return __nv_nan(reinterpret_cast<const signed char *>(__tagp));
}

static __inline__ __attribute__((always_inline)) __attribute__((device)) float
nanf(const char *__tagp) {
  return __nv_nanf(reinterpret_cast<const signed char *>(__tagp));
}

#endif // __cplusplus && __CUDA__ && __clang__
