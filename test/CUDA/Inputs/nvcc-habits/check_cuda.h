// Error checking as sample code does it (a helper_cuda.h-like header):
// a macro that names the failing call, and device properties read on the
// host with min/max over ints and floats.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T>
void check(T Result, const char *Call, const char *File, int Line) {
  if (Result) {
    fprintf(stderr, "CUDA error at %s:%d code=%d (%s) \"%s\"\n", File, Line,
            static_cast<unsigned>(Result), cudaGetErrorName(Result), Call);
    exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(Val) check((Val), #Val, __FILE__, __LINE__)

// Blocks for n items: nvcc's host min over int and unsigned, as samples
// write it.
inline int blocksFor(int N, int Threads, int MaxBlocks) {
  return min((N + Threads - 1) / Threads, MaxBlocks);
}
