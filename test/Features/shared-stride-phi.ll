; GVN's PRE joins two copies of one index (zext of threadIdx.x) in a phi;
; the shared access through it still moves 4 bytes per threadIdx.x and a
; row (80 bytes) per threadIdx.y. Before, the phi read as an unknown stride.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s
; CHECK-LABEL: kernel phi_index
; CHECK: shared_stride_x: 4 bytes
; CHECK-NEXT: shared_stride_y: 80 bytes

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [8 x [20 x float]] undef, align 4

define void @phi_index(ptr addrspace(1) %out, i1 %c) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %row = zext i32 %ty to i64
  br i1 %c, label %a, label %b
a:
  %xa = zext i32 %tx to i64
  br label %join
b:
  %xb = zext i32 %tx to i64
  br label %join
join:
  %x = phi i64 [ %xa, %a ], [ %xb, %b ]
  %p = getelementptr inbounds [8 x [20 x float]], ptr addrspace(3) @tile, i64 0, i64 %row, i64 %x
  %v = load float, ptr addrspace(3) %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %v, ptr addrspace(1) %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

!nvvm.annotations = !{!0}
!0 = !{ptr @phi_index, !"kernel", i32 1}
