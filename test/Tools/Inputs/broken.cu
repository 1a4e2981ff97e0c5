// Input of cuda-compile-error.test: does not compile.
extern "C" __global__ void broken(float *x) {
  x[threadIdx.x] = undeclared_name;
}
