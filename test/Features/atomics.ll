; Atomic RMW / cmpxchg (instructions and NVVM atomic intrinsics) on global
; and shared memory; generic pointers are resolved like loads and stores.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@counter = internal addrspace(3) global i32 undef, align 4
@sum = internal addrspace(3) global float undef, align 4

; global: atomicrmw add, cmpxchg through the generic kernel argument, the
; nvvm intrinsic on addrspace(1), 4 x atomicrmw in the loop = 7.
; shared: atomicrmw fadd, atomicrmw max through a generic cast, the nvvm
; intrinsic on addrspace(3) = 3.
; CHECK-LABEL: kernel atomics
; CHECK:       global_loads: 0 accesses/thread
; CHECK-NEXT:  global_load_bytes: 0 bytes/thread
; CHECK-NEXT:  global_stores: 0 accesses/thread
; CHECK:       global_atomics: 7 ops/thread
; CHECK-NEXT:  global_same_address_atomics: 0 ops/thread
; CHECK-NEXT:  shared_atomics: 3 ops/thread
define void @atomics(ptr addrspace(1) %g, ptr %gen, float %x) {
entry:
  %a = atomicrmw add ptr addrspace(1) %g, i32 1 monotonic, align 4
  %b = atomicrmw fadd ptr addrspace(3) @sum, float %x monotonic, align 4
  %c = cmpxchg ptr %gen, i32 0, i32 1 seq_cst seq_cst, align 4
  %cnt = addrspacecast ptr addrspace(3) @counter to ptr
  %d = atomicrmw max ptr %cnt, i32 %a monotonic, align 4
  %e = call float @llvm.nvvm.atomic.add.gen.f.cta.f32.p3(ptr addrspace(3) @sum, float %x)
  %f = call float @llvm.nvvm.atomic.add.gen.f.cta.f32.p1(ptr addrspace(1) %g, float %x)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %r = atomicrmw add ptr addrspace(1) %g, i32 %i monotonic, align 4
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

declare float @llvm.nvvm.atomic.add.gen.f.cta.f32.p3(ptr addrspace(3), float)
declare float @llvm.nvvm.atomic.add.gen.f.cta.f32.p1(ptr addrspace(1), float)

!nvvm.annotations = !{!0}
!0 = !{ptr @atomics, !"kernel", i32 1}
