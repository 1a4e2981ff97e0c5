//===- Manifest.h - The sweep manifest (energy-sweep-v1) --------*- C++ -*-===//
//
// Reads and validates manifest.json as docs/bench-format.md specifies. Every
// problem is collected as "<file>: <what>"; the caller prints each as
// "energy-bench: error: ..." and exits 1.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_MANIFEST_H
#define ENERGY_BENCH_MANIFEST_H

#include "InitSpec.h"
#include "Reference.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bench {

/// Errors and warnings, each "<file>: <what>".
struct Diagnostics {
  std::vector<std::string> Errors, Warnings;
  void error(const std::string &File, const std::string &What) {
    Errors.push_back(File + ": " + What);
  }
  void warning(const std::string &File, const std::string &What) {
    Warnings.push_back(File + ": " + What);
  }
};

struct BufferSpec {
  std::string Name;
  ElemType Type = ElemType::Unknown;
  int64_t Count = 0;
  InitSpec Init;
  bool Output = false;
  size_t bytes() const { return size_t(Count) * energy_ref::elemSize(Type); }
};

struct ArgSpec {
  enum class Kind { Param, Value, Buffer } K = Kind::Value;
  std::string Name;          // param or buffer name
  ElemType Type = ElemType::Unknown;
  double Value = 0;          // literal value (or the param's value)
  int64_t IntValue = 0;      // exact integer for integer types
};

struct ConfigSpec {
  std::string Id;            // "saxpy/b256.ITEMS=2"
  std::string Name;          // "b256.ITEMS=2": the dataset's `config`
  std::string PtxPath;       // resolved against the manifest's folder
  unsigned Block[3] = {1, 1, 1};
  unsigned Grid[3] = {1, 1, 1};
  int64_t DynamicSmem = 0;
  std::vector<std::pair<std::string, int64_t>> Tunables;
  std::vector<double> ModelInputs;
  double AnalyticTime = 0, AnalyticEnergy = 0; // 0: absent
  bool Repeat = false;
  bool Reference = false;
  /// Buffers whose sizes differ for this config (empty: the kernel's).
  std::vector<BufferSpec> Buffers;
};

struct KernelSpec {
  std::string Name, Entry;
  std::vector<std::pair<std::string, int64_t>> Params;
  std::vector<BufferSpec> Buffers;
  std::vector<ArgSpec> Args;
  double Rel = 0, Abs = 0;
  std::vector<std::pair<std::string, std::string>> Choices; // objective -> id
  std::vector<ConfigSpec> Configs;
  size_t ReferenceConfig = 0;
  /// The default config (256 threads or the recorded default block, default
  /// tunables) and the one the plugin's own occupancy heuristic picks.
  std::string DefaultConfig, PluginOccupancyConfig;
  /// Plugin-free PTX with the default tunables, for
  /// cuOccupancyMaxPotentialBlockSize; empty when the tunables fix the block.
  std::string BaselinePtx;
  /// Dynamic shared memory by block threads (default tunables), for the
  /// occupancy calculator's callback.
  std::vector<std::pair<int, int64_t>> BaselineSmem;

  const std::vector<BufferSpec> &buffersOf(const ConfigSpec &C) const {
    return C.Buffers.empty() ? Buffers : C.Buffers;
  }
  int64_t param(const std::string &N) const {
    for (const auto &P : Params)
      if (P.first == N)
        return P.second;
    return 0;
  }
};

struct Manifest {
  std::string Path, Dir;
  std::string Format, Arch, Created, Plugin;
  std::vector<std::string> ModelInputNames;
  std::vector<KernelSpec> Kernels;
};

/// Reads and checks the manifest's own content. Returns false on any error.
bool loadManifest(const std::string &Path, Manifest &M, Diagnostics &D);

/// Checks what the manifest points to: every PTX file exists, is non-empty
/// and has `.entry <entry>`; every kernel has a compiled-in CPU reference.
bool checkManifestFiles(const Manifest &M, Diagnostics &D);

/// Whether PTX text declares `.entry Name`.
bool ptxHasEntry(const std::string &Ptx, const std::string &Name);

/// Reads a whole file; false (and Error = strerror) when it cannot.
bool readFile(const std::string &Path, std::string &Out, std::string &Error);

} // namespace bench

#endif
