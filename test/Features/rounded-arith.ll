; Explicitly rounded arithmetic is ordinary FP arithmetic: __fadd_rn and
; __fmul_rn become llvm.nvvm.add.rn.f / llvm.nvvm.mul.rn.f (clang -O0 and
; -O2 alike), __dadd_rn llvm.nvvm.add.rn.d; __fmaf_rn is llvm.nvvm.fma.rn.f.
; Declared libdevice __nv_fadd_rn / __nv_fmaf_rn classify the same way.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel nvvm_rounded
; CHECK:       fp32_ops: 2 ops/thread
; CHECK-NEXT:  fp32_fma: 1 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 1 ops/thread
; CHECK:       special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 5 flop/thread
define void @nvvm_rounded(ptr addrspace(1) %out, float %a, float %b, double %c) {
  %s = call float @llvm.nvvm.add.rn.f(float %a, float %b)
  %p = call float @llvm.nvvm.mul.rn.f(float %s, float %b)
  %f = call float @llvm.nvvm.fma.rn.f(float %p, float %a, float %b)
  %d = call double @llvm.nvvm.add.rn.d(double %c, double %c)
  store float %f, ptr addrspace(1) %out, align 4
  store double %d, ptr addrspace(1) %out, align 8
  ret void
}

; CHECK-LABEL: kernel libdevice_rounded
; CHECK:       fp32_ops: 1 ops/thread
; CHECK-NEXT:  fp32_fma: 1 ops/thread
; CHECK:       special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 3 flop/thread
define void @libdevice_rounded(ptr addrspace(1) %out, float %a, float %b) {
  %s = call float @__nv_fadd_rn(float %a, float %b)
  %f = call float @__nv_fmaf_rn(float %s, float %a, float %b)
  store float %f, ptr addrspace(1) %out, align 4
  ret void
}

declare float @llvm.nvvm.add.rn.f(float, float)
declare float @llvm.nvvm.mul.rn.f(float, float)
declare float @llvm.nvvm.fma.rn.f(float, float, float)
declare double @llvm.nvvm.add.rn.d(double, double)
declare float @__nv_fadd_rn(float, float)
declare float @__nv_fmaf_rn(float, float, float)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @nvvm_rounded, !"kernel", i32 1}
!1 = !{ptr @libdevice_rounded, !"kernel", i32 1}
