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
//                        // or ENERGY_GRID(kernel, x, y, z): a grid fixed by
//                        // the data, the same for every block (optional)
//
//   ENERGY_KERNEL(saxpy) void saxpy(int n, float a, const float *x, float *y) {
//     const int items = ENERGY_VALUE(ITEMS);
//     ...
//   }
//
//   // host: launch with the chosen block, a grid that covers n items
//   ENERGY_LAUNCH(n, saxpy)(n, 2.0f, x, y);
//   // or by hand
//   dim3 block = ENERGY_BLOCK_DIM(saxpy);
//   int items = ENERGY_HOST_VALUE(ITEMS);
//   saxpy<<<(n + block.x * items - 1) / (block.x * items), block>>>(...);
//
// An opted-in kernel may be compiled for another block than its default, so
// its launches must take their block from the record (ENERGY_LAUNCH,
// ENERGY_BLOCK_DIM, ENERGY_CHOICE(k).block): with the plugin in the host
// compile too (energy-cuda, or clang -fpass-plugin), any other launch of it
// in this file is an error.
//
// The host reads the record once per process (a function-local static);
// another file of the program reads it after ENERGY_KERNEL_EXTERN(saxpy)
// (ENERGY_TUNABLE_EXTERN(ITEMS) for ENERGY_HOST_VALUE), also a host-only
// C++ file (.cpp), which launches through a wrapper in the kernel's .cu
// (ENERGY_LAUNCH needs a CUDA compile). When the record
// cannot be read (no device, no image for this GPU, inside stream capture:
// read it before capturing), the host uses the compiled default and
// ENERGY_RECORD_ERROR(saxpy) is the read's cudaError_t (ENERGY_LAUNCH
// returns it too).
//
// Without the plugin in the build (nvcc): plan with the plugin first,
// writing its choices as a header (clang -mllvm -energy-header=choices.h, or
// energy-cuda --energy-header=choices.h), then build with
//   nvcc -DENERGY_CHOICES='"choices.h"' -I<energy include> app.cu
// Each rewritten kernel then gets __launch_bounds__ of its chosen block, its
// record the chosen shape, and tunables are constants (ENERGY_VALUE folds).
// ENERGY_CHOICE_CONSTANT(saxpy) is the chosen launch_record at compile time.
// Shared arrays keep their declared (largest) size.
//
// Shared arrays whose size follows a tunable or the block shape:
//
//   ENERGY_TUNABLE(TILE, 16, 8, 16, 32);
//   ENERGY_KERNEL_TUNABLE_BLOCK(sgemm, TILE, TILE) void sgemm(...) {
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
// ENERGY_WORKLOAD, ENERGY_GRID, ENERGY_BLOCK_RULES and ENERGY_DYNAMIC_SHARED
// name non-template kernels only.
//
// The spec string lists one size per array dimension: a tunable name, the
// block sizes BLOCK_X / BLOCK_Y / BLOCK_Z, or an integer, each optionally
// "+k" or "*k". Declare the array at its largest size (NAME_max); the plugin
// shrinks it to the chosen size.
//
// Device symbols (documented, so driver-API users can read them with
// cuModuleGetGlobal):
//   __energy_launch_<kernel>   energy::launch_record {block[3], dynamic_smem,
//                              items_per_thread};
//                              a variable template for a kernel template
//                              (__energy_launch_scale<float, 4>, mangled
//                              _Z21__energy_launch_scaleIfLi4EE)
//   __energy_tunable_<NAME>    int[]: {value, kind, candidates...}; [0] is the
//                              chosen value after the plugin ran
//   __energy_workload_<kernel> unsigned long long (read by the plugin)
//   __energy_grid_<kernel>     unsigned long long[3] (read by the plugin)
#pragma once

#include <cuda_runtime.h>
#if defined(__CUDACC__) && defined(ENERGY_TIME_LAUNCHES)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#endif

// Under ENERGY_TIME_LAUNCHES, ENERGY_LAUNCH passes the kernel's name on to
// the launch timer; without it, nothing.
#ifdef ENERGY_TIME_LAUNCHES
#define ENERGY_LAUNCH_NAME_PARAM_ , const char *name
#define ENERGY_LAUNCH_NAME_ARG_ , name
#define ENERGY_LAUNCH_NAME_(...) , #__VA_ARGS__
#else
#define ENERGY_LAUNCH_NAME_PARAM_
#define ENERGY_LAUNCH_NAME_ARG_
#define ENERGY_LAUNCH_NAME_(...)
#endif

