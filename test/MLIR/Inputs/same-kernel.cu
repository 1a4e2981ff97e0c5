// The kernels of same-kernel.mlir, in CUDA (see ../same-kernel-cuda.test).
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// A 2-D kernel: rows of w floats, one thread per element.
extern "C" __global__ void scale_rows(int w, int h, float a, const float *in,
                                      float *out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < w && r < h)
    out[r * w + c] = a * in[r * w + c];
}
