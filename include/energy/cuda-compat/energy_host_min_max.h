// Host min/max for clang-19's CUDA, as nvcc provides them.
//
// nvcc's CUDA headers declare min and max __host__ __device__ for the integer
// and floating types, so host code may call min(a, b) unqualified; clang's
// CUDA headers declare them for the device only, and host calls fail with
// "no matching function for call to 'min'". These are the host halves, with
// nvcc's overload set (mixed signed/unsigned pairs go unsigned, mixed
// float/double go double). energy-cuda force-includes this header (-include)
// in every CUDA compile; clang overloads on __host__/__device__, so device
// code keeps clang's own.
#pragma once

#if defined(__CUDA__) && defined(__clang__)

#define ENERGY_HOST_MIN_MAX(T, A, B)                                           \
  static inline __attribute__((host)) T min(A a, B b) {                                     \
    return static_cast<T>(a) < static_cast<T>(b) ? static_cast<T>(a)          \
                                                 : static_cast<T>(b);         \
  }                                                                            \
  static inline __attribute__((host)) T max(A a, B b) {                                     \
    return static_cast<T>(a) > static_cast<T>(b) ? static_cast<T>(a)          \
                                                 : static_cast<T>(b);         \
  }

ENERGY_HOST_MIN_MAX(int, int, int)
ENERGY_HOST_MIN_MAX(unsigned int, unsigned int, unsigned int)
ENERGY_HOST_MIN_MAX(unsigned int, int, unsigned int)
ENERGY_HOST_MIN_MAX(unsigned int, unsigned int, int)
ENERGY_HOST_MIN_MAX(long, long, long)
ENERGY_HOST_MIN_MAX(unsigned long, unsigned long, unsigned long)
ENERGY_HOST_MIN_MAX(unsigned long, long, unsigned long)
ENERGY_HOST_MIN_MAX(unsigned long, unsigned long, long)
ENERGY_HOST_MIN_MAX(long long, long long, long long)
ENERGY_HOST_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
ENERGY_HOST_MIN_MAX(unsigned long long, long long, unsigned long long)
ENERGY_HOST_MIN_MAX(unsigned long long, unsigned long long, long long)
#undef ENERGY_HOST_MIN_MAX

// Floating point as fmin/fmax: a NaN operand yields the other one.
#define ENERGY_HOST_FMIN_FMAX(T, A, B, MIN, MAX)                               \
  static inline __attribute__((host)) T min(A a, B b) { return MIN(a, b); }                 \
  static inline __attribute__((host)) T max(A a, B b) { return MAX(a, b); }

ENERGY_HOST_FMIN_FMAX(float, float, float, __builtin_fminf, __builtin_fmaxf)
ENERGY_HOST_FMIN_FMAX(double, double, double, __builtin_fmin, __builtin_fmax)
ENERGY_HOST_FMIN_FMAX(double, float, double, __builtin_fmin, __builtin_fmax)
ENERGY_HOST_FMIN_FMAX(double, double, float, __builtin_fmin, __builtin_fmax)
#undef ENERGY_HOST_FMIN_FMAX

#endif
