; __syncwarp (llvm.nvvm.bar.warp.sync) synchronizes one warp, not the block:
; it is not a block barrier. __syncthreads (barrier0) is.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel warp_sync_only
; CHECK:       barriers: 0 ops/thread
define void @warp_sync_only() {
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  ret void
}

; CHECK-LABEL: kernel both
; CHECK:       barriers: 1 ops/thread
define void @both() {
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  call void @llvm.nvvm.barrier0()
  ret void
}

declare void @llvm.nvvm.bar.warp.sync(i32)
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @warp_sync_only, !"kernel", i32 1}
!1 = !{ptr @both, !"kernel", i32 1}
