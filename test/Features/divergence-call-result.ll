; A value returned by a (not inlined) device function that reads threadIdx.x
; depends on the thread index: a branch on it is divergent and an address
; built from it moves with threadIdx.x. At -O0 clang calls such index
; helpers instead of inlining them.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; __device__ int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
; __global__ void k(float *x, int n) { int i = global_index(); if (i < n) x[i] = 0; }
; CHECK-LABEL: kernel via_helper
; CHECK:       branches: 1 ops/thread
; CHECK-NEXT:  divergent_branches: 1 ops/thread
; CHECK-NEXT:  global_coalesced: 1 accesses/thread
; CHECK-NEXT:  global_strided: 0 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @via_helper(ptr addrspace(1) %x, i32 %n) {
entry:
  %i = call i32 @global_index()
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit
body:
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i64
  store float 0.0, ptr addrspace(1) %p, align 4
  br label %exit
exit:
  ret void
}

define internal i32 @global_index() noinline {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bn = mul i32 %b, %n
  %i = add i32 %bn, %t
  ret i32 %i
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @via_helper, !"kernel", i32 1}
