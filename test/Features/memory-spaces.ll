; Loads and stores by address space, and their bytes. Generic pointers are
; resolved through their underlying object: a kernel pointer argument is
; global, an alloca is local, an addrspacecast keeps its source space; a
; pointer loaded from memory stays generic.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [64 x float] undef, align 4
@cst = internal addrspace(4) constant [2 x i64] [i64 1, i64 2], align 8

; global loads: %g (4 B), %gen (4 B, generic kernel argument), the pointer
; loaded through %pp (8 B); global store: double (8 B).
; CHECK-LABEL: kernel spaces
; CHECK:       global_loads: 3 accesses/thread
; CHECK-NEXT:  global_load_bytes: 16 bytes/thread
; CHECK-NEXT:  global_stores: 1 accesses/thread
; CHECK-NEXT:  global_store_bytes: 8 bytes/thread
; CHECK-NEXT:  shared_loads: 2 accesses/thread
; CHECK-NEXT:  shared_load_bytes: 8 bytes/thread
; CHECK-NEXT:  shared_stores: 1 accesses/thread
; CHECK-NEXT:  shared_store_bytes: 4 bytes/thread
; CHECK-NEXT:  local_loads: 2 accesses/thread
; CHECK-NEXT:  local_load_bytes: 6 bytes/thread
; CHECK-NEXT:  local_stores: 1 accesses/thread
; CHECK-NEXT:  local_store_bytes: 4 bytes/thread
; CHECK-NEXT:  const_loads: 2 accesses/thread
; CHECK-NEXT:  const_load_bytes: 16 bytes/thread
; CHECK-NEXT:  param_loads: 2 accesses/thread
; CHECK-NEXT:  param_load_bytes: 12 bytes/thread
; CHECK-NEXT:  generic_loads: 1 accesses/thread
; CHECK-NEXT:  generic_load_bytes: 4 bytes/thread
; CHECK-NEXT:  generic_stores: 1 accesses/thread
; CHECK-NEXT:  generic_store_bytes: 2 bytes/thread
; CHECK-NEXT:  vector_accesses: 0 accesses/thread
; CHECK-NEXT:  max_access_bytes: 8 bytes
define void @spaces(ptr addrspace(1) %g, ptr %gen, ptr addrspace(101) %par, ptr %pp) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ; global
  %gv = load float, ptr addrspace(1) %g, align 4
  %genp = getelementptr inbounds float, ptr %gen, i32 %t
  %genv = load float, ptr %genp, align 4
  ; shared, directly and through a generic addrspacecast
  %sp = getelementptr inbounds [64 x float], ptr addrspace(3) @sh, i32 0, i32 %t
  store float %gv, ptr addrspace(3) %sp, align 4
  %sv = load float, ptr addrspace(3) %sp, align 4
  %gsh = addrspacecast ptr addrspace(3) @sh to ptr
  %sv2 = load float, ptr %gsh, align 4
  ; local: an alloca, used directly and through addrspace(5)
  %slot = alloca [2 x i32], align 4
  store i32 %t, ptr %slot, align 4
  %slot5 = addrspacecast ptr %slot to ptr addrspace(5)
  %lv = load i32, ptr addrspace(5) %slot5, align 4
  %lv16 = load i16, ptr %slot, align 4
  ; constant
  %c0 = load i64, ptr addrspace(4) @cst, align 8
  %c1p = getelementptr inbounds [2 x i64], ptr addrspace(4) @cst, i32 0, i32 1
  %c1 = load i64, ptr addrspace(4) %c1p, align 8
  ; kernel parameter space
  %p0 = load i32, ptr addrspace(101) %par, align 4
  %p1p = getelementptr inbounds i8, ptr addrspace(101) %par, i64 8
  %p1 = load i64, ptr addrspace(101) %p1p, align 8
  ; a pointer loaded from memory is generic
  %q = load ptr, ptr %pp, align 8
  %qv = load float, ptr %q, align 4
  store i16 %lv16, ptr %q, align 2
  ; keep everything alive
  %f1 = fadd float %sv, %sv2
  %f2 = fadd float %f1, %genv
  %f3 = fadd float %f2, %qv
  %i1 = add i32 %lv, %p0
  %i2 = sitofp i32 %i1 to double
  %l1 = add i64 %c0, %c1
  %l2 = add i64 %l1, %p1
  %l3 = sitofp i64 %l2 to double
  %f4 = fpext float %f3 to double
  %d1 = fadd double %i2, %l3
  %d2 = fadd double %d1, %f4
  store double %d2, ptr addrspace(1) %g, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @spaces, !"kernel", i32 1}
