// The grid-stride saxpy of ../shared/repro/adoption (gridstride*.cu): the
// most common CUDA loop, on a 2^24-element problem. -DGRID=G declares the
// grid (ENERGY_GRID), else the launch covers a workload of 2^24 items;
// -DSIZE_T counts with size_t; -DADVICE leaves it not opted in (advice only).
#include <energy/energy.cuh>
#ifdef GRID
ENERGY_GRID(gs_saxpy, GRID, 1, 1);
#else
ENERGY_WORKLOAD(gs_saxpy, 1 << 24);
#endif
#ifdef SIZE_T
typedef size_t index_t;
#else
typedef int index_t;
#endif
#ifdef ADVICE
extern "C" __global__
#else
ENERGY_KERNEL_BLOCK(gs_saxpy, 256, 1)
#endif
void gs_saxpy(int n, float a, const float *x, float *y) {
  ENERGY_ASSUME(n, 1 << 24);
  for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x;
       i < (index_t)n; i += (index_t)blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
