// attention: fused flash-style attention forward in fp32 (no mask),
//   O = softmax(scale * Q K^T) V   per head; Q, K, V, O: heads x seq x 64.
// One query block per CTA, a thread per query (q and the output row live in
// registers). K and V stream through shared memory in tiles of BKV rows;
// scores are taken CHUNK keys at a time with an online softmax (running max
// and sum; the output is rescaled once per chunk).
//
// Grid: ceil(seq / BLOCK_X) * heads (block b: head b / ceil(seq / BLOCK_X)).
#include <energy/energy.cuh>

#define HEAD_DIM 64
#define CHUNK 16

ENERGY_TUNABLE(BKV, 32, 16, 32, 64);
ENERGY_WORKLOAD(attention, 32 * 1024);

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(attention, "multiple=32");

extern "C" {
ENERGY_KERNEL(attention)
void attention(int seq, float scale, const float *__restrict__ Q,
               const float *__restrict__ K, const float *__restrict__ V,
               float *__restrict__ O) {
  ENERGY_SHARED(float, Ks, "BKV,64")[BKV_max][HEAD_DIM];
  ENERGY_SHARED(float, Vs, "BKV,64")[BKV_max][HEAD_DIM];
  const int bkv = ENERGY_VALUE(BKV);
  const int tid = threadIdx.x, threads = blockDim.x;
  // A 1-D grid (blockIdx.y would make the plugin search 2-D blocks).
  const int qblocks = (seq + threads - 1) / threads;
  const int qi = blockIdx.x % qblocks * threads + tid;
  const bool active = qi < seq; // inactive threads still load tiles
  const size_t head = (size_t)(blockIdx.x / qblocks) * seq * HEAD_DIM;

  float q[HEAD_DIM], o[HEAD_DIM];
#pragma unroll
  for (int d = 0; d < HEAD_DIM; ++d) {
    q[d] = active ? Q[head + (size_t)qi * HEAD_DIM + d] * scale : 0.0f;
    o[d] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;

  for (int kv0 = 0; kv0 < seq; kv0 += bkv) {
    for (int e = tid; e < bkv * HEAD_DIM; e += threads) {
      int r = e / HEAD_DIM, d = e % HEAD_DIM;
      bool in = kv0 + r < seq;
      size_t at = head + (size_t)(kv0 + r) * HEAD_DIM + d;
      Ks[r][d] = in ? K[at] : 0.0f;
      Vs[r][d] = in ? V[at] : 0.0f;
    }
    __syncthreads();
    const int keys = min(bkv, seq - kv0);
    for (int j0 = 0; j0 < keys; j0 += CHUNK) {
      float s[CHUNK];
      float mc = m;
#pragma unroll
      for (int jj = 0; jj < CHUNK; ++jj) {
        float dot = -INFINITY;
        if (j0 + jj < keys) {
          dot = 0.0f;
#pragma unroll
          for (int d = 0; d < HEAD_DIM; ++d)
            dot += q[d] * Ks[j0 + jj][d];
        }
        s[jj] = dot;
        mc = fmaxf(mc, dot);
      }
      // mc is finite (key j0 exists); exp(-inf) = 0 on the first chunk.
      const float corr = __expf(m - mc);
      l *= corr;
#pragma unroll
      for (int d = 0; d < HEAD_DIM; ++d)
        o[d] *= corr;
#pragma unroll
      for (int jj = 0; jj < CHUNK; ++jj)
        if (j0 + jj < keys) {
          const float p = __expf(s[jj] - mc);
          l += p;
#pragma unroll
          for (int d = 0; d < HEAD_DIM; ++d)
            o[d] += p * Vs[j0 + jj][d];
        }
      m = mc;
    }
    __syncthreads();
  }
  if (active) {
    const float inv = 1.0f / l;
#pragma unroll
    for (int d = 0; d < HEAD_DIM; ++d)
      O[head + (size_t)qi * HEAD_DIM + d] = o[d] * inv;
  }
}
}
