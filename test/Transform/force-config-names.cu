// -energy-force-config may name a kernel that did not opt in by its mangled
// name or its demangled one: the full signature, the function name with its
// template arguments, or the bare name where only one kernel has it. Remarks
// and the report show the demangled name. On kernels that did not opt in a
// forced config is advice only: their host launches keep their block.
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll

// RUN: %opt %loadenergy -passes=energy-optimize -pass-remarks-analysis=energy \
// RUN:   -energy-force-config=scale:64 '-energy-force-config=fill<int>:96' \
// RUN:   '-energy-force-config=void fill<float>(float*):128' \
// RUN:   -energy-report=%t.json %t.ll -S -o - 2>%t.remarks | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// IR-NOT: reqntid
// REMARK-DAG: remark: {{.*}}kernel scale(int, float*) is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block 64 (forced)
// REMARK-DAG: remark: {{.*}}kernel void fill<int>(int*) is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block 96 (forced)
// REMARK-DAG: remark: {{.*}}kernel void fill<float>(float*) is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block 128 (forced)
// REPORT: "kernel": "scale(int, float*)",
// REPORT-NEXT: "ir_name": "_Z5scaleiPf",

// The mangled name still works; 'fill' names two kernels.
// RUN: %opt %loadenergy -passes=energy-optimize -energy-force-config=_Z5scaleiPf:64 \
// RUN:   -disable-output %t.ll
// RUN: not %opt %loadenergy -passes=energy-optimize -energy-force-config=fill:64 \
// RUN:   -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// AMBIGUOUS: error: energy-optimize: -energy-force-config names kernel 'fill', which is ambiguous: 'void fill<int>(int*)', 'void fill<float>(float*)'

// Two names of one kernel with different configurations conflict.
// RUN: not %opt %loadenergy -passes=energy-optimize -energy-force-config=scale:64 \
// RUN:   -energy-force-config=_Z5scaleiPf:128 -disable-output %t.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CONFLICT
// CONFLICT: error: energy-optimize: -energy-force-config gives kernel 'scale(int, float*)' two configurations, as 'scale' and as '_Z5scaleiPf'

__global__ void scale(int n, float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

template <typename T> __global__ void fill(T *x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] = T(1);
}
template __global__ void fill<int>(int *);
template __global__ void fill<float>(float *);
