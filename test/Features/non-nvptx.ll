; A module for another target is left alone, even if it carries NVVM kernel
; annotations: nothing is printed and no JSON kernels are written.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | count 0
; RUN: rm -f %t.json
; RUN: %opt %loadenergy -passes='energy-features-json<%t.json>' -disable-output %s
; RUN: not test -e %t.json

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @host_fn(ptr %out) {
  store float 1.0, ptr %out, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @host_fn, !"kernel", i32 1}
