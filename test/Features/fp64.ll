; FP64 arithmetic and FMA; fdiv is a special function whatever its type, its
; expansion FP64 work.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; ops: fadd, fmul, fsub, fcmp, fneg = 5, and the 8 FP64 instructions ptxas
; expands the IEEE fdiv with; FMA: fma, fmuladd, fmul+fadd contract = 3.
; flops = 13 + 2*3 = 19; 8 bytes stored: intensity 19/8.
; CHECK-LABEL: kernel fp64_mix
; CHECK-NEXT:  instructions: 21 instr/thread
; CHECK-NEXT:  fp32_ops: 0 ops/thread
; CHECK-NEXT:  fp32_fma: 0 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 13 ops/thread
; CHECK-NEXT:  fp64_fma: 3 ops/thread
; CHECK-NEXT:  int_ops: 1 ops/thread
; CHECK-NEXT:  conversions: 0 ops/thread
; CHECK-NEXT:  special_fns: 1 ops/thread
; CHECK-NEXT:  flops: 19 flop/thread
; CHECK:       global_store_bytes: 8 bytes/thread
; CHECK:       max_access_bytes: 8 bytes
; CHECK:       arithmetic_intensity: 2.375 flop/byte
define void @fp64_mix(ptr addrspace(1) %out, double %a, double %b) {
  %1 = fadd double %a, %b
  %2 = fmul double %1, %a
  %3 = fsub double %2, %b
  %4 = fcmp ogt double %3, %a
  %5 = fneg double %3
  %6 = call double @llvm.fma.f64(double %5, double %a, double %b)
  %7 = call double @llvm.fmuladd.f64(double %6, double %a, double %b)
  %m = fmul contract double %7, %a
  %s = fadd contract double %m, %b
  %q = fdiv double %s, %a
  %sel = select i1 %4, double %q, double %a
  store double %sel, ptr addrspace(1) %out, align 8
  ret void
}

declare double @llvm.fma.f64(double, double, double)
declare double @llvm.fmuladd.f64(double, double, double)

!nvvm.annotations = !{!0}
!0 = !{ptr @fp64_mix, !"kernel", i32 1}
