; Only kernels are reported: device functions, declarations and functions
; with kernel=0 print nothing.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | count 0

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define float @device_fn(float %x) {
  %y = fmul float %x, %x
  ret float %y
}

define void @not_a_kernel(ptr addrspace(1) %out) {
  store float 1.0, ptr addrspace(1) %out, align 4
  ret void
}

declare ptx_kernel void @declared_kernel()

!nvvm.annotations = !{!0}
!0 = !{ptr @not_a_kernel, !"kernel", i32 0}
