// Surface object functions (surf1Dread ... surfCubemapLayeredwrite) for
// clang-19's CUDA, as nvcc provides them.
//
// CUDA 13's surface_indirect_functions.h writes them as calls of nvcc's
// built-in __nv_tex_surf_handler("__isurf2Dread", ...); clang-19's
// __clang_cuda_texture_intrinsics.h implements that handler for textures only,
// and clang's runtime wrapper never includes the surface header, so surface
// code fails with "use of undeclared identifier 'surf2Dwrite'". This header
// stands in for CUDA's (same name, same include guard, same overloads: the
// element types of CUDA's __nv_isurf_trait) and emits the PTX nvcc emits: the
// unformatted suld.b / sust.b for the geometry (1d, 2d, 3d, a1d, a2d: layered
// and cubemap surfaces are arrays), the vector width and element size of the
// type, and the boundary mode (.trap, .clamp, .zero). As with nvcc, x is in
// bytes. The compat texture_fetch_functions.h includes it, which puts it in
// clang's runtime wrapper with the texture functions.
#pragma once
#ifndef __SURFACE_INDIRECT_FUNCTIONS_H__
#define __SURFACE_INDIRECT_FUNCTIONS_H__

#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__)

namespace __energy_surf {

// The PTX geometry of an access, and its coordinates {...} from x, y, z and
// the layer (or cube face) l; 3d and a2d take four, the last one unused.
enum form { f1d, f2d, f3d, fa1d, fa2d };

// A surface element type: its element size in bytes and its vector width.
template <class T> struct shape {};
#define __ENERGY_SURF_SHAPE(T, BYTES, COUNT)                                   \
  template <> struct shape<T> {                                                \
    typedef void type;                                                         \
    enum { bytes = BYTES, count = COUNT };                                     \
  };
__ENERGY_SURF_SHAPE(char, 1, 1)
__ENERGY_SURF_SHAPE(signed char, 1, 1)
__ENERGY_SURF_SHAPE(unsigned char, 1, 1)
__ENERGY_SURF_SHAPE(char1, 1, 1)
__ENERGY_SURF_SHAPE(uchar1, 1, 1)
__ENERGY_SURF_SHAPE(short, 2, 1)
__ENERGY_SURF_SHAPE(unsigned short, 2, 1)
__ENERGY_SURF_SHAPE(short1, 2, 1)
__ENERGY_SURF_SHAPE(ushort1, 2, 1)
__ENERGY_SURF_SHAPE(int, 4, 1)
__ENERGY_SURF_SHAPE(unsigned int, 4, 1)
__ENERGY_SURF_SHAPE(int1, 4, 1)
__ENERGY_SURF_SHAPE(uint1, 4, 1)
__ENERGY_SURF_SHAPE(float, 4, 1)
__ENERGY_SURF_SHAPE(float1, 4, 1)
__ENERGY_SURF_SHAPE(long long, 8, 1)
__ENERGY_SURF_SHAPE(unsigned long long, 8, 1)
__ENERGY_SURF_SHAPE(longlong1, 8, 1)
__ENERGY_SURF_SHAPE(ulonglong1, 8, 1)
__ENERGY_SURF_SHAPE(char2, 1, 2)
__ENERGY_SURF_SHAPE(uchar2, 1, 2)
__ENERGY_SURF_SHAPE(short2, 2, 2)
__ENERGY_SURF_SHAPE(ushort2, 2, 2)
__ENERGY_SURF_SHAPE(int2, 4, 2)
__ENERGY_SURF_SHAPE(uint2, 4, 2)
__ENERGY_SURF_SHAPE(float2, 4, 2)
__ENERGY_SURF_SHAPE(longlong2, 8, 2)
__ENERGY_SURF_SHAPE(ulonglong2, 8, 2)
__ENERGY_SURF_SHAPE(char4, 1, 4)
__ENERGY_SURF_SHAPE(uchar4, 1, 4)
__ENERGY_SURF_SHAPE(short4, 2, 4)
__ENERGY_SURF_SHAPE(ushort4, 2, 4)
__ENERGY_SURF_SHAPE(int4, 4, 4)
__ENERGY_SURF_SHAPE(uint4, 4, 4)
__ENERGY_SURF_SHAPE(float4, 4, 4)
#undef __ENERGY_SURF_SHAPE

// The unsigned integer of an element's size, which the data moves as.
template <int Bytes> struct bits;
template <> struct bits<1> { typedef unsigned char type; };
template <> struct bits<2> { typedef unsigned short type; };
template <> struct bits<4> { typedef unsigned int type; };
template <> struct bits<8> { typedef unsigned long long type; };

// The asm pieces: the data registers {...} and their operands per width.
#define __ENERGY_SURF_DATA1 "{%[d0]}"
#define __ENERGY_SURF_DATA2 "{%[d0], %[d1]}"
#define __ENERGY_SURF_DATA4 "{%[d0], %[d1], %[d2], %[d3]}"
#define __ENERGY_SURF_OUT1(K) [d0] "=" K(__r[0])
#define __ENERGY_SURF_OUT2(K) __ENERGY_SURF_OUT1(K), [d1] "=" K(__r[1])
#define __ENERGY_SURF_OUT4(K)                                                  \
  __ENERGY_SURF_OUT2(K), [d2] "=" K(__r[2]), [d3] "=" K(__r[3])
#define __ENERGY_SURF_IN1(K) [d0] K(__r[0])
#define __ENERGY_SURF_IN2(K) __ENERGY_SURF_IN1(K), [d1] K(__r[1])
#define __ENERGY_SURF_IN4(K) __ENERGY_SURF_IN2(K), [d2] K(__r[2]), [d3] K(__r[3])
#define __ENERGY_SURF_COORDS                                                   \
  [s] "l"(__s), [x] "r"(__x), [y] "r"(__y), [z] "r"(__z), [l] "r"(__l)

#define __ENERGY_SULD(GEOM, COORDS, MODE, VEC, BITS, K, N)                     \
  asm volatile("suld.b." GEOM VEC ".b" BITS "." MODE " " __ENERGY_SURF_DATA##N \
               ", [%[s], " COORDS "];"                                         \
               : __ENERGY_SURF_OUT##N(K)                                       \
               : __ENERGY_SURF_COORDS)
#define __ENERGY_SUST(GEOM, COORDS, MODE, VEC, BITS, K, N)                     \
  asm volatile("sust.b." GEOM VEC ".b" BITS "." MODE " [%[s], " COORDS "], "  \
               __ENERGY_SURF_DATA##N ";"                                       \
               :                                                               \
               : __ENERGY_SURF_COORDS, __ENERGY_SURF_IN##N(K)                  \
               : "memory")

// The boundary mode is a run-time argument but a suffix of the instruction:
// one asm per mode (a constant mode folds to one).
#define __ENERGY_SURF_BY_MODE(OP, GEOM, COORDS, ...)                           \
  switch (__mode) {                                                            \
  case cudaBoundaryModeZero:                                                   \
    OP(GEOM, COORDS, "zero", __VA_ARGS__);                                     \
    break;                                                                     \
  case cudaBoundaryModeClamp:                                                  \
    OP(GEOM, COORDS, "clamp", __VA_ARGS__);                                    \
    break;                                                                     \
  default:                                                                     \
    OP(GEOM, COORDS, "trap", __VA_ARGS__);                                     \
    break;                                                                     \
  }
#define __ENERGY_SURF_BY_FORM(OP, ...)                                         \
  switch (__form) {                                                            \
  case f1d:                                                                    \
    __ENERGY_SURF_BY_MODE(OP, "1d", "{%[x]}", __VA_ARGS__)                     \
    break;                                                                     \
  case f2d:                                                                    \
    __ENERGY_SURF_BY_MODE(OP, "2d", "{%[x], %[y]}", __VA_ARGS__)               \
    break;                                                                     \
  case f3d:                                                                    \
    __ENERGY_SURF_BY_MODE(OP, "3d", "{%[x], %[y], %[z], %[z]}", __VA_ARGS__)   \
    break;                                                                     \
  case fa1d:                                                                   \
    __ENERGY_SURF_BY_MODE(OP, "a1d", "{%[l], %[x]}", __VA_ARGS__)              \
    break;                                                                     \
  case fa2d:                                                                   \
    __ENERGY_SURF_BY_MODE(OP, "a2d", "{%[l], %[x], %[y], %[y]}", __VA_ARGS__)  \
    break;                                                                     \
  }

// suld/sust of COUNT elements of BYTES each, held in registers of type R
// (PTX class K: b8 and b16 both travel in 16-bit registers, as nvcc's do).
template <int Bytes, int Count> struct access;
#define __ENERGY_SURF_ACCESS(BYTES, COUNT, VEC, BITS, K, R)                    \
  template <> struct access<BYTES, COUNT> {                                    \
    typedef R reg;                                                             \
    static __device__ __forceinline__ void                                     \
    read(reg (&__r)[COUNT], form __form, cudaSurfaceObject_t __s, int __x,     \
         int __y, int __z, int __l, cudaSurfaceBoundaryMode __mode) {          \
      __ENERGY_SURF_BY_FORM(__ENERGY_SULD, VEC, BITS, K, COUNT)                \
    }                                                                          \
    static __device__ __forceinline__ void                                     \
    write(const reg (&__r)[COUNT], form __form, cudaSurfaceObject_t __s,       \
          int __x, int __y, int __z, int __l, cudaSurfaceBoundaryMode __mode) { \
      __ENERGY_SURF_BY_FORM(__ENERGY_SUST, VEC, BITS, K, COUNT)                \
    }                                                                          \
  };
__ENERGY_SURF_ACCESS(1, 1, "", "8", "h", unsigned short)
__ENERGY_SURF_ACCESS(1, 2, ".v2", "8", "h", unsigned short)
__ENERGY_SURF_ACCESS(1, 4, ".v4", "8", "h", unsigned short)
__ENERGY_SURF_ACCESS(2, 1, "", "16", "h", unsigned short)
__ENERGY_SURF_ACCESS(2, 2, ".v2", "16", "h", unsigned short)
__ENERGY_SURF_ACCESS(2, 4, ".v4", "16", "h", unsigned short)
__ENERGY_SURF_ACCESS(4, 1, "", "32", "r", unsigned int)
__ENERGY_SURF_ACCESS(4, 2, ".v2", "32", "r", unsigned int)
__ENERGY_SURF_ACCESS(4, 4, ".v4", "32", "r", unsigned int)
__ENERGY_SURF_ACCESS(8, 1, "", "64", "l", unsigned long long)
__ENERGY_SURF_ACCESS(8, 2, ".v2", "64", "l", unsigned long long)
#undef __ENERGY_SURF_ACCESS
#undef __ENERGY_SURF_BY_FORM
#undef __ENERGY_SURF_BY_MODE
#undef __ENERGY_SUST
#undef __ENERGY_SULD
#undef __ENERGY_SURF_COORDS
#undef __ENERGY_SURF_IN4
#undef __ENERGY_SURF_IN2
#undef __ENERGY_SURF_IN1
#undef __ENERGY_SURF_OUT4
#undef __ENERGY_SURF_OUT2
#undef __ENERGY_SURF_OUT1
#undef __ENERGY_SURF_DATA4
#undef __ENERGY_SURF_DATA2
#undef __ENERGY_SURF_DATA1

template <class T>
static __device__ __forceinline__ void
read(T *ptr, form f, cudaSurfaceObject_t s, int x, int y, int z, int l,
     cudaSurfaceBoundaryMode mode) {
  typedef access<shape<T>::bytes, shape<T>::count> a;
  typename a::reg r[shape<T>::count];
  a::read(r, f, s, x, y, z, l, mode);
  typename bits<shape<T>::bytes>::type e[shape<T>::count];
  for (int i = 0; i < shape<T>::count; ++i)
    e[i] = r[i];
  __builtin_memcpy(ptr, e, sizeof(T));
}

template <class T>
static __device__ __forceinline__ void
write(const T &val, form f, cudaSurfaceObject_t s, int x, int y, int z, int l,
      cudaSurfaceBoundaryMode mode) {
  typedef access<shape<T>::bytes, shape<T>::count> a;
  typename bits<shape<T>::bytes>::type e[shape<T>::count];
  __builtin_memcpy(e, &val, sizeof(T));
  typename a::reg r[shape<T>::count];
  for (int i = 0; i < shape<T>::count; ++i)
    r[i] = e[i];
  a::write(r, f, s, x, y, z, l, mode);
}

} // namespace __energy_surf

