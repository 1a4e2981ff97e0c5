// sgemm: C = A B in fp32 (A: M x K, B: K x N, C: M x N, row-major), tiled
// twice: a BX x BY block stages a (BY*TM) x KT tile of A and a KT x (BX*TN)
// tile of B in shared memory, and each thread accumulates a TM x TN register
// tile of C (rows ty + i*BY, columns tx + j*BX: conflict-free shared reads).
//
// Grid: ceil(N / (BX * TN)) x ceil(M / (BY * TM)); block BX x BY.
#include <energy/energy.cuh>

ENERGY_TUNABLE(BX, 16, 8, 16, 32);
ENERGY_TUNABLE(BY, 16, 8, 16);
ENERGY_TUNABLE_PER_THREAD(TM, 8, 4, 8);
ENERGY_TUNABLE_PER_THREAD(TN, 8, 4, 8);
ENERGY_TUNABLE(KT, 8, 8, 16);
ENERGY_WORKLOAD(sgemm, 2048 * 2048);

extern "C" {
ENERGY_KERNEL_TUNABLE_BLOCK(sgemm, BX, BY)
void sgemm(int M, int N, int K, const float *__restrict__ A,
           const float *__restrict__ B, float *__restrict__ C) {
  // As[k][i][y] = A(m0 + i*BY + y, k0 + k); Bs[k][j][x] = B(k0 + k, n0 + j*BX + x).
  ENERGY_SHARED(float, As, "KT,TM,BY")[KT_max][TM_max][BY_max];
  ENERGY_SHARED(float, Bs, "KT,TN,BX")[KT_max][TN_max][BX_max];
  const int bx = ENERGY_VALUE(BX), by = ENERGY_VALUE(BY);
  const int tm = ENERGY_VALUE(TM), tn = ENERGY_VALUE(TN);
  const int kt = ENERGY_VALUE(KT);
  const int tileM = by * tm, tileN = bx * tn;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * bx + tx, threads = bx * by;
  const int m0 = blockIdx.y * tileM, n0 = blockIdx.x * tileN;

  float acc[TM_max][TN_max] = {}; // one memset SROA can split (a loop of
                                  // stores becomes a runtime-size memset)

  for (int k0 = 0; k0 < K; k0 += kt) {
    for (int e = tid; e < tileM * kt; e += threads) {
      int m = e / kt, k = e % kt;
      int gm = m0 + m, gk = k0 + k;
      As[k][m / by][m % by] = gm < M && gk < K ? A[(size_t)gm * K + gk] : 0.0f;
    }
    for (int e = tid; e < kt * tileN; e += threads) {
      int k = e / tileN, n = e % tileN;
      int gk = k0 + k, gn = n0 + n;
      Bs[k][n / bx][n % bx] = gk < K && gn < N ? B[(size_t)gk * N + gn] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < kt; ++k) {
      float a[TM_max], b[TN_max];
#pragma unroll
      for (int i = 0; i < tm; ++i)
        a[i] = As[k][i][ty];
#pragma unroll
      for (int j = 0; j < tn; ++j)
        b[j] = Bs[k][j][tx];
#pragma unroll
      for (int i = 0; i < tm; ++i)
#pragma unroll
        for (int j = 0; j < tn; ++j)
          acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < tm; ++i)
#pragma unroll
    for (int j = 0; j < tn; ++j) {
      int m = m0 + i * by + ty, n = n0 + j * bx + tx;
      if (m < M && n < N)
        C[(size_t)m * N + n] = acc[i][j];
    }
}
}
