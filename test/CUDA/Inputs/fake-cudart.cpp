// A fake of the few CUDA runtime functions energy.cuh's host helpers and
// clang's launch stubs call, so their behaviour is tested without a GPU
// (test/CUDA/host-record-read.cu). It keeps CUDA's rules that matter there:
// a block of 0 threads is an invalid configuration, and more than 48 KB of
// shared memory per block (static plus dynamic) needs the
// cudaFuncAttributeMaxDynamicSharedMemorySize opt-in.
//
// Environment: FAKE_READ_ERROR=N makes cudaMemcpyFromSymbol fail with error
// N; FAKE_RECORD=x,y,z,smem,items is the record it reads otherwise;
// FAKE_STATIC_SHARED=N is every kernel's static shared memory.
// The launch timer of energy.cuh (-DENERGY_TIME_LAUNCHES): events time each
// launch as FAKE_KERNEL_MS milliseconds (default 2), cudaGetErrorName names
// an error "error N".
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

static cudaError_t Last = cudaSuccess;
static cudaError_t fail(cudaError_t E) {
  Last = E;
  return E;
}
static unsigned env(const char *Name) {
  const char *V = getenv(Name);
  return V ? unsigned(strtoul(V, nullptr, 0)) : 0;
}
static std::map<const void *, int> MaxDynamic; // the opt-ins made

extern "C" {
cudaError_t cudaGetLastError() {
  cudaError_t E = Last;
  Last = cudaSuccess;
  return E;
}
const char *cudaGetErrorString(cudaError_t E) {
  static char Text[32];
  snprintf(Text, sizeof Text, "error %d", int(E));
  return E == cudaSuccess ? "no error" : Text;
}
cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *, size_t Count, size_t,
                                 cudaMemcpyKind) {
  if (unsigned E = env("FAKE_READ_ERROR"))
    return fail(cudaError_t(E));
  unsigned R[5] = {0, 0, 0, 0, 0};
  if (const char *V = getenv("FAKE_RECORD"))
    sscanf(V, "%u,%u,%u,%u,%u", &R[0], &R[1], &R[2], &R[3], &R[4]);
  memcpy(Dst, R, Count < sizeof R ? Count : sizeof R);
  return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *A, const void *) {
  memset(A, 0, sizeof *A);
  A->sharedSizeBytes = env("FAKE_STATIC_SHARED");
  return cudaSuccess;
}
cudaError_t cudaFuncSetAttribute(const void *F, cudaFuncAttribute Attr,
                                 int Value) {
  printf("cudaFuncSetAttribute(%s, %d)\n",
         Attr == cudaFuncAttributeMaxDynamicSharedMemorySize
             ? "cudaFuncAttributeMaxDynamicSharedMemorySize"
             : "other",
         Value);
  if (Attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    MaxDynamic[F] = Value;
  return cudaSuccess;
}

const char *cudaGetErrorName(cudaError_t E) { return cudaGetErrorString(E); }

// Events: a launch between two records takes FAKE_KERNEL_MS.
static int Events;
cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = reinterpret_cast<cudaEvent_t>(static_cast<size_t>(++Events));
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t, cudaEvent_t) {
  const char *V = getenv("FAKE_KERNEL_MS");
  *Ms = V ? float(atof(V)) : 2.0f;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaGetDevice(int *D) {
  *D = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetPCIBusId(char *Id, int Len, int) {
  snprintf(Id, size_t(Len), "0000:01:00.0");
  return cudaSuccess;
}

static dim3 Grid, Block;
static size_t Shared;
unsigned __cudaPushCallConfiguration(dim3 G, dim3 B, size_t S, void *) {
  Grid = G;
  Block = B;
  Shared = S;
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *G, dim3 *B, size_t *S, void *) {
  *G = Grid;
  *B = Block;
  *S = Shared;
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void *F, dim3 G, dim3 B, void **, size_t S,
                             cudaStream_t) {
  printf("launch grid %ux%ux%u block %ux%ux%u dynamic shared %zu: ", G.x, G.y,
         G.z, B.x, B.y, B.z, S);
  auto It = MaxDynamic.find(F);
  size_t Max = It != MaxDynamic.end() ? size_t(It->second)
                                      : 48 * 1024 - env("FAKE_STATIC_SHARED");
  cudaError_t E = B.x * B.y * B.z == 0 ? cudaErrorInvalidConfiguration
                  : S > Max            ? cudaErrorInvalidValue
                                       : cudaSuccess;
  printf("%s\n", cudaGetErrorString(E));
  return E == cudaSuccess ? E : fail(E);
}
}
