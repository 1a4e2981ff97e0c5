// A forced launch states the values of the kernel's integer arguments
// (argN=V, counted from 1 as remarks count unnamed arguments): loop bounds
// that read them take them, over ENERGY_ASSUME's typical value, and the
// report says where each count came from. They change the prediction,
// never the code. Bad statements are errors. The kernel is assumed-trips.cu's
// (rows(int n, int m, ...), ENERGY_ASSUME(m, 512)).
// RUN: %clang %cudaflags -O3 -S -gline-tables-only -fno-discard-value-names \
// RUN:   %clangplugin -Rpass-analysis=energy -mllvm -energy-report=%t.json \
// RUN:   -mllvm -energy-force-config=rows:256,grid=64,arg1=100,arg2=64 %S/assumed-trips.cu \
// RUN:   -o %t.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: %clang %cudaflags -O3 -S -gline-tables-only -fno-discard-value-names \
// RUN:   %clangplugin -mllvm -energy-force-config=rows:256,grid=64 %S/assumed-trips.cu \
// RUN:   -mllvm -energy-report=%t.plain.json -o %t.plain.ptx
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.json
// RUN: diff %t.ptx %t.plain.ptx
//
// Without names (clang's default), the remark counts the argument.
// RUN: %clang %cudaflags -O3 -S -gline-tables-only %clangplugin \
// RUN:   -Rpass-analysis=energy -mllvm -energy-force-config=rows:256,arg1=100 \
// RUN:   %S/assumed-trips.cu -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNNAMED
//
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=rows:256,arg3=1 %S/assumed-trips.cu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=POINTER
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=rows:256,arg5=1 %S/assumed-trips.cu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=rows:256,arg0=1 %S/assumed-trips.cu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=rows:256,arg1=2:arg1=3 %S/assumed-trips.cu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// RUN: not %clang %cudaflags -O3 -S %clangplugin \
// RUN:   -mllvm -energy-force-config=rows:256,arg1=-1 %S/assumed-trips.cu -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE
// REMARK: remark: kernel rows: loop at {{.*}}assumed-trips.cu:16: trip count 100, from argument 'n' = 100 (the forced launch's arg1)
// REMARK: remark: kernel rows: loop at {{.*}}assumed-trips.cu:18: trip count 64, from argument 'm' = 64 (the forced launch's arg2)

// REPORT:      "assumed_trips": [
// REPORT:        "trip_count": 100,
// REPORT-NEXT:   "stated": true,
// REPORT:        "trip_count": 64,
// REPORT-NEXT:   "stated": true,

// PLAIN:      "assumed_trips": [
// PLAIN:        "trip_count": 4096,
// PLAIN-NEXT:   "stated": false,
// PLAIN:        "trip_count": 512,
// PLAIN-NEXT:   "stated": true,

// UNNAMED: trip count 100, from argument 1 = 100 (the forced launch's arg1)

// POINTER: error: energy-optimize: kernel 'rows' has no integer argument 3 (arg3=1; it has 4 arguments)
// MISSING: error: energy-optimize: kernel 'rows' has no integer argument 5 (arg5=1; it has 4 arguments)
// ZERO: error: energy-optimize: bad -energy-force-config 'rows:256,arg0=1': arguments are counted from 1 ('arg0')
// TWICE: error: {{.*}}: argument 1 is given twice
// NEGATIVE: error: {{.*}}: 'arg1=-1' is not argN=integer >= 0
