; A tiled loop `for (k = 0; k < n; k += 32)` whose latch follows an inner
; loop: ScalarEvolution drops the nsw of `k + 32` there and cannot count the
; loop; the source's nsw still bounds it, so its count is n / 32 with n taken
; as the default extent (4096 / 32 = 128, not the default trip count 8).
; Each outer iteration stores 16 floats: 128 x 16 = 2048 global stores.
; The unsigned form (nuw, ult) counts the same; an increment without the
; flag (it may wrap) stays uncounted.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel signed_tiles
; CHECK:       global_stores: 2048 accesses/thread
; CHECK:       assumed: loop (compile with -g for its line): trip count assumed 128 (bound depends on argument 'n', taken as 4096)
define ptx_kernel void @signed_tiles(ptr addrspace(1) %a, i32 %n) {
entry:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %outer, label %exit
outer:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %i = add nuw nsw i32 %k, %j
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 0.0, ptr addrspace(1) %p
  %j.next = add nuw nsw i32 %j, 2
  %c = icmp ult i32 %j, 30
  br i1 %c, label %inner, label %latch
latch:
  call void @llvm.nvvm.barrier0()
  %k.next = add nuw nsw i32 %k, 32
  %c2 = icmp slt i32 %k.next, %n
  br i1 %c2, label %outer, label %exit
exit:
  ret void
}

; CHECK-LABEL: kernel unsigned_tiles
; CHECK:       global_stores: 2048 accesses/thread
; CHECK:       assumed: loop (compile with -g for its line): trip count assumed 128 (bound depends on argument 'n', taken as 4096)
define ptx_kernel void @unsigned_tiles(ptr addrspace(1) %a, i32 %n) {
entry:
  %g = icmp ugt i32 %n, 0
  br i1 %g, label %outer, label %exit
outer:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %i = add nuw nsw i32 %k, %j
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 0.0, ptr addrspace(1) %p
  %j.next = add nuw nsw i32 %j, 2
  %c = icmp ult i32 %j, 30
  br i1 %c, label %inner, label %latch
latch:
  call void @llvm.nvvm.barrier0()
  %k.next = add nuw i32 %k, 32
  %c2 = icmp ult i32 %k.next, %n
  br i1 %c2, label %outer, label %exit
exit:
  ret void
}

; CHECK-LABEL: kernel may_wrap
; CHECK:       global_stores: 128 accesses/thread
; CHECK:       assumed: loop (compile with -g for its line): trip count assumed 8 (not computable from the code; -energy-default-trip-count)
define ptx_kernel void @may_wrap(ptr addrspace(1) %a, i32 %n) {
entry:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %outer, label %exit
outer:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %i = add nuw nsw i32 %k, %j
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %i
  store float 0.0, ptr addrspace(1) %p
  %j.next = add nuw nsw i32 %j, 2
  %c = icmp ult i32 %j, 30
  br i1 %c, label %inner, label %latch
latch:
  call void @llvm.nvvm.barrier0()
  %k.next = add i32 %k, 32
  %c2 = icmp slt i32 %k.next, %n
  br i1 %c2, label %outer, label %exit
exit:
  ret void
}

declare void @llvm.nvvm.barrier0()
