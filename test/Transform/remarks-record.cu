// The optimization record (opt -pass-remarks-output, clang
// -fsave-optimization-record) carries the choice as named arguments: the
// kernel, the chosen block and tunables, the prediction, the change against
// each baseline, the objective, and (only in the record) the block's three
// extents, the grid, whether the kernel was rewritten, and the predicted
// time and energy in fixed units (TimeUs, EnergyMJ; the text scales its
// units: "21.35 ms", not "2.135e+04 us"); advice says why not. The text
// -pass-remarks prints is the same sentence as before. The
// remarks of the passes run on the plugin's own copies of a kernel
// (simplification, codegen for ptxas) stay out of the record. advice=full:
// scale's advice predicts its best candidates again with their blocks known
// (the default, the screen alone, is test/Transform/advice-screen.cu).
// RUN: %clang %cudaflags -O0 -S -emit-llvm %s -o %t.ll
// RUN: %opt %loadenergy -passes='energy-optimize<force=saxpy:256:ITEMS=4;advice=full>' %t.ll \
// RUN:   -pass-remarks=energy -pass-remarks-analysis=energy \
// RUN:   -pass-remarks-output=%t.yaml -disable-output 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s --input-file=%t.yaml
// RUN: grep '^Pass:' %t.yaml | sort -u | FileCheck %s --check-prefix=PASSES
#include "Inputs/kernels.cu"

// The default baseline of the forced ITEMS=4 is the declared default,
// ITEMS=1 at 256 threads (test/Corpus/one-truth.test checks it is).
// TEXT: remark: <unknown>:0:0: kernel saxpy: chose block 256, ITEMS=4 (forced): predicted {{[0-9.]+}} {{ns|us|ms|s}}, {{[0-9.]+}} {{nJ|uJ|mJ|J}} per launch of 16777216 items on h100-sxm (sm_90); vs the occupancy heuristic (1024): energy {{[-+][0-9.]+}}%, time {{[-+][0-9.]+}}%; vs the default (256): energy {{[-+][0-9.]+}}%, time {{[-+][0-9.]+}}%; 1 of 1 candidates evaluated, 1 on the Pareto front{{$}}
// TEXT: remark: <unknown>:0:0: kernel sgemm: chose block [[T:[0-9]+]]x[[T]], TILE=[[T]] (energy within 10% of the fastest): predicted
// scale updates x in place (its sectors are read and written back): no
// block is predicted more than 10% faster than its launch's 256.
// TEXT: remark: <unknown>:0:0: kernel scale(int, float*) is not opted in (ENERGY_KERNEL), so its host launches keep their block shape; advice: block 256 (energy within 10% of the fastest): predicted {{.*}} 6 of 32 candidates evaluated (26 screened out by the block-free screen; 6 predicted again with the block known), {{[0-9]+}} on the Pareto front; the default stays: no candidate is predicted to improve on it by more than 10%{{$}}

