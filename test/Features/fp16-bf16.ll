; FP16 and BF16 arithmetic share fp16_ops/fp16_fma; <2 x half> counts once
; per lane. fpext to float is a conversion.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; half: 2 ops, bfloat: 2 ops, <2 x half>: 2 x 2 ops, half fcmp: 1 -> 9.
; FMA: half 1, <2 x half> 2, bfloat 1 -> 4.
; CHECK-LABEL: kernel fp16_mix
; CHECK-NEXT:  instructions: 19 instr/thread
; CHECK-NEXT:  fp32_ops: 0 ops/thread
; CHECK-NEXT:  fp32_fma: 0 ops/thread
; CHECK-NEXT:  fp16_ops: 9 ops/thread
; CHECK-NEXT:  fp16_fma: 4 ops/thread
; CHECK-NEXT:  fp64_ops: 0 ops/thread
; CHECK-NEXT:  fp64_fma: 0 ops/thread
; CHECK-NEXT:  int_ops: 1 ops/thread
; CHECK-NEXT:  conversions: 2 ops/thread
; CHECK-NEXT:  special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 17 flop/thread
; CHECK-NEXT:  global_loads: 0 accesses/thread
; CHECK-NEXT:  global_load_bytes: 0 bytes/thread
; CHECK-NEXT:  global_stores: 3 accesses/thread
; CHECK-NEXT:  global_store_bytes: 12 bytes/thread
; CHECK:       vector_accesses: 1 accesses/thread
; CHECK-NEXT:  max_access_bytes: 4 bytes
define void @fp16_mix(ptr addrspace(1) %out, half %a, half %b, bfloat %c, bfloat %d, <2 x half> %v, <2 x half> %w) {
  %h1 = fadd half %a, %b
  %h2 = fmul half %h1, %a
  %b1 = fadd bfloat %c, %d
  %b2 = fmul bfloat %b1, %d
  %v1 = fadd <2 x half> %v, %w
  %v2 = fmul <2 x half> %v1, %w
  %hf = call half @llvm.fma.f16(half %h2, half %a, half %b)
  %vf = call <2 x half> @llvm.fma.v2f16(<2 x half> %v2, <2 x half> %v, <2 x half> %w)
  %bf = call bfloat @llvm.fma.bf16(bfloat %b2, bfloat %c, bfloat %d)
  %lt = fcmp olt half %hf, %a
  %e1 = fpext half %hf to float
  %e2 = fpext bfloat %bf to float
  %sel = select i1 %lt, float %e1, float %e2
  store float %sel, ptr addrspace(1) %out, align 4
  %o2 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 4
  store <2 x half> %vf, ptr addrspace(1) %o2, align 4
  %o3 = getelementptr inbounds i8, ptr addrspace(1) %out, i64 8
  store float %e2, ptr addrspace(1) %o3, align 4
  ret void
}

declare half @llvm.fma.f16(half, half, half)
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
declare bfloat @llvm.fma.bf16(bfloat, bfloat, bfloat)

!nvvm.annotations = !{!0}
!0 = !{ptr @fp16_mix, !"kernel", i32 1}
