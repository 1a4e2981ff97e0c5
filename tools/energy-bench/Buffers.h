//===- Buffers.h - Seeded input data and result checks ----------*- C++ -*-===//
//
// Host side of a measurement, testable without a GPU: the initial contents
// of every buffer (deterministic from the seed, the kernel and the buffer
// name, so resumed runs see the same data), the CPU reference's expected
// outputs, and the element-wise comparison with a tolerance.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_BUFFERS_H
#define ENERGY_BENCH_BUFFERS_H

#include "Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

/// One buffer's bytes on the host.
struct HostBuffer {
  const BufferSpec *Spec = nullptr;
  std::vector<unsigned char> Data;
};

/// Initial contents of all buffers of a kernel (or of one config, when its
/// buffer sizes differ), and the reference's expected outputs for them.
struct HostData {
  std::vector<HostBuffer> Inputs;   // every buffer, initial contents
  std::vector<HostBuffer> Expected; // output buffers only, in buffer order
  size_t bytes() const;
};

/// Makes the initial contents of every buffer in Buffers.
void makeInputs(const std::vector<BufferSpec> &Buffers, uint64_t Seed,
                const std::string &Kernel, std::vector<HostBuffer> &Out);

/// Runs the kernel's CPU reference on Data.Inputs and fills Data.Expected.
/// The reference sees the kernel's params plus BLOCK_X/Y/Z, GRID_X/Y/Z and
/// the tunables of Config. Returns false if no reference is registered.
bool runReference(const KernelSpec &K, const ConfigSpec &Config, HostData &Data);

/// Compares one output buffer with the expected values:
/// |got - want| <= abs + rel * |want| for every element (NaN matches NaN).
/// Returns an empty string when all match, else what differs.
std::string compareOutput(const BufferSpec &B, const void *Got, const void *Want,
                          double Rel, double Abs);

/// Element I of a buffer of type T, as a double.
double elementAsDouble(ElemType T, const void *Data, int64_t I);

/// A stable 64-bit hash (FNV-1a), for seeding.
uint64_t hashString(const std::string &S, uint64_t Seed);

} // namespace bench

#endif
