; A launch record that is not an energy::launch_record (here an i32) is an
; error naming it: writing {[3 x i32], i32} into it broke the module (opt
; aborted in the verifier; clang, which does not verify, went on to codegen).
; RUN: not %opt %loadenergy -passes=energy-optimize %s -disable-output 2>&1 | FileCheck %s
; CHECK: error: energy-optimize: record '__energy_launch_k' is not an energy::launch_record
; CHECK-NOT: Broken module
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_launch_k = addrspace(1) externally_initialized global i32 0, align 4
@.str = private unnamed_addr constant [37 x i8] c"energy.tune:record=__energy_launch_k\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

define void @k() {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
