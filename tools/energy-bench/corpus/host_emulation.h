// host_emulation.h - runs corpus kernels as plain C++17 on the CPU, for the
// tests that check the kernels against their CPU references on tiny sizes.
//
// The kernel source compiles unchanged: host/energy/energy.cuh (put
// host/ first on the include path) includes this header instead of the real
// energy.cuh. Every CUDA thread of a block is a ucontext fiber, scheduled
// cooperatively: a fiber runs until it reaches __syncthreads (every thread of
// the block), a warp-level sync (its 32 lanes) or its end. Shuffles exchange
// values through per-lane slots between two warp-level syncs. Blocks run one
// after another in blockIdx order, so atomics need no locking and a block
// waiting for an earlier block (a look-back) finds it done.
//
// Stricter than a GPU on purpose: a thread that exits while others wait at a
// barrier, threads of a block waiting at different __syncthreads (told apart
// by source line), or lanes of a warp at different barriers are errors
// (undefined behaviour on the GPU).
//
// Dynamic shared memory: each block gets a fresh heap buffer of exactly the
// launch's size, filled with 0xff bytes (NaN as floats), so a sanitizer sees
// any access past it and a read before a write shows in the output. The
// source's `extern __shared__ T name[];` is written as
// ENERGY_HOST_EXTERN_SHARED(T, name) by `corpus_tool.py host-source` (C++
// has no `extern static`).
//
// Not emulated: tensor cores (wmma), textures, cooperative groups,
// partial-warp masks (every mask must be 0xffffffff).
#ifndef ENERGY_HOST_EMULATION_H
#define ENERGY_HOST_EMULATION_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <ucontext.h>

// --- CUDA vector types and built-in variables -------------------------------
struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};
struct alignas(8) float2 {
  float x, y;
};
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) {
  return {x, y, z, w};
}
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }

inline uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
constexpr int warpSize = 32;

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static // one block runs at a time: its threads share it
#define __align__(N) __attribute__((aligned(N)))
#define __launch_bounds__(...)

namespace energy_host {

[[noreturn]] inline void fail(const std::string &what) {
  std::fprintf(stderr, "error: host emulation: %s\n", what.c_str());
  std::exit(1);
}

// --- Tunables, looked up by name by the test driver -------------------------
struct TunableEntry {
  const char *name;
  int *values; // {value, kind, candidates...}
  int count;
};
inline std::vector<TunableEntry> &tunables() {
  static std::vector<TunableEntry> t;
  return t;
}
struct TunableRegistrar {
  TunableRegistrar(const char *name, int *values, int count) {
    tunables().push_back({name, values, count});
  }
};
inline int *findTunable(const std::string &name) {
  for (const TunableEntry &t : tunables())
    if (name == t.name)
      return t.values;
  return nullptr;
}
constexpr int maxOf(std::initializer_list<int> v) { return std::max(v); }

// --- Fibers and barriers -----------------------------------------------------
enum class Wait { None, Block, Warp, Done };

struct Fiber {
  ucontext_t context;
  std::unique_ptr<char[]> stack;
  Wait wait = Wait::None;
  unsigned line = 0; // of the __syncthreads it waits at
  uint3 index;
};

class Block {
public:
  static Block &current() {
    static Block b;
    return b;
  }

  /// Runs `body` as every thread of the block blockIdx (already set).
  void run(const std::function<void()> &body) {
    const unsigned n = blockDim.x * blockDim.y * blockDim.z;
    if (n == 0 || n > 1024 || n % 32 != 0)
      fail("block of " + std::to_string(n) +
           " threads (need a multiple of 32, at most 1024)");
    if (fibers_.size() < n)
      fibers_.resize(n);
    slots_.assign(n, 0);
    body_ = &body;
    for (unsigned t = 0; t < n; ++t) {
      Fiber &f = fibers_[t];
      if (!f.stack)
        f.stack.reset(new char[StackBytes]);
      getcontext(&f.context);
      f.context.uc_stack.ss_sp = f.stack.get();
      f.context.uc_stack.ss_size = StackBytes;
      f.context.uc_link = &scheduler_;
      makecontext(&f.context, &Block::entry, 0);
      f.wait = Wait::None;
      f.index = {t % blockDim.x, t / blockDim.x % blockDim.y,
                 t / (blockDim.x * blockDim.y)};
    }
    threads_ = n;
    schedule();
  }

  /// Parks the calling thread until its group (block or warp) arrives.
  void arrive(Wait scope, unsigned line = 0) {
    Fiber &f = fibers_[running_];
    f.wait = scope;
    f.line = line;
    swapcontext(&f.context, &scheduler_);
  }

  unsigned linearThread() const { return running_; }
  uint64_t &slot(unsigned thread) { return slots_[thread]; }

private:
  static constexpr size_t StackBytes = 64 * 1024;

  static void entry() {
    Block &b = current();
    (*b.body_)();
    b.fibers_[b.running_].wait = Wait::Done;
  } // returns to uc_link: the scheduler

