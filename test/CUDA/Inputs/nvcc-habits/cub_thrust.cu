// CUB and Thrust as the library samples use them: a CUB BlockReduce kernel,
// cub::DeviceReduce with its two-call temporary storage, Thrust sort,
// reduce and transform with an extended (__device__) lambda.
#include "check_cuda.h"
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

template <int Threads>
__global__ void blockSum(const int *In, int *Out) {
  using Reduce = cub::BlockReduce<int, Threads>;
  __shared__ typename Reduce::TempStorage Storage;
  int Sum = Reduce(Storage).Sum(In[blockIdx.x * Threads + threadIdx.x]);
  if (threadIdx.x == 0)
    Out[blockIdx.x] = Sum;
}

int main() {
  const int N = 1 << 16, Threads = 128;
  thrust::device_vector<int> V(N);
  thrust::sequence(V.begin(), V.end());
  int Scale = 3;
  thrust::transform(V.begin(), V.end(), V.begin(),
                    [=] __device__(int X) { return (X * Scale) % 1000; });
  thrust::sort(V.begin(), V.end(), thrust::greater<int>());
  long long Total = thrust::reduce(V.begin(), V.end(), 0LL);

  thrust::device_vector<int> Partial(N / Threads);
  blockSum<Threads><<<N / Threads, Threads>>>(thrust::raw_pointer_cast(V.data()),
                                              thrust::raw_pointer_cast(Partial.data()));
  checkCudaErrors(cudaGetLastError());

  int *Sum;
  checkCudaErrors(cudaMalloc(&Sum, sizeof(int)));
  void *Temp = nullptr;
  size_t TempBytes = 0;
  checkCudaErrors(cub::DeviceReduce::Sum(Temp, TempBytes, Partial.data().get(), Sum, N / Threads));
  checkCudaErrors(cudaMalloc(&Temp, TempBytes));
  checkCudaErrors(cub::DeviceReduce::Sum(Temp, TempBytes, Partial.data().get(), Sum, N / Threads));
  int FromCub = 0;
  checkCudaErrors(cudaMemcpy(&FromCub, Sum, sizeof(int), cudaMemcpyDeviceToHost));
  printf("thrust %lld cub %d\n", Total, FromCub);
  checkCudaErrors(cudaFree(Temp));
  checkCudaErrors(cudaFree(Sum));
  return Total == FromCub ? 0 : 1;
}
