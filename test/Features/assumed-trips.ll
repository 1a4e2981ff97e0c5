; Loops whose trip count the code does not fix are listed, with the values
; their bound depends on: a kernel argument taken as -energy-default-extent
; (4096), one stated with ENERGY_ASSUME (a PTX-comment asm the analysis
; reads: the i64 value and the constant), and a loop ScalarEvolution cannot
; count at all (-energy-default-trip-count). Constant loops are not listed.
; RUN: %opt %loadenergy -passes='print<energy-features>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefixes=CHECK,DEF
; RUN: %opt %loadenergy -energy-default-extent=64 -passes='print<energy-features>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefixes=CHECK,E64
; RUN: energy-features %s -o - | FileCheck %s --check-prefix=JSON

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel bounds
; DEF:         fp32_ops: 5128 ops/thread
; E64:         fp32_ops: 1096 ops/thread
; CHECK:       unknown_trip_loops: 3 count
; CHECK:       assumed: loop at k.cu:10: trip count assumed [[N:4096|64]] (bound depends on argument 'n', taken as [[N]]); state it with ENERGY_ASSUME(n, value)
; CHECK-NEXT:  assumed: loop at k.cu:20: trip count 1024, from ENERGY_ASSUME(m, 1024)
; CHECK-NEXT:  assumed: loop at k.cu:30: trip count assumed 8 (not computable from the code; -energy-default-trip-count)
; CHECK-NOT:   assumed:

; JSON:      "assumed_trips": [
; JSON-NEXT:   {
; JSON-NEXT:     "location": "k.cu:10",
; JSON-NEXT:     "trip_count": 4096,
; JSON-NEXT:     "stated": false,
; JSON-NEXT:     "values": [
; JSON-NEXT:       {
; JSON-NEXT:         "name": "n",
; JSON-NEXT:         "argument": 0,
; JSON-NEXT:         "taken_as": 4096,
; JSON-NEXT:         "stated": false
; JSON:          "location": "k.cu:20",
; JSON-NEXT:     "trip_count": 1024,
; JSON-NEXT:     "stated": true,
; JSON:          "note": "loop at k.cu:20: trip count 1024, from ENERGY_ASSUME(m, 1024)"
define ptx_kernel void @bounds(i32 %n, i32 %m, ptr addrspace(1) %p, float %a) {
entry:
  %m.wide = sext i32 %m to i64
  call void asm sideeffect "// energy.assume $0 $1", "l,n"(i64 %m.wide, i32 1024)
  br label %unknown
unknown:
  %i = phi i32 [ 0, %entry ], [ %i.next, %unknown ]
  %x = fadd float %a, 1.0
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %unknown, label %stated, !llvm.loop !10
stated:
  %j = phi i32 [ 0, %unknown ], [ %j.next, %stated ]
  %y = fadd float %a, 2.0
  %j.next = add nuw nsw i32 %j, 1
  %d = icmp ult i32 %j.next, %m
  br i1 %d, label %stated, label %chase, !llvm.loop !20
chase:
  %q = phi ptr addrspace(1) [ %p, %stated ], [ %q.next, %chase ]
  %z = fadd float %a, 3.0
  %q.next = load ptr addrspace(1), ptr addrspace(1) %q
  %e = icmp eq ptr addrspace(1) %q.next, null
  br i1 %e, label %exit, label %chase, !llvm.loop !30
exit:
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.cu", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "bounds", scope: !1, file: !1, line: 1, unit: !0, spFlags: DISPFlagDefinition)
!10 = distinct !{!10, !11}
!11 = !DILocation(line: 10, scope: !3)
!20 = distinct !{!20, !21}
!21 = !DILocation(line: 20, scope: !3)
!30 = distinct !{!30, !31}
!31 = !DILocation(line: 30, scope: !3)
