; A max-slowdown that is not a finite number >= 0 is an error, whatever the
; spelling: it used to pass the check as NaN and crash (SIGSEGV) once a kernel
; read a tunable, as chooseCandidate allowed no candidate.
; RUN: not %opt %loadenergy -passes=energy-optimize -energy-max-slowdown=nan \
; RUN:   -energy-report=%t.json %s -disable-output 2>&1 | FileCheck %s -DX=nan
; RUN: not %opt %loadenergy -passes=energy-optimize -energy-max-slowdown=inf \
; RUN:   %s -disable-output 2>&1 | FileCheck %s -DX=inf
; RUN: not %opt %loadenergy -passes='energy-optimize<max-slowdown=nan;report=%t.json>' \
; RUN:   %s -disable-output 2>&1 | FileCheck %s -DX=nan
; RUN: not %opt %loadenergy -passes='default<O2>' -energy-max-slowdown=nan \
; RUN:   %s -disable-output 2>&1 | FileCheck %s -DX=nan
; CHECK: error: energy-optimize: max-slowdown must be a finite number >= 0 (0.1 = 10%), got '[[X]]'
; CHECK-NOT: Stack dump
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_tunable_TILE = addrspace(1) externally_initialized global [5 x i32] [i32 16, i32 0, i32 8, i32 16, i32 32]

define void @k() {
  %1 = load i32, ptr addrspacecast (ptr addrspace(1) @__energy_tunable_TILE to ptr), align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
