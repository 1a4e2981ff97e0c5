; FP32 arithmetic versus FP32 FMA: llvm.fma, llvm.fmuladd and an fmul
; `contract` whose only user is an fadd/fsub `contract` count as FMAs; an
; fmul without `contract`, with two users, or feeding a non-contract fadd
; stays a plain multiply.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel fp32_plain
; CHECK-NEXT:  instructions: 9 instr/thread
; CHECK-NEXT:  fp32_ops: 6 ops/thread
; CHECK-NEXT:  fp32_fma: 0 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 0 ops/thread
; CHECK-NEXT:  fp64_fma: 0 ops/thread
; CHECK-NEXT:  int_ops: 1 ops/thread
; CHECK-NEXT:  conversions: 0 ops/thread
; CHECK-NEXT:  special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 6 flop/thread
; CHECK:       arithmetic_intensity: 1.5 flop/byte
define void @fp32_plain(ptr addrspace(1) %out, float %a, float %b, float %c) {
  %add = fadd float %a, %b
  %sub = fsub float %add, %c
  %mul = fmul float %sub, %a
  %neg = fneg float %mul
  %cmp = fcmp olt float %neg, %b
  %min = call float @llvm.minnum.f32(float %neg, float %c)
  %sel = select i1 %cmp, float %min, float %a
  store float %sel, ptr addrspace(1) %out, align 4
  ret void
}

; fma, fmuladd, fmul+fadd contract, fmul+fsub contract, <2 x float> fma (2
; lanes): 6 FMAs. Plain: %m3 (no contract) + %e, %m4 (two users) + %g + %h,
; %m5 + %k (non-contract user): 7.
; CHECK-LABEL: kernel fp32_fma
; Instructions: 18, the vector fma issuing once per lane (2).
; CHECK-NEXT:  instructions: 18 instr/thread
; CHECK-NEXT:  fp32_ops: 7 ops/thread
; CHECK-NEXT:  fp32_fma: 6 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 0 ops/thread
; CHECK-NEXT:  fp64_fma: 0 ops/thread
; CHECK-NEXT:  int_ops: 0 ops/thread
; CHECK-NEXT:  conversions: 0 ops/thread
; CHECK-NEXT:  special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 19 flop/thread
define void @fp32_fma(ptr addrspace(1) %out, ptr addrspace(1) %vout, float %a, float %b, float %c, <2 x float> %v) {
  %f1 = call float @llvm.fma.f32(float %a, float %b, float %c)
  %f2 = call float @llvm.fmuladd.f32(float %f1, float %b, float %c)
  %m = fmul contract float %f2, %a
  %s = fadd contract float %m, %c
  %m2 = fmul contract float %s, %b
  %d = fsub contract float %c, %m2
  %m3 = fmul float %d, %a
  %e = fadd contract float %m3, %b
  %m4 = fmul contract float %e, %e
  %g = fadd contract float %m4, %a
  %h = fadd contract float %g, %m4
  %m5 = fmul contract float %h, %b
  %k = fadd float %m5, %a
  %vf = call <2 x float> @llvm.fma.v2f32(<2 x float> %v, <2 x float> %v, <2 x float> %v)
  store float %k, ptr addrspace(1) %out, align 4
  store <2 x float> %vf, ptr addrspace(1) %vout, align 8
  ret void
}

declare float @llvm.minnum.f32(float, float)
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.fmuladd.f32(float, float, float)
declare <2 x float> @llvm.fma.v2f32(<2 x float>, <2 x float>, <2 x float>)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @fp32_plain, !"kernel", i32 1}
!1 = !{ptr @fp32_fma, !"kernel", i32 1}
