// Surface object reads and writes of each geometry, element size, vector
// width and boundary mode (the features of cuda-samples' simpleSurfaceWrite
// and cudaNvSciBufMultiplanar, written for the test). x is in bytes.
__global__ void copy2D(cudaSurfaceObject_t in, cudaSurfaceObject_t out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  uchar4 pixel = surf2Dread<uchar4>(in, x * 4, y);
  surf2Dwrite(pixel, out, x * 4, y);
  float value;
  surf2Dread(&value, in, x * 4, y, cudaBoundaryModeClamp);
  surf2Dwrite(value * 2.0f, out, x * 4, y, cudaBoundaryModeZero);
}

__global__ void otherGeometries(cudaSurfaceObject_t s, int x, int y, int z) {
  short2 a = surf1Dread<short2>(s, x);
  surf1Dwrite(a, s, x);
  char b = surf3Dread<char>(s, x, y, z);
  surf3Dwrite(b, s, x, y, z);
  int4 c = surf1DLayeredread<int4>(s, x, z);
  surf1DLayeredwrite(c, s, x, z);
  longlong2 d = surf2DLayeredread<longlong2>(s, x, y, z);
  surf2DLayeredwrite(d, s, x, y, z);
  float4 e = surfCubemapread<float4>(s, x, y, z);
  surfCubemapwrite(e, s, x, y, z);
  unsigned long long f = surfCubemapLayeredread<unsigned long long>(s, x, y, z);
  surfCubemapLayeredwrite(f, s, x, y, z);
}

// The boundary mode known only at run time: one instruction per mode.
__global__ void modeAtRunTime(cudaSurfaceObject_t s, cudaSurfaceBoundaryMode mode) {
  surf2Dwrite(1u, s, threadIdx.x * 4, 0, mode);
}

// Types CUDA's surface functions do not take have no overload (as with nvcc).
template <class T, class = void> struct surfaceElement { static const bool value = false; };
template <class T>
struct surfaceElement<T, decltype(surf1Dwrite(T(), 0ull, 0))> { static const bool value = true; };
static_assert(surfaceElement<float>::value, "float is a surface element");
static_assert(!surfaceElement<double>::value, "double is not");
