// An FP32 FMA loop: nr_outer x nr_inner x 4 fused multiply-adds per thread on
// two independent accumulators, then one store. The workload of the FP32
// microbenchmark in energy/synthetic_fp32_*_nvml.json (nr_outer, nr_inner come
// as -D defines), written for energy.power_check. The operands are arguments,
// so the compiler cannot fold the multiplies away.
#ifndef nr_outer
#define nr_outer 64
#endif
#ifndef nr_inner
#define nr_inner 1024
#endif

extern "C" __global__ void fp32_fma(float *out, float p, float q) {
  float x = threadIdx.x, y = x + 1.0f;
  for (int o = 0; o < nr_outer; ++o) {
    for (int i = 0; i < nr_inner; ++i) {
      x = fmaf(p, q, x);
      x = fmaf(-q, p, x);
      y = fmaf(q, q, y);
      y = fmaf(p, p, y);
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}
