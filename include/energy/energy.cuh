// energy.cuh - opt CUDA kernels in to energy tuning by the energy.so plugin.
//
// The same source builds with and without the plugin. Without it, kernels
// run with the defaults written here; with it, the plugin picks the launch
// configuration and tunable values, folds them into the kernel, and writes
// the choice into records the host reads.
//
//   #include <energy/energy.cuh>
//
//   ENERGY_TUNABLE_PER_THREAD(ITEMS, 1, 1, 2, 4, 8); // default 1, candidates;
//                                              // a thread does ITEMS items
//   ENERGY_WORKLOAD(saxpy, 1 << 24);           // items per launch (optional)
//
//   ENERGY_KERNEL(saxpy) void saxpy(int n, float a, const float *x, float *y) {
//     const int items = ENERGY_VALUE(ITEMS);
//     ...
//   }
//
//   // host
//   dim3 block = ENERGY_BLOCK_DIM(saxpy);
//   int items = ENERGY_HOST_VALUE(ITEMS);
//   saxpy<<<(n + block.x * items - 1) / (block.x * items), block>>>(...);
//
// Shared arrays whose size follows a tunable or the block shape:
//
//   ENERGY_TUNABLE(TILE, 16, 8, 16, 32);
//   ENERGY_KERNEL_TILED(sgemm, TILE, TILE) void sgemm(...) {
//     ENERGY_SHARED(float, As, "TILE,TILE+1")[TILE_max][TILE_max + 1];
//     ...
//   }
//
// Kernel templates: ENERGY_KERNEL_TEMPLATE* replaces the template header,
// with the parameters and the same names as arguments, both in parentheses.
// Every instantiation (explicit, or from a host launch) gets its own record
// and its own choice; the host names the instantiation it launches, and must
// read its record in the same file (else the plugin stops with an error).
//
//   ENERGY_KERNEL_TEMPLATE(scale, (typename T, int N), (T, N))
//   void scale(int n, T *x) {...}
//   // host
//   dim3 block = ENERGY_BLOCK_DIM(scale<float, 4>);
//   scale<float, 4><<<(n + block.x - 1) / block.x, block>>>(n, x);
//
// A tunable is one variable for the whole program: two rewritten kernels
// (or instantiations) reading it are an error unless -energy-force-config
// gives both the same value; give each its own tunable instead.
// ENERGY_WORKLOAD, ENERGY_BLOCK_RULES and ENERGY_DYNAMIC_SHARED name
// non-template kernels only.
//
// The spec string lists one size per array dimension: a tunable name, the
// block sizes BLOCK_X / BLOCK_Y / BLOCK_Z, or an integer, each optionally
// "+k" or "*k". Declare the array at its largest size (NAME_max); the plugin
// shrinks it to the chosen size.
//
// Device symbols (documented, so driver-API users can read them with
// cuModuleGetGlobal):
//   __energy_launch_<kernel>   energy::launch_record {block[3], dynamic_smem};
//                              a variable template for a kernel template
//                              (__energy_launch_scale<float, 4>, mangled
//                              _Z21__energy_launch_scaleIfLi4EE)
//   __energy_tunable_<NAME>    int[]: {value, kind, candidates...}; [0] is the
//                              chosen value after the plugin ran
//   __energy_workload_<kernel> unsigned long long (read and removed by the plugin)
#pragma once

#include <cuda_runtime.h>

namespace energy {

/// The launch configuration the plugin chose for one kernel.
struct launch_record {
  unsigned block[3];
  unsigned dynamic_smem;
};

enum tunable_kind : int {
  tunable_plain = 0,          // any compile-time constant (tile size, unroll)
  tunable_work_per_thread = 1 // each thread handles this many work items
};

namespace detail {
constexpr int max_of(const int *v, int n) {
  return n == 1 ? v[0] : (v[0] > max_of(v + 1, n - 1) ? v[0] : max_of(v + 1, n - 1));
}
template <int... V> struct values {
  static constexpr int list[] = {V...};
  static constexpr int max = max_of(list, sizeof...(V));
};
} // namespace detail

// Host-only helpers (declared in device compiles too, so host code in the
// same file parses there).
/// Reads a record back from the device image.
template <class T> __host__ inline T read_symbol(const T &symbol) {
  T value{};
  cudaMemcpyFromSymbol(&value, symbol, sizeof(T));
  return value;
}
__host__ inline dim3 block_dim(const launch_record &record_symbol) {
  launch_record r = read_symbol(record_symbol);
  return dim3(r.block[0], r.block[1], r.block[2]);
}
__host__ inline unsigned dynamic_smem(const launch_record &record_symbol) {
  return read_symbol(record_symbol).dynamic_smem;
}
template <int N> __host__ inline int tunable_value(const int (&symbol)[N]) {
  int value = 0;
  cudaMemcpyFromSymbol(&value, symbol, sizeof(int));
  return value;
}

} // namespace energy


