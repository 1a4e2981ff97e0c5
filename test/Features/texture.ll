; Texture and surface fetches read global memory through the texture path:
; each counts as a global load of its destination's bytes, whether written
; as inline PTX (tex, tld4, suld) or as an NVVM intrinsic.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; tex.2d.v4.f32 (16 bytes) + tld4.r.2d.v4.s32 (16) + suld.b.2d.v2.b32 (8) +
; llvm.nvvm.tex.unified.2d.v4f32.f32 (16) + llvm.nvvm.suld.1d.i32.trap (4).
; CHECK-LABEL: kernel fetches
; CHECK:       global_loads: 5 accesses/thread
; CHECK-NEXT:  global_load_bytes: 60 bytes/thread
; CHECK:       max_access_bytes: 16 bytes
define ptx_kernel void @fetches(i64 %tex, i64 %surf, float %x, float %y, i32 %i) {
  %a = call { float, float, float, float } asm sideeffect "tex.2d.v4.f32.f32 {$0, $1, $2, $3}, [$4, {$5, $6}];", "=f,=f,=f,=f,l,f,f"(i64 %tex, float %x, float %y)
  %b = call { i32, i32, i32, i32 } asm sideeffect "tld4.r.2d.v4.s32.f32 {$0, $1, $2, $3}, [$4, {$5, $6}];", "=r,=r,=r,=r,l,f,f"(i64 %tex, float %x, float %y)
  %c = call { i32, i32 } asm sideeffect "suld.b.2d.v2.b32.trap {$0, $1}, [$2, {$3, $3}];", "=r,=r,l,r"(i64 %surf, i32 %i)
  %d = call { float, float, float, float } @llvm.nvvm.tex.unified.2d.v4f32.f32(i64 %tex, float %x, float %y)
  %e = call i32 @llvm.nvvm.suld.1d.i32.trap(i64 %surf, i32 %i)
  ret void
}

declare { float, float, float, float } @llvm.nvvm.tex.unified.2d.v4f32.f32(i64, float, float)
declare i32 @llvm.nvvm.suld.1d.i32.trap(i64, i32)
