; Cluster code written for sm_90 (%cluster_ctarank, as cooperative_groups
; reads it) modelled on an sm_80 board: its candidate codegen cannot select
; the register (an abort of opt, before); the registers are estimated with
; a note.
; RUN: rm -rf %t.cache
; RUN: env XDG_CACHE_HOME=%t.cache ENERGY_PTXAS=%t.no-ptxas %opt %loadenergy \
; RUN:   -passes=energy-optimize -energy-gpu=a100-pcie-40gb -energy-report=%t.json %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
; RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.json
; NOTE: "registers_from": "estimate",
; NOTE: "registers estimated: NVPTX codegen failed: Cannot select: intrinsic %llvm.nvvm.read.ptx.sreg.cluster.ctarank"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_launch_k = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@.str = private unnamed_addr constant [37 x i8] c"energy.tune:record=__energy_launch_k\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()

define void @k(ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %r = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}

attributes #0 = { "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" }
