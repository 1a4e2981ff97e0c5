// A second file of a build (test/Tools/energy-cuda-table.test): it defines
// the kernel the first file's build forces.
extern "C" __global__ void other(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 1.0f;
}

int main() { return 0; }
