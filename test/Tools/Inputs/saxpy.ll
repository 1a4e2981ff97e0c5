; Input of the energy-features CLI tests: a saxpy kernel, a bounded kernel
; and a device function (which is not reported).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @saxpy(ptr addrspace(1) %x, ptr addrspace(1) %y, float %a, i32 %n) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bd = mul i32 %b, %d
  %i = add i32 %bd, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit
body:
  %i64 = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i64
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i64
  %vx = load float, ptr addrspace(1) %px, align 4
  %vy = load float, ptr addrspace(1) %py, align 4
  %r = call float @llvm.fmuladd.f32(float %a, float %vx, float %vy)
  store float %r, ptr addrspace(1) %py, align 4
  br label %exit
exit:
  ret void
}

define void @bounded(ptr addrspace(1) %out) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  call void @llvm.nvvm.barrier0()
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  %v = call float @device_fn(float 2.0)
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

define float @device_fn(float %x) {
  %s = call float @llvm.sqrt.f32(float %x)
  ret float %s
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare float @llvm.fmuladd.f32(float, float, float)
declare float @llvm.sqrt.f32(float)
declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @saxpy, !"kernel", i32 1}
!1 = !{ptr @bounded, !"kernel", i32 1, !"maxntidx", i32 128, !"minctasm", i32 2}
