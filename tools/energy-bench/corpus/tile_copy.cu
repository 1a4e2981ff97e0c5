// tile_copy: out = in rotated by one element within each tile of 1024,
//   out[t * 1024 + j] = in[t * 1024 + (j + 1) % 1024].
// One block per tile stages it in shared memory, each thread copying every
// blockDim.x-th element from threadIdx.x with no bound check: the loops stay
// inside the tile only when the block's width divides 1024 (the powers of
// two); any other block indexes past the shared tile and into the next tile.
//
// Grid: n / 1024 (one block per tile, whatever the block); n a multiple of
// 1024; declared block 256 (the host's).
#include <energy/energy.cuh>

#define TILE 1024

ENERGY_GRID(tile_copy, (1 << 25) / 1024, 1, 1);

extern "C" {
ENERGY_KERNEL_BLOCK(tile_copy, 256, 1)
void tile_copy(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float tile[TILE];
  const float *src = in + (size_t)blockIdx.x * TILE;
  float *dst = out + (size_t)blockIdx.x * TILE;
  for (int k = 0; k < TILE; k += blockDim.x)
    tile[k + threadIdx.x] = src[k + threadIdx.x];
  __syncthreads();
  for (int k = 0; k < TILE; k += blockDim.x) {
    const int j = k + threadIdx.x;
    dst[j] = tile[(j + 1) % TILE];
  }
}
}
