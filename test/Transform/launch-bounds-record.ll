; A kernel bounded in the source keeps its bounds and its launch record:
; advice stays within the bounds, and the record is the declared default's.
; (The record used to be rewritten to the bound's block, 256 -> 128, while
; the report said nothing was applied; a bound of registers only set it to
; 1x1x1; and advice named blocks the bounds forbid.) A declared default the
; bounds forbid is an error: the host would launch it without the plugin.
; RUN: split-file %s %t
; RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks-analysis=energy \
; RUN:   -energy-report=%t/r.json %t/within.ll -S -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --check-prefix=RECORD < %t/out.ll
; RUN: %python %S/Inputs/report_summary.py %t/r.json | FileCheck %s --check-prefix=REPORT
; Over its own output again: the same.
; RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks-analysis=energy \
; RUN:   %t/out.ll -S -o %t/twice.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s --check-prefix=RECORD < %t/twice.ll
; RUN: not %opt %loadenergy -passes=energy-optimize %t/beyond.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BEYOND

; REMARK-DAG: remark: {{.*}}kernel k128 has launch bounds from the source; advice: block {{32|64|96|128}} (
; REMARK-DAG: remark: {{.*}}kernel kreg has launch bounds from the source; advice: block
; RECORD-DAG: @__energy_launch_k128 = {{.*}} { [3 x i32] [i32 128, i32 1, i32 1], i32 0, i32 1 }
; RECORD-DAG: @__energy_launch_kreg = {{.*}} { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
; REPORT: k128: 4 candidates, 28 shapes not correct
; BEYOND: error: energy-optimize: kernel 'k': its declared default block 256 cannot launch: its __launch_bounds__ allow at most 128 threads (declare the default with ENERGY_KERNEL_BLOCK)

;--- within.ll
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_launch_k128 = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 128, i32 1, i32 1], i32 0, i32 1 }
@__energy_launch_kreg = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@.str = private unnamed_addr constant [40 x i8] c"energy.tune:record=__energy_launch_k128\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [40 x i8] c"energy.tune:record=__energy_launch_kreg\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k128, ptr @.str, ptr null, i32 0, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @kreg, ptr @.str.1, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @k128(ptr addrspace(1) %out, i32 %n) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %store, label %done
store:
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  br label %done
done:
  ret void
}

define void @kreg(ptr addrspace(1) %out, i32 %n) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %store, label %done
store:
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 2.0, ptr addrspace(1) %p, align 4
  br label %done
done:
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @k128, !"kernel", i32 1}
!1 = !{ptr @k128, !"maxntidx", i32 128}
!2 = !{ptr @kreg, !"kernel", i32 1}
!3 = !{ptr @kreg, !"maxnreg", i32 32}

;--- beyond.ll
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_launch_k = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@.str = private unnamed_addr constant [37 x i8] c"energy.tune:record=__energy_launch_k\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"maxntidx", i32 128}
