// triad (STREAM): a = b + s*c. Memory streaming with vector accesses: each
// thread handles VEC consecutive floats through one float2/float4 access
// (scalar accesses at the ragged end).
//
// Grid: ceil(n / (BLOCK_X * VEC)).
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(VEC, 4, 1, 2, 4);
ENERGY_WORKLOAD(triad, 1 << 25);

extern "C" {
ENERGY_KERNEL(triad)
void triad(int n, float s, const float *__restrict__ b,
           const float *__restrict__ c, float *__restrict__ a) {
  const int vec = ENERGY_VALUE(VEC);
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = t * vec;
  if (vec == 4 && i + 3 < n) {
    float4 bv = reinterpret_cast<const float4 *>(b)[t];
    float4 cv = reinterpret_cast<const float4 *>(c)[t];
    reinterpret_cast<float4 *>(a)[t] =
        make_float4(bv.x + s * cv.x, bv.y + s * cv.y, bv.z + s * cv.z,
                    bv.w + s * cv.w);
  } else if (vec == 2 && i + 1 < n) {
    float2 bv = reinterpret_cast<const float2 *>(b)[t];
    float2 cv = reinterpret_cast<const float2 *>(c)[t];
    reinterpret_cast<float2 *>(a)[t] = make_float2(bv.x + s * cv.x, bv.y + s * cv.y);
  } else {
    for (int k = 0; k < vec; ++k)
      if (i + k < n)
        a[i + k] = b[i + k] + s * c[i + k];
  }
}
}
