; Static shared memory: the sizes of the addrspace(3) globals a kernel uses,
; directly, through constant expressions, or in a called device function.
; Globals the kernel never reaches do not count.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tileA = internal addrspace(3) global [256 x float] undef, align 4
@tileB = internal addrspace(3) global [64 x double] undef, align 8
@other = internal addrspace(3) global [32 x i32] undef, align 4
@unused = internal addrspace(3) global [1000 x i8] undef, align 1

; tileA (1024 B) directly and again through a constant GEP (counted once),
; tileB (512 B) in @helper.
; CHECK-LABEL: kernel uses_two_tiles
; CHECK:       shared_loads: 1 accesses/thread
; CHECK-NEXT:  shared_load_bytes: 8 bytes/thread
; CHECK-NEXT:  shared_stores: 2 accesses/thread
; CHECK-NEXT:  shared_store_bytes: 8 bytes/thread
; CHECK:       static_shared_bytes: 1536 bytes/block
; CHECK-NEXT:  uses_dynamic_shared: 0 0/1
define void @uses_two_tiles(ptr addrspace(1) %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds [256 x float], ptr addrspace(3) @tileA, i32 0, i32 %t
  store float 1.0, ptr addrspace(3) %p, align 4
  store float 2.0, ptr addrspace(3) getelementptr inbounds ([256 x float], ptr addrspace(3) @tileA, i32 0, i32 5), align 4
  %d = call double @helper(i32 %t)
  store double %d, ptr addrspace(1) %out, align 8
  ret void
}

; @other (128 B) through a generic addrspacecast constant expression.
; CHECK-LABEL: kernel uses_other
; CHECK:       static_shared_bytes: 128 bytes/block
; CHECK-NEXT:  uses_dynamic_shared: 0 0/1
define void @uses_other(ptr addrspace(1) %out) {
  %v = load i32, ptr addrspace(3) @other, align 4
  store i32 %v, ptr getelementptr inbounds ([32 x i32], ptr addrspacecast (ptr addrspace(3) @other to ptr), i64 0, i64 1), align 4
  ret void
}

; CHECK-LABEL: kernel no_shared
; CHECK:       static_shared_bytes: 0 bytes/block
; CHECK-NEXT:  uses_dynamic_shared: 0 0/1
define void @no_shared() {
  ret void
}

; Not a kernel: prints nothing of its own.
; CHECK-NOT:   kernel helper
define double @helper(i32 %i) {
  %p = getelementptr inbounds [64 x double], ptr addrspace(3) @tileB, i32 0, i32 %i
  %v = load double, ptr addrspace(3) %p, align 8
  ret double %v
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @uses_two_tiles, !"kernel", i32 1}
!1 = !{ptr @uses_other, !"kernel", i32 1}
!2 = !{ptr @no_shared, !"kernel", i32 1}