  void schedule() {
    for (;;) {
      for (unsigned t = 0; t < threads_; ++t)
        if (fibers_[t].wait == Wait::None) {
          running_ = t;
          threadIdx = fibers_[t].index;
          swapcontext(&scheduler_, &fibers_[t].context);
        }
      // Every thread is parked or done: release whatever group is complete.
      bool released = false;
      unsigned done = 0, atBlock = 0;
      for (unsigned w = 0; w < threads_; w += 32) {
        unsigned atWarp = 0, warpDone = 0;
        for (unsigned t = w; t < w + 32; ++t) {
          atWarp += fibers_[t].wait == Wait::Warp;
          warpDone += fibers_[t].wait == Wait::Done;
          atBlock += fibers_[t].wait == Wait::Block;
        }
        done += warpDone;
        if (atWarp == 32) {
          for (unsigned t = w; t < w + 32; ++t)
            fibers_[t].wait = Wait::None;
          released = true;
        } else if (atWarp && warpDone) {
          fail("a lane exited while the rest of its warp waits at a shuffle "
               "or __syncwarp");
        }
      }
      if (released)
        continue;
      if (done == threads_)
        return;
      if (atBlock == threads_) {
        for (unsigned t = 0; t < threads_; ++t) {
          if (fibers_[t].line != fibers_[0].line)
            fail("threads of a block wait at different __syncthreads (lines " +
                 std::to_string(fibers_[0].line) + " and " +
                 std::to_string(fibers_[t].line) + ")");
          fibers_[t].wait = Wait::None;
        }
        continue;
      }
      fail(done ? "a thread exited while others wait at __syncthreads"
                : "threads wait at different barriers (divergent "
                  "__syncthreads, or a shuffle in part of a warp)");
    }
  }

  std::vector<Fiber> fibers_;
  std::vector<uint64_t> slots_;
  ucontext_t scheduler_;
  const std::function<void()> *body_ = nullptr;
  unsigned threads_ = 0, running_ = 0;
};

/// The running block's dynamic shared memory (ENERGY_HOST_EXTERN_SHARED).
inline void *&dynamicShared() {
  static void *buffer = nullptr;
  return buffer;
}

/// Runs `body` for every thread of a gridDim x blockDim launch with
/// `dynamicBytes` of dynamic shared memory per block.
inline void launch(dim3 grid, dim3 block, size_t dynamicBytes,
                   const std::function<void()> &body) {
  gridDim = grid;
  blockDim = block;
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        blockIdx = {x, y, z};
        // Exactly the launch's size (malloc(0) may return null: one byte
        // past nothing is still an overrun for the sanitizer).
        std::unique_ptr<char, void (*)(void *)> shared(
            static_cast<char *>(std::malloc(dynamicBytes ? dynamicBytes : 1)),
            std::free);
        if (!shared)
          fail("out of memory");
        std::memset(shared.get(), 0xff, dynamicBytes);
        dynamicShared() = shared.get();
        Block::current().run(body);
        dynamicShared() = nullptr;
      }
}

template <class T> T shuffle(unsigned mask, T v, unsigned srcLane) {
  static_assert(sizeof(T) <= 8, "shuffles move at most 8 bytes");
  if (mask != 0xffffffffu)
    fail("shuffle with a partial mask");
  Block &b = Block::current();
  const unsigned me = b.linearThread(), warp = me & ~31u;
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  b.slot(me) = bits;
  b.arrive(Wait::Warp); // every lane has written its slot
  bits = b.slot(warp + srcLane);
  b.arrive(Wait::Warp); // every lane has read: slots may change again
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

template <class T> struct Identity {
  using type = T;
};

} // namespace energy_host

// --- Synchronization, shuffles, atomics --------------------------------------
inline void __syncthreads(unsigned line = __builtin_LINE()) {
  energy_host::Block::current().arrive(energy_host::Wait::Block, line);
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  if (mask != 0xffffffffu)
    energy_host::fail("__syncwarp with a partial mask");
  energy_host::Block::current().arrive(energy_host::Wait::Warp);
}
inline void __threadfence() {}
inline void __threadfence_block() {}

inline unsigned energy_host_lane() { return energy_host::Block::current().linearThread() % 32; }

template <class T>
T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  unsigned lane = energy_host_lane();
  return energy_host::shuffle(mask, v, (lane & ~unsigned(width - 1)) + unsigned(src) % width);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T v, int laneMask, int width = 32) {
  unsigned lane = energy_host_lane();
  unsigned src = lane ^ unsigned(laneMask);
  if (src / width != lane / width)
    src = lane;
  return energy_host::shuffle(mask, v, src);
}
template <class T>
T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  unsigned lane = energy_host_lane();
  unsigned first = lane & ~unsigned(width - 1);
  return energy_host::shuffle(mask, v, lane >= first + delta ? lane - delta : lane);
}
template <class T>
T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  unsigned lane = energy_host_lane();
  unsigned end = (lane & ~unsigned(width - 1)) + width;
  return energy_host::shuffle(mask, v, lane + delta < end ? lane + delta : lane);
}

