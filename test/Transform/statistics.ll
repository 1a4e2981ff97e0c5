; -stats counts kernels and what was done with them, candidates and
; measurements. STATISTIC counts only with assertions (or
; LLVM_FORCE_ENABLE_STATS).
; REQUIRES: asserts
; RUN: %opt %loadenergy -passes=energy-optimize -stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s

; CHECK-DAG: {{^ *}}2 energy-optimize{{ +}}- Kernels seen
; CHECK-DAG: {{^ *}}1 energy-optimize{{ +}}- Kernels given advice only
; CHECK-DAG: {{^ *}}1 energy-optimize{{ +}}- Kernels with nothing to tune
; CHECK-DAG: {{^ *}}1 energy-optimize{{ +}}- Cost models reused for another kernel
; CHECK-DAG: {{^ *}}{{[0-9]+}} energy-candidates{{ +}}- Candidate configurations evaluated
; CHECK-DAG: {{^ *}}{{[0-9]+}} energy-features{{ +}}- Tunable assignments measured

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
