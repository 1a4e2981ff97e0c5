; The analysis is registered with the function analysis manager, so pipelines
; can request and invalidate it by name; with debug-pass-manager the run shows
; it computed once per function and reused by the printer.
; RUN: %opt %loadenergy -disable-output -debug-pass-manager \
; RUN:   -passes='require<energy-features>,print<energy-features>,invalidate<energy-features>' %s 2>&1 \
; RUN:   | FileCheck %s

; CHECK: Running analysis: energy::KernelFeaturesAnalysis on k
; CHECK-NOT: Running analysis: energy::KernelFeaturesAnalysis on k
; CHECK: kernel k
; CHECK: Invalidating analysis: energy::KernelFeaturesAnalysis on k

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @k(ptr addrspace(1) %p) {
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
