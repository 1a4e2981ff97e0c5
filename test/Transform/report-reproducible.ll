; Identical compiles write identical reports (wall-clock fields aside) when
; registers cannot come from ptxas.
;
; LLVM 19 cannot emit PTX for sm_100 (it warns "'sm_100' is not a recognized
; processor" for every function and writes `.version 6.0`, which ptxas
; rejects): it says so once and estimates, without compiling or running
; ptxas. Before, the note quoted ptxas's error about a temporary file
; (/tmp/energy-candidate-XXXXXX.ptx), different in each compile.
; RUN: rm -rf %t && mkdir -p %t
; RUN: %python %S/../Inputs/compare_runs.py %t/sm100 %s -- %opt %loadenergy \
; RUN:   -passes=energy-optimize -energy-arch=sm_100 -energy-report={dir}/report.json \
; RUN:   {input} -o {dir}/out.bc
; RUN: FileCheck %s --check-prefix=NOTE --input-file=%t/sm100/report-reproducible.ll/1/report.json
; RUN: FileCheck %s --check-prefix=WARN --input-file=%t/sm100/report-reproducible.ll/1/diagnostics.txt \
; RUN:   --implicit-check-not=warning --implicit-check-not=recognized
; NOTE: "registers estimated: LLVM {{[0-9.]+}} cannot emit PTX for sm_100"
; WARN: warning: energy: LLVM {{[0-9.]+}} cannot emit PTX for sm_100: registers are estimated
;
; A ptxas that fails quoting its input (as ptxas does) is quoted with the
; input's name made fixed.
; RUN: printf '#!/bin/sh\necho "ptxas $3, line 6; error   : fake"\nexit 255\n' > %t.ptxas
; RUN: chmod +x %t.ptxas
; RUN: env ENERGY_PTXAS=%t.ptxas %python %S/../Inputs/compare_runs.py %t/named %s -- \
; RUN:   %opt %loadenergy -passes=energy-optimize -energy-report={dir}/report.json \
; RUN:   {input} -o {dir}/out.bc
; RUN: FileCheck %s --check-prefix=NAMED --input-file=%t/named/report-reproducible.ll/1/report.json
; NAMED: "registers estimated: ptxas failed (exit code 255): ptxas energy-candidate.ptx, line 6; error   : fake"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_launch_k = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@.str = private unnamed_addr constant [37 x i8] c"energy.tune:record=__energy_launch_k\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k, ptr @.str, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
