// Device __cxa_pure_virtual and __cxa_deleted_virtual for clang-19's CUDA.
//
// The vtable of a class with a pure virtual (or deleted virtual) function
// holds the address of __cxa_pure_virtual (__cxa_deleted_virtual) in that
// slot. nvcc's device runtime has both; clang-19's CUDA headers define
// neither for the device (its HIP wrapper does), so a kernel that builds such
// a vtable compiles and ptxas fails: "Cannot take address of function
// '__cxa_pure_virtual'" (cuda-samples' newdelete). Reaching either is a bug
// of the program, so they trap. Inline, so a translation unit gets them only
// where a vtable names them (clang emits an inline definition for the name
// its vtables use), and a -fgpu-rdc device link keeps one copy. The compat
// texture_fetch_functions.h includes this header inside clang's runtime
// wrapper.
#pragma once

#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__)

extern "C" {
__attribute__((device)) __attribute__((noreturn)) inline void
__cxa_pure_virtual(void) {
  __builtin_trap();
}

__attribute__((device)) __attribute__((noreturn)) inline void
__cxa_deleted_virtual(void) {
  __builtin_trap();
}
}

#endif // __cplusplus && __CUDA__ && __clang__
