; Conditional branches and divergence: a branch (or switch) is divergent when
; its condition depends on threadIdx/laneid, on data loaded through a
; thread-dependent address, on an atomic's result, or on a stack slot that
; received a thread-dependent value.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel on_tid
; CHECK:       branches: 1 ops/thread
; CHECK-NEXT:  divergent_branches: 1 ops/thread
define void @on_tid(ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %t, 16
  br i1 %c, label %then, label %exit
then:
  store i32 1, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; blockIdx.x and a kernel argument are the same for the whole block.
; CHECK-LABEL: kernel on_block_and_arg
; CHECK:       branches: 2 ops/thread
; CHECK-NEXT:  divergent_branches: 0 ops/thread
define void @on_block_and_arg(ptr addrspace(1) %out, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c = icmp ult i32 %b, %n
  br i1 %c, label %then, label %exit
then:
  %c2 = icmp sgt i32 %n, 100
  br i1 %c2, label %big, label %exit
big:
  store i32 1, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; data[tid.x] > 0 differs per thread; data[blockIdx.x] > 0 does not.
; CHECK-LABEL: kernel on_loaded_data
; CHECK:       branches: 2 ops/thread
; CHECK-NEXT:  divergent_branches: 1 ops/thread
define void @on_loaded_data(ptr addrspace(1) %data, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds float, ptr addrspace(1) %data, i32 %t
  %v = load float, ptr addrspace(1) %p, align 4
  %pos = fcmp ogt float %v, 0.0
  br i1 %pos, label %then, label %next
then:
  store float %v, ptr addrspace(1) %out, align 4
  br label %next
next:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %q = getelementptr inbounds float, ptr addrspace(1) %data, i32 %b
  %u = load float, ptr addrspace(1) %q, align 4
  %upos = fcmp ogt float %u, 0.0
  br i1 %upos, label %then2, label %exit
then2:
  store float %u, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; A switch on laneid, a branch on an atomic's result, and a branch on a
; stack slot that holds tid.y (the -O0 pattern).
; CHECK-LABEL: kernel other_sources
; CHECK:       branches: 3 ops/thread
; CHECK-NEXT:  divergent_branches: 3 ops/thread
define void @other_sources(ptr addrspace(1) %out) {
entry:
  %slot = alloca i32, align 4
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  store i32 %ty, ptr %slot, align 4
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  switch i32 %lane, label %a [ i32 0, label %b
                               i32 1, label %b ]
a:
  %old = atomicrmw add ptr addrspace(1) %out, i32 1 monotonic, align 4
  %first = icmp eq i32 %old, 0
  br i1 %first, label %b, label %exit
b:
  %y = load i32, ptr %slot, align 4
  %odd = icmp ne i32 %y, 0
  br i1 %odd, label %c, label %exit
c:
  store i32 2, ptr addrspace(1) %out, align 4
  br label %exit
exit:
  ret void
}

; A grid-stride style loop starting at tid.x: its exit branch is divergent
; and runs the default 8 times (n is unknown).
; CHECK-LABEL: kernel tid_loop
; CHECK:       branches: 9 ops/thread
; CHECK-NEXT:  divergent_branches: 9 ops/thread
define void @tid_loop(ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %any = icmp slt i32 %t, %n
  br i1 %any, label %loop, label %exit
loop:
  %i = phi i32 [ %t, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i32 %i
  store i32 0, ptr addrspace(1) %p, align 4
  %i.next = add nsw i32 %i, %nt
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()

!nvvm.annotations = !{!0, !1, !2, !3, !4}
!0 = !{ptr @on_tid, !"kernel", i32 1}
!1 = !{ptr @on_block_and_arg, !"kernel", i32 1}
!2 = !{ptr @on_loaded_data, !"kernel", i32 1}
!3 = !{ptr @other_sources, !"kernel", i32 1}
!4 = !{ptr @tid_loop, !"kernel", i32 1}
