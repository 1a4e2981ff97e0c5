// CUDA 13 compatibility shim for clang-19.
//
// CUDA 13 removed texture_fetch_functions.h, but clang-19's
// __clang_cuda_runtime_wrapper.h still includes it. This empty header stands
// in for it; put its directory on the include path (-isystem) when compiling
// CUDA with clang-19 against CUDA 13 (cmake/EnergyCUDA.cmake and
// tools/energy-cuda do this). Texture fetch functions are unavailable.
#pragma once
