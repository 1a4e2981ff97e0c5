; tanh and the other transcendental LLVM intrinsics (sinh, cosh, asin, acos,
; atan, tan) are special functions, like their libdevice counterparts.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; libdevice: __nv_tanhf = 1.
; CHECK-LABEL: kernel libdevice_tanh
; CHECK:       special_fns: 1 ops/thread
define void @libdevice_tanh(ptr addrspace(1) %out, float %x) {
  %t = call float @__nv_tanhf(float %x)
  store float %t, ptr addrspace(1) %out, align 4
  ret void
}

; tanh, sinh, cosh, asin, acos, atan, tan = 7, each with the ~8 FP32
; instructions of its expansion (56), not FP32 ops themselves.
; CHECK-LABEL: kernel llvm_transcendentals
; CHECK:       fp32_ops: 56 ops/thread
; CHECK:       special_fns: 7 ops/thread
define void @llvm_transcendentals(ptr addrspace(1) %out, float %x) {
  %1 = call float @llvm.tanh.f32(float %x)
  %2 = call float @llvm.sinh.f32(float %1)
  %3 = call float @llvm.cosh.f32(float %2)
  %4 = call float @llvm.asin.f32(float %3)
  %5 = call float @llvm.acos.f32(float %4)
  %6 = call float @llvm.atan.f32(float %5)
  %7 = call float @llvm.tan.f32(float %6)
  store float %7, ptr addrspace(1) %out, align 4
  ret void
}

declare float @__nv_tanhf(float)
declare float @llvm.tanh.f32(float)
declare float @llvm.sinh.f32(float)
declare float @llvm.cosh.f32(float)
declare float @llvm.asin.f32(float)
declare float @llvm.acos.f32(float)
declare float @llvm.atan.f32(float)
declare float @llvm.tan.f32(float)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @libdevice_tanh, !"kernel", i32 1}
!1 = !{ptr @llvm_transcendentals, !"kernel", i32 1}
