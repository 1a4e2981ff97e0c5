; A board of another compute capability than the target's: the board wins
; (its occupancy limits and rates are what the GPU that runs the code has),
; and a note in the remark and the report says what the target was. A target
; without sm_XX gets no note: the board decides. (Both kernels get advice,
; from the screen by default, which their notes say.)
; RUN: %opt %loadenergy -passes=energy-optimize -energy-gpu=h100-sxm \
; RUN:   -energy-report=%t.json %s -pass-remarks-analysis=energy -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --check-prefix=REPORT < %t.json
; REMARK: remark: {{.*}}kernel ampere: target is sm_86; using gpu h100-sxm, which is sm_90
; REMARK-NOT: kernel unknown: target
; REMARK-NOT: assuming
; REPORT:      "kernel": "ampere",
; REPORT:      "arch": "sm_90",
; REPORT-NEXT: "gpu": "h100-sxm",
; REPORT-NEXT: "gpu_from": "-energy-gpu",
; REPORT-NEXT: "model": "analytic (sm_90, H100 SXM5 80GB)",
; REPORT-NEXT: "model_constants": "datasheet defaults",
; REPORT-NEXT: "notes": [
; REPORT-NEXT:   "target is sm_86; using gpu h100-sxm, which is sm_90",
; REPORT-NEXT:   "advice from the screen: {{.*}}"
; REPORT-NEXT: ],
; REPORT:      "kernel": "unknown",
; REPORT:      "arch": "sm_90",
; REPORT-NEXT: "gpu": "h100-sxm",
; REPORT-NEXT: "gpu_from": "-energy-gpu",
; REPORT-NEXT: "model":
; REPORT-NEXT: "model_constants":
; REPORT-NEXT: "notes": [
; REPORT-NEXT:   "advice from the screen: {{.*}}"
; REPORT-NEXT: ],
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @ampere(ptr addrspace(1) %out, i32 %n) #0 {
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

define void @unknown(ptr addrspace(1) %out, i32 %n) {
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

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @ampere, !"kernel", i32 1}
!1 = !{ptr @unknown, !"kernel", i32 1}
