; Launch bounds already in !nvvm.annotations are read back; a kernel
; without them prints zeros. Entries may be split across several nodes.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel bounded
; CHECK:       launch_bounds: maxntid=256,1,1 reqntid=0,0,0 minctasm=2 maxnreg=64
define void @bounded() {
  ret void
}

; CHECK-LABEL: kernel required
; CHECK:       launch_bounds: maxntid=0,0,0 reqntid=32,8,2 minctasm=0 maxnreg=0
define void @required() {
  ret void
}

; CHECK-LABEL: kernel unbounded
; CHECK:       launch_bounds: maxntid=0,0,0 reqntid=0,0,0 minctasm=0 maxnreg=0
define void @unbounded() {
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5}
!0 = !{ptr @bounded, !"kernel", i32 1}
!1 = !{ptr @bounded, !"maxntidx", i32 256, !"maxntidy", i32 1, !"maxntidz", i32 1}
!2 = !{ptr @bounded, !"minctasm", i32 2}
!3 = !{ptr @bounded, !"maxnreg", i32 64}
!4 = !{ptr @required, !"kernel", i32 1, !"reqntidx", i32 32, !"reqntidy", i32 8, !"reqntidz", i32 2}
!5 = !{ptr @unbounded, !"kernel", i32 1}
