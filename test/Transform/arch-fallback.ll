; A module's own target-cpu without tables keeps the fallback to the nearest
; architecture, and a note says so, in a remark and in the report: sm_999
; uses sm_100, sm_12 (below every row) sm_52. (An -energy-arch without
; tables is an error instead: bad-options.test.)
; RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks-analysis=energy \
; RUN:   -energy-report=%t.json %s -disable-output 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --check-prefix=REPORT < %t.json
; REMARK-DAG: remark: {{.*}}kernel new: no tables for sm_999; using sm_100
; REMARK-DAG: remark: {{.*}}kernel old: no tables for sm_12; using sm_52
; REPORT:      "kernel": "new",
; REPORT:      "arch": "sm_100",
; REPORT:      "notes": [
; REPORT-NEXT:   "no tables for sm_999; using sm_100"
; REPORT:      "kernel": "old",
; REPORT:      "arch": "sm_52",
; REPORT:      "notes": [
; REPORT-NEXT:   "no tables for sm_12; using sm_52"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @new(ptr addrspace(1) %out, i32 %n) #0 {
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

define void @old(ptr addrspace(1) %out, i32 %n) #1 {
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

attributes #0 = { "target-cpu"="sm_999" }
attributes #1 = { "target-cpu"="sm_12" }

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @new, !"kernel", i32 1}
!1 = !{ptr @old, !"kernel", i32 1}
