// Host-emulation stand-in for <mma.h> (nvcuda::wmma, 16x16x16 shapes). Lane 0
// of a warp holds whole 16x16 tiles in its fragments and does all the work
// (the other lanes' fragments stay unused), so the warp-collective operations
// need no data exchange; each one still waits for all 32 lanes (the GPU
// requires a converged warp) and checks the pointer alignment (32 bytes) and
// leading dimension the hardware requires.
#ifndef ENERGY_HOST_MMA_H
#define ENERGY_HOST_MMA_H

#include "../host_emulation.h"
#include "cuda_fp16.h"

#include <cstdint>
#include <type_traits>

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };

template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  static_assert(M == 16 && N == 16 && K == 16, "only 16x16x16 is emulated");
  float x[16][16];
};

namespace detail {
template <class T> void enter(const T *p, unsigned ldm, const char *op) {
  if (reinterpret_cast<uintptr_t>(p) % 32)
    energy_host::fail(std::string(op) + ": pointer not 32-byte aligned");
  if (ldm % (16 / sizeof(T)))
    energy_host::fail(std::string(op) + ": ldm not a multiple of 16 bytes");
  __syncwarp();
}
/// The lane that computes for its warp.
inline bool leader() { return energy_host_lane() == 0; }
inline float value(__half h) { return __half2float(h); }
inline float value(float f) { return f; }
} // namespace detail

template <class Use, class T, class Layout>
void load_matrix_sync(fragment<Use, 16, 16, 16, T, Layout> &f, const T *p,
                      unsigned ldm) {
  detail::enter(p, ldm, "load_matrix_sync");
  if (!detail::leader())
    return;
  constexpr bool rows = std::is_same_v<Layout, row_major>;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      f.x[r][c] = detail::value(rows ? p[r * ldm + c] : p[c * ldm + r]);
}

template <class T>
void fill_fragment(fragment<accumulator, 16, 16, 16, T> &f, T v) {
  __syncwarp();
  if (!detail::leader())
    return;
  for (auto &row : f.x)
    for (float &e : row)
      e = v;
}

template <class T, class LA, class LB>
void mma_sync(fragment<accumulator, 16, 16, 16, T> &d,
              const fragment<matrix_a, 16, 16, 16, __half, LA> &a,
              const fragment<matrix_b, 16, 16, 16, __half, LB> &b,
              const fragment<accumulator, 16, 16, 16, T> &c) {
  __syncwarp();
  if (!detail::leader())
    return;
  float out[16][16];
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float s = c.x[i][j];
      for (int k = 0; k < 16; ++k)
        s += a.x[i][k] * b.x[k][j];
      out[i][j] = s;
    }
  std::memcpy(d.x, out, sizeof out);
}

template <class T>
void store_matrix_sync(T *p, const fragment<accumulator, 16, 16, 16, T> &f,
                       unsigned ldm, layout_t layout) {
  detail::enter(p, ldm, "store_matrix_sync");
  if (!detail::leader())
    return;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      (layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r]) = f.x[r][c];
}

} // namespace wmma
} // namespace nvcuda

#endif
