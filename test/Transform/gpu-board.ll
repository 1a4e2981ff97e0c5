; -energy-gpu (pass parameter gpu=) names the board the cost model describes.
; An RTX A4000 and an RTX A6000 are both sm_86, with the same occupancy
; limits, but 48 SMs and 448 GB/s against 84 SMs and 768 GB/s: the same
; launch of 2^24 items is predicted faster on the A6000. Without the option,
; sm_86 is its default board, the A10, and a note in the remark and the
; report says so and names the other sm_86 boards (an RTX 3070 that runs
; the code is not silently an A10); the report's gpu_from says where the
; board came from. The report and the remark name the
; board; its model description names it too, and the constants name their
; origin (lib/CostModel/CalibratedConstants.inc keeps the defaults for
; ampere-ga10x: its fit did not predict held-out kernels better).
; RUN: %opt %loadenergy -passes=energy-optimize -energy-gpu=rtx-a4000 \
; RUN:   -energy-force-config=fill:256 -energy-report=%t.a4000.json %s \
; RUN:   -pass-remarks-analysis=energy -disable-output 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt %loadenergy -passes='energy-optimize<gpu=rtx-a6000;force=fill:256;report=%t.a6000.json>' \
; RUN:   %s -disable-output
; RUN: %opt %loadenergy -passes=energy-optimize -energy-force-config=fill:256 \
; RUN:   -energy-report=%t.default.json %s -disable-output \
; RUN:   -pass-remarks-analysis=energy 2>&1 | FileCheck %s --check-prefix=DEFAULT-REMARK
; RUN: FileCheck %s --check-prefix=A4000 < %t.a4000.json
; RUN: FileCheck %s --check-prefix=A6000 < %t.a6000.json
; RUN: FileCheck %s --check-prefix=DEFAULT < %t.default.json
; RUN: %python -c "import json,sys; \
; RUN:   t = [json.load(open(f))['kernels'][0]['choice']['time_s'] for f in sys.argv[1:]]; \
; RUN:   print('a6000 faster' if t[1] < t[0] else 'a6000 not faster', 'a6000 like a4000' if t[1] == t[2] else '')" \
; RUN:   %t.a4000.json %t.a6000.json %t.default.json | FileCheck %s --check-prefix=TIME

; The same board under -energy-arch that agrees (sm_86) is no conflict.
; RUN: %opt %loadenergy -passes=energy-optimize -energy-arch=sm_86 -energy-gpu=rtx-a4000 -energy-force-config=fill:256 \
; RUN:   -energy-report=%t.agree.json %s -disable-output
; RUN: FileCheck %s --check-prefix=A4000 < %t.agree.json

; REMARK: remark: {{.*}}kernel fill {{.*}} per launch of 16777216 items on rtx-a4000 (sm_86);
; A4000:      "arch": "sm_86",
; A4000-NEXT: "gpu": "rtx-a4000",
; A4000-NEXT: "gpu_from": "-energy-gpu",
; A4000-NEXT: "model": "analytic (sm_86, RTX A4000)",
; A4000-NEXT: "model_constants": "datasheet defaults",
; A4000-NEXT: "notes": [],
; A6000:      "arch": "sm_86",
; A6000-NEXT: "gpu": "rtx-a6000",
; A6000-NEXT: "gpu_from": "-energy-gpu",
; A6000-NEXT: "model": "analytic (sm_86, RTX A6000)",
; DEFAULT:      "arch": "sm_86",
; DEFAULT-NEXT: "gpu": "a10",
; DEFAULT-NEXT: "gpu_from": "default board of sm_86",
; DEFAULT-NEXT: "model": "analytic (sm_86, A10)",
; DEFAULT-NEXT: "model_constants":
; DEFAULT-NEXT: "notes": [
; DEFAULT-NEXT:   "sm_86 is modelled on its default board a10 (A10); -energy-gpu names the board that runs it (sm_86: a10, a40, rtx-3060-laptop, rtx-3090, rtx-3070, rtx-3080, rtx-a4000, rtx-a6000)"
; DEFAULT-NEXT: ],
; DEFAULT-REMARK: remark: {{.*}}kernel fill: sm_86 is modelled on its default board a10 (A10); -energy-gpu names the board that runs it
; TIME: a6000 faster
; TIME-NOT: like
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

define void @fill(ptr addrspace(1) %out, i32 %n) #0 {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %fill, label %done
fill:
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float 1.0, ptr addrspace(1) %p, align 4
  br label %done
done:
  ret void
}

attributes #0 = { "target-cpu"="sm_86" }

!nvvm.annotations = !{!0}
!0 = !{ptr @fill, !"kernel", i32 1}