#define ENERGY_TUNABLE_KIND_(NAME, KIND, DEFAULT, ...)                         \
  __device__ int __energy_tunable_##NAME[] = {DEFAULT, KIND, __VA_ARGS__};     \
  constexpr int NAME##_default = (DEFAULT);                                    \
  constexpr int NAME##_max = ::energy::detail::values<__VA_ARGS__>::max

/// A tunable constant: default value first, then the candidates.
#define ENERGY_TUNABLE(NAME, DEFAULT, ...)                                     \
  ENERGY_TUNABLE_KIND_(NAME, ::energy::tunable_plain, DEFAULT, __VA_ARGS__)

/// A tunable number of work items per thread: the launch needs 1/value as
/// many threads for the same workload.
#define ENERGY_TUNABLE_PER_THREAD(NAME, DEFAULT, ...)                          \
  ENERGY_TUNABLE_KIND_(NAME, ::energy::tunable_work_per_thread, DEFAULT,       \
                       __VA_ARGS__)

/// The value of a tunable inside device code.
#define ENERGY_VALUE(NAME) (__energy_tunable_##NAME[0])

/// The value of a tunable on the host, as chosen by the plugin.
#define ENERGY_HOST_VALUE(NAME) (::energy::tunable_value(__energy_tunable_##NAME))

/// Work items of one typical launch, for the cost model (default 2^24).
#define ENERGY_WORKLOAD(KERNEL, ITEMS)                                         \
  __device__ unsigned long long __energy_workload_##KERNEL = (ITEMS)

#define ENERGY_UNPAREN_(...) __VA_ARGS__
#define ENERGY_RECORD_(KERNEL, BX, BY)                                         \
  __device__ ::energy::launch_record __energy_launch_##KERNEL = {              \
      {(unsigned)(BX), (unsigned)(BY), 1u}, 0u}
