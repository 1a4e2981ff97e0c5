; model=analytic (-energy-model=analytic) names the analytic model, as the
; gpu-dialect pass's option does: both passes choose target and model alike.
; RUN: %opt %loadenergy -passes='energy-optimize<model=analytic;gpu=rtx-a4000>' \
; RUN:   -energy-report=%t.json %s -disable-output
; RUN: FileCheck %s < %t.json
; RUN: %opt %loadenergy -passes=energy-optimize -energy-model=analytic \
; RUN:   -energy-report=%t.cl.json %s -disable-output
; RUN: FileCheck %s --check-prefix=CL < %t.cl.json

; CHECK: "model": "analytic (sm_86, RTX A4000)",
; CL:    "model": "analytic (sm_86, A10)",
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @fill(ptr addrspace(1) %out, i32 %n) #0 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %fill, label %done
fill:
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  br label %done
done:
  ret void
}

attributes #0 = { "target-cpu"="sm_86" }

!nvvm.annotations = !{!0}
!0 = !{ptr @fill, !"kernel", i32 1}
