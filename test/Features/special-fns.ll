; Special functions: LLVM math intrinsics, NVVM approximations, fdiv/frem
; and libdevice calls (vectors per lane). Cheap libdevice helpers (fabs, fmin,
; fma) are ordinary FP ops, not special functions.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; sqrt, rsqrt.approx, fdiv, __nv_expf, <2 x float> sqrt (2), frem, exp2,
; __nv_sinf, ex2.approx, __nv_logf, llvm.pow = 12 MUFU ops. The two .approx
; ones are nothing more; ptxas expands the 10 others (IEEE sqrt and division,
; library calls) with about 8 FP32 instructions each: 80 FP32 ops.
; CHECK-LABEL: kernel special
; Instructions: 15, the vector sqrt issuing once per lane (2), and the 80.
; CHECK-NEXT:  instructions: 95 instr/thread
; CHECK-NEXT:  fp32_ops: 80 ops/thread
; CHECK-NEXT:  fp32_fma: 0 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 0 ops/thread
; CHECK-NEXT:  fp64_fma: 0 ops/thread
; CHECK-NEXT:  int_ops: 0 ops/thread
; CHECK-NEXT:  conversions: 0 ops/thread
; CHECK-NEXT:  special_fns: 12 ops/thread
; CHECK-NEXT:  flops: 80 flop/thread
define void @special(ptr addrspace(1) %out, float %a, float %b, <2 x float> %v) {
  %1 = call float @llvm.sqrt.f32(float %a)
  %2 = call float @llvm.nvvm.rsqrt.approx.f(float %1)
  %3 = fdiv float %2, %b
  %4 = call float @__nv_expf(float %3)
  %5 = call <2 x float> @llvm.sqrt.v2f32(<2 x float> %v)
  %6 = frem float %4, %b
  %7 = call float @llvm.exp2.f32(float %6)
  %8 = call float @__nv_sinf(float %7)
  %9 = call float @llvm.nvvm.ex2.approx.f(float %8)
  %10 = call float @__nv_logf(float %9)
  %11 = call float @llvm.pow.f32(float %10, float %a)
  store float %11, ptr addrspace(1) %out, align 4
  store <2 x float> %5, ptr addrspace(1) %out, align 8
  ret void
}

; __nv_fabsf and __nv_fminf are FP32 ops, __nv_fmaf an FP32 FMA.
; CHECK-LABEL: kernel libdevice_cheap
; CHECK-NEXT:  instructions: 5 instr/thread
; CHECK-NEXT:  fp32_ops: 2 ops/thread
; CHECK-NEXT:  fp32_fma: 1 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 0 ops/thread
; CHECK-NEXT:  fp64_fma: 0 ops/thread
; CHECK-NEXT:  int_ops: 0 ops/thread
; CHECK-NEXT:  conversions: 0 ops/thread
; CHECK-NEXT:  special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 4 flop/thread
define void @libdevice_cheap(ptr addrspace(1) %out, float %a, float %b) {
  %1 = call float @__nv_fabsf(float %a)
  %2 = call float @__nv_fminf(float %1, float %b)
  %3 = call float @__nv_fmaf(float %2, float %a, float %b)
  store float %3, ptr addrspace(1) %out, align 4
  ret void
}

; What the backend emits in its approximate form is the MUFU op alone: an
; fdiv or sqrt allowed to approximate (afn, or arcp for a division: rcp.approx,
; div.approx, sqrt.approx), the NVVM .approx and div.full intrinsics, and every
; fdiv and sqrt of a function compiled with unsafe FP math. An frem is
; expanded even there: 5 + 3 MUFU ops, 8 FP32 ops (the frem's); 12
; instructions (the call, the store and both returns included) and those 8.
; CHECK-LABEL: kernel approximated
; CHECK-NEXT:  instructions: 20 instr/thread
; CHECK-NEXT:  fp32_ops: 8 ops/thread
; CHECK:       special_fns: 8 ops/thread
define void @approximated(ptr addrspace(1) %out, float %a, float %b) {
  %1 = fdiv afn float %a, %b
  %2 = fdiv arcp float %1, %b
  %3 = call afn float @llvm.sqrt.f32(float %2)
  %4 = call float @llvm.nvvm.sqrt.approx.f(float %3)
  %5 = call float @llvm.nvvm.div.full(float %4, float %b)
  %6 = call float @unsafe(float %5, float %b)
  store float %6, ptr addrspace(1) %out, align 4
  ret void
}

define internal float @unsafe(float %a, float %b) #0 {
  %1 = fdiv float %a, %b
  %2 = call float @llvm.sqrt.f32(float %1)
  %3 = frem float %2, %b
  ret float %3
}

attributes #0 = { "unsafe-fp-math"="true" }

declare float @llvm.nvvm.sqrt.approx.f(float)
declare float @llvm.nvvm.div.full(float, float)
declare float @llvm.sqrt.f32(float)
declare <2 x float> @llvm.sqrt.v2f32(<2 x float>)
declare float @llvm.nvvm.rsqrt.approx.f(float)
declare float @llvm.exp2.f32(float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.pow.f32(float, float)
declare float @__nv_expf(float)
declare float @__nv_sinf(float)
declare float @__nv_logf(float)
declare float @__nv_fabsf(float)
declare float @__nv_fminf(float, float)
declare float @__nv_fmaf(float, float, float)

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @special, !"kernel", i32 1}
!1 = !{ptr @libdevice_cheap, !"kernel", i32 1}
!2 = !{ptr @approximated, !"kernel", i32 1}
