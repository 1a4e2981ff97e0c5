; a*b + c*d with `contract` everywhere: one fadd can absorb only one of the
; two multiplies, so the backend emits one FMA and one FMUL (PTX:
; mul.f32 + fma.rn.f32). Counting both fmuls as fused loses a multiply.
; This is what clang -O2 emits for a float2 dot product.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel dot2
; CHECK:       fp32_ops: 1 ops/thread
; CHECK-NEXT:  fp32_fma: 1 ops/thread
; CHECK:       flops: 3 flop/thread
define void @dot2(ptr addrspace(1) %out, float %ax, float %ay, float %bx, float %by) {
  %xx = fmul contract float %ax, %bx
  %yy = fmul contract float %ay, %by
  %dot = fadd contract float %xx, %yy
  store float %dot, ptr addrspace(1) %out, align 4
  ret void
}

; a*b - c*d (complex multiply, real part): likewise one FMA, one FMUL.
; CHECK-LABEL: kernel cmul_re
; CHECK:       fp32_ops: 1 ops/thread
; CHECK-NEXT:  fp32_fma: 1 ops/thread
; CHECK:       flops: 3 flop/thread
define void @cmul_re(ptr addrspace(1) %out, float %ar, float %ai, float %br, float %bi) {
  %rr = fmul contract float %ar, %br
  %ii = fmul contract float %ai, %bi
  %re = fsub contract float %rr, %ii
  store float %re, ptr addrspace(1) %out, align 4
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @dot2, !"kernel", i32 1}
!1 = !{ptr @cmul_re, !"kernel", i32 1}
