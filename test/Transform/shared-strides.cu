// The strides of the dominant shared-memory access per threadIdx.x and .y
// (bank conflicts follow from them and the block shape). The tile is
// filled by a loop whose start is the thread index, then read unrolled:
// after -O3 simplification GVN joins copies of the column index in a phi,
// which must still read as threadIdx.x (4 bytes) and a row as 38 floats.
//
// RUN: %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=blur:16x8,grid=64x128 \
// RUN:   -mllvm -energy-report=%t.json %s -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
//
// CHECK: "features_from": "simplified",
// CHECK: "shared_stride_x": 4,
// CHECK-NEXT: "shared_stride_y": 152

#define BX 16
#define BY 8
#define R 3
#define W (2 * BX + 2 * R)
#define H (BY + 2 * R)

__global__ void blur(const float *in, float *out, int width) {
  __shared__ float tile[H][W];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * 2 * BX, y0 = blockIdx.y * BY;
  for (int i = ty; i < H; i += BY)
    for (int j = tx; j < W; j += BX)
      tile[i][j] = in[(y0 + i) * width + x0 + j];
  __syncthreads();
  float sum[2] = {0.0f, 0.0f};
#pragma unroll
  for (int dy = 0; dy <= 2 * R; ++dy)
#pragma unroll
    for (int dx = 0; dx <= 2 * R; ++dx)
#pragma unroll
      for (int k = 0; k < 2; ++k)
        sum[k] += tile[ty + dy][tx + k * BX + dx];
  for (int k = 0; k < 2; ++k)
    out[(y0 + ty) * width + x0 + tx + k * BX] = sum[k];
}
