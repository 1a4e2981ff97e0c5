; Block barriers (barrier0 = __syncthreads, barrier.sync) weighted by the
; trip count of the loop around them.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; 1 barrier before the loop + 8 iterations x 2 barriers = 17; no global load
; precedes any of them, so none waits for memory (Features/barrier-waits.cu).
; CHECK-LABEL: kernel barrier_loop
; CHECK:       barriers: 17 ops/thread
; CHECK-NEXT:  barriers_after_global_loads: 0 ops/thread
; CHECK-NEXT:  warp_shuffles: 0 ops/thread
; CHECK-NEXT:  warp_votes: 0 ops/thread
; CHECK-NEXT:  tensor_ops: 0 ops/thread
define void @barrier_loop() {
entry:
  call void @llvm.nvvm.barrier0()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  call void @llvm.nvvm.barrier0()
  call void @llvm.nvvm.barrier.sync(i32 0)
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 8
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; No barrier at all.
; CHECK-LABEL: kernel no_barrier
; CHECK:       barriers: 0 ops/thread
; CHECK-NEXT:  barriers_after_global_loads: 0 ops/thread
define void @no_barrier() {
  ret void
}

declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.sync(i32)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @barrier_loop, !"kernel", i32 1}
!1 = !{ptr @no_barrier, !"kernel", i32 1}
