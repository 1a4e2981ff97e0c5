//===- ChoicesHeader.h - The choices as a C header for nvcc -----*- C++ -*-===//
//
// -energy-header=FILE: the choices of the kernels energy-optimize rewrote,
// as macros energy.cuh reads when ENERGY_CHOICES names the file, so that a
// compiler without the plugin (nvcc) builds the same launch: the block shape,
// dynamic shared memory, work items per thread and a __launch_bounds__ of
// each kernel, and each tunable's value. Kernels only advised get a comment,
// never an entry: their launches are the host's. So do kernels whose name
// cannot be part of a macro name (no C identifier, template arguments C++
// cannot spell, a name several namespaces share); a tunable whose name is no
// C identifier is an error, as its kernels' entries assume its value.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_LIB_CHOICESHEADER_H
#define ENERGY_LIB_CHOICESHEADER_H

#include "KernelPlan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace energy {

llvm::Error writeChoicesHeader(llvm::StringRef Path, llvm::StringRef ModuleName,
                               llvm::ArrayRef<KernelPlan> Plans);

/// A header that folds only these tunables (name, value) and has no kernel
/// entry, so that nvcc builds every kernel as written with those values:
/// how NvccResources compiles one assignment.
std::string
tunablesChoicesHeader(llvm::ArrayRef<std::pair<std::string, int>> Values);

} // namespace energy

#endif
