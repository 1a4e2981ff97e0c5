; Register estimate: peak simultaneously live 32-bit values (pointers and
; doubles count 2, i1 none) plus 8 reserved. Hand-computed below.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Nothing live: 0 + 8.
; CHECK-LABEL: kernel trivial
; CHECK:       register_estimate: 8 registers/thread
define void @trivial() {
  ret void
}

; 16 loads kept live before a chain of adds. Peak just before the load of
; %v14: %v0..%v13 (14) + %out (2) + %in (2, still needed for %p15) + %p14 (2)
; = 20 -> 28.
; CHECK-LABEL: kernel many_live
; CHECK:       register_estimate: 28 registers/thread
define void @many_live(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %v0 = load float, ptr addrspace(1) %in, align 4
  %p1 = getelementptr inbounds float, ptr addrspace(1) %in, i64 1
  %v1 = load float, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds float, ptr addrspace(1) %in, i64 2
  %v2 = load float, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr inbounds float, ptr addrspace(1) %in, i64 3
  %v3 = load float, ptr addrspace(1) %p3, align 4
  %p4 = getelementptr inbounds float, ptr addrspace(1) %in, i64 4
  %v4 = load float, ptr addrspace(1) %p4, align 4
  %p5 = getelementptr inbounds float, ptr addrspace(1) %in, i64 5
  %v5 = load float, ptr addrspace(1) %p5, align 4
  %p6 = getelementptr inbounds float, ptr addrspace(1) %in, i64 6
  %v6 = load float, ptr addrspace(1) %p6, align 4
  %p7 = getelementptr inbounds float, ptr addrspace(1) %in, i64 7
  %v7 = load float, ptr addrspace(1) %p7, align 4
  %p8 = getelementptr inbounds float, ptr addrspace(1) %in, i64 8
  %v8 = load float, ptr addrspace(1) %p8, align 4
  %p9 = getelementptr inbounds float, ptr addrspace(1) %in, i64 9
  %v9 = load float, ptr addrspace(1) %p9, align 4
  %p10 = getelementptr inbounds float, ptr addrspace(1) %in, i64 10
  %v10 = load float, ptr addrspace(1) %p10, align 4
  %p11 = getelementptr inbounds float, ptr addrspace(1) %in, i64 11
  %v11 = load float, ptr addrspace(1) %p11, align 4
  %p12 = getelementptr inbounds float, ptr addrspace(1) %in, i64 12
  %v12 = load float, ptr addrspace(1) %p12, align 4
  %p13 = getelementptr inbounds float, ptr addrspace(1) %in, i64 13
  %v13 = load float, ptr addrspace(1) %p13, align 4
  %p14 = getelementptr inbounds float, ptr addrspace(1) %in, i64 14
  %v14 = load float, ptr addrspace(1) %p14, align 4
  %p15 = getelementptr inbounds float, ptr addrspace(1) %in, i64 15
  %v15 = load float, ptr addrspace(1) %p15, align 4
  %s1 = fadd float %v0, %v1
  %s2 = fadd float %s1, %v2
  %s3 = fadd float %s2, %v3
  %s4 = fadd float %s3, %v4
  %s5 = fadd float %s4, %v5
  %s6 = fadd float %s5, %v6
  %s7 = fadd float %s6, %v7
  %s8 = fadd float %s7, %v8
  %s9 = fadd float %s8, %v9
  %s10 = fadd float %s9, %v10
  %s11 = fadd float %s10, %v11
  %s12 = fadd float %s11, %v12
  %s13 = fadd float %s12, %v13
  %s14 = fadd float %s13, %v14
  %s15 = fadd float %s14, %v15
  store float %s15, ptr addrspace(1) %out, align 4
  ret void
}

; Values live across a loop: at the loop header %out (2), %x, %y, %d (2),
; %i, %acc (2) = 9 -> 17.
; CHECK-LABEL: kernel loop_live
; CHECK:       register_estimate: 17 registers/thread
define void @loop_live(ptr addrspace(1) %out, float %a, float %b, double %d) {
entry:
  %x = fmul float %a, %b
  %y = fadd float %a, %b
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ %d, %entry ], [ %acc.next, %loop ]
  %acc.next = fadd double %acc, %d
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp eq i32 %i.next, 10
  br i1 %c, label %exit, label %loop
exit:
  %s = fadd float %x, %y
  %e = fpext float %s to double
  %r = fadd double %e, %acc.next
  store double %r, ptr addrspace(1) %out, align 8
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @trivial, !"kernel", i32 1}
!1 = !{ptr @many_live, !"kernel", i32 1}
!2 = !{ptr @loop_live, !"kernel", i32 1}
