// An opted-in kernel with a loop bound the code does not fix says so: a
// remark and a note in its report entry name the loop, the count taken and
// the argument, and how to state it. ENERGY_ASSUME states it; the report
// then says the count is stated. The source builds without the plugin too.
// RUN: %clang %cudaflags -O2 -S -gline-tables-only -fno-discard-value-names \
// RUN:   %clangplugin -Rpass-analysis=energy -mllvm -energy-report=%t.json %s \
// RUN:   -o %t.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %clang %cudaflags -O2 -S %s -o - | FileCheck %s --check-prefix=PTX
#include <energy/energy.cuh>

ENERGY_KERNEL(rows) void rows(int n, int m, const float *x, float *y) {
  ENERGY_ASSUME(m, 512);
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  for (int j = 0; j < m; ++j)
    s += 2 * x[j];
  y[threadIdx.x] = s;
}

// REMARK: remark: kernel rows: loop at {{.*}}assumed-trips.cu:16: trip count assumed 4096 (bound depends on argument 'n', taken as 4096); state it with ENERGY_ASSUME(n, value)
// REMARK: remark: kernel rows: loop at {{.*}}assumed-trips.cu:18: trip count 512, from ENERGY_ASSUME(m, 512)

// REPORT:      "kernel": "rows",
// REPORT:      "notes": [
// REPORT-NEXT:   "sm_90 is modelled on its default board h100-sxm (H100 SXM5 80GB); -energy-gpu names the board that runs it (sm_90: h100-sxm, h100-pcie, h200)",
// REPORT-NEXT:   "loop at {{.*}}assumed-trips.cu:16: trip count assumed 4096 (bound depends on argument 'n', taken as 4096); state it with ENERGY_ASSUME(n, value)",
// REPORT-NEXT:   "loop at {{.*}}assumed-trips.cu:18: trip count 512, from ENERGY_ASSUME(m, 512)"
// REPORT-NEXT: ],
// REPORT:      "assumed_trips": [
// REPORT:        "trip_count": 4096,
// REPORT-NEXT:   "stated": false,
// REPORT:        "trip_count": 512,
// REPORT-NEXT:   "stated": true,

// The statement is a PTX comment.
// PTX: // energy.assume %rd{{[0-9]+}} 512
