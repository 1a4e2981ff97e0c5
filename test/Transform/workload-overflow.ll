; A workload whose grid exceeds CUDA's limit (2^31-1 blocks in x) at every
; candidate block is an error naming the limit; the grid computation no
; longer wraps (2^64-1 items were predicted as one block) and the report
; prints workloads unsigned (from 2^63 up they printed negative).
; RUN: not %opt %loadenergy -passes=energy-optimize -energy-tune-all \
; RUN:   -energy-workload=18446744073709551615 %s -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LIMIT -DN=18446744073709551615
; RUN: not %opt %loadenergy -passes=energy-optimize -energy-tune-all \
; RUN:   -energy-workload=9223372036854775808 %s -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LIMIT -DN=9223372036854775808
; LIMIT: error: energy-optimize: kernel 'k': a launch of [[N]] items needs more than 2147483647 blocks (CUDA's grid limit in x) at every candidate block

; 2^40 items fit in blocks of 1024 (2^30 blocks) but not of 256: those are
; pruned, and the baseline of 256 cannot launch.
; RUN: %opt %loadenergy -passes=energy-optimize -energy-tune-all -energy-workload=1099511627776 \
; RUN:   -energy-report=%t.json %s -disable-output
; RUN: FileCheck %s --check-prefix=REPORT < %t.json
; REPORT: "work_items": 1099511627776,
; REPORT: "choice": {
; REPORT: "grid_blocks": 1073741824,
; REPORT: "default": {
; REPORT-NEXT: "block": [
; REPORT-NEXT: 256,
; REPORT: "grid_blocks": 4294967296,
; REPORT: "pruned": "resources"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
