; Warp shuffles (shfl.sync) and votes (vote.*.sync, match.*.sync), weighted
; by loop trip counts.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Warp reduction: offsets 16, 8, 4, 2, 1 -> 5 shuffles; then a ballot and
; a match.any -> 2 votes.
; CHECK-LABEL: kernel warp_reduce
; CHECK:       barriers: 0 ops/thread
; CHECK-NEXT:  barriers_after_global_loads: 0 ops/thread
; CHECK-NEXT:  warp_shuffles: 5 ops/thread
; CHECK-NEXT:  warp_votes: 2 ops/thread
; CHECK-NEXT:  tensor_ops: 0 ops/thread
define void @warp_reduce(ptr addrspace(1) %out, i32 %v) {
entry:
  br label %loop
loop:
  %off = phi i32 [ 16, %entry ], [ %off.next, %loop ]
  %acc = phi i32 [ %v, %entry ], [ %acc.next, %loop ]
  %other = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %acc, i32 %off, i32 31)
  %acc.next = add i32 %acc, %other
  %off.next = lshr i32 %off, 1
  %done = icmp eq i32 %off.next, 0
  br i1 %done, label %exit, label %loop
exit:
  %pos = icmp sgt i32 %acc.next, 0
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %pos)
  %peers = call i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %acc.next)
  %r = add i32 %ballot, %peers
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)

!nvvm.annotations = !{!0}
!0 = !{ptr @warp_reduce, !"kernel", i32 1}
