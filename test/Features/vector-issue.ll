; NVPTX has no vector registers: the backend keeps each element in a
; register of its own. So moving an element in or out of a vector at a
; constant index, and shuffling, issue nothing; a vector operation issues
; once per lane (16-bit floats two lanes at a time, as f16x2); a vector load
; or store moves at most 16 bytes per instruction. OpenCL's float8 tiles
; (CLBlast's Xgemm) are full of element moves that PTX does not have.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; load <8 x float> 2, constant extract 0, dynamic extract 1, fadd 1,
; insert 0, shuffle 0, <4 x float> fmul 4, <2 x half> fadd 1, the two
; stores 1 each, ret 1: 12 instructions.
; The longest chain: load, dynamic extract, fadd, (insert, shuffle: no
; step), fmul, store: 5.
; CHECK-LABEL: kernel vectors
; CHECK-NEXT:  instructions: 12 instr/thread
; CHECK:       fp32_ops: 5 ops/thread
; CHECK:       fp16_ops: 2 ops/thread
; CHECK:       critical_path: 5 instr/thread
define void @vectors(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %hout, <2 x half> %h, i32 %i) {
  %v = load <8 x float>, ptr addrspace(1) %in, align 32
  %a = extractelement <8 x float> %v, i32 0
  %b = extractelement <8 x float> %v, i32 %i
  %s = fadd float %a, %b
  %w = insertelement <8 x float> %v, float %s, i32 1
  %q = shufflevector <8 x float> %w, <8 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %m = fmul <4 x float> %q, %q
  %hh = fadd <2 x half> %h, %h
  store <4 x float> %m, ptr addrspace(1) %out, align 16
  store <2 x half> %hh, ptr addrspace(1) %hout, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @vectors, !"kernel", i32 1}
