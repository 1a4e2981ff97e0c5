// The launch timer of energy.cuh (-DENERGY_TIME_LAUNCHES; what
// python -m energy.tune --program reads), run against a fake CUDA runtime
// (Inputs/fake-cudart.cpp, whose events time every launch FAKE_KERNEL_MS):
// no GPU needed. test/CUDA/launch-timing-build.test builds this file with
// nvcc and energy-cuda.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -DENERGY_TIME_LAUNCHES -c %s -o %t/timed.o
// RUN: %clang -x c++ -O2 -I %cuda_path/include -c %S/Inputs/fake-cudart.cpp -o %t/fake.o
// RUN: %clang %t/timed.o %t/fake.o -lstdc++ -ldl -o %t/timed
//
// With ENERGY_TIME_FILE, every ENERGY_LAUNCH appends a line: the kernel, its
// time in seconds, its energy in joules ("-" where NVML's counter cannot be
// read, as on this machine; the first line says why).
// RUN: env ENERGY_TIME_FILE=%t/all.tsv FAKE_RECORD=128,1,1,0,1 FAKE_KERNEL_MS=2.5 %t/timed
// RUN: FileCheck %s --check-prefix=ALL --match-full-lines < %t/all.tsv
// ALL: # energy-time-v1	nvml	{{ok|unavailable: .+}}
// ALL-NEXT: scale	0.0025	{{-|[0-9.e+-]+}}
// ALL-NEXT: scale	0.0025	{{-|[0-9.e+-]+}}
// ALL-NEXT: scale	0.0025	{{-|[0-9.e+-]+}}
// ALL-NEXT: dyn	0.0025	{{-|[0-9.e+-]+}}
// ALL-NOT: {{.}}
// The tuner's reader (python -m energy.tune --program) reads what the timer wrote:
// RUN: %python -c "from energy import tune_program; import sys; \
// RUN:   print(tune_program.read_time_file(sys.argv[1], 'scale'))" %t/all.tsv \
// RUN:   | FileCheck %s --check-prefix=READ
// READ: (True, '{{ok|unavailable: .+}}', [(0.0025, {{None|[0-9.e+-]+}}), (0.0025, {{.*}}), (0.0025, {{.*}})], None)
//
// ENERGY_TIME_KERNEL times one kernel only; a failed launch (a block of 0
// threads) is a line "kernel<TAB>error<TAB>name"; a second run appends.
// RUN: env ENERGY_TIME_FILE=%t/one.tsv ENERGY_TIME_KERNEL=dyn FAKE_RECORD=128,1,1,0,1 %t/timed
// RUN: env ENERGY_TIME_FILE=%t/one.tsv ENERGY_TIME_KERNEL=dyn FAKE_RECORD=0,0,0,0,1 %t/timed
// RUN: FileCheck %s --check-prefix=ONE --match-full-lines < %t/one.tsv
// ONE: # energy-time-v1	nvml	{{.*}}
// ONE-NEXT: dyn	0.002	{{.*}}
// ONE-NEXT: # energy-time-v1	nvml	{{.*}}
// ONE-NEXT: dyn	error	error 9
// ONE-NOT: {{.}}
//
// Without ENERGY_TIME_FILE nothing is written and the launches are the same.
// RUN: env FAKE_RECORD=128,1,1,0,1 %t/timed | FileCheck %s --check-prefix=LAUNCH
// RUN: ls %t | FileCheck %s --check-prefix=FILES --implicit-check-not=.tsv
// FILES: all.tsv
// FILES: one.tsv
// LAUNCH-COUNT-4: launch grid 8192x1x1 block 128x1x1 dynamic shared 0: no error
//
// Without -DENERGY_TIME_LAUNCHES the timer is not compiled in: the launch path
// reads no environment and records no event.
// RUN: %clang -x cuda --cuda-host-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -isystem %srcroot/include/energy/cuda-compat -I %srcroot/include -Wno-unknown-cuda-version \
// RUN:   -O2 -c %s -o %t/plain.o
// RUN: llvm-nm %t/plain.o | FileCheck %s --check-prefix=PLAIN
// RUN: %clang %t/plain.o %t/fake.o -lstdc++ -o %t/plain
// RUN: env FAKE_RECORD=128,1,1,0,1 %t/plain > %t/plain.out
// RUN: env FAKE_RECORD=128,1,1,0,1 %t/timed > %t/timed.out
// RUN: diff %t/plain.out %t/timed.out
// RUN: llvm-nm %t/timed.o | FileCheck %s --check-prefix=TIMED
// PLAIN-NOT: {{getenv|dlopen|cudaEvent}}
// PLAIN: U cudaLaunchKernel
// PLAIN-NOT: {{getenv|dlopen|cudaEvent}}
// TIMED-DAG: U cudaEventRecord
// TIMED-DAG: U getenv
// TIMED-DAG: U dlopen
#include <energy/energy.cuh>
#include <cstdio>

ENERGY_KERNEL(scale) void scale(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= 2.0f;
}

ENERGY_DYNAMIC_SHARED(dyn, sizeof(float), 16);
ENERGY_KERNEL_BLOCK(dyn, 128, 1) void dyn(float *x) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

int main() {
  const int n = 1 << 20;
  for (int launch = 0; launch < 3; ++launch)
    ENERGY_LAUNCH(n, scale)(n, (float *)0);
  ENERGY_LAUNCH(n, dyn)((float *)0);
  return 0;
}
