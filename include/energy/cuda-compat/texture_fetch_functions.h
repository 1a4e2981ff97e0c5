// CUDA 13 compatibility shim for clang-19.
//
// CUDA 13 removed texture_fetch_functions.h, but clang-19's
// __clang_cuda_runtime_wrapper.h still includes it, right after its texture
// intrinsics and before CUDA's texture_indirect_functions.h. This header
// stands in for it; put its directory on the include path (-isystem) when
// compiling CUDA with clang-19 against CUDA 13 (cmake/EnergyCUDA.cmake and
// tools/energy-cuda do this). Texture reference fetches are gone from CUDA 13;
// texture objects come from clang's intrinsics. The wrapper never includes
// CUDA's surface functions, so this is where ours come in.
#pragma once

#include "surface_indirect_functions.h"
