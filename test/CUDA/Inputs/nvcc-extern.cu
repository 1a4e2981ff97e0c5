// Another file of the program of nvcc-kernels.cu: it launches saxpy with
// the choice, read once per process wherever it is read first.
#include <energy/energy.cuh>

ENERGY_KERNEL_EXTERN(saxpy);
ENERGY_TUNABLE_EXTERN(ITEMS);
__global__ void saxpy(int n, float a, const float *x, float *y);

int launch_from_elsewhere(int n, float *x, float *y) {
  dim3 block = ENERGY_BLOCK_DIM(saxpy);
  (void)block;
  return ENERGY_HOST_VALUE(ITEMS) +
         (ENERGY_LAUNCH(n, saxpy)(n, 2.0f, x, y) == cudaSuccess);
}

int main() { return launch_from_elsewhere(0, nullptr, nullptr) > 100; }
