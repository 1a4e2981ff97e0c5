; -debug-only traces each decision: energy-features each measurement,
; energy-candidates each shape left out or pruned and the choice,
; energy-optimize what is done with a kernel and why. LLVM_DEBUG exists only
; with assertions.
; REQUIRES: asserts
; RUN: %opt %loadenergy -passes=energy-optimize -disable-output %s \
; RUN:   -debug-only=energy-features,energy-candidates,energy-optimize 2>&1 \
; RUN:   | FileCheck %s
; RUN: %opt %loadenergy -passes=energy-optimize -disable-output %s \
; RUN:   -debug-only=energy-optimize 2>&1 | FileCheck %s --check-prefix=ONLY

; CHECK: energy-features: measured fill (cleanup only)
; CHECK: energy-candidates: fill: chose block {{[0-9x]+}} for energy within 10% of the fastest
; CHECK: energy-optimize: advice only for fill: is not opted in (ENERGY_KERNEL), so its host launches keep their block shape
; CHECK: energy-optimize: nothing to tune in idle: does no work

; ONLY-NOT: energy-candidates:
; ONLY:     energy-optimize: advice only for fill
; ONLY-NOT: energy-features:

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @fill(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

define void @idle() #0 {
  ret void
}

attributes #0 = { "target-cpu"="sm_86" }

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @fill, !"kernel", i32 1}
!1 = !{ptr @idle, !"kernel", i32 1}
