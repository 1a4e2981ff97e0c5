// Input of the energy-features .cu tests. STEPS sets the trip count of the
// loop (override with --extra-arg=-DSTEPS=N).
#ifndef STEPS
#define STEPS 4
#endif

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void steps(float *x) {
  float v = x[threadIdx.x];
  for (int s = 0; s < STEPS; ++s) {
    v = v * 0.5f + 1.0f;
    __syncthreads();
  }
  x[threadIdx.x] = v;
}
