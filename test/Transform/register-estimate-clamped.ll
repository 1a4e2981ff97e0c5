; A register estimate above 255 (here ten <32 x float> values live at once:
; 320 + %out and 8 reserved = 330) is clamped to the 255 registers ptxas
; can allocate, with a note: ptxas spills the rest. Before, every candidate
; was pruned for registers and energy-optimize failed the whole module with
; "no candidate fits the resources of sm_90", even for a kernel that was not
; opted in.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FEATURES
; Every thread of @wide does the same work, so no other block is proven
; correct for it and it gets no advice; a forced block (its host's launch)
; is predicted, from the cleaned-up code as advice is.
; RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks-analysis=energy \
; RUN:   -energy-force-config=wide:256 -energy-simplify=never -energy-report=%t.json -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK --implicit-check-not=error
; RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json

; FEATURES-LABEL: kernel wide
; FEATURES:       register_estimate: 255 registers/thread
; FEATURES:       note: register_estimate clamped to 255 from 330: ptxas will spill the rest

; REMARK: remark: {{.*}}kernel wide is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block {{[0-9]+}}

; REPORT:      "kernel": "wide",
; REPORT:      "register_estimate": 255,
; REPORT:      "notes": [
; REPORT-NEXT:   "register_estimate clamped to 255 from 330: ptxas will spill the rest"
; REPORT-NEXT: ]

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @wide(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %p0 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 0
  %v0 = load <32 x float>, ptr addrspace(1) %p0, align 128
  %p1 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 1
  %v1 = load <32 x float>, ptr addrspace(1) %p1, align 128
  %p2 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 2
  %v2 = load <32 x float>, ptr addrspace(1) %p2, align 128
  %p3 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 3
  %v3 = load <32 x float>, ptr addrspace(1) %p3, align 128
  %p4 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 4
  %v4 = load <32 x float>, ptr addrspace(1) %p4, align 128
  %p5 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 5
  %v5 = load <32 x float>, ptr addrspace(1) %p5, align 128
  %p6 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 6
  %v6 = load <32 x float>, ptr addrspace(1) %p6, align 128
  %p7 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 7
  %v7 = load <32 x float>, ptr addrspace(1) %p7, align 128
  %p8 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 8
  %v8 = load <32 x float>, ptr addrspace(1) %p8, align 128
  %p9 = getelementptr inbounds <32 x float>, ptr addrspace(1) %in, i64 9
  %v9 = load <32 x float>, ptr addrspace(1) %p9, align 128
  %s1 = fadd <32 x float> %v0, %v1
  %s2 = fadd <32 x float> %s1, %v2
  %s3 = fadd <32 x float> %s2, %v3
  %s4 = fadd <32 x float> %s3, %v4
  %s5 = fadd <32 x float> %s4, %v5
  %s6 = fadd <32 x float> %s5, %v6
  %s7 = fadd <32 x float> %s6, %v7
  %s8 = fadd <32 x float> %s7, %v8
  %s9 = fadd <32 x float> %s8, %v9
  store <32 x float> %s9, ptr addrspace(1) %out, align 128
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @wide, !"kernel", i32 1}
