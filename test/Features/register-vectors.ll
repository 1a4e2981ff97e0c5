; Vectors of elements narrower than 32 bits pack into registers (8 x f16:
; 4 registers, as NVPTX holds them), wider ones take a register per 32 bits
; of each element (8 x f32: 8): the rule the MLIR adapter follows too
; (FeatureCore's registersForVector; test/MLIR/features-register-vectors.mlir).
; At the peak, after the second load, %out (2) and the two loaded vectors are
; live, plus the 8 reserved registers: 2 + 4 + 4 + 8 = 18 and 2 + 8 + 8 + 8 =
; 26. Counted per lane, the halves would need 26 as well.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s
; CHECK-LABEL: kernel halves
; CHECK: register_estimate: 18 registers/thread
; CHECK-LABEL: kernel floats
; CHECK: register_estimate: 26 registers/thread

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @halves(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %a = load <8 x half>, ptr addrspace(1) %in, align 16
  %p = getelementptr inbounds i8, ptr addrspace(1) %in, i64 16
  %b = load <8 x half>, ptr addrspace(1) %p, align 16
  %c = fadd <8 x half> %a, %b
  store <8 x half> %c, ptr addrspace(1) %out, align 16
  ret void
}

define void @floats(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %a = load <8 x float>, ptr addrspace(1) %in, align 32
  %p = getelementptr inbounds i8, ptr addrspace(1) %in, i64 32
  %b = load <8 x float>, ptr addrspace(1) %p, align 32
  %c = fadd <8 x float> %a, %b
  store <8 x float> %c, ptr addrspace(1) %out, align 32
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @halves, !"kernel", i32 1}
!1 = !{ptr @floats, !"kernel", i32 1}