namespace energy {

/// The launch configuration the plugin chose for one kernel.
struct launch_record {
  unsigned block[3];
  unsigned dynamic_smem;      // extern __shared__ bytes (ENERGY_DYNAMIC_SHARED)
  unsigned items_per_thread; // work items each thread handles
};

enum tunable_kind : int {
  tunable_plain = 0,          // any compile-time constant (tile size, unroll)
  tunable_work_per_thread = 1 // each thread handles this many work items
};

/// A kernel's record as the host read it: the plugin's choice, or the
/// compiled default when it could not be read, and why.
struct choice {
  launch_record record;
  cudaError_t error; // of the read; cudaSuccess when it was read
};

namespace detail {
/// Whether T is defined here (ENERGY_DYNAMIC_SHARED checks that its
/// kernel's record comes later).
template <class T, class = void> struct is_complete {
  static constexpr bool value = false;
};
template <class T> struct is_complete<T, decltype(void(sizeof(T)))> {
  static constexpr bool value = true;
};
constexpr int max_of(const int *v, int n) {
  return n == 1 ? v[0] : (v[0] > max_of(v + 1, n - 1) ? v[0] : max_of(v + 1, n - 1));
}
template <int... V> struct values {
  static constexpr int list[] = {V...};
  static constexpr int max = max_of(list, sizeof...(V));
};
/// False, but only once instantiated (a static_assert in a template that
/// fires where it is used).
template <class...> constexpr bool always_false = false;
/// Blocks of b that cover n (at least one).
constexpr unsigned blocks_for(unsigned long long n, unsigned long long b) {
  return b ? static_cast<unsigned>(n ? (n + b - 1) / b : 1) : 1;
}
} // namespace detail

// Host-only helpers (declared in device compiles too, so host code in the
// same file parses there).
/// Reads a record back from the device image; when it cannot be read (no
/// device, no image for this GPU, inside stream capture), the compiled
/// default, with the error (left as the last error too).
__host__ inline choice read_choice(const launch_record &symbol,
                                   const launch_record &fallback) {
  launch_record value{};
  // The symbol's address: C++ outside CUDA has only the void * overload.
  cudaError_t error = cudaMemcpyFromSymbol(
      &value, static_cast<const void *>(&symbol), sizeof value);
  return {error == cudaSuccess ? value : fallback, error};
}
/// A tunable's chosen value, or its compiled default when it cannot be
/// read (as read_choice).
template <int N>
__host__ inline int tunable_value(const int (&symbol)[N], int fallback) {
  int value = 0;
  return cudaMemcpyFromSymbol(&value, static_cast<const void *>(symbol),
                              sizeof(int)) == cudaSuccess
             ? value
             : fallback;
}

/// The block of a record already read (ENERGY_CHOICE).
__host__ constexpr dim3 block_of(const launch_record &r) {
  return dim3(r.block[0], r.block[1], r.block[2]);
}

/// Grid, block and dynamic shared memory of one launch.
struct launch_config {
  dim3 grid, block;
  unsigned dynamic_smem;
};

/// The launch of r over `items` work items: as many blocks, along x, as the
/// items need at r's items per thread (the plugin's cost model's launch).
/// Constant for a constant record (ENERGY_CHOICE_CONSTANT).
__host__ constexpr launch_config config_for(const launch_record &r,
                                            unsigned long long items) {
  unsigned long long per = r.items_per_thread ? r.items_per_thread : 1;
  unsigned long long threads = (items + per - 1) / per;
  return {dim3(detail::blocks_for(threads, 1ull * r.block[0] * r.block[1] *
                                               r.block[2])),
          block_of(r), r.dynamic_smem};
}
/// The launch of r over an items.x x items.y x items.z domain: one thread
/// per item on y and z, items per thread along x.
__host__ constexpr launch_config config_for(const launch_record &r,
                                            dim3 items) {
  unsigned per = r.items_per_thread ? r.items_per_thread : 1;
  return {dim3(detail::blocks_for((items.x + per - 1ull) / per, r.block[0]),
               detail::blocks_for(items.y, r.block[1]),
               detail::blocks_for(items.z, r.block[2])),
          block_of(r), r.dynamic_smem};
}

/// Shared memory per block (static plus dynamic) CUDA launches without
/// the opt-in below.
constexpr unsigned shared_without_opt_in = 48 * 1024;

#ifdef __CUDACC__
#ifdef ENERGY_TIME_LAUNCHES
namespace detail {
/// Times the launches ENERGY_LAUNCH makes, for a tuner that runs the whole
/// program (python -m energy.tune --program, docs/tune.md): compiled in only
/// under -DENERGY_TIME_LAUNCHES, so that other builds launch exactly as
/// without it. When ENERGY_TIME_FILE names a file, each launch (of the
/// kernel ENERGY_TIME_KERNEL names, or of every kernel) runs alone, between
/// a device synchronization and the end of the launch, timed by CUDA events,
/// with the NVML total-energy counter read on both sides; the file gets a
/// line "kernel<TAB>seconds<TAB>joules" ("-" without NVML), or
/// "kernel<TAB>error<TAB>cudaError name" when the launch failed. NVML is
/// opened with dlopen, so the program links without it; the file's first
/// line says whether the counter is read, and why not.
class launch_timer {
public:
  static launch_timer &get() {
    static launch_timer timer;
    return timer;
  }
  struct mark {
    bool timed;
    cudaEvent_t start, stop;
    unsigned long long millijoules;
  };
  mark start(const char *kernel, cudaStream_t stream) {
    mark m{false, nullptr, nullptr, 0};
    if (!file || (only && std::strcmp(only, kernel) != 0))
      return m;
    // The launch alone on the device: earlier work would be timed with it.
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaEventCreate(&m.start) != cudaSuccess ||
        cudaEventCreate(&m.stop) != cudaSuccess)
      return m;
    m.timed = true;
    read_energy(m.millijoules);
    cudaEventRecord(m.start, stream);
    return m;
  }
  void stop(const char *kernel, cudaStream_t stream, const mark &m,
            cudaError_t launch) {
    if (!m.timed)
      return;
    cudaEventRecord(m.stop, stream);
    cudaError_t done = launch != cudaSuccess ? launch : cudaEventSynchronize(m.stop);
    float ms = 0;
    if (done == cudaSuccess)
      done = cudaEventElapsedTime(&ms, m.start, m.stop);
    unsigned long long after = 0;
    if (done != cudaSuccess)
      std::fprintf(file, "%s\terror\t%s\n", kernel, cudaGetErrorName(done));
    else if (read_energy(after))
      std::fprintf(file, "%s\t%.9g\t%.6g\n", kernel, ms * 1e-3,
                   (after - m.millijoules) * 1e-3);
    else
      std::fprintf(file, "%s\t%.9g\t-\n", kernel, ms * 1e-3);
    std::fflush(file); // a crash later keeps the launches measured so far
    cudaEventDestroy(m.start);
    cudaEventDestroy(m.stop);
  }

private:
  using energy_reader = int (*)(void *, unsigned long long *);
  std::FILE *file = nullptr;
  const char *only = nullptr;
  void *nvml_device = nullptr;
  energy_reader total_energy = nullptr;