// CHECK: --- !Passed
// CHECK-NEXT: Pass: energy
// CHECK-NEXT: Name: LaunchConfig
// CHECK-NEXT: Function: _Z5saxpyifPKfPf
// CHECK-NEXT: Args:
// CHECK-NEXT:   - String: 'kernel '
// CHECK-NEXT:   - Kernel: saxpy
// CHECK-NEXT:   - String: ': chose '
// CHECK-NEXT:   - String: 'block '
// CHECK-NEXT:   - Block: '256'
// CHECK-NEXT:   - String: ', ITEMS='
// CHECK-NEXT:   - Tunable.ITEMS: '4'
// CHECK-NEXT:   - String: ' ('
// CHECK-NEXT:   - Objective: forced
// CHECK-NEXT:   - String: '): predicted {{[0-9.]+}} {{ns|us|ms|s}}, {{[0-9.]+}} {{nJ|uJ|mJ|J}} per launch of '
// CHECK-NEXT:   - WorkItems: '16777216'
// CHECK-NEXT:   - String: ' items on '
// CHECK-NEXT:   - Gpu: h100-sxm
// CHECK-NEXT:   - String: ' ('
// CHECK-NEXT:   - Arch: sm_90
// CHECK-NEXT:   - String: '); vs the occupancy heuristic ('
// CHECK-NEXT:   - OccupancyHeuristicBlock: '1024'
// CHECK-NEXT:   - String: '): energy '
// CHECK-NEXT:   - EnergyVsOccupancyHeuristic: '{{[-+][0-9]+\.[0-9]}}'
// CHECK-NEXT:   - String: '%, time '
// CHECK-NEXT:   - TimeVsOccupancyHeuristic: '{{[-+][0-9]+\.[0-9]}}'
// CHECK-NEXT:   - String: '%; vs the default ('
// CHECK-NEXT:   - DefaultBlock: '256'
// CHECK-NEXT:   - String: '): energy '
// CHECK-NEXT:   - EnergyVsDefault: '{{[-+][0-9.]+}}'
// CHECK-NEXT:   - String: '%, time '
// CHECK-NEXT:   - TimeVsDefault: '{{[-+][0-9.]+}}'
// CHECK-NEXT:   - String: '%; '
// CHECK-NEXT:   - Evaluated: '1'
// CHECK-NEXT:   - String: ' of '
// CHECK-NEXT:   - Candidates: '1'
// CHECK-NEXT:   - String: ' candidates evaluated, '
// CHECK-NEXT:   - ParetoFront: '1'
// CHECK-NEXT:   - String: ' on the Pareto front'
// CHECK-NEXT:   - BlockX: '256'
// CHECK-NEXT:   - BlockY: '1'
// CHECK-NEXT:   - BlockZ: '1'
// CHECK-NEXT:   - GridBlocks: '16384'
// CHECK-NEXT:   - Applied: 'true'
// CHECK-NEXT:   - TimeUs: '{{[0-9]+(\.[0-9]+)?}}'
// CHECK-NEXT:   - EnergyMJ: '{{[0-9]+(\.[0-9]+)?}}'
// CHECK-NEXT: ...

// A 2-D block: the text shows TxT, the record has each extent.
// CHECK: Name: LaunchConfig
// CHECK-NEXT: Function: _Z5sgemmiPKfS0_Pf
// CHECK:        - Block: [[T:[0-9]+]]x[[T]]
// CHECK-NEXT:   - String: ', TILE='
// CHECK-NEXT:   - Tunable.TILE: '[[T]]'
// CHECK:        - Objective: 'energy within 10% of the fastest'
// CHECK:        - BlockX: '[[T]]'
// CHECK-NEXT:   - BlockY: '[[T]]'
// CHECK-NEXT:   - BlockZ: '1'
// CHECK-NEXT:   - GridBlocks: '{{[0-9]+}}'
// CHECK-NEXT:   - Applied: 'true'

// Advice follows the proof that scale is correct at any block, after the
// note that the architecture's default board stands for the board.
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: energy
// CHECK-NEXT: Name: Assumption
// CHECK-NEXT: Function: _Z5scaleiPf
// CHECK:        - Note: 'sm_90 is modelled on its default board h100-sxm
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: energy
// CHECK-NEXT: Name: Restriction
// CHECK-NEXT: Function: _Z5scaleiPf
// CHECK:        - Rule: 'any shape (proven correct)'
// CHECK: --- !Analysis
// CHECK-NEXT: Pass: energy
// CHECK-NEXT: Name: Advice
// CHECK-NEXT: Function: _Z5scaleiPf
// CHECK-NEXT: Args:
// CHECK-NEXT:   - String: 'kernel '
// CHECK-NEXT:   - Kernel: 'scale(int, float*)'
// CHECK-NEXT:   - String: ' '
// CHECK-NEXT:   - Reason: 'is not opted in (ENERGY_KERNEL), so its host launches keep their block shape'
// CHECK-NEXT:   - String: '; advice: '
// CHECK-NEXT:   - String: 'block '
// CHECK-NEXT:   - Block: '[[B:[0-9]+]]'
// CHECK:        - BlockX: '[[B]]'
// CHECK-NEXT:   - BlockY: '1'
// CHECK-NEXT:   - BlockZ: '1'
// CHECK-NEXT:   - GridBlocks: '{{[0-9]+}}'
// CHECK-NEXT:   - Applied: 'false'

// CHECK: Name: Advice
// CHECK-NEXT: Function: _Z7boundediPf
// CHECK:        - Reason: has launch bounds from the source
// CHECK:        - Applied: 'false'

// PASSES: Pass: energy
// PASSES-NOT: Pass:
