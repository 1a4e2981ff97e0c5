; Global access classes by how the address moves per threadIdx.x:
; coalesced (by the access size), strided (another constant or a symbolic
; stride), irregular (non-affine or through loaded data), uniform (no
; dependence on threadIdx.x).
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; x[tid.x] and x[blockIdx.x * blockDim.x + tid.x]
; CHECK-LABEL: kernel coalesced
; CHECK:       global_coalesced: 2 accesses/thread
; CHECK-NEXT:  global_strided: 0 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @coalesced(ptr addrspace(1) %x) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %t64
  %v = load float, ptr addrspace(1) %p, align 4
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bn = mul i32 %b, %n
  %g = add i32 %bn, %t
  %g64 = sext i32 %g to i64
  %q = getelementptr inbounds float, ptr addrspace(1) %x, i64 %g64
  store float %v, ptr addrspace(1) %q, align 4
  ret void
}

; x[2 * tid.x]: 8-byte stride for 4-byte accesses.
; CHECK-LABEL: kernel strided_const
; CHECK:       global_coalesced: 0 accesses/thread
; CHECK-NEXT:  global_strided: 1 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @strided_const(ptr addrspace(1) %x) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t2 = shl nuw nsw i32 %t, 1
  %i = zext i32 %t2 to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  ret void
}

; x[tid.x * n]: a symbolic stride.
; CHECK-LABEL: kernel strided_symbolic
; CHECK:       global_coalesced: 0 accesses/thread
; CHECK-NEXT:  global_strided: 1 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @strided_symbolic(ptr addrspace(1) %x, i32 %n) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tn = mul nsw i32 %t, %n
  %i = sext i32 %tn to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %p, align 4
  ret void
}

; x[idx[tid.x]]: idx[tid.x] is coalesced, x[...] irregular; x[tid.x * tid.x]
; is non-affine.
; CHECK-LABEL: kernel irregular
; CHECK:       global_coalesced: 1 accesses/thread
; CHECK-NEXT:  global_strided: 0 accesses/thread
; CHECK-NEXT:  global_irregular: 2 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @irregular(ptr addrspace(1) %x, ptr addrspace(1) %idx) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %t64
  %j = load i32, ptr addrspace(1) %ip, align 4
  %j64 = sext i32 %j to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  %v = load float, ptr addrspace(1) %p, align 4
  %sq = mul nuw nsw i64 %t64, %t64
  %q = getelementptr inbounds float, ptr addrspace(1) %x, i64 %sq
  store float %v, ptr addrspace(1) %q, align 4
  ret void
}

; x[blockIdx.x], x[n] and x[tid.y] do not move with threadIdx.x.
; CHECK-LABEL: kernel uniform
; CHECK:       global_coalesced: 0 accesses/thread
; CHECK-NEXT:  global_strided: 0 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 3 accesses/thread
define void @uniform(ptr addrspace(1) %x, i64 %n) {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b64 = zext i32 %b to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %b64
  %v = load float, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(1) %x, i64 %n
  store float %v, ptr addrspace(1) %q, align 4
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ty64 = zext i32 %ty to i64
  %r = getelementptr inbounds float, ptr addrspace(1) %x, i64 %ty64
  store float %v, ptr addrspace(1) %r, align 4
  ret void
}

; float4 x[tid.x]: 16-byte stride with 16-byte accesses is coalesced; a
; float4 at x[2 * tid.x] is strided.
; CHECK-LABEL: kernel float4
; CHECK:       global_coalesced: 1 accesses/thread
; CHECK-NEXT:  global_strided: 1 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @float4(ptr addrspace(1) %x) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr inbounds <4 x float>, ptr addrspace(1) %x, i64 %t64
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %t2 = shl nuw nsw i64 %t64, 1
  %q = getelementptr inbounds <4 x float>, ptr addrspace(1) %x, i64 %t2
  store <4 x float> %v, ptr addrspace(1) %q, align 16
  ret void
}

; x[i * n + tid.x] in a loop of 4: the loop step does not change the class.
; CHECK-LABEL: kernel loop_rows
; CHECK:       global_coalesced: 4 accesses/thread
; CHECK-NEXT:  global_strided: 0 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @loop_rows(ptr addrspace(1) %x, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %row = mul nsw i32 %i, %n
  %j = add nsw i32 %row, %t
  %j64 = sext i32 %j to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j64
  store float 0.0, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{ptr @coalesced, !"kernel", i32 1}
!1 = !{ptr @strided_const, !"kernel", i32 1}
!2 = !{ptr @strided_symbolic, !"kernel", i32 1}
!3 = !{ptr @irregular, !"kernel", i32 1}
!4 = !{ptr @uniform, !"kernel", i32 1}
!5 = !{ptr @float4, !"kernel", i32 1}
!6 = !{ptr @loop_rows, !"kernel", i32 1}
