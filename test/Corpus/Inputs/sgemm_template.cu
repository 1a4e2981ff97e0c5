// The bundled example's sgemm (tools/example/energy_example_kernels.cuh)
// with its tile as a template argument instead of ENERGY_TUNABLE +
// ENERGY_SHARED: its arrays are exactly T x T, the code the example's build
// produces at TILE=T.
#include <energy/energy.cuh>

ENERGY_KERNEL_TEMPLATE_BLOCK(sgemmT, (int T), (T), T, T)
void sgemmT(int n, const float *A, const float *B, float *C) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  const int tile = T;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * tile + ty, col = blockIdx.x * tile + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += tile) {
    As[ty][tx] = (row < n && k0 + tx < n) ? A[row * n + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < n && col < n) ? B[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < tile; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

// Host code reads each instantiation's record (the device compile defines a
// record only then).
void launch(int n, const float *a, const float *b, float *c) {
  dim3 b8 = ENERGY_BLOCK_DIM(sgemmT<8>), b16 = ENERGY_BLOCK_DIM(sgemmT<16>),
       b32 = ENERGY_BLOCK_DIM(sgemmT<32>);
  sgemmT<8><<<dim3(n / 8, n / 8), b8>>>(n, a, b, c);
  sgemmT<16><<<dim3(n / 16, n / 16), b16>>>(n, a, b, c);
  sgemmT<32><<<dim3(n / 32, n / 32), b32>>>(n, a, b, c);
}
