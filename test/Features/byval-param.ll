; A kernel's byval aggregate argument lives in parameter space (NVPTX lowers
; its loads to ld.param): loads from it are param loads, not global loads.
; Only plain kernel pointer arguments point to global memory.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --match-full-lines

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Params = type { float, i32 }

; What clang -O2 emits for
;   __global__ void saxpy_struct(const float *x, float *y, Params p)
; p.a and p.n: 2 param loads (8 B); x[i], y[i]: 2 global loads (8 B).
; CHECK-LABEL: kernel saxpy_struct
; CHECK:       global_loads: 2 accesses/thread
; CHECK-NEXT:  global_load_bytes: 8 bytes/thread
; CHECK-NEXT:  global_stores: 1 accesses/thread
; CHECK-NEXT:  global_store_bytes: 4 bytes/thread
; CHECK:       param_loads: 2 accesses/thread
; CHECK-NEXT:  param_load_bytes: 8 bytes/thread
; CHECK-NEXT:  generic_loads: 0 accesses/thread
; CHECK:       global_coalesced: 3 accesses/thread
; CHECK-NEXT:  global_strided: 0 accesses/thread
; CHECK-NEXT:  global_irregular: 0 accesses/thread
; CHECK-NEXT:  global_uniform: 0 accesses/thread
define void @saxpy_struct(ptr nocapture noundef readonly %x, ptr nocapture noundef %y, ptr nocapture noundef readonly byval(%struct.Params) align 4 %p) {
entry:
  %b = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bn = mul i32 %b, %n
  %t = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = add i32 %bn, %t
  %pn = getelementptr inbounds i8, ptr %p, i64 4
  %size = load i32, ptr %pn, align 4
  %in = icmp slt i32 %i, %size
  br i1 %in, label %body, label %exit
body:
  %a = load float, ptr %p, align 4
  %i64 = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %i64
  %vx = load float, ptr %px, align 4
  %m = fmul contract float %a, %vx
  %py = getelementptr inbounds float, ptr %y, i64 %i64
  %vy = load float, ptr %py, align 4
  %r = fadd contract float %m, %vy
  store float %r, ptr %py, align 4
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @saxpy_struct, !"kernel", i32 1}
