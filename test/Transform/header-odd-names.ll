; -energy-header with kernel and tunable names that are no C identifiers. IR
; names may have dots ('k.1', as llvm-link renames a second 'k') or '$'; the
; header wrote them into macro names ("#define ENERGY_CHOICE_k.1_BLOCK_X
; 256", which C reads as a macro ENERGY_CHOICE_k redefined on every line).
; Such a kernel gets no entry, as one whose record the header cannot name
; (under ENERGY_CHOICES it keeps its declared default); a tunable, whose value
; other entries assume, is an error.
; RUN: rm -rf %t && mkdir -p %t
; RUN: %opt %loadenergy -passes=energy-optimize -energy-header=%t/h.h %s -disable-output
; RUN: FileCheck %s --implicit-check-not=ENERGY_CHOICE_k < %t/h.h
; RUN: printf '#include "h.h"\nint x;\n' > %t/use.c
; RUN: %clang -x c -fsyntax-only -Werror -I %t %t/use.c
; CHECK: // k.1: block 256
; CHECK-NEXT: // no entry: the header cannot name its record __energy_launch_k.1 (not a C identifier
; CHECK: // k$x: block 256
; CHECK-NEXT: // no entry: the header cannot name its record __energy_launch_k$x (not a C identifier
; CHECK: #define ENERGY_CHOICE_ok_BLOCK_X
; CHECK: #define ENERGY_CHOICE_TUNABLE_T ~, {{[12]}}

; RUN: sed -e 's/__energy_tunable_T\b/__energy_tunable_T.1/g' %s > %t/tunable.ll
; RUN: not %opt %loadenergy -passes=energy-optimize -energy-header=%t/t.h %t/tunable.ll -disable-output 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TUNABLE
; TUNABLE: error: energy-optimize: cannot write header '{{.*}}t.h': tunable 'T.1' of kernel 'ok' has no C identifier name for ENERGY_CHOICE_TUNABLE_<NAME>
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@"__energy_launch_k.1" = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@"__energy_launch_k$x" = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
@__energy_launch_ok = addrspace(1) externally_initialized global { [3 x i32], i32, i32 } { [3 x i32] [i32 256, i32 1, i32 1], i32 0, i32 1 }
; A work-per-thread tunable (kind 1), default 1, candidates 1 and 2.
@__energy_tunable_T = addrspace(1) externally_initialized global [4 x i32] [i32 1, i32 1, i32 1, i32 2]
@.str.1 = private unnamed_addr constant [39 x i8] c"energy.tune:record=__energy_launch_k.1\00", section "llvm.metadata"
@.str.2 = private unnamed_addr constant [39 x i8] c"energy.tune:record=__energy_launch_k$x\00", section "llvm.metadata"
@.str.3 = private unnamed_addr constant [38 x i8] c"energy.tune:record=__energy_launch_ok\00", section "llvm.metadata"
@llvm.global.annotations = appending global [3 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @"k.1", ptr @.str.1, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @"k$x", ptr @.str.2, ptr null, i32 0, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @ok, ptr @.str.3, ptr null, i32 0, ptr null }], section "llvm.metadata"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @"k.1"(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

define void @"k$x"(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

define void @ok(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %items = load i32, ptr addrspace(1) @__energy_tunable_T, align 4
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %j = mul i32 %i, %items
  %p = getelementptr float, ptr addrspace(1) %out, i32 %j
  store float 1.0, ptr addrspace(1) %p, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @"k.1", !"kernel", i32 1}
!1 = !{ptr @"k$x", !"kernel", i32 1}
!2 = !{ptr @ok, !"kernel", i32 1}