// Fibers switch only at barriers, so these are atomic as written.
template <class T> T atomicAdd(T *p, typename energy_host::Identity<T>::type v) {
  T old = *p;
  *p = old + v;
  return old;
}
template <class T> T atomicSub(T *p, typename energy_host::Identity<T>::type v) {
  T old = *p;
  *p = old - v;
  return old;
}
template <class T> T atomicExch(T *p, typename energy_host::Identity<T>::type v) {
  T old = *p;
  *p = v;
  return old;
}
template <class T> T atomicMax(T *p, typename energy_host::Identity<T>::type v) {
  T old = *p;
  *p = std::max(old, v);
  return old;
}
template <class T> T atomicMin(T *p, typename energy_host::Identity<T>::type v) {
  T old = *p;
  *p = std::min(old, v);
  return old;
}
template <class T>
T atomicCAS(T *p, typename energy_host::Identity<T>::type compare,
            typename energy_host::Identity<T>::type v) {
  T old = *p;
  if (old == compare)
    *p = v;
  return old;
}
inline unsigned atomicInc(unsigned *p, unsigned limit) {
  unsigned old = *p;
  *p = old >= limit ? 0 : old + 1;
  return old;
}

// --- Math and load intrinsics --------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __saturatef(float x) { return std::min(1.0f, std::max(0.0f, x)); }
template <class T> T __ldg(const T *p) { return *p; }
template <class T> T __ldcg(const T *p) { return *p; }
using std::max;
using std::min;

// --- energy.cuh, host side ---------------------------------------------------
#define ENERGY_TUNABLE_KIND_(NAME, KIND, DEFAULT, ...)                         \
  int __energy_tunable_##NAME[] = {DEFAULT, KIND, __VA_ARGS__};                \
  constexpr int NAME##_default = (DEFAULT);                                    \
  constexpr int NAME##_max = ::energy_host::maxOf({__VA_ARGS__});              \
  static ::energy_host::TunableRegistrar energy_host_tunable_##NAME(           \
      #NAME, __energy_tunable_##NAME,                                          \
      int(sizeof(__energy_tunable_##NAME) / sizeof(int)))
#define ENERGY_TUNABLE(NAME, DEFAULT, ...)                                     \
  ENERGY_TUNABLE_KIND_(NAME, 0, DEFAULT, __VA_ARGS__)
#define ENERGY_TUNABLE_PER_THREAD(NAME, DEFAULT, ...)                          \
  ENERGY_TUNABLE_KIND_(NAME, 1, DEFAULT, __VA_ARGS__)
#define ENERGY_VALUE(NAME) (__energy_tunable_##NAME[0])
#define ENERGY_WORKLOAD(KERNEL, ITEMS)                                         \
  unsigned long long __energy_workload_##KERNEL = (ITEMS)
#define ENERGY_GRID(KERNEL, GX, GY, GZ)                                        \
  unsigned long long __energy_grid_##KERNEL[3] = {(GX), (GY), (GZ)}
#define ENERGY_KERNEL(KERNEL)
#define ENERGY_KERNEL_BLOCK(KERNEL, BX, BY)
#define ENERGY_KERNEL_TUNABLE_BLOCK(KERNEL, TX, TY)
#define ENERGY_UNPAREN_(...) __VA_ARGS__
#define ENERGY_KERNEL_TEMPLATE(KERNEL, PARAMS, ARGS)                           \
  template <ENERGY_UNPAREN_ PARAMS>
#define ENERGY_KERNEL_TEMPLATE_BLOCK(KERNEL, PARAMS, ARGS, BX, BY)             \
  template <ENERGY_UNPAREN_ PARAMS>
#define ENERGY_KERNEL_TEMPLATE_TUNABLE_BLOCK(KERNEL, PARAMS, ARGS, TX, TY)     \
  template <ENERGY_UNPAREN_ PARAMS>
#define ENERGY_SHARED(TYPE, NAME, SPEC) static TYPE NAME
#define ENERGY_BLOCK_RULES(KERNEL, SPEC) static_assert(sizeof(SPEC) > 0, "")
#define ENERGY_DYNAMIC_SHARED(KERNEL, PER_THREAD, PER_BLOCK)                   \
  static_assert((PER_THREAD) + (PER_BLOCK) >= 0, "")
#define ENERGY_HOST_EXTERN_SHARED(TYPE, NAME)                                  \
  TYPE *const NAME = static_cast<TYPE *>(energy_host::dynamicShared())
#define ENERGY_ASSUME(VALUE, TYPICAL)                                          \
  do {                                                                         \
    static_assert((TYPICAL) >= 0, "");                                         \
    (void)(VALUE);                                                             \
  } while (0)

#endif // ENERGY_HOST_EMULATION_H
