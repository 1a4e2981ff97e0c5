// nbody: gravitational accelerations of n bodies (all pairs, softened):
//   acc_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + soft2)^(3/2).
// Compute-bound (one rsqrt and ~20 flops per pair). Each block stages
// BLOCK_X bodies at a time in shared memory; the inner loop over the tile is
// unrolled UNROLL times. pos holds x, y, z, mass per body; acc gets x, y, z, 0.
//
// Grid: ceil(n / BLOCK_X).
#include <energy/energy.cuh>

ENERGY_TUNABLE(UNROLL, 4, 1, 4, 8);
ENERGY_WORKLOAD(nbody, 32768);

__device__ inline void interact(float4 pi, float4 pj, float soft2, float &ax,
                                float &ay, float &az) {
  float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
  float inv = rsqrtf(dx * dx + dy * dy + dz * dz + soft2);
  float s = pj.w * inv * inv * inv;
  ax += dx * s;
  ay += dy * s;
  az += dz * s;
}

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(nbody, "multiple=32");

extern "C" {
ENERGY_KERNEL(nbody)
void nbody(int n, float soft2, const float4 *__restrict__ pos,
           float4 *__restrict__ acc) {
  ENERGY_SHARED(float4, tile, "BLOCK_X")[1024];
  const int unroll = ENERGY_VALUE(UNROLL);
  const int tid = threadIdx.x, threads = blockDim.x;
  const int i = blockIdx.x * threads + tid;
  const float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int t0 = 0; t0 < n; t0 += threads) {
    // Bodies past n get mass 0: they add nothing.
    const int j = t0 + tid;
    tile[tid] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    for (int k = 0; k < threads; k += unroll) // unroll divides threads
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        interact(pi, tile[k + u], soft2, ax, ay, az);
    __syncthreads();
  }
  if (i < n)
    acc[i] = make_float4(ax, ay, az, 0.0f);
}
}
