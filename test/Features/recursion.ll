; Recursive calls (calls within a call-graph cycle) are counted once each as
; a call, not followed, and the kernel gets a note. Before, the candidate
; clone inlined fib 8 rounds deep (5^8 copies of -O2 fib) and never finished.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines
; RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks-analysis=energy \
; RUN:   -pass-remarks-missed=energy -disable-output %s 2>&1 | FileCheck %s --check-prefix=OPT

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; The kernel's 3 instructions and @fib's 9 (its phi issues nothing), once:
; its own two calls of itself are instructions of @fib. int_ops: @fib's icmp
; and 3 adds.
; CHECK-LABEL: kernel fib_kernel
; CHECK-NEXT:  instructions: 12 instr/thread
; CHECK:       int_ops: 4 ops/thread
; CHECK:       branches: 1 ops/thread
; CHECK:       launch_bounds: maxntid=0,0,0 reqntid=0,0,0 minctasm=0 maxnreg=0
; CHECK-NEXT:  note: recursive: each recursive call counted once, as a call
define void @fib_kernel(ptr addrspace(1) %out, i32 %n) {
  %r = call i32 @fib(i32 %n)
  store i32 %r, ptr addrspace(1) %out, align 4
  ret void
}

define i32 @fib(i32 %n) {
entry:
  %small = icmp slt i32 %n, 2
  br i1 %small, label %done, label %rec
rec:
  %a = add i32 %n, -1
  %fa = call i32 @fib(i32 %a)
  %b = add i32 %n, -2
  %fb = call i32 @fib(i32 %b)
  %s = add i32 %fa, %fb
  br label %done
done:
  %r = phi i32 [ %n, %entry ], [ %s, %rec ]
  ret i32 %r
}

; Mutual recursion: the call of @is_odd from @is_even stays in the cycle, so
; @is_odd is not folded in: 4 + @is_even's 6 instructions (its phi issues
; nothing).
; CHECK-LABEL: kernel mutual_kernel
; CHECK-NEXT:  instructions: 10 instr/thread
; CHECK:       note: recursive: each recursive call counted once, as a call
define void @mutual_kernel(ptr addrspace(1) %out, i32 %n) {
  %e = call i1 @is_even(i32 %n)
  %z = zext i1 %e to i32
  store i32 %z, ptr addrspace(1) %out, align 4
  ret void
}

define i1 @is_even(i32 %n) {
entry:
  %zero = icmp eq i32 %n, 0
  br i1 %zero, label %done, label %rec
rec:
  %m = add i32 %n, -1
  %odd = call i1 @is_odd(i32 %m)
  br label %done
done:
  %r = phi i1 [ true, %entry ], [ %odd, %rec ]
  ret i1 %r
}

define i1 @is_odd(i32 %n) {
entry:
  %zero = icmp eq i32 %n, 0
  br i1 %zero, label %done, label %rec
rec:
  %m = add i32 %n, -1
  %even = call i1 @is_even(i32 %m)
  br label %done
done:
  %r = phi i1 [ false, %entry ], [ %even, %rec ]
  ret i1 %r
}

; Functions called twice are not recursive: every call folds in, no note.
; The kernel's 4 + 2 x (@twice's 3 + 2 x @leaf's 2) = 18.
; CHECK-LABEL: kernel shared_callee
; CHECK-NEXT:  instructions: 18 instr/thread
; CHECK-NOT:   note:
define void @shared_callee(ptr addrspace(1) %out, i32 %n) {
  %a = call i32 @twice(i32 %n)
  %b = call i32 @twice(i32 %a)
  store i32 %b, ptr addrspace(1) %out, align 4
  ret void
}

define i32 @twice(i32 %n) {
  %a = call i32 @leaf(i32 %n)
  %b = call i32 @leaf(i32 %a)
  ret i32 %b
}

define i32 @leaf(i32 %n) {
  %r = add i32 %n, 1
  ret i32 %r
}

; Each kernel is planned to its end. None gets advice: no other block is
; proven correct for code the analysis cannot see (a recursive call), nor
; for threads that all write the same word.
; OPT-DAG: remark: {{.*}}kernel fib_kernel left alone: kernel 'fib_kernel': no advice: {{.*}}it calls 'fib', which is not inlined
; OPT-DAG: remark: {{.*}}kernel mutual_kernel left alone: kernel 'mutual_kernel': no advice: {{.*}}it calls 'is_even', which is not inlined
; OPT-DAG: remark: {{.*}}kernel shared_callee left alone: kernel 'shared_callee': no advice: {{.*}}its threads would repeat each other's work

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @fib_kernel, !"kernel", i32 1}
!1 = !{ptr @mutual_kernel, !"kernel", i32 1}
!2 = !{ptr @shared_callee, !"kernel", i32 1}
