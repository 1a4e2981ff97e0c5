# The flags clang-19 needs to compile CUDA against CUDA 13 the way nvcc does.
# The one list for every route that runs clang over CUDA: energy-cuda
# (substituted into tools/energy-cuda/energy-cuda.in), the tools' device
# compile (lib/Driver/CudaCompile.cpp, through a generated .inc), the clang
# targets of energy_tune_target (energy_cuda_compat_flags, installed with the
# package) and lit's %cudaflags (through lit.site.cfg.py).
# test/Tools/compat-flags-agree.test checks that all four use it.
#
# {compat} stands for include/energy/cuda-compat (build or install tree),
# {cuda} for the CUDA toolkit root; each route fills them in its own way.
# A header put in include/energy/cuda-compat under the name of one clang-19
# includes and CUDA 13 lacks needs no line here (the first -isystem finds
# it); a header every CUDA compile must see gets one -include line.
# No include guard: each directory that includes this needs the variable.

set(ENERGY_CUDA_COMPAT_FLAG_TEMPLATE
  # Stand-ins for headers CUDA 13 dropped and clang-19's CUDA wrapper still
  # includes (texture_fetch_functions.h).
  -isystem {compat}
  # The host min/max overloads nvcc's headers declare.
  -include {compat}/energy_host_min_max.h
  # CCCL (libcu++, CUB, Thrust; cooperative groups include it), where nvcc
  # puts it: CUDA 13 keeps it apart from include/.
  -isystem {cuda}/include/cccl
  # clang-19 knows CUDA up to 12.x and warns about 13 on every compile.
  -Wno-unknown-cuda-version)

# _energy_fill_compat_flags(<var> <compat dir> <cuda root>): the list with
# its two directories filled in (energy_cuda_compat_flags in EnergyCUDA.cmake
# for a project; the energy build for energy-cuda and CudaCompile).
function(_energy_fill_compat_flags out compat cuda)
  set(flags)
  foreach(flag ${ENERGY_CUDA_COMPAT_FLAG_TEMPLATE})
    string(REPLACE "{compat}" "${compat}" flag "${flag}")
    string(REPLACE "{cuda}" "${cuda}" flag "${flag}")
    list(APPEND flags "${flag}")
  endforeach()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()
