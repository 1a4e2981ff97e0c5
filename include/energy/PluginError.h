//===- PluginError.h - An error of the plugin's passes ----------*- C++ -*-===//
//
// A pass that fails reports through its context's diagnostic handler. opt
// keeps LLVM's default one, which prints `error: ...` and calls exit(1) on
// the spot: opt's ToolOutputFile, opened before the passes ran, never gets
// to delete its -o file, and a 0-byte output is left behind that a build
// system takes for up to date. clang's handler returns instead, and clang
// discards its outputs itself.
//
// So while a pass error is emitted, an exit hook is armed that does what
// report_fatal_error does before its exit(1): sys::RunInterruptHandlers(),
// which removes the files the tool registered for removal on an abnormal
// end (sys::RemoveFileOnSignal: opt's -o and -pass-remarks-output files
// until they are kept). A handler that returns disarms it: its tool decides.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_PLUGINERROR_H
#define ENERGY_PLUGINERROR_H

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/Signals.h"
#include "llvm/ADT/Twine.h"

#include <atomic>
#include <cstdlib>

namespace energy {

/// Emits Msg as an error of Ctx; if the handler exits, the tool's pending
/// output files go first.
inline void emitPluginError(llvm::LLVMContext &Ctx, const llvm::Twine &Msg) {
  static std::atomic<bool> ExitingOnError{false};
  static const bool Hooked = [] {
    std::atexit([] {
      if (ExitingOnError)
        llvm::sys::RunInterruptHandlers();
    });
    return true;
  }();
  (void)Hooked;
  ExitingOnError = true;
  Ctx.emitError(Msg);
  ExitingOnError = false;
}

} // namespace energy

#endif
