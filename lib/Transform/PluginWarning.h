//===- PluginWarning.h - A warning diagnostic of the plugin -----*- C++ -*-===//
#ifndef ENERGY_TRANSFORM_PLUGINWARNING_H
#define ENERGY_TRANSFORM_PLUGINWARNING_H

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include <string>

namespace energy {

/// A warning through the context's diagnostic handler (clang prints it as
/// `warning: ...`, opt on stderr); LLVM 19 has no generic warning class.
class PluginWarning : public llvm::DiagnosticInfo {
public:
  explicit PluginWarning(const llvm::Twine &Msg)
      : llvm::DiagnosticInfo(kind(), llvm::DS_Warning), Msg(Msg.str()) {}
  void print(llvm::DiagnosticPrinter &DP) const override { DP << Msg; }

private:
  static int kind() {
    static const int Kind = llvm::getNextAvailablePluginDiagnosticKind();
    return Kind;
  }
  std::string Msg;
};

} // namespace energy

#endif