  launch_timer() {
    const char *path = std::getenv("ENERGY_TIME_FILE");
    if (!path || !*path)
      return;
    only = std::getenv("ENERGY_TIME_KERNEL");
    if (only && !*only)
      only = nullptr;
    file = std::fopen(path, "a");
    if (!file) {
      std::fprintf(stderr, "energy: cannot open ENERGY_TIME_FILE '%s'\n", path);
      return;
    }
    const char *why = open_nvml();
    std::fprintf(file, "# energy-time-v1\tnvml\t%s\n", why ? why : "ok");
    std::fflush(file);
  }
  /// Why NVML's energy counter cannot be read, or null.
  const char *open_nvml() {
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return "unavailable: libnvidia-ml.so.1 not found";
    auto init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<int (*)(const char *, void **)>(
        dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto reader = reinterpret_cast<energy_reader>(
        dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
    if (!init || !by_bus || !reader)
      return "unavailable: NVML lacks the total-energy counter";
    if (init() != 0)
      return "unavailable: nvmlInit failed";
    int device = 0;
    char bus[32];
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess ||
        by_bus(bus, &nvml_device) != 0)
      return "unavailable: no NVML device for the current CUDA device";
    unsigned long long probe = 0;
    if (reader(nvml_device, &probe) != 0)
      return "unavailable: this GPU has no total-energy counter";
    total_energy = reader;
    return nullptr;
  }
  bool read_energy(unsigned long long &millijoules) const {
    return total_energy && total_energy(nvml_device, &millijoules) == 0;
  }
};
} // namespace detail
#endif

/// Lets kernel launch with `dynamic` bytes of dynamic shared memory:
/// above 48 KB per block with its static shared memory, CUDA needs
/// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
/// bytes) first. Below, nothing is set (a smaller maximum would refuse the
/// program's other launches with more).
template <class... P>
__host__ cudaError_t opt_in_shared_memory(void (*kernel)(P...),
                                          unsigned dynamic) {
  if (dynamic == 0)
    return cudaSuccess;
  if (dynamic <= shared_without_opt_in) {
    cudaFuncAttributes attributes;
    // Unknown static size: the launch reports what is wrong.
    if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess ||
        attributes.sharedSizeBytes + dynamic <= shared_without_opt_in)
      return cudaSuccess;
  }
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(dynamic));
}

