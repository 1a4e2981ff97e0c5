; Tensor-core operations: wmma.*.mma.* and mma.* intrinsics. WMMA fragment
; loads and stores are not tensor ops.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A k-loop of 4 iterations around one wmma mma, plus one mma.sync = 5.
; CHECK-LABEL: kernel tensor
; CHECK:       barriers: 0 ops/thread
; CHECK-NEXT:  barriers_after_global_loads: 0 ops/thread
; CHECK-NEXT:  warp_shuffles: 0 ops/thread
; CHECK-NEXT:  warp_votes: 0 ops/thread
; CHECK-NEXT:  tensor_ops: 5 ops/thread
define void @tensor(ptr addrspace(1) %a, ptr addrspace(1) %out, <2 x half> %h, float %c) {
entry:
  %fa = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p1(ptr addrspace(1) %a, i32 16)
  %a0 = extractvalue { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } %fa, 0
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ %c, %entry ], [ %d0, %loop ]
  %d = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32(
      <2 x half> %a0, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h,
      <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h,
      float %acc, float %acc, float %acc, float %acc, float %acc, float %acc, float %acc, float %acc)
  %d0 = extractvalue { float, float, float, float, float, float, float, float } %d, 0
  %k.next = add nuw nsw i32 %k, 1
  %done = icmp eq i32 %k.next, 4
  br i1 %done, label %exit, label %loop
exit:
  %m = call { <2 x half>, <2 x half> } @llvm.nvvm.mma.m16n8k16.row.col.f16.f16(
      <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h,
      <2 x half> %h, <2 x half> %h, <2 x half> %h, <2 x half> %h)
  %m0 = extractvalue { <2 x half>, <2 x half> } %m, 0
  store float %d0, ptr addrspace(1) %out, align 4
  store <2 x half> %m0, ptr addrspace(1) %out, align 4
  ret void
}

declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p1(ptr addrspace(1), i32)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float, float, float, float, float)
declare { <2 x half>, <2 x half> } @llvm.nvvm.mma.m16n8k16.row.col.f16.f16(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>)

!nvvm.annotations = !{!0}
!0 = !{ptr @tensor, !"kernel", i32 1}
