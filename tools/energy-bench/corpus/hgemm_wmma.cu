// hgemm_wmma: C = A B on tensor cores (nvcuda::wmma 16x16x16, half inputs,
// float accumulation; A: M x K, B: K x N, C: M x N, row-major). A block is
// WARPS warps stacked along M (block 32 x WARPS); each warp owns FM x FN
// accumulator fragments. Per 32-deep K step the block stages its A rows and a
// shared 32 x (FN*16) B tile in shared memory with 16-byte loads.
//
// Needs M, N, K multiples of 16 (K of 8 for the vector loads).
// Work items: (M/16) * (N/16) * 32 (a warp per output fragment).
// Grid: ceil(N / (16 * FN)) x ceil(M / (16 * FM * WARPS)); block 32 x WARPS.
#include <energy/energy.cuh>

#include <cuda_fp16.h>
#include <mma.h>

ENERGY_TUNABLE(LANES, 32, 32); // block x: one warp wide
ENERGY_TUNABLE(WARPS, 4, 1, 2, 4, 8);
ENERGY_TUNABLE_PER_THREAD(FM, 2, 1, 2, 4);
ENERGY_TUNABLE_PER_THREAD(FN, 2, 1, 2, 4);
ENERGY_WORKLOAD(hgemm_wmma, 2048 / 16 * (2048 / 16) * 32);

using namespace nvcuda;

#define KSTEP 32
#define A_LD (KSTEP + 8) // halves per staged A row; padding spreads banks
#define B_LD (16 * (FN_max + 1))

extern "C" {
ENERGY_KERNEL_TUNABLE_BLOCK(hgemm_wmma, LANES, WARPS)
void hgemm_wmma(int M, int N, int K, const __half *__restrict__ A,
                const __half *__restrict__ B, float *__restrict__ C) {
  // As[w][r][k] = A(m0 + w*FM*16 + r, k0 + k); Bs[k][n] = B(k0 + k, n0 + n).
  // The spec spells A_LD as 40 (it takes integers, not macros).
  ENERGY_SHARED(__half, As, "WARPS,FM*16,40")[WARPS_max][FM_max * 16][A_LD]
      __attribute__((aligned(128)));
  __shared__ __align__(128) __half Bs[KSTEP][B_LD];
  const int lanes = ENERGY_VALUE(LANES), warps = ENERGY_VALUE(WARPS);
  const int fm = ENERGY_VALUE(FM), fn = ENERGY_VALUE(FN);
  const int tid = threadIdx.y * lanes + threadIdx.x, threads = lanes * warps;
  const int warp = threadIdx.y;
  const int tileM = warps * fm * 16, tileN = fn * 16;
  const int m0 = blockIdx.y * tileM, n0 = blockIdx.x * tileN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM_max][FN_max];
#pragma unroll
  for (int i = 0; i < fm; ++i)
#pragma unroll
    for (int j = 0; j < fn; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += KSTEP) {
    // 8 halves (16 bytes) per load; K and N are multiples of 8.
    for (int e = tid; e < tileM * (KSTEP / 8); e += threads) {
      int r = e / (KSTEP / 8), k = e % (KSTEP / 8) * 8;
      int gm = m0 + r, gk = k0 + k;
      uint4 v = make_uint4(0, 0, 0, 0);
      if (gm < M && gk < K)
        v = *reinterpret_cast<const uint4 *>(&A[(size_t)gm * K + gk]);
      *reinterpret_cast<uint4 *>(&As[r / (fm * 16)][r % (fm * 16)][k]) = v;
    }
    for (int e = tid; e < KSTEP * (tileN / 8); e += threads) {
      int k = e / (tileN / 8), n = e % (tileN / 8) * 8;
      int gk = k0 + k, gn = n0 + n;
      uint4 v = make_uint4(0, 0, 0, 0);
      if (gk < K && gn < N)
        v = *reinterpret_cast<const uint4 *>(&B[(size_t)gk * N + gn]);
      *reinterpret_cast<uint4 *>(&Bs[k][n]) = v;
    }
    __syncthreads();
    for (int kk = 0; kk < KSTEP; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[FM_max];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[FN_max];
#pragma unroll
      for (int i = 0; i < fm; ++i)
        wmma::load_matrix_sync(a[i], &As[warp][i * 16][kk], A_LD);
#pragma unroll
      for (int j = 0; j < fn; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][j * 16], B_LD);
#pragma unroll
      for (int i = 0; i < fm; ++i)
#pragma unroll
        for (int j = 0; j < fn; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < fm; ++i)
#pragma unroll
    for (int j = 0; j < fn; ++j) {
      int m = m0 + (warp * fm + i) * 16, n = n0 + j * 16;
      if (m < M && n < N)
        wmma::store_matrix_sync(&C[(size_t)m * N + n], acc[i][j], N,
                                wmma::mem_row_major);
    }
}
}
