; Counts are weighted by the product of the enclosing loops' trip counts:
; exact constant trip counts, a constant maximum, a symbolic count with the
; default extent (4096) for unknown bounds, and the default (8, or
; -energy-default-trip-count) for loops ScalarEvolution cannot count.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines --check-prefixes=CHECK,DEF
; RUN: %opt %loadenergy -energy-default-trip-count=3 -passes='print<energy-features>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --match-full-lines --check-prefixes=CHECK,T3

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; 16 iterations of {fadd, add, icmp, br} + entry br + store + ret = 67 (phis
; issue nothing).
; CHECK-LABEL: kernel loop16
; CHECK-NEXT:  instructions: 67 instr/thread
; CHECK-NEXT:  fp32_ops: 16 ops/thread
; CHECK:       int_ops: 32 ops/thread
; CHECK:       global_stores: 1 accesses/thread
; CHECK:       branches: 16 ops/thread
; CHECK-NEXT:  divergent_branches: 0 ops/thread
; CHECK:       loops: 1 count
; CHECK-NEXT:  max_loop_depth: 1 count
; CHECK-NEXT:  unknown_trip_loops: 0 count
define void @loop16(ptr addrspace(1) %out, float %a) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fadd float %acc, %a
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 16
  br i1 %done, label %exit, label %loop
exit:
  store float %acc.next, ptr addrspace(1) %out, align 4
  ret void
}

; Outer loop of 4 around an inner loop of 8: the inner fadd runs 32 times,
; the outer fmul 4 times; the store in the inner loop 32 times.
; instructions: 32 x 5 (inner) + 4 x 5 (outer) + entry br + ret = 182.
; CHECK-LABEL: kernel nested
; CHECK-NEXT:  instructions: 182 instr/thread
; CHECK-NEXT:  fp32_ops: 36 ops/thread
; CHECK:       int_ops: 72 ops/thread
; CHECK:       global_stores: 32 accesses/thread
; CHECK-NEXT:  global_store_bytes: 128 bytes/thread
; CHECK:       branches: 36 ops/thread
; CHECK:       loops: 2 count
; CHECK-NEXT:  max_loop_depth: 2 count
; CHECK-NEXT:  unknown_trip_loops: 0 count
define void @nested(ptr addrspace(1) %out, float %a) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 1.0, %entry ], [ %acc.scaled, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %sum = phi float [ %acc, %outer ], [ %sum.next, %inner ]
  %sum.next = fadd float %sum, %a
  store float %sum.next, ptr addrspace(1) %out, align 4
  %j.next = add nuw nsw i32 %j, 1
  %inner.done = icmp eq i32 %j.next, 8
  br i1 %inner.done, label %outer.latch, label %inner
outer.latch:
  %acc.scaled = fmul float %sum.next, %a
  %i.next = add nuw nsw i32 %i, 1
  %outer.done = icmp eq i32 %i.next, 4
  br i1 %outer.done, label %exit, label %outer
exit:
  ret void
}

; Two exits (i < n, i < 10): no exact trip count, constant maximum 10.
; instructions: 10 x 6 + entry br + store + ret = 63.
; CHECK-LABEL: kernel max10
; CHECK-NEXT:  instructions: 63 instr/thread
; CHECK-NEXT:  fp32_ops: 10 ops/thread
; CHECK:       branches: 20 ops/thread
; CHECK:       loops: 1 count
; CHECK-NEXT:  max_loop_depth: 1 count
; CHECK-NEXT:  unknown_trip_loops: 0 count
define void @max10(ptr addrspace(1) %out, float %a, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %latch ]
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %latch, label %exit
latch:
  %acc.next = fadd float %acc, %a
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ult i32 %i.next, 10
  br i1 %more, label %loop, label %exit
exit:
  %r = phi float [ %acc, %loop ], [ %acc.next, %latch ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; i < n with n unknown: the symbolic count with n taken as the default
; extent, 4096 (the trip-count option does not apply). instructions:
; 4096 x 4 + icmp, br, store, ret = 16388.
; CHECK-LABEL: kernel symbolic_trip
; CHECK-NEXT:  instructions: 16388 instr/thread
; CHECK-NEXT:  fp32_ops: 4096 ops/thread
; CHECK:       int_ops: 8193 ops/thread
; CHECK:       branches: 4097 ops/thread
; CHECK:     loops: 1 count
; CHECK-NEXT: max_loop_depth: 1 count
; CHECK-NEXT: unknown_trip_loops: 1 count
define void @symbolic_trip(ptr addrspace(1) %out, float %a, i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fadd float %acc, %a
  %i.next = add nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

; The exit depends on loaded data: no count at all, so the default trip
; count (8, or 3 with the option). Per iteration: fadd, add, gep, load,
; fcmp, br; plus br, store, ret outside the loop.
; DEF-LABEL: kernel data_dependent
; DEF-NEXT:  instructions: 51 instr/thread
; DEF-NEXT:  fp32_ops: 16 ops/thread
; DEF:       int_ops: 8 ops/thread
; DEF:       global_loads: 8 accesses/thread
; DEF:       branches: 8 ops/thread
; T3-LABEL:  kernel data_dependent
; T3-NEXT:   instructions: 21 instr/thread
; T3-NEXT:   fp32_ops: 6 ops/thread
; T3:        int_ops: 3 ops/thread
; T3:        global_loads: 3 accesses/thread
; T3:        branches: 3 ops/thread
; CHECK:     unknown_trip_loops: 1 count
define void @data_dependent(ptr addrspace(1) %x, ptr addrspace(1) %out, float %a) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fadd float %acc, %a
  %i.next = add nsw i32 %i, 1
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i32 %i.next
  %v = load float, ptr addrspace(1) %p, align 4
  %done = fcmp ogt float %v, 0.0
  br i1 %done, label %exit, label %loop
exit:
  store float %acc.next, ptr addrspace(1) %out, align 4
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @loop16, !"kernel", i32 1}
!1 = !{ptr @nested, !"kernel", i32 1}
!2 = !{ptr @max10, !"kernel", i32 1}
!3 = !{ptr @symbolic_trip, !"kernel", i32 1}
!4 = !{ptr @data_dependent, !"kernel", i32 1}
