// One element of c = a + b per thread: the streaming kernel of the PowerSensor3
// vector_add measurement (energy/vector_add_RTX_4000_Ada_powersensor.json), written
// for energy.power_check. Launched with a 1-D grid of ceil(n / blockDim.x) blocks.
extern "C" __global__ void vector_add(const float *__restrict__ a,
                                      const float *__restrict__ b,
                                      float *__restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