/// What ENERGY_LAUNCH(items, kernel) returns: call it with the kernel's
/// arguments to launch; .on(stream) picks a stream first.
template <class... P> struct launcher {
  void (*kernel)(P...);
  launch_config config;
  cudaError_t read_error; // the record's (ENERGY_RECORD_ERROR)
  cudaStream_t stream;
#ifdef ENERGY_TIME_LAUNCHES
  const char *name; // the kernel as ENERGY_LAUNCH names it, for the timer
#endif
  __host__ launcher &on(cudaStream_t s) {
    stream = s;
    return *this;
  }
  /// The first error of the record's read, the opt-in and the launch.
  template <class... A> __host__ cudaError_t operator()(A &&...args) const {
    cudaError_t opt_in = opt_in_shared_memory(kernel, config.dynamic_smem);
#ifdef ENERGY_TIME_LAUNCHES
    detail::launch_timer &timer = detail::launch_timer::get();
    detail::launch_timer::mark mark = timer.start(name, stream);
#endif
    kernel<<<config.grid, config.block, config.dynamic_smem, stream>>>(
        static_cast<A &&>(args)...);
    cudaError_t launch = cudaGetLastError();
#ifdef ENERGY_TIME_LAUNCHES
    timer.stop(name, stream, mark, launch);
#endif
    return read_error != cudaSuccess ? read_error
           : opt_in != cudaSuccess   ? opt_in
                                     : launch;
  }
};
template <class... P, class Items>
__host__ launcher<P...> make_launcher(void (*kernel)(P...), const choice &c,
                                      Items items ENERGY_LAUNCH_NAME_PARAM_) {
  return {kernel, config_for(c.record, items), c.error, 0 ENERGY_LAUNCH_NAME_ARG_};
}
#else
// Host-only C++ (a .cpp) has no <<<>>>, and no portable name for a kernel
// another compiler built (clang's host handle is __device_stub__k).
struct no_launcher {
  no_launcher &on(cudaStream_t) { return *this; }
  template <class... A> cudaError_t operator()(A &&...) const {
    return cudaErrorNotSupported;
  }
};
template <class... P, class Items>
__host__ no_launcher make_launcher(void (*)(P...), const choice &,
                                   Items ENERGY_LAUNCH_NAME_PARAM_) {
  static_assert(detail::always_false<P...>,
                "ENERGY_LAUNCH needs a CUDA compile: launch from the kernel's .cu "
                "(a wrapper function), with the block of ENERGY_BLOCK_DIM(kernel) "
                "read here after ENERGY_KERNEL_EXTERN(kernel)");
  return {};
}
#endif

} // namespace energy

#define ENERGY_UNUSED_ __attribute__((unused))
#define ENERGY_UNPAREN_(...) __VA_ARGS__
#define ENERGY_APPLY_(M, ARGS) M ARGS
#define ENERGY_CAT_(A, B) A##B
#define ENERGY_XCAT_(A, B) ENERGY_CAT_(A, B)

// ENERGY_CHOICES: a header energy.so wrote (-energy-header). Its entries are
// "~, value"; ENERGY_CHOSEN_(ENTRY, DEFAULT) is the value of a defined entry
// and DEFAULT for an absent one (whose name stays one token).
#ifdef ENERGY_CHOICES
#include ENERGY_CHOICES
#if !defined(ENERGY_CHOICES_FORMAT) || ENERGY_CHOICES_FORMAT != 1
#error "ENERGY_CHOICES does not name a header written by energy.so -energy-header"
#endif
#endif
#define ENERGY_SECOND_(A, B, ...) B
#define ENERGY_PICK_(...) ENERGY_SECOND_(__VA_ARGS__)
#define ENERGY_CHOSEN_(ENTRY, DEFAULT) ENERGY_PICK_(ENTRY, DEFAULT, ~)
#define ENERGY_IIF_0(...)
#define ENERGY_IIF_1(...) __VA_ARGS__
/// ENERGY_WHEN_(ENTRY)(tokens): the tokens when ENTRY is defined (ENTRY
/// arrives expanded: "~, 1" or its own name).
#define ENERGY_WHEN_(...) ENERGY_XCAT_(ENERGY_IIF_, ENERGY_PICK_(__VA_ARGS__, 0, ~))
// Entries of kernels: (block x, y, z, dynamic smem, items per thread[,
// launch bounds]).
#define ENERGY_RECORD_INIT_(X, Y, Z, S, I)                                     \
  {{(unsigned)(X), (unsigned)(Y), (unsigned)(Z)}, (unsigned)(S), (unsigned)(I)}
#define ENERGY_KERNEL_INIT_(X, Y, Z, S, I, B) ENERGY_RECORD_INIT_(X, Y, Z, S, I)
#define ENERGY_KERNEL_BOUNDS_(X, Y, Z, S, I, B) B

