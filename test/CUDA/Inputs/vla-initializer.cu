// A variable-length array with an initializer in host code, as cuda-samples'
// cudaNvSciBufMultiplanar declares its surface objects: GCC (nvcc's host
// compiler) takes it as an extension, clang rejects it. Written for the test.
#include <cstring>

__global__ void clear(unsigned long long *planes) { planes[threadIdx.x] = 0; }

void clearPlanes(int numPlanes) {
#ifdef FIXED
  unsigned long long planes[16];
  memset(planes, 0, sizeof(planes));
#else
  unsigned long long planes[numPlanes] = {0};
#endif
  (void)planes;
}
