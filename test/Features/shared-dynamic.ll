; Extern (dynamic) shared memory is a zero-sized addrspace(3) array: it sets
; uses_dynamic_shared and adds no static bytes.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x float], align 4
@fixed = internal addrspace(3) global [16 x float] undef, align 4

; CHECK-LABEL: kernel dynamic_only
; CHECK:       shared_loads: 1 accesses/thread
; CHECK:       static_shared_bytes: 0 bytes/block
; CHECK-NEXT:  uses_dynamic_shared: 1 0/1
define void @dynamic_only(ptr addrspace(1) %out) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr inbounds [0 x float], ptr addrspace(3) @dyn, i32 0, i32 %t
  %v = load float, ptr addrspace(3) %p, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: kernel dynamic_and_static
; CHECK:       static_shared_bytes: 64 bytes/block
; CHECK-NEXT:  uses_dynamic_shared: 1 0/1
define void @dynamic_and_static(ptr addrspace(1) %out) {
  %v = load float, ptr addrspace(3) @dyn, align 4
  store float %v, ptr addrspace(3) @fixed, align 4
  ret void
}

; CHECK-LABEL: kernel static_only
; CHECK:       static_shared_bytes: 64 bytes/block
; CHECK-NEXT:  uses_dynamic_shared: 0 0/1
define void @static_only(ptr addrspace(1) %out) {
  store float 0.0, ptr addrspace(3) @fixed, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @dynamic_only, !"kernel", i32 1}
!1 = !{ptr @dynamic_and_static, !"kernel", i32 1}
!2 = !{ptr @static_only, !"kernel", i32 1}
