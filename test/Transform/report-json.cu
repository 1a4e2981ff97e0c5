// -energy-report writes valid JSON with candidates, predictions, the Pareto
// front, the choice and its reason; energy.report prints it for people.
// RUN: %clang %cudaflags -O2 -S %clangplugin -mllvm -energy-report=%t.json %s -o %t.ptx
// RUN: %python -m json.tool %t.json > /dev/null
// RUN: FileCheck %s < %t.json
// RUN: %python -m energy.report %t.json | FileCheck %s --check-prefix=TABLE
#include "Inputs/kernels.cu"

// CHECK: "format": "energy-report-v1",
// CHECK: "model_input_names": [
// CHECK-NEXT: "instructions",
// CHECK: "kernel": "saxpy",
// CHECK-NEXT: "ir_name": "_Z5saxpyifPKfPf",
// CHECK-NEXT: "record": "__energy_launch_saxpy",
// CHECK-NEXT: "arch": "sm_90",
// CHECK-NEXT: "gpu": "h100-sxm",
// CHECK-NEXT: "gpu_from": "default board of sm_90",
// CHECK-NEXT: "model": "analytic
// CHECK: "objective": "energy within 10% of the fastest",
// CHECK-NEXT: "opted_in": true,
// CHECK-NEXT: "user_bounded": false,
// CHECK-NEXT: "applied": true,
// CHECK-NEXT: "work_items": 16777216,
// CHECK: "name": "ITEMS",
// CHECK-NEXT: "default": 1,
// CHECK-NEXT: "work_per_thread": true,
// 32 block sizes x 3 values of ITEMS.
// CHECK: "candidates_total": 96,
// CHECK: "time_s":
// CHECK: "pareto": true
// CHECK: "pareto_front": [
// CHECK: "choice": {
// CHECK: "reason": "block
// CHECK: "occupancy_heuristic": {
// CHECK: "savings_percent": {
// CHECK: "choice_model_inputs": [

// TABLE: kernel saxpy (sm_90, analytic
// TABLE-NEXT: choice (applied): block
// TABLE: Pareto front (predicted per launch):
// TABLE-NEXT: config time energy occupancy
// saxpy keeps its default (min-gain), which is not on its Pareto front; so
// does sgemm (its tiles predicted with the arrays each build has: 32x32 is
// under 10% faster than 16x16); bounded's choice is on its front.
// TABLE: baseline occupancy_heuristic: 1024,ITEMS=1
// TABLE: kernel sgemm
// TABLE-NOT: <- chosen
// TABLE: kernel scale(int, float*)
// TABLE-NEXT: choice (advice only):
// TABLE: kernel bounded
// TABLE: <- chosen
