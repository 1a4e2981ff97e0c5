; Clang copies a CUDA uint4 or float4 struct (`out[i] = in[i]`) with
; llvm.memcpy, and zero-fills with llvm.memset. NVPTX expands a constant
; length into loads and stores of the widest integer the alignment allows
; (8 bytes): here 2 loads and 2 stores of 8 bytes, and 4 stores of 4 bytes.
; Their bytes count as one access of the whole length, so traffic and
; footprint are exact. Before, a copy kernel moved no memory at all.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The thread index, its widening and three addresses: 5; the memcpy: 4;
; the memset: 4; ret: 1. 14 instructions (the calls counted 1 each before).
; CHECK-LABEL: kernel copy16
; CHECK-NEXT:  instructions: 14 instr/thread
; CHECK:       global_loads: 1 accesses/thread
; CHECK-NEXT:  global_load_bytes: 16 bytes/thread
; CHECK-NEXT:  global_stores: 2 accesses/thread
; CHECK-NEXT:  global_store_bytes: 32 bytes/thread
; CHECK:       global_coalesced: 3 accesses/thread
define void @copy16(ptr addrspace(1) noalias %in, ptr addrspace(1) noalias %out, ptr addrspace(1) noalias %zero) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %src = getelementptr inbounds <4 x i32>, ptr addrspace(1) %in, i64 %i
  %dst = getelementptr inbounds <4 x i32>, ptr addrspace(1) %out, i64 %i
  %z = getelementptr inbounds <4 x i32>, ptr addrspace(1) %zero, i64 %i
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) align 16 %dst, ptr addrspace(1) align 16 %src, i64 16, i1 false)
  call void @llvm.memset.p1.i64(ptr addrspace(1) align 4 %z, i8 0, i64 16, i1 false)
  ret void
}

; A length that is not a constant becomes a loop in NVPTX: not counted.
; CHECK-LABEL: kernel copy_n
; CHECK:       global_loads: 0 accesses/thread
; CHECK:       global_stores: 0 accesses/thread
define void @copy_n(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n) {
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %n, i1 false)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)
declare void @llvm.memset.p1.i64(ptr addrspace(1), i8, i64, i1)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @copy16, !"kernel", i32 1}
!1 = !{ptr @copy_n, !"kernel", i32 1}
