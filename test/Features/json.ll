; energy-features-json<FILE> writes one JSON document with every kernel of
; the module (device functions excluded), its features, dims, bounds, notes and
; assumed trip counts.
; RUN: rm -f %t.json
; RUN: %opt %loadenergy -passes='energy-features-json<%t.json>' -disable-output %s
; RUN: %python -m json.tool %t.json > /dev/null
; RUN: FileCheck %s --input-file=%t.json --implicit-check-not='"kernel": "device_fn"'
; RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); \
; RUN:   print(len(d['kernels']), [k['kernel'] for k in d['kernels']], \
; RUN:   round(d['kernels'][0]['features']['arithmetic_intensity'], 6))" %t.json \
; RUN:   | FileCheck %s --check-prefix=PY
; Unwritable file and missing file name are errors, not crashes.
; RUN: not %opt %loadenergy -passes='energy-features-json<%t.dir/none/x.json>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOWRITE
; RUN: not %opt %loadenergy -passes='energy-features-json<>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NONAME

; PY: 2 ['saxpy', 'bounded'] 0.166667

; NOWRITE: error: cannot write features to '{{.*}}none{{/|\\}}x.json': {{[Nn]}}o such file or directory
; NONAME: error: energy-features-json<FILE> needs a file name

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK:       "module": "{{.*}}json.ll",
; CHECK-NEXT:  "kernels": [
; CHECK-NEXT:    {
; CHECK-NEXT:      "kernel": "saxpy",
; CHECK-NEXT:      "features": {
; CHECK-NEXT:        "instructions": 13,
; CHECK-NEXT:        "fp32_ops": 0,
; CHECK-NEXT:        "fp32_fma": 1,
; CHECK:             "flops": 2,
; CHECK-NEXT:        "global_loads": 2,
; CHECK-NEXT:        "global_load_bytes": 8,
; CHECK-NEXT:        "global_stores": 1,
; CHECK-NEXT:        "global_store_bytes": 4,
; CHECK:             "global_coalesced": 3,
; CHECK:             "arithmetic_intensity": 0.16666666666666666,
; CHECK:           "dims": {
; CHECK-NEXT:        "threadIdx": "x",
; CHECK-NEXT:        "blockIdx": "x",
; CHECK-NEXT:        "blockDim": "x",
; CHECK-NEXT:        "gridDim": ""
; CHECK-NEXT:      },
; CHECK-NEXT:      "launch_bounds": {
; CHECK-NEXT:        "maxntid": [
; CHECK-NEXT:          0,
; CHECK-NEXT:          0,
; CHECK-NEXT:          0
; CHECK-NEXT:        ],
define void @saxpy(ptr addrspace(1) %x, ptr addrspace(1) %y, float %a) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bn = mul i32 %b, %n
  %i = add i32 %bn, %t
  %i64 = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i64
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i64
  %vx = load float, ptr addrspace(1) %px, align 4
  %vy = load float, ptr addrspace(1) %py, align 4
  %r = call float @llvm.fmuladd.f32(float %a, float %vx, float %vy)
  store float %r, ptr addrspace(1) %py, align 4
  ret void
}

; CHECK:           "kernel": "bounded",
; CHECK:           "launch_bounds": {
; CHECK-NEXT:        "maxntid": [
; CHECK-NEXT:          128,
; CHECK-NEXT:          2,
; CHECK-NEXT:          1
; CHECK-NEXT:        ],
; CHECK-NEXT:        "reqntid": [
; CHECK-NEXT:          0,
; CHECK-NEXT:          0,
; CHECK-NEXT:          0
; CHECK-NEXT:        ],
; CHECK-NEXT:        "minctasm": 4,
; CHECK-NEXT:        "maxnreg": 0
; CHECK-NEXT:      },
; CHECK-NEXT:      "notes": [],
; CHECK-NEXT:      "assumed_trips": []
; CHECK-NEXT:    }
; CHECK-NEXT:  ]
; CHECK-NEXT:}
define void @bounded() {
  %f = call float @device_fn(float 1.0)
  ret void
}

define float @device_fn(float %v) {
  ret float %v
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare float @llvm.fmuladd.f32(float, float, float)

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @saxpy, !"kernel", i32 1}
!1 = !{ptr @bounded, !"kernel", i32 1, !"maxntidx", i32 128, !"maxntidy", i32 2, !"maxntidz", i32 1}
!2 = !{ptr @bounded, !"minctasm", i32 4}
