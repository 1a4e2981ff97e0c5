// Two __shared__ declarations of cuda-samples' globalToShmemAsyncCopy and
// simpleAWBarrier that nvcc takes and clang rejects: alignas after __shared__
// (a GNU attribute), and a cuda::barrier object (CCCL gives it a non-empty
// destructor; nvcc warns static_var_with_dynamic_init, which the samples
// silence). Without a macro, the spellings both compilers take. Written for
// the test.
#include <cuda/barrier>

using BlockBarrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void scale(float *data) {
#ifdef ALIGNAS_AFTER_SHARED
  __shared__ alignas(16) float tile[64];
#else
  alignas(16) __shared__ float tile[64];
#endif
#ifdef SHARED_BARRIER_OBJECT
  __shared__ BlockBarrier bar;
#else
  // Storage for the barrier, which init() then sets up in place.
  alignas(BlockBarrier) __shared__ unsigned char barStorage[sizeof(BlockBarrier)];
  BlockBarrier &bar = *reinterpret_cast<BlockBarrier *>(barStorage);
#endif
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = data[threadIdx.x];
  bar.arrive_and_wait();
  data[threadIdx.x] = 2.0f * tile[63 - threadIdx.x];
}
