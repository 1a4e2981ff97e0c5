; Modelling another GPU than the code was written for never ends the user's
; compile. To have ptxas count registers, the plugin compiles candidates to
; PTX for the modelled architecture, and LLVM 19's NVPTX backend cannot
; select everything for every one: a warp shuffle for sm_61, mma for sm_70
; ("LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.i32",
; an abort of opt, before). That codegen runs in a child process now: its
; fatal error becomes a note and the registers are estimated. No ptxas is
; run (the codegen fails first): any path will do.
; RUN: rm -rf %t.cache
; RUN: env XDG_CACHE_HOME=%t.cache ENERGY_PTXAS=%t.no-ptxas %opt %loadenergy \
; RUN:   -passes=energy-optimize -energy-arch=sm_61 -energy-report=%t.json %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error
; RUN: FileCheck %s --check-prefix=SHFL --input-file=%t.json
; SHFL: "registers_from": "estimate",
; SHFL: "registers estimated: NVPTX codegen failed: Cannot select: intrinsic %llvm.nvvm.shfl.sync.bfly.i32"
;
; (The tensor-core kernel gets no advice, as no other block is proven
; correct for it: its host's launch is forced, so that it is planned.)
; RUN: env XDG_CACHE_HOME=%t.cache ENERGY_PTXAS=%t.no-ptxas %opt %loadenergy \
; RUN:   -passes=energy-optimize -energy-simplify=always -energy-arch=sm_70 \
; RUN:   -energy-force-config=tensor:32 \
; RUN:   -energy-report=%t.mma.json %S/../Features/tensor-core.ll -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --allow-empty --implicit-check-not=error
; RUN: FileCheck %s --check-prefix=MMA --input-file=%t.mma.json
; MMA: "registers estimated: NVPTX codegen failed: Cannot select: intrinsic %llvm.nvvm.mma.m16n8k16.row.col.f16.f16"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_launch_k = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@.str = private unnamed_addr constant [37 x i8] c"energy.tune:record=__energy_launch_k\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)

define void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %v = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %i, i32 1, i32 31)
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
