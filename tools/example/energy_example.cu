// The bundled example: a tiled SGEMM and a memory-bound SAXPY
// (energy_example_kernels.cuh), opted in to energy tuning. Built with the
// plugin (tools/energy-cuda), the kernels get the chosen block shape and tile
// sizes; the host reads the choice and launches with it. Built without, the same source runs with the defaults.
// Built with nvcc and the plugin's header, it runs with the choice too.
//
//   build/bin/energy-cuda --energy-report=report.json energy_example.cu -o example
//   ./example            # needs an NVIDIA GPU
//   # or plan with the plugin, build with nvcc:
//   build/bin/energy-cuda -c --energy-header=choices.h energy_example.cu -o /dev/null
//   nvcc -arch=sm_90 -DENERGY_CHOICES='"choices.h"' -Iinclude -I. energy_example.cu -o example
#include <energy/energy.cuh>

#include "energy_example_kernels.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "error: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

static std::vector<float> random_vector(size_t n) {
  std::vector<float> v(n);
  for (float &x : v)
    x = static_cast<float>(std::rand()) / static_cast<float>(RAND_MAX) - 0.5f;
  return v;
}

int main() {
  // SAXPY
  const int n = 1 << 24;
  std::vector<float> hx = random_vector(n), hy = random_vector(n);
  float *x, *y;
  check(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc");
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  // The chosen block, and a grid that covers n items at the chosen ITEMS.
  auto launch = ENERGY_LAUNCH(n, saxpy);
  std::printf("saxpy: block %u, ITEMS=%d, grid %u\n", launch.config.block.x,
              ENERGY_HOST_VALUE(ITEMS), launch.config.grid.x);
  check(launch(n, 2.0f, x, y), "saxpy launch");
  check(cudaDeviceSynchronize(), "saxpy");
  std::vector<float> out(n);
  cudaMemcpy(out.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (std::fabs(out[i] - (2.0f * hx[i] + hy[i])) > 1e-5f) {
      std::fprintf(stderr, "error: saxpy mismatch at %d\n", i);
      return 1;
    }

  // SGEMM
  const int m = 1024;
  std::vector<float> ha = random_vector(m * m), hb = random_vector(m * m);
  float *a, *b, *c;
  check(cudaMalloc(&a, m * m * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&b, m * m * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&c, m * m * sizeof(float)), "cudaMalloc");
  cudaMemcpy(a, ha.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
  // One thread per element of C: an m x m domain.
  dim3 tblock = ENERGY_BLOCK_DIM(sgemm);
  std::printf("sgemm: block %ux%u, TILE=%d\n", tblock.x, tblock.y,
              ENERGY_HOST_VALUE(TILE));
  check(ENERGY_LAUNCH(dim3(m, m), sgemm)(m, a, b, c), "sgemm launch");
  check(cudaDeviceSynchronize(), "sgemm");
  std::vector<float> hc(m * m);
  cudaMemcpy(hc.data(), c, m * m * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; i += 97)
    for (int j = 0; j < m; j += 89) {
      double ref = 0;
      for (int k = 0; k < m; ++k)
        ref += double(ha[i * m + k]) * hb[k * m + j];
      if (std::fabs(hc[i * m + j] - ref) > 1e-3 * (1 + std::fabs(ref))) {
        std::fprintf(stderr, "error: sgemm mismatch at %d,%d\n", i, j);
        return 1;
      }
    }
  std::printf("ok: results match the CPU reference\n");
  return 0;
}
