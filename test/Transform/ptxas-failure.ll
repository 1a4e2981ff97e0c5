; A ptxas that fails on an empty kernel too is not run again in the process,
; and says so once: a broken install, or an architecture this CUDA dropped
; (CUDA 13's ptxas has no sm_61), fails for every candidate. Here: the first
; kernel's run and the empty kernel's. Before, each candidate ran it again
; (here three kernels: three runs) with no diagnostic but a note per kernel.
; (A ptxas that rejects one candidate's code alone is kept: kept-calls.cu.)
; RUN: rm -rf %t.cache %t.count
; RUN: printf '#!/bin/sh\necho run >> %t.count\necho "ptxas fatal : broken"\nexit 1\n' > %t.ptxas-fail
; RUN: chmod +x %t.ptxas-fail
; RUN: env XDG_CACHE_HOME=%t.cache ENERGY_PTXAS=%t.ptxas-fail %opt %loadenergy \
; RUN:   -passes=energy-optimize -energy-report=%t.json %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
; RUN: count 2 < %t.count
; RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.json
;
; WARN: warning: energy: ptxas failed (exit code 1): ptxas fatal : broken; registers are estimated from here on (ptxas is '{{.*}}ptxas-fail'; ENERGY_PTXAS_TIMEOUT=SECONDS sets its wait, ENERGY_PTXAS=none skips it)
; NOTE: "kernel": "k1",
; NOTE: "registers_from": "estimate",
; NOTE: "registers estimated: ptxas failed (exit code 1): ptxas fatal : broken"
; NOTE: "kernel": "k2",
; NOTE: "registers_from": "estimate",
; NOTE: "registers estimated: ptxas failed (exit code 1): ptxas fatal : broken"
; NOTE: "kernel": "k3",
; NOTE: "registers_from": "estimate",
; NOTE: "registers estimated: ptxas failed (exit code 1): ptxas fatal : broken"
;
; A ptxas that hangs is stopped after $ENERGY_PTXAS_TIMEOUT seconds (20 by
; default; before, 60 s for every run) and not run again: one wait for the
; whole compile.
; RUN: rm -rf %t.cache %t.hangs
; RUN: printf '#!/bin/sh\necho run >> %t.hangs\nexec sleep 600\n' > %t.ptxas-hang
; RUN: chmod +x %t.ptxas-hang
; RUN: env XDG_CACHE_HOME=%t.cache ENERGY_PTXAS=%t.ptxas-hang ENERGY_PTXAS_TIMEOUT=1 \
; RUN:   %opt %loadenergy -passes=energy-optimize -energy-report=%t.hang.json %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=HANG --implicit-check-not=warning:
; RUN: count 1 < %t.hangs
; RUN: FileCheck %s --check-prefix=HANGNOTE --input-file=%t.hang.json
; HANG: warning: energy: ptxas did not finish in 1 s; registers are estimated from here on
; HANGNOTE-COUNT-3: "registers estimated: ptxas did not finish in 1 s"
;
; A timeout that is not a number of seconds is reported, and the default
; taken.
; RUN: env XDG_CACHE_HOME=%t.cache ENERGY_PTXAS=%t.ptxas-fail ENERGY_PTXAS_TIMEOUT=soon \
; RUN:   %opt %loadenergy -passes=energy-optimize %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BADTIME
; BADTIME: warning: energy: ignoring ENERGY_PTXAS_TIMEOUT='soon': not a number of seconds from 1 to 3600; waiting 20 s
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__energy_launch_k1 = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@__energy_launch_k2 = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@__energy_launch_k3 = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@.str1 = private unnamed_addr constant [38 x i8] c"energy.tune:record=__energy_launch_k1\00", section "llvm.metadata"
@.str2 = private unnamed_addr constant [38 x i8] c"energy.tune:record=__energy_launch_k2\00", section "llvm.metadata"
@.str3 = private unnamed_addr constant [38 x i8] c"energy.tune:record=__energy_launch_k3\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @k1, ptr @.str1, ptr null, i32 0, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @k2, ptr @.str2, ptr null, i32 0, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @k3, ptr @.str3, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @k1(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

define void @k2(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %w = fmul float %v, 2.0
  store float %w, ptr addrspace(1) %p, align 4
  ret void
}

define void @k3(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  %v = load float, ptr addrspace(1) %p, align 4
  %w = fadd float %v, 3.0
  store float %w, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @k1, !"kernel", i32 1}
!1 = !{ptr @k2, !"kernel", i32 1}
!2 = !{ptr @k3, !"kernel", i32 1}
