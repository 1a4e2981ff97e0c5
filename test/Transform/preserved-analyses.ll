; energy-optimize takes its remark emitter from the function analysis manager
; and tells the pass manager what it kept. Advice alone changes nothing: every
; analysis survives, and -verify-analysis-invalidation finds the module as it
; was. A rewrite keeps the CFG analyses of the functions it leaves in place
; (the helper's dominator tree is not computed again) but invalidates the
; others (its features are). The pass used to build its own remark emitters
; and to report nothing preserved either way.
;
; RUN: %opt %loadenergy -debug-pass-manager -verify-analysis-invalidation \
; RUN:   -passes='function(require<domtree>,require<energy-features>),energy-optimize,function(require<domtree>,require<energy-features>)' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=ADVICE
; RUN: sed 's/;OPTIN //' %s > %t.ll
; RUN: %opt %loadenergy -debug-pass-manager \
; RUN:   -passes='function(require<domtree>,require<energy-features>),energy-optimize,function(require<domtree>,require<energy-features>)' \
; RUN:   -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=REWRITE

; ADVICE:      Running analysis: DominatorTreeAnalysis on fill
; ADVICE:      Running pass: energy::EnergyOptimizePass
; ADVICE-NEXT: Running analysis: OptimizationRemarkEmitterAnalysis on fill
; ADVICE-NOT:  Invalidating
; ADVICE-NOT:  Running analysis: DominatorTreeAnalysis
; ADVICE-NOT:  Running analysis: energy::KernelFeaturesAnalysis

; REWRITE:      Running analysis: DominatorTreeAnalysis on helper
; REWRITE:      Running pass: energy::EnergyOptimizePass
; REWRITE:      Running analysis: OptimizationRemarkEmitterAnalysis on fill
; REWRITE-NOT:  Invalidating analysis: DominatorTreeAnalysis on helper
; REWRITE:      Invalidating analysis: energy::KernelFeaturesAnalysis on helper
; REWRITE-NOT:  Running analysis: DominatorTreeAnalysis on helper
; REWRITE:      Running analysis: energy::KernelFeaturesAnalysis on helper
; REWRITE-NOT:  Running analysis: DominatorTreeAnalysis on helper

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

;OPTIN @__energy_launch_fill = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }, align 4
;OPTIN @.str = private unnamed_addr constant [40 x i8] c"energy.tune:record=__energy_launch_fill\00", section "llvm.metadata"
;OPTIN @llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @fill, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define float @helper(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}

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

attributes #0 = { "target-cpu"="sm_86" }

!nvvm.annotations = !{!0}
!0 = !{ptr @fill, !"kernel", i32 1}