#ifdef ENERGY_CHOICES
// The header's value, a constant; the device array holds it too.
#define ENERGY_TUNABLE_VALUE_(NAME, DEFAULT)                                   \
  ENERGY_CHOSEN_(ENERGY_CHOICE_TUNABLE_##NAME, (DEFAULT))
#define ENERGY_TUNABLE_READ_(NAME) (__energy_value_##NAME)
#else
#define ENERGY_TUNABLE_VALUE_(NAME, DEFAULT) (DEFAULT)
#define ENERGY_TUNABLE_READ_(NAME)                                             \
  (::energy::tunable_value(__energy_tunable_##NAME, __energy_value_##NAME))
#endif
#define ENERGY_TUNABLE_KIND_(NAME, KIND, DEFAULT, ...)                         \
  constexpr int __energy_value_##NAME ENERGY_UNUSED_ =                         \
      ENERGY_TUNABLE_VALUE_(NAME, DEFAULT);                                    \
  __device__ int __energy_tunable_##NAME[] = {__energy_value_##NAME, KIND,     \
                                              __VA_ARGS__};                    \
  __host__ int __energy_host_value_##NAME() {                                  \
    static const int value = ENERGY_TUNABLE_READ_(NAME);                       \
    return value;                                                              \
  }                                                                            \
  constexpr int NAME##_default ENERGY_UNUSED_ = (DEFAULT);                     \
  constexpr int NAME##_max ENERGY_UNUSED_ =                                    \
      ::energy::detail::values<__VA_ARGS__>::max
/// Declares a tunable another file defines, for ENERGY_HOST_VALUE here.
#define ENERGY_TUNABLE_EXTERN(NAME) __host__ int __energy_host_value_##NAME()

/// A tunable constant: default value first, then the candidates.
#define ENERGY_TUNABLE(NAME, DEFAULT, ...)                                     \
  ENERGY_TUNABLE_KIND_(NAME, ::energy::tunable_plain, DEFAULT, __VA_ARGS__)

/// A tunable number of work items per thread: the launch needs 1/value as
/// many threads for the same workload.
#define ENERGY_TUNABLE_PER_THREAD(NAME, DEFAULT, ...)                          \
  ENERGY_TUNABLE_KIND_(NAME, ::energy::tunable_work_per_thread, DEFAULT,       \
                       __VA_ARGS__)

/// The value of a tunable inside device code (a constant under
/// ENERGY_CHOICES, and once the plugin ran).
#ifdef ENERGY_CHOICES
#define ENERGY_VALUE(NAME) (__energy_value_##NAME)
#else
#define ENERGY_VALUE(NAME) (__energy_tunable_##NAME[0])
#endif

/// The value of a tunable on the host, as chosen by the plugin; read once
/// per process.
#define ENERGY_HOST_VALUE(NAME) (__energy_host_value_##NAME())

/// Work items of one typical launch, for the cost model (default 2^24).
#define ENERGY_WORKLOAD(KERNEL, ITEMS)                                         \
  __device__ unsigned long long __energy_workload_##KERNEL = (ITEMS)

/// The grid of one typical launch, for a kernel whose grid does not follow
/// its block: each block handles a fixed tile (a 32x32 transpose tile that
/// threads cover in steps of blockDim.y), so the host launches the same grid
/// whatever block the plugin chooses. Every candidate is predicted on this
/// grid instead of on a grid that covers a workload; launch with your own
/// grid and ENERGY_BLOCK_DIM (not ENERGY_LAUNCH, which covers n items).
/// A kernel declares ENERGY_WORKLOAD or ENERGY_GRID, not both.
#define ENERGY_GRID(KERNEL, GX, GY, GZ)                                        \
  __device__ unsigned long long __energy_grid_##KERNEL[3] = {(GX), (GY), (GZ)}

/// The dynamic shared memory of a kernel's default block: what
/// ENERGY_DYNAMIC_SHARED declares for it (the overload it defines for the
/// kernel's record tag), else none. A build without the plugin launches
/// with it.
template <class RecordTag>
__host__ __device__ constexpr unsigned
__energy_default_dynamic_smem(RecordTag *, unsigned) {
  return 0;
}
#define ENERGY_DEFAULT_DYNAMIC_SMEM_(KERNEL, BX, BY)                           \
  __energy_default_dynamic_smem((struct __energy_record_tag_##KERNEL *)0,      \
                                (unsigned)(BX) * (unsigned)(BY))

// A kernel's record: the device variable the plugin rewrites and the host
// reads, and the host function that reads it once per process. Its tag type
// marks that the record exists.
#ifdef ENERGY_CHOICES
// (x, y, z, smem, items, bounds): the header's entry, else the default.
#define ENERGY_KERNEL_CHOICE_(KERNEL, BX, BY)                                  \
  ENERGY_CHOSEN_(ENERGY_CHOICE_KERNEL_##KERNEL,                                \
                 (BX, BY, 1, ENERGY_DEFAULT_DYNAMIC_SMEM_(KERNEL, BX, BY), 1, ))
#define ENERGY_RECORD_(KERNEL, BX, BY)                                         \
  struct __energy_record_tag_##KERNEL {                                        \
    char unused; /* not empty: the record may sit in an extern "C" block */    \
  };                                                                           \
  constexpr ::energy::launch_record __energy_choice_##KERNEL ENERGY_UNUSED_ =  \
      ENERGY_APPLY_(ENERGY_KERNEL_INIT_, ENERGY_KERNEL_CHOICE_(KERNEL, BX, BY)); \
  __device__ ::energy::launch_record __energy_launch_##KERNEL =                \
      __energy_choice_##KERNEL;                                                \
  __host__ const ::energy::choice *__energy_choice_of_##KERNEL() {             \
    static constexpr ::energy::choice known = {__energy_choice_##KERNEL,       \
                                               cudaSuccess};                   \
    return &known;                                                             \
  }
#define ENERGY_KERNEL_BOUNDS_OF_(KERNEL, BX, BY)                               \
  ENERGY_APPLY_(ENERGY_KERNEL_BOUNDS_, ENERGY_KERNEL_CHOICE_(KERNEL, BX, BY))
