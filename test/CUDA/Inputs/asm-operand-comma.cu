// Two asm input operands without the comma between them, as cuda-samples'
// conjugateGradientMultiDeviceCG writes its st.release: nvcc takes it, clang
// (GCC's asm syntax) wants the comma. Written for the test.
__device__ void storeArrived(unsigned char *arrived, unsigned char val) {
  unsigned int reg = val;
#ifdef WITH_COMMA
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(reg), "l"(arrived) : "memory");
#else
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(reg) "l"(arrived) : "memory");
#endif
}

__global__ void arrive(unsigned char *flags) { storeArrived(flags + blockIdx.x, 1); }
