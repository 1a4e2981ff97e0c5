; Called device functions fold into the kernel, weighted by how often each
; call executes; device functions print nothing of their own.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines --implicit-check-not='kernel helper'

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; @helper called in a loop of 4: its load, fmul, sqrt and barrier count 4x;
; the caller's own fadd 4x. instructions: 4 x 5 (helper) + 1 + 4 x 5 + 2
; (the two phis issue nothing), plus the 8 FP32 instructions ptxas expands
; each IEEE sqrt with (4 x 8, also in fp32_ops).
; CHECK-LABEL: kernel calls_in_loop
; CHECK-NEXT:  instructions: 75 instr/thread
; CHECK-NEXT:  fp32_ops: 40 ops/thread
; CHECK:       special_fns: 4 ops/thread
; CHECK-NEXT:  flops: 40 flop/thread
; CHECK-NEXT:  global_loads: 4 accesses/thread
; CHECK-NEXT:  global_load_bytes: 16 bytes/thread
; CHECK-NEXT:  global_stores: 1 accesses/thread
; CHECK:       barriers: 4 ops/thread
; CHECK:       loops: 1 count
define void @calls_in_loop(ptr addrspace(1) %in, ptr addrspace(1) %out, float %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %r = call float @helper(ptr addrspace(1) %in, float %x)
  %acc.next = fadd float %acc, %r
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  store float %acc.next, ptr addrspace(1) %out, align 4
  ret void
}

; One call outside the loop and one in it (4x): @helper counts 5x.
; @helper_loop has its own loop of 3 and is called once: its fadd counts 3x.
; fp32_ops: 5 fmul + 3 fadd + 5 x 8 for the sqrt's expansion.
; CHECK-LABEL: kernel two_sites
; CHECK:       fp32_ops: 48 ops/thread
; CHECK:       special_fns: 5 ops/thread
; CHECK:       global_loads: 5 accesses/thread
; CHECK:       barriers: 5 ops/thread
; CHECK:       loops: 2 count
; CHECK-NEXT:  max_loop_depth: 1 count
define void @two_sites(ptr addrspace(1) %in, float %x) {
entry:
  %first = call float @helper(ptr addrspace(1) %in, float %x)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %r = call float @helper(ptr addrspace(1) %in, float %x)
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  %s = call float @helper_loop(float %first)
  ret void
}

; A generic pointer parameter of a device function is not a kernel argument:
; it stays generic even though the kernel passes a global pointer.
; CHECK-LABEL: kernel generic_param
; CHECK:       global_loads: 0 accesses/thread
; CHECK:       generic_loads: 1 accesses/thread
; CHECK-NEXT:  generic_load_bytes: 4 bytes/thread
define void @generic_param(ptr %p) {
  %v = call float @helper_generic(ptr %p)
  ret void
}

; Recursion is folded once: the recursive call itself adds nothing more.
; CHECK-LABEL: kernel recursive
; CHECK:       int_ops: 2 ops/thread
; CHECK:       branches: 1 ops/thread
define void @recursive(i32 %n) {
  %r = call i32 @helper_rec(i32 %n)
  ret void
}

define internal float @helper(ptr addrspace(1) %p, float %x) {
  %v = load float, ptr addrspace(1) %p, align 4
  %m = fmul float %v, %x
  %s = call float @llvm.sqrt.f32(float %m)
  call void @llvm.nvvm.barrier0()
  ret float %s
}

define internal float @helper_loop(float %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ %x, %entry ], [ %acc.next, %loop ]
  %acc.next = fadd float %acc, %x
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 3
  br i1 %done, label %exit, label %loop
exit:
  ret float %acc.next
}

define internal float @helper_generic(ptr %p) {
  %v = load float, ptr %p, align 4
  ret float %v
}

define internal i32 @helper_rec(i32 %n) {
entry:
  %zero = icmp eq i32 %n, 0
  br i1 %zero, label %done, label %recur
recur:
  %m = sub i32 %n, 1
  %r = call i32 @helper_rec(i32 %m)
  br label %done
done:
  %v = phi i32 [ 0, %entry ], [ %r, %recur ]
  ret i32 %v
}

declare float @llvm.sqrt.f32(float)
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @calls_in_loop, !"kernel", i32 1}
!1 = !{ptr @two_sites, !"kernel", i32 1}
!2 = !{ptr @generic_param, !"kernel", i32 1}
!3 = !{ptr @recursive, !"kernel", i32 1}
