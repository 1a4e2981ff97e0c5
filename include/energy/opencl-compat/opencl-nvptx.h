// OpenCL C work-item functions as NVPTX special registers, for
//   clang -x cl -target nvptx64-nvidia-cuda -Xclang -finclude-default-header
//         -include opencl-nvptx.h ...
// clang declares these functions but defines them only in libclc, which is linked
// after optimization, if at all. As calls the plugin would not see thread ids; as
// macros a constant dimension folds in the front end to the register read a CUDA
// kernel has. Included after opencl-c.h, so its declarations are unaffected.
#ifndef ENERGY_OPENCL_NVPTX_H
#define ENERGY_OPENCL_NVPTX_H

#define ENERGY_NVPTX_DIM_(d, reg)                                              \
  ((d) == 0   ? __nvvm_read_ptx_sreg_##reg##_x()                               \
   : (d) == 1 ? __nvvm_read_ptx_sreg_##reg##_y()                               \
              : __nvvm_read_ptx_sreg_##reg##_z())

#define get_local_id(d) ((size_t)ENERGY_NVPTX_DIM_(d, tid))
#define get_local_size(d) ((size_t)ENERGY_NVPTX_DIM_(d, ntid))
#define get_group_id(d) ((size_t)ENERGY_NVPTX_DIM_(d, ctaid))
#define get_num_groups(d) ((size_t)ENERGY_NVPTX_DIM_(d, nctaid))
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))
#define get_global_size(d) (get_num_groups(d) * get_local_size(d))
// Every fence flag is a block-wide barrier on NVPTX.
#define barrier(flags) __nvvm_bar_sync(0)
#define mad(a, b, c) ((a) * (b) + (c))

#endif
