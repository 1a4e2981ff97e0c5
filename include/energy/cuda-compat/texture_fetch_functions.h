// CUDA 13 compatibility shim for clang-19.
//
// CUDA 13 removed texture_fetch_functions.h, but clang-19's
// __clang_cuda_runtime_wrapper.h still includes it, right after its texture
// intrinsics and before CUDA's texture_indirect_functions.h. This header
// stands in for it; put its directory on the include path (-isystem) when
// compiling CUDA with clang-19 against CUDA 13 (cmake/EnergyCUDA.cmake and
// tools/energy-cuda do this). Texture reference fetches are gone from CUDA 13;
// texture objects come from clang's intrinsics. This is also where the
// device functions clang-19 lacks with CUDA 13 come in: the wrapper never
// includes CUDA's surface functions, declares nan/nanf without defining
// them, and has no device __cxa_pure_virtual for vtables.
#pragma once

#include "energy_device_nan.h"
#include "energy_device_pure_virtual.h"
#include "surface_indirect_functions.h"