#else
// The default is the compiled one, which the host falls back to.
#define ENERGY_RECORD_(KERNEL, BX, BY)                                         \
  struct __energy_record_tag_##KERNEL {                                        \
    char unused; /* not empty: the record may sit in an extern "C" block */    \
  };                                                                           \
  constexpr ::energy::launch_record __energy_default_##KERNEL ENERGY_UNUSED_ = \
      ENERGY_RECORD_INIT_(BX, BY, 1, ENERGY_DEFAULT_DYNAMIC_SMEM_(KERNEL, BX, BY), \
                          1);                                                  \
  __device__ ::energy::launch_record __energy_launch_##KERNEL =                \
      __energy_default_##KERNEL;                                               \
  __host__ const ::energy::choice *__energy_choice_of_##KERNEL() {             \
    static const ::energy::choice read = ::energy::read_choice(                \
        __energy_launch_##KERNEL, __energy_default_##KERNEL);                  \
    return &read;                                                              \
  }
#define ENERGY_KERNEL_BOUNDS_OF_(KERNEL, BX, BY)
#endif
/// A non-template kernel names its record in the annotation, and points to
/// it (in a namespace, its name is mangled).
#define ENERGY_KERNEL_(KERNEL, BX, BY, FIELDS)                                 \
  ENERGY_RECORD_(KERNEL, BX, BY)                                               \
  __global__ ENERGY_KERNEL_BOUNDS_OF_(KERNEL, BX, BY) __attribute__((          \
      annotate("energy.tune:record=__energy_launch_" #KERNEL FIELDS,           \
               &__energy_launch_##KERNEL)))
/// Declares an opted-in kernel another file defines, for ENERGY_CHOICE,
/// ENERGY_BLOCK_DIM and ENERGY_LAUNCH here (the program reads the record
/// once, whichever file reads it first).
#define ENERGY_KERNEL_EXTERN(KERNEL)                                           \
  __host__ const ::energy::choice *__energy_choice_of_##KERNEL()

/// An instantiation of a kernel template points to its own instantiation of
/// the record (a variable template), given as the annotation's argument.
#ifdef ENERGY_CHOICES
#define ENERGY_SPECIALIZE_(KERNEL, ARGS, CHOICE)                               \
  template <>                                                                  \
  constexpr ::energy::launch_record                                            \
      __energy_choice_##KERNEL<ENERGY_UNPAREN_ ARGS> =                         \
          ENERGY_APPLY_(ENERGY_RECORD_INIT_, CHOICE);
#define ENERGY_TEMPLATE_RECORD_(KERNEL, PARAMS, ARGS, BX, BY)                  \
  template <ENERGY_UNPAREN_ PARAMS>                                            \
  constexpr ::energy::launch_record __energy_choice_##KERNEL =                 \
      ENERGY_RECORD_INIT_(BX, BY, 1, 0, 1);                                    \
  ENERGY_WHEN_(ENERGY_CHOICE_TEMPLATE_##KERNEL)(                               \
      ENERGY_CHOICE_TEMPLATE_LIST_##KERNEL(ENERGY_SPECIALIZE_))                \
  template <ENERGY_UNPAREN_ PARAMS>                                            \
  __device__ ::energy::launch_record __energy_launch_##KERNEL =                \
      __energy_choice_##KERNEL<ENERGY_UNPAREN_ ARGS>;                          \
  template <ENERGY_UNPAREN_ PARAMS>                                            \
  __host__ const ::energy::choice *__energy_choice_of_##KERNEL() {             \
    (void)&__energy_launch_##KERNEL<ENERGY_UNPAREN_ ARGS>; /* in the image */  \
    static constexpr ::energy::choice known = {                                \
        __energy_choice_##KERNEL<ENERGY_UNPAREN_ ARGS>, cudaSuccess};          \
    return &known;                                                             \
  }
// A template with entries bounds each instantiation to its record's block.
#define ENERGY_TEMPLATE_BOUNDS_(KERNEL, ARGS)                                  \
  ENERGY_WHEN_(ENERGY_CHOICE_TEMPLATE_##KERNEL)(__launch_bounds__((            \
      __energy_choice_##KERNEL<ENERGY_UNPAREN_ ARGS>.block[0] *                \
      __energy_choice_##KERNEL<ENERGY_UNPAREN_ ARGS>.block[1] *                \
      __energy_choice_##KERNEL<ENERGY_UNPAREN_ ARGS>.block[2])))
#else
#define ENERGY_TEMPLATE_RECORD_(KERNEL, PARAMS, ARGS, BX, BY)                  \
  template <ENERGY_UNPAREN_ PARAMS>                                            \
  __device__ ::energy::launch_record __energy_launch_##KERNEL =                \
      ENERGY_RECORD_INIT_(BX, BY, 1, 0, 1);                                    \
  template <ENERGY_UNPAREN_ PARAMS>                                            \
  __host__ const ::energy::choice *__energy_choice_of_##KERNEL() {             \
    static const ::energy::choice read = ::energy::read_choice(                \
        __energy_launch_##KERNEL<ENERGY_UNPAREN_ ARGS>,                        \
        ENERGY_RECORD_INIT_(BX, BY, 1, 0, 1));                                 \
    return &read;                                                              \
  }
#define ENERGY_TEMPLATE_BOUNDS_(KERNEL, ARGS)
#endif
#define ENERGY_KERNEL_TEMPLATE_(KERNEL, PARAMS, ARGS, BX, BY, FIELDS)          \
  ENERGY_TEMPLATE_RECORD_(KERNEL, PARAMS, ARGS, BX, BY)                        \
  template <ENERGY_UNPAREN_ PARAMS>                                            \
  __global__ ENERGY_TEMPLATE_BOUNDS_(KERNEL, ARGS) __attribute__((             \
      annotate("energy.tune:" FIELDS,                                          \
               &__energy_launch_##KERNEL<ENERGY_UNPAREN_ ARGS>)))

/// Opts a kernel in, with a free block shape (default 256 threads): the
/// plugin may choose another where it is proven correct or declared
/// (ENERGY_BLOCK_RULES). Use before the return type:
/// ENERGY_KERNEL(k) void k(...) {...}
#define ENERGY_KERNEL(KERNEL) ENERGY_KERNEL_BLOCK(KERNEL, 256, 1)

/// Opts a kernel in with a free block shape and the given default shape.
#define ENERGY_KERNEL_BLOCK(KERNEL, BX, BY) ENERGY_KERNEL_(KERNEL, BX, BY, "")

/// Opts a kernel in whose block shape is fixed by tunables (TX x TY).
#define ENERGY_KERNEL_TUNABLE_BLOCK(KERNEL, TX, TY)                            \
  ENERGY_KERNEL_(KERNEL, __energy_value_##TX, __energy_value_##TY,             \
                 ";block=" #TX "," #TY)

/// Opts a kernel template in, in place of its template header: PARAMS is
/// the parameter list, ARGS the same parameters as arguments, both in
/// parentheses. Every instantiation is tuned on its own, with its own record.
///   ENERGY_KERNEL_TEMPLATE(scale, (typename T, int N), (T, N))
///   void scale(T *x) {...}
#define ENERGY_KERNEL_TEMPLATE(KERNEL, PARAMS, ARGS)                           \
  ENERGY_KERNEL_TEMPLATE_BLOCK(KERNEL, PARAMS, ARGS, 256, 1)
#define ENERGY_KERNEL_TEMPLATE_BLOCK(KERNEL, PARAMS, ARGS, BX, BY)             \
  ENERGY_KERNEL_TEMPLATE_(KERNEL, PARAMS, ARGS, BX, BY, "")
#define ENERGY_KERNEL_TEMPLATE_TUNABLE_BLOCK(KERNEL, PARAMS, ARGS, TX, TY)     \
  ENERGY_KERNEL_TEMPLATE_(KERNEL, PARAMS, ARGS, __energy_value_##TX,          \
                          __energy_value_##TY, "block=" #TX "," #TY)

/// States which block shapes KERNEL is correct for. The plugin gives a
/// kernel another block than its declared default only where it proves the
/// kernel correct at it (its threads' work follows blockIdx * blockDim +
/// threadIdx behind a bound check, nothing else depends on the block) or
/// where these rules declare it: a kernel that shares data through shared
/// memory or warp operations keeps its default without them. The rules
/// replace what the code suggests; __launch_bounds__ and the block a library
/// primitive is written for (cub::BlockReduce<T, 256>) still hold (see
/// docs/legality.md). SPEC lists rules separated by ';': "pow2" (every
/// extent a power of two), "max=N" and "multiple=N" (threads per block),
/// "shapes=128,256,32x8" (only these).
///   ENERGY_BLOCK_RULES(reduce, "pow2;max=512");
#define ENERGY_BLOCK_RULES(KERNEL, SPEC)                                       \
  __device__ char __energy_rules_##KERNEL[] = SPEC

/// Declares the dynamic shared memory (extern __shared__) KERNEL needs per
/// launch: PER_THREAD bytes for each thread of the block plus PER_BLOCK.
/// Place it before ENERGY_KERNEL(KERNEL) (a static_assert says so): the
/// record's default holds the size for the default block, so a build
/// without the plugin launches with it too. The plugin counts it for each
/// candidate and writes it into the launch record: launch with
/// ENERGY_DYNAMIC_SMEM(KERNEL) or ENERGY_LAUNCH. Without the declaration, a
/// kernel using dynamic shared memory keeps its declared default block.
/// More than 48 KB of shared memory per block (static plus dynamic) needs
/// cudaFuncSetAttribute(KERNEL, cudaFuncAttributeMaxDynamicSharedMemorySize,
/// bytes) before the launch: ENERGY_LAUNCH makes it. The plugin chooses
/// such a block only when the default block needs the opt-in too, and then
/// with no more dynamic shared memory than the default's: a launch by hand
/// with ENERGY_DYNAMIC_SMEM(KERNEL) works wherever the default did.
#define ENERGY_DYNAMIC_SHARED(KERNEL, PER_THREAD, PER_BLOCK)                   \
  static_assert(                                                               \
      !::energy::detail::is_complete<struct __energy_record_tag_##KERNEL>::value, \
      "ENERGY_DYNAMIC_SHARED(" #KERNEL ") must come before ENERGY_KERNEL(" #KERNEL \
      "): its record's default takes the size from it");                      \
  __host__ __device__ constexpr unsigned __energy_default_dynamic_smem(        \
      struct __energy_record_tag_##KERNEL *, unsigned threads) {               \
    return (unsigned)(PER_THREAD) * threads + (unsigned)(PER_BLOCK);           \
  }                                                                            \
  __device__ unsigned __energy_dynamic_shared_##KERNEL[2] = {(PER_THREAD),     \
                                                             (PER_BLOCK)}

/// A shared array the plugin resizes; see the spec grammar above.
#define ENERGY_SHARED(TYPE, NAME, SPEC)                                        \
  __shared__ __attribute__((annotate("energy.shape:" SPEC))) TYPE NAME

/// The chosen launch_record of an opted-in kernel (host side), read from
/// the device image once per process (under ENERGY_CHOICES, the header's);
/// an instantiation of a kernel template is named with its template
/// arguments: ENERGY_CHOICE(scale<float, 4>).
#define ENERGY_CHOICE(...) (__energy_choice_of_##__VA_ARGS__()->record)
/// Why the record could not be read (host side): the cudaError_t of the
/// read (no device, no image for this GPU, inside stream capture), or
/// cudaSuccess. ENERGY_CHOICE, ENERGY_BLOCK_DIM, ENERGY_DYNAMIC_SMEM and
/// ENERGY_LAUNCH then give the compiled default.
#define ENERGY_RECORD_ERROR(...) (__energy_choice_of_##__VA_ARGS__()->error)
/// The chosen block shape (host side).
#define ENERGY_BLOCK_DIM(...) (::energy::block_of(ENERGY_CHOICE(__VA_ARGS__)))
/// The dynamic shared memory bytes of the chosen shape (host side): per
/// thread x block threads + per block, as ENERGY_DYNAMIC_SHARED declares,
/// written into the record by the plugin (or the ENERGY_CHOICES header);
/// without either, the record's default: the size for the default block.
#define ENERGY_DYNAMIC_SMEM(...) (ENERGY_CHOICE(__VA_ARGS__).dynamic_smem)
/// ENERGY_LAUNCH(items, kernel)(args...) launches kernel with its chosen
/// block and dynamic shared memory, and a grid covering `items` work items
/// (a count, along x, or a dim3 domain) at its items per thread, first
/// opting in to more than 48 KB of shared memory per block where the
/// launch needs it (cudaFuncSetAttribute). It returns the record's read
/// error (ENERGY_RECORD_ERROR) if any, else the opt-in's, else
/// cudaGetLastError() after the launch.
/// ENERGY_LAUNCH(items, kernel).on(stream)(args...) launches on a stream.
/// Built with -DENERGY_TIME_LAUNCHES, it times each launch when the
/// environment names a file (ENERGY_TIME_FILE; energy::detail::launch_timer).
#define ENERGY_LAUNCH(ITEMS, ...)                                              \
  (::energy::make_launcher(__VA_ARGS__, *__energy_choice_of_##__VA_ARGS__(),   \
                           (ITEMS)ENERGY_LAUNCH_NAME_(__VA_ARGS__)))
#ifdef ENERGY_CHOICES
/// The chosen launch_record as a compile-time constant, in the kernel's
/// file (under ENERGY_CHOICES only: with the plugin, the device compile
/// decides after the host code is written).
#define ENERGY_CHOICE_CONSTANT(...) (__energy_choice_##__VA_ARGS__)
#endif

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

// ENERGY_TRIP ---------------------------------------------------------------
/// States how many times the loop it is written in runs per entry (per
/// thread), for the trip counts of the plugin's cost model, where neither
/// the code nor ENERGY_ASSUME on the bound's values tells: a `while` loop
/// that stops on data, a bound computed in the kernel. Write it in the
/// loop's body, outside inner loops:
///   while (node != end) { ENERGY_TRIP(20); node = next[node]; }
/// A hint only: a PTX comment, so the code is the same with or without the
/// plugin. Like any inline assembly in CUDA device code it is convergent,
/// which keeps clang from runtime-unrolling the loop (a loop whose count
/// the compiler can follow needs no ENERGY_TRIP: state its bound with
/// ENERGY_ASSUME instead); in a loop the compiler unrolls fully the
/// statement would count for the loop around it, so state no constant
/// count.
#define ENERGY_TRIP_CHECK_(COUNT)                                              \
  static_assert((COUNT) >= 0 && (COUNT) <= 0xffffffffll,                       \
                "ENERGY_TRIP: the count must be a constant integer in "        \
                "[0, 2^32)")
#ifdef __CUDA_ARCH__
#define ENERGY_TRIP(COUNT)                                                     \
  do {                                                                         \
    ENERGY_TRIP_CHECK_(COUNT);                                                 \
    asm volatile("// energy.trip %0 %1" ::"n"(COUNT), "n"(__COUNTER__));       \
  } while (0)
#else
#define ENERGY_TRIP(COUNT)                                                     \
  do {                                                                         \
    ENERGY_TRIP_CHECK_(COUNT);                                                 \
  } while (0)
#endif
