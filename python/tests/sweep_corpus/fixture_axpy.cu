// Test fixture of the sweep (python/tests/test_sweep.py, test/Bench): y = a*x + y
// with ITEMS items per thread. Not a benchmark: its size is tiny.
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4);

extern "C" { // entry == name
ENERGY_KERNEL(fixture_axpy) void fixture_axpy(int n, float a, const float *x,
                                                         float *y) {
  const int items = ENERGY_VALUE(ITEMS);
  int thread = blockIdx.x * blockDim.x + threadIdx.x;
  int threads = gridDim.x * blockDim.x;
  for (int k = 0; k < items; ++k) {
    int i = thread + k * threads;
    if (i < n)
      y[i] = a * x[i] + y[i];
  }
}
} // extern "C"
