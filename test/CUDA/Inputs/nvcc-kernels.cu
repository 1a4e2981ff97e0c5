// Kernels of test/CUDA/nvcc-header.test: opted in, a tiled one, one with
// dynamic shared memory, a kernel template and a kernel that did not opt in.
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);
ENERGY_KERNEL(saxpy) void saxpy(int n, float a, const float *x, float *y) {
  int thread = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < ENERGY_VALUE(ITEMS); ++k) {
    int i = thread + k * gridDim.x * blockDim.x;
    if (i < n)
      y[i] = a * x[i] + y[i];
  }
}

ENERGY_TUNABLE(TILE, 16, 8, 16);
ENERGY_KERNEL_TUNABLE_BLOCK(tiled, TILE, TILE) void tiled(float *x) {
  ENERGY_SHARED(float, t, "TILE,TILE")[TILE_max][TILE_max];
  t[threadIdx.y][threadIdx.x] = x[threadIdx.y * ENERGY_VALUE(TILE) + threadIdx.x];
  __syncthreads();
  x[threadIdx.x * ENERGY_VALUE(TILE) + threadIdx.y] = t[threadIdx.y][threadIdx.x];
}

ENERGY_DYNAMIC_SHARED(dyn, sizeof(float), 16);
ENERGY_KERNEL(dyn) void dyn(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

ENERGY_KERNEL_TEMPLATE(scale, (typename T, int N), (T, N))
void scale(int n, T *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * T(N);
}
template __global__ void scale<int, 3>(int, int *); // no entry: its default

__global__ void plain(float *x) { x[threadIdx.x] += 1.0f; }

#ifdef ENERGY_CHOICES
// The choice is a compile-time constant in the kernel's file.
static_assert(ENERGY_CHOICE_CONSTANT(saxpy).block[0] == 384, "saxpy block");
static_assert(ENERGY_CHOICE_CONSTANT(saxpy).items_per_thread == 4, "items");
static_assert(ENERGY_CHOICE_CONSTANT(tiled).block[1] == 8, "tiled block");
static_assert(ENERGY_CHOICE_CONSTANT(dyn).dynamic_smem == 400, "dyn smem");
static_assert(ENERGY_CHOICE_CONSTANT(scale<float, 4>).block[0] == 64, "scale");
static_assert(ENERGY_CHOICE_CONSTANT(scale<int, 3>).block[0] == 256, "default");
static_assert(ENERGY_VALUE(TILE) == 8 && ENERGY_VALUE(ITEMS) == 4, "tunables");
// The launch helper's grid: 2^20 items, 4 per thread, 384 threads a block.
constexpr ::energy::launch_config saxpy_launch =
    ::energy::config_for(ENERGY_CHOICE_CONSTANT(saxpy), 1 << 20);
static_assert(saxpy_launch.grid.x == 683 && saxpy_launch.grid.y == 1, "grid");
static_assert(saxpy_launch.block.x == 384, "block");
// A 64 x 100 domain in 8 x 8 blocks; 400 bytes of dynamic shared memory.
constexpr ::energy::launch_config tiled_launch =
    ::energy::config_for(ENERGY_CHOICE_CONSTANT(tiled), dim3(64, 100));
static_assert(tiled_launch.grid.x == 8 && tiled_launch.grid.y == 13, "2d");
static_assert(::energy::config_for(ENERGY_CHOICE_CONSTANT(dyn), 1).dynamic_smem == 400 &&
              ::energy::config_for(ENERGY_CHOICE_CONSTANT(dyn), 0).grid.x == 1, "dyn");
#endif

int launch_all(int n, float *x, float *y, double *d) {
  // The launch helper: the chosen block, and a grid over n items.
  if (ENERGY_LAUNCH(n, saxpy)(n, 2.0f, x, y) != cudaSuccess)
    return 1;
  ENERGY_LAUNCH(dim3(64, 64), tiled)(x);
  ENERGY_LAUNCH(n, dyn).on(0)(x);
  ENERGY_LAUNCH(n, scale<float, 4>)(n, x);
  ENERGY_LAUNCH(n, scale<double, 2>)(n, d);
  plain<<<1, 32>>>(x);
  return ENERGY_HOST_VALUE(ITEMS) + ENERGY_BLOCK_DIM(scale<double, 2>).x;
}
