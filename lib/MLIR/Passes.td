//===- Passes.td - The gpu-dialect passes of energy-mlir.so -*- tablegen -*-===//
//
// mlir-tblgen -gen-pass-decls makes each pass's base class (impl::...Base),
// its options and registerEnergyPasses() from these records.
//
//===----------------------------------------------------------------------===//

include "mlir/Pass/PassBase.td"

def EnergyOptimizeGpu : Pass<"energy-optimize-gpu", "::mlir::ModuleOp"> {
  let summary = "Choose the energy-optimal block shape of each gpu.func "
                "kernel and rewrite its launches and launch bounds to it";
  let description = [{
    For each gpu.func kernel, predicts time and energy of every candidate
    block shape (the cost models of the LLVM pass energy-optimize), picks
    the point of the Pareto front the objective asks for, and rewrites host
    and device consistently: every gpu.launch_func of the kernel gets the
    chosen block and the grid that covers the same threads; the kernel gets
    nvvm.reqntid and its gpu.block_dim reads become constants. Kernels it
    cannot rewrite safely are left alone with the reason. Every kernel gets
    a remark with the numbers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::NVVM::NVVMDialect"];
  // The options the LLVM pass shares are parsed and checked by its code
  // (ValidateOptions.h), from their text: an empty value is an error, not 0.
  // Empty defaults are unset.
  let options = [
    Option<"ObjectiveName", "objective", "std::string", /*default=*/"\"energy\"",
           "energy, time or edp">,
    Option<"MaxSlowdown", "max-slowdown", "std::string", /*default=*/"",
           "energy only: at most this much slower than the fastest "
           "candidate (0.1 = 10%; default 0.1)">,
    Option<"MinGain", "min-gain", "std::string", /*default=*/"",
           "keep the launch's block unless a candidate is predicted to "
           "improve the objective by more than this (0.1 = 10%; default "
           "0.1)">,
    Option<"ArchName", "arch", "std::string", /*default=*/"",
           "sm_XX with tables (else an error), modelled as its default "
           "board; default: the gpu.module's #nvvm.target chip, else sm_90">,
    // The pass appends the board names, which live in the GPU tables.
    Option<"GpuName", "gpu", "std::string", /*default=*/"",
           "GPU board (else an error); its compute capability wins over the "
           "chip's, and one that differs from arch is an error; default: the "
           "architecture's default board.">,
    Option<"ModelFile", "model", "std::string", /*default=*/"",
           "XGBoost model file (python3 -m energy.train), or 'analytic'; "
           "default: the embedded model of the arch, else the analytic model">,
    Option<"Workload", "workload", "std::string", /*default=*/"",
           "items per launch, a positive integer; default: the launch's "
           "threads when its sizes are constant, else 2^24">,
  ];
}

def EnergyPrintGpuFeatures
    : Pass<"energy-print-gpu-features", "::mlir::ModuleOp"> {
  let summary = "Print the static features of each gpu.func kernel (to "
                "stderr, as print<energy-features> does)";
  let description = [{
    The global footprint features are for the block the kernel states
    (known_block_size, else nvvm.reqntid); without one they are 0.
  }];
}
