; Which special registers a kernel reads: the dims line lists the axes of
; tid/ctaid/ntid/nctaid; reads_dim_y/z are set by threadIdx, blockIdx or
; blockDim (not gridDim). Reads in called functions count; laneid is no dim.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel tid_xy
; CHECK:       reads_dim_y: 1 0/1
; CHECK-NEXT:  reads_dim_z: 0 0/1
; CHECK:       dims: tid=xy ctaid=x ntid=x nctaid=
define void @tid_xy(ptr addrspace(1) %out) {
  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %s1 = add i32 %x, %y
  %s2 = add i32 %s1, %b
  %s3 = add i32 %s2, %n
  %s4 = add i32 %s3, %l
  store i32 %s4, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: kernel ctaid_z
; CHECK:       reads_dim_y: 0 0/1
; CHECK-NEXT:  reads_dim_z: 1 0/1
; CHECK:       dims: tid= ctaid=z ntid= nctaid=
define void @ctaid_z(ptr addrspace(1) %out) {
  %z = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  store i32 %z, ptr addrspace(1) %out, align 4
  ret void
}

; gridDim.y alone sets neither flag.
; CHECK-LABEL: kernel nctaid_y
; CHECK:       reads_dim_y: 0 0/1
; CHECK-NEXT:  reads_dim_z: 0 0/1
; CHECK:       dims: tid= ctaid= ntid= nctaid=y
define void @nctaid_y(ptr addrspace(1) %out) {
  %g = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  store i32 %g, ptr addrspace(1) %out, align 4
  ret void
}

; A ptx_kernel (calling convention) whose callee reads ntid.z and tid.x.
; CHECK-LABEL: kernel via_callee
; CHECK:       reads_dim_y: 0 0/1
; CHECK-NEXT:  reads_dim_z: 1 0/1
; CHECK:       dims: tid=x ctaid= ntid=z nctaid=
define ptx_kernel void @via_callee(ptr addrspace(1) %out) {
  %v = call i32 @block_z()
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

define internal i32 @block_z() {
  %z = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s = add i32 %z, %x
  ret i32 %s
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @tid_xy, !"kernel", i32 1}
!1 = !{ptr @ctaid_z, !"kernel", i32 1}
!2 = !{ptr @nctaid_y, !"kernel", i32 1}
