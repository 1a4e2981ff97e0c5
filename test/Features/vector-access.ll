; Vector loads and stores: one access per instruction (not per lane) in
; vector_accesses; bytes are the whole vector; max_access_bytes is the widest.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x <2 x i32>] undef, align 8

; CHECK-LABEL: kernel float4_copy
; CHECK:       global_loads: 1 accesses/thread
; CHECK-NEXT:  global_load_bytes: 16 bytes/thread
; CHECK-NEXT:  global_stores: 1 accesses/thread
; CHECK-NEXT:  global_store_bytes: 4 bytes/thread
; CHECK-NEXT:  shared_loads: 0 accesses/thread
; CHECK-NEXT:  shared_load_bytes: 0 bytes/thread
; CHECK-NEXT:  shared_stores: 1 accesses/thread
; CHECK-NEXT:  shared_store_bytes: 8 bytes/thread
; CHECK:       vector_accesses: 2 accesses/thread
; CHECK-NEXT:  max_access_bytes: 16 bytes
define void @float4_copy(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %p = getelementptr inbounds <4 x float>, ptr addrspace(1) %in, i64 %t64
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %s = getelementptr inbounds [64 x <2 x i32>], ptr addrspace(3) @tile, i32 0, i32 %t
  store <2 x i32> <i32 1, i32 2>, ptr addrspace(3) %s, align 8
  %e = extractelement <4 x float> %v, i32 3
  store float %e, ptr addrspace(1) %out, align 4
  ret void
}

; Scalars only: no vector accesses, widest is 4 bytes.
; CHECK-LABEL: kernel scalar_copy
; CHECK:       vector_accesses: 0 accesses/thread
; CHECK-NEXT:  max_access_bytes: 4 bytes
define void @scalar_copy(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %v = load float, ptr addrspace(1) %in, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @float4_copy, !"kernel", i32 1}
!1 = !{ptr @scalar_copy, !"kernel", i32 1}