// CUDA's overloads, per geometry: NAME##read into a pointer, NAME##read<T>
// returning the value, NAME##write; PARAMS are the coordinates after the
// surface, ARGS their names, X Y Z L where they go in the PTX coordinates.
#define __ENERGY_SURF_STRIP(...) __VA_ARGS__
#define __ENERGY_SURF_API(NAME, FORM, PARAMS, ARGS, X, Y, Z, L)                \
  template <typename T>                                                        \
  static __device__ typename __energy_surf::shape<T>::type NAME##read(         \
      T *ptr, cudaSurfaceObject_t obj, __ENERGY_SURF_STRIP PARAMS,             \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {                   \
    __energy_surf::read(ptr, __energy_surf::FORM, obj, X, Y, Z, L, mode);      \
  }                                                                            \
  template <class T>                                                           \
  static __device__ T NAME##read(                                              \
      cudaSurfaceObject_t obj, __ENERGY_SURF_STRIP PARAMS,                     \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {                   \
    T ret;                                                                     \
    NAME##read(&ret, obj, __ENERGY_SURF_STRIP ARGS, mode);                     \
    return ret;                                                                \
  }                                                                            \
  template <typename T>                                                        \
  static __device__ typename __energy_surf::shape<T>::type NAME##write(        \
      T val, cudaSurfaceObject_t obj, __ENERGY_SURF_STRIP PARAMS,              \
      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {                   \
    __energy_surf::write(val, __energy_surf::FORM, obj, X, Y, Z, L, mode);     \
  }

__ENERGY_SURF_API(surf1D, f1d, (int x), (x), x, 0, 0, 0)
__ENERGY_SURF_API(surf2D, f2d, (int x, int y), (x, y), x, y, 0, 0)
__ENERGY_SURF_API(surf3D, f3d, (int x, int y, int z), (x, y, z), x, y, z, 0)
__ENERGY_SURF_API(surf1DLayered, fa1d, (int x, int layer), (x, layer), x, 0, 0,
                  layer)
__ENERGY_SURF_API(surf2DLayered, fa2d, (int x, int y, int layer), (x, y, layer),
                  x, y, 0, layer)
__ENERGY_SURF_API(surfCubemap, fa2d, (int x, int y, int face), (x, y, face), x,
                  y, 0, face)
__ENERGY_SURF_API(surfCubemapLayered, fa2d, (int x, int y, int layerface),
                  (x, y, layerface), x, y, 0, layerface)
#undef __ENERGY_SURF_API
#undef __ENERGY_SURF_STRIP

#endif // __cplusplus && __CUDA__ && __clang__
#endif // __SURFACE_INDIRECT_FUNCTIONS_H__
