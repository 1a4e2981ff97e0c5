// Device classes with a pure virtual and a deleted virtual function, made in
// one kernel and used in others, as cuda-samples' newdelete keeps its
// containers. Shape's constructor is kept out of line so that its vtable (the
// pure virtual slot) stays at -O2. <cxxabi.h> declares the host
// __cxa_pure_virtual beside our device one; <new> gives clang's device
// operator new and delete. Written for the test.
#include <cxxabi.h>
#include <new>

struct Shape {
  __device__ __noinline__ Shape() {}
  __device__ virtual float area() const = 0;
  __device__ virtual float perimeter() const = delete;
  __device__ virtual ~Shape() {}
};

struct Square : Shape {
  float side;
  __device__ explicit Square(float s) : side(s) {}
  __device__ float area() const override { return side * side; }
};

__global__ void make(Shape **slots, const float *sides) {
  slots[threadIdx.x] = new Square(sides[threadIdx.x]);
}

__global__ void areas(Shape *const *slots, float *out) {
  out[threadIdx.x] = slots[threadIdx.x]->area();
}

__global__ void destroy(Shape **slots) { delete slots[threadIdx.x]; }
