; Integer ops (arithmetic, logic, shifts, compares, selects, integer
; intrinsics; vectors per lane) and int<->fp / fp<->fp conversions
; (instructions and libdevice/NVVM conversion calls). Integer casts
; (zext/sext/trunc) are neither.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; 13 binary ops + icmp + select + 4 lanes of <4 x i32> add + smax + ctpop = 21.
; CHECK-LABEL: kernel int_mix
; Instructions: 27, the vector add issuing once per lane (4).
; CHECK-NEXT:  instructions: 27 instr/thread
; CHECK-NEXT:  fp32_ops: 0 ops/thread
; CHECK-NEXT:  fp32_fma: 0 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 0 ops/thread
; CHECK-NEXT:  fp64_fma: 0 ops/thread
; CHECK-NEXT:  int_ops: 21 ops/thread
; CHECK-NEXT:  conversions: 0 ops/thread
; CHECK-NEXT:  special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 0 flop/thread
define void @int_mix(ptr addrspace(1) %out, ptr addrspace(1) %vout, i32 %a, i32 %b, <4 x i32> %v) {
  %1 = add i32 %a, %b
  %2 = sub i32 %1, %a
  %3 = mul i32 %2, %b
  %4 = udiv i32 %3, %b
  %5 = sdiv i32 %4, %a
  %6 = urem i32 %5, %b
  %7 = srem i32 %6, %a
  %8 = shl i32 %7, 3
  %9 = lshr i32 %8, 1
  %10 = ashr i32 %9, 1
  %11 = and i32 %10, %a
  %12 = or i32 %11, %b
  %13 = xor i32 %12, %a
  %c = icmp slt i32 %13, %b
  %s = select i1 %c, i32 %13, i32 %a
  %mx = call i32 @llvm.smax.i32(i32 %s, i32 %b)
  %pc = call i32 @llvm.ctpop.i32(i32 %mx)
  %z = zext i32 %pc to i64
  %t = trunc i64 %z to i16
  %x = sext i16 %t to i32
  store i32 %x, ptr addrspace(1) %out, align 4
  %vv = add <4 x i32> %v, %v
  store <4 x i32> %vv, ptr addrspace(1) %vout, align 16
  ret void
}

; sitofp, uitofp, fptosi, fptoui, fpext, fptrunc, a <2 x i32> sitofp (2
; lanes), __nv_float2int_rn and llvm.nvvm.f2h.rn: 10. fptosi feeds no FP op.
; CHECK-LABEL: kernel conversions
; Instructions: 18, the vector sitofp issuing once per lane (2).
; CHECK-NEXT:  instructions: 18 instr/thread
; CHECK-NEXT:  fp32_ops: 0 ops/thread
; CHECK-NEXT:  fp32_fma: 0 ops/thread
; CHECK-NEXT:  fp16_ops: 0 ops/thread
; CHECK-NEXT:  fp16_fma: 0 ops/thread
; CHECK-NEXT:  fp64_ops: 0 ops/thread
; CHECK-NEXT:  fp64_fma: 0 ops/thread
; CHECK-NEXT:  int_ops: 2 ops/thread
; CHECK-NEXT:  conversions: 10 ops/thread
; CHECK-NEXT:  special_fns: 0 ops/thread
; CHECK-NEXT:  flops: 0 flop/thread
define void @conversions(ptr addrspace(1) %out, i32 %i, float %f, double %d, <2 x i32> %v) {
  %1 = sitofp i32 %i to float
  %2 = uitofp i32 %i to double
  %3 = fptosi float %f to i32
  %4 = fptoui double %d to i32
  %5 = fpext float %1 to double
  %6 = fptrunc double %2 to float
  %7 = sitofp <2 x i32> %v to <2 x float>
  %8 = call i32 @__nv_float2int_rn(float %6)
  %9 = call i16 @llvm.nvvm.f2h.rn(float %f)
  %10 = add i32 %3, %4
  %11 = add i32 %10, %8
  %12 = zext i16 %9 to i32
  store i32 %11, ptr addrspace(1) %out, align 4
  store double %5, ptr addrspace(1) %out, align 8
  store <2 x float> %7, ptr addrspace(1) %out, align 8
  store i32 %12, ptr addrspace(1) %out, align 4
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @__nv_float2int_rn(float)
declare i16 @llvm.nvvm.f2h.rn(float)

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @int_mix, !"kernel", i32 1}
!1 = !{ptr @conversions, !"kernel", i32 1}
