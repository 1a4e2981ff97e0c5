// A special register named with one '%' in an inline asm that has operands,
// as cuda-samples' cudaGraphPerfScaling reads %globaltimer: nvcc passes the
// '%' on, clang (GCC's asm dialect) takes it for an operand escape. Written
// for the test.
__device__ unsigned long long globalTimer() {
  unsigned long long t;
#ifdef ESCAPED
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
#else
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
#endif
  return t;
}

__global__ void stamp(unsigned long long *out) { *out = globalTimer(); }