/// A non-template kernel names its record in the annotation.
#define ENERGY_KERNEL_(KERNEL, BX, BY, FIELDS)                                 \
  ENERGY_RECORD_(KERNEL, BX, BY);                                              \
  __global__ __attribute__((                                                   \
      annotate("energy.tune:record=__energy_launch_" #KERNEL FIELDS)))
/// An instantiation of a kernel template points to its own instantiation of
/// the record (a variable template), given as the annotation's argument.
#define ENERGY_KERNEL_TEMPLATE_(KERNEL, PARAMS, ARGS, BX, BY, FIELDS)          \
  template <ENERGY_UNPAREN_ PARAMS> ENERGY_RECORD_(KERNEL, BX, BY);            \
  template <ENERGY_UNPAREN_ PARAMS>                                            \
  __global__ __attribute__((annotate("energy.tune:" FIELDS,                    \
                                     &__energy_launch_##KERNEL<ENERGY_UNPAREN_ \
                                                                   ARGS>)))

/// Opts a kernel in, with a free block shape (default 256 threads). Use
/// before the return type: ENERGY_KERNEL(k) void k(...) {...}
#define ENERGY_KERNEL(KERNEL) ENERGY_KERNEL_BLOCK(KERNEL, 256, 1)

/// Opts a kernel in with a free block shape and the given default shape.
#define ENERGY_KERNEL_BLOCK(KERNEL, BX, BY) ENERGY_KERNEL_(KERNEL, BX, BY, "")

/// Opts a kernel in whose block shape is fixed by tunables (TX x TY).
#define ENERGY_KERNEL_TILED(KERNEL, TX, TY)                                    \
  ENERGY_KERNEL_(KERNEL, TX##_default, TY##_default, ";block=" #TX "," #TY)

/// Opts a kernel template in, in place of its template header: PARAMS is
/// the parameter list, ARGS the same parameters as arguments, both in
/// parentheses. Every instantiation is tuned on its own, with its own record.
///   ENERGY_KERNEL_TEMPLATE(scale, (typename T, int N), (T, N))
///   void scale(T *x) {...}
#define ENERGY_KERNEL_TEMPLATE(KERNEL, PARAMS, ARGS)                           \
  ENERGY_KERNEL_TEMPLATE_BLOCK(KERNEL, PARAMS, ARGS, 256, 1)
#define ENERGY_KERNEL_TEMPLATE_BLOCK(KERNEL, PARAMS, ARGS, BX, BY)             \
  ENERGY_KERNEL_TEMPLATE_(KERNEL, PARAMS, ARGS, BX, BY, "")
#define ENERGY_KERNEL_TEMPLATE_TILED(KERNEL, PARAMS, ARGS, TX, TY)             \
  ENERGY_KERNEL_TEMPLATE_(KERNEL, PARAMS, ARGS, TX##_default, TY##_default,    \
                          "block=" #TX "," #TY)

/// States which block shapes KERNEL is correct for; the plugin then uses
/// these rules instead of the ones it infers from the code. SPEC lists
/// rules separated by ';': "pow2" (every extent a power of two), "max=N"
/// and "multiple=N" (threads per block), "shapes=128,256,32x8" (only these).
///   ENERGY_BLOCK_RULES(reduce, "pow2;max=512");
#define ENERGY_BLOCK_RULES(KERNEL, SPEC)                                       \
  __device__ char __energy_rules_##KERNEL[] = SPEC

/// Declares the dynamic shared memory (extern __shared__) KERNEL needs per
/// launch: PER_THREAD bytes for each thread of the block plus PER_BLOCK.
/// The plugin counts it for each candidate and writes it into the launch
/// record: launch with ENERGY_DYNAMIC_SMEM(KERNEL). Without it, a kernel
/// using dynamic shared memory keeps its declared default block shape.
#define ENERGY_DYNAMIC_SHARED(KERNEL, PER_THREAD, PER_BLOCK)                   \
  __device__ unsigned __energy_dynamic_shared_##KERNEL[2] = {(PER_THREAD),     \
                                                             (PER_BLOCK)}

/// A shared array the plugin resizes; see the spec grammar above.
#define ENERGY_SHARED(TYPE, NAME, SPEC)                                        \
  __shared__ __attribute__((annotate("energy.shape:" SPEC))) TYPE NAME

/// The chosen block shape of an opted-in kernel (host side); an
/// instantiation of a kernel template is named with its template arguments:
/// ENERGY_BLOCK_DIM(scale<float, 4>).
#define ENERGY_BLOCK_DIM(...)                                                  \
  (::energy::block_dim(__energy_launch_##__VA_ARGS__))
/// The dynamic shared memory of that shape (ENERGY_DYNAMIC_SHARED; host).
#define ENERGY_DYNAMIC_SMEM(...)                                               \
  (::energy::dynamic_smem(__energy_launch_##__VA_ARGS__))

// ENERGY_ASSUME -------------------------------------------------------------
/// States the value VALUE (an integer a loop bound reads, e.g. kernel
/// argument n) takes in a typical launch, for the trip counts of the
/// plugin's cost model; without it the plugin takes -energy-default-extent
/// (4096) and says so in a remark. Write it in the kernel body, before the
/// loops:
///   ENERGY_KERNEL(k) void k(int n, ...) { ENERGY_ASSUME(n, 1024); ... }
/// A hint only, not a promise: it compiles to a PTX comment, so the code
/// is the same, and correct for every n, with or without the plugin.
#define ENERGY_ASSUME_CHECK_(TYPICAL)                                          \
  static_assert((TYPICAL) >= 0, "ENERGY_ASSUME: the value must be a constant " \
                                "integer >= 0")
#ifdef __CUDA_ARCH__
#define ENERGY_ASSUME(VALUE, TYPICAL)                                          \
  do {                                                                         \
    ENERGY_ASSUME_CHECK_(TYPICAL);                                             \
    asm volatile("// energy.assume %0 %1" ::"l"(                               \
                     (unsigned long long)(VALUE)),                             \
                 "n"(TYPICAL));                                                \
  } while (0)
#else
#define ENERGY_ASSUME(VALUE, TYPICAL)                                          \
  do {                                                                         \
    ENERGY_ASSUME_CHECK_(TYPICAL);                                             \
    (void)(VALUE);                                                             \
  } while (0)
#endif
