// nan() and nanf() in device code, as cuda-samples' interval calls ::nan("")
// from a __host__ __device__ member. Written for the test.
#include <cmath>

struct Rounded {
  __host__ __device__ double nanDouble() { return ::nan(""); }
  __host__ __device__ float nanFloat() { return nanf(""); }
};

__global__ void fill(double *d, float *f) {
  Rounded r;
  d[threadIdx.x] = r.nanDouble();
  f[threadIdx.x] = r.nanFloat();
  d[blockDim.x + threadIdx.x] = std::nan("0x7");
}

double hostNan() { return Rounded().nanDouble(); }
