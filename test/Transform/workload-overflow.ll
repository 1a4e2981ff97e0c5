; A workload whose grid exceeds CUDA's limit (2^31-1 blocks in x) at every
; candidate block is an error naming the limit; the grid computation no
; longer wraps (2^64-1 items were predicted as one block) and the report
; prints workloads unsigned (from 2^63 up they printed negative).
; RUN: not %opt %loadenergy -passes=energy-optimize \
; RUN:   -energy-workload=18446744073709551615 %s -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LIMIT -DN=18446744073709551615
; RUN: not %opt %loadenergy -passes=energy-optimize \
; RUN:   -energy-workload=9223372036854775808 %s -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LIMIT -DN=9223372036854775808
; k opted in (energy.cuh's annotation below): the error is its build's. A
; kernel that did not opt in would be left alone with a remark instead.
; LIMIT: error: energy-optimize: kernel 'k': a launch of [[N]] items needs more than 2147483647 blocks (CUDA's grid limit in x) at every candidate block

; 2^40 items fit in blocks of 1024 (2^30 blocks) but not of 256: those are
; pruned, and the baseline of 256 cannot launch.
; RUN: %opt %loadenergy -passes=energy-optimize -energy-workload=1099511627776 \
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

@__energy_launch_k = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@.str = private unnamed_addr constant [37 x i8] c"energy.tune:record=__energy_launch_k\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @k(ptr addrspace(1) %out, i32 %n) {
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

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
