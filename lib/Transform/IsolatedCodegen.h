//===- IsolatedCodegen.h - NVPTX codegen that cannot harm the caller -*- C++ -*-===//
//
// The plugin compiles its candidates to PTX (for ptxas's register count)
// inside the user's compiler, for the architecture it models, which need not
// be the one the code was written for. Two things make that codegen unsafe
// in the user's process:
//  - LLVM 19's NVPTX backend cannot select everything for every
//    architecture (shfl.sync, wmma and scoped atomics for sm_61, cluster
//    registers for sm_80), and then calls report_fatal_error: clang or opt
//    exits in the middle of the user's compile.
//  - NVPTX numbers call sites with a process-wide counter (`// callseq N`
//    in the PTX): every candidate compiled in-process renumbers the user's
//    own PTX, and how many are compiled depends on the ptxas cache.
//
// So the codegen runs in a forked child: a fatal error, a crash or a hang
// there ends only the child, and the child's counter is its own. A
// CrashRecoveryContext does not do: report_fatal_error calls the host's
// handler first (clang's prints `error:` and exits the process) and a
// longjmp out of the backend leaks and skips destructors under
// -fno-exceptions. Checking selection legality up front would need a list of
// what each LLVM can select for each architecture, which nobody keeps.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_ISOLATEDCODEGEN_H
#define ENERGY_LIB_ISOLATEDCODEGEN_H

#include "llvm/Support/Error.h"
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace energy {

/// The PTX Target emits for M, compiled in a child process that gets
/// TimeoutSeconds. M is not changed. An error says why there is none:
/// the backend's fatal error, a crash, the timeout (error code
/// std::errc::timed_out), or a process that cannot fork safely (several
/// threads) or at all.
llvm::Expected<std::string> emitPtxIsolated(llvm::Module &M,
                                            llvm::TargetMachine &Target,
                                            unsigned TimeoutSeconds);

} // namespace energy

#endif
