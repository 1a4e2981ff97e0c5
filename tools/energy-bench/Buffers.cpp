//===- Buffers.cpp - Seeded input data and result checks ------------------===//

#include "Buffers.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace bench {

uint64_t hashString(const std::string &S, uint64_t Seed) {
  uint64_t H = 0xcbf29ce484222325ull ^ (Seed * 0x9e3779b97f4a7c15ull);
  for (unsigned char C : S) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return H;
}

namespace {

/// xoshiro256** seeded through splitmix64 (Blackman and Vigna).
class Rng {
public:
  explicit Rng(uint64_t Seed) {
    for (uint64_t &W : S) {
      Seed += 0x9e3779b97f4a7c15ull;
      uint64_t Z = Seed;
      Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
      Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
      W = Z ^ (Z >> 31);
    }
  }
  uint64_t next() {
    uint64_t Result = rotl(S[1] * 5, 7) * 9;
    uint64_t T = S[1] << 17;
    S[2] ^= S[0];
    S[3] ^= S[1];
    S[1] ^= S[2];
    S[0] ^= S[3];
    S[2] ^= T;
    S[3] = rotl(S[3], 45);
    return Result;
  }
  /// Uniform in [0, 1).
  double unit() { return double(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [0, N).
  uint64_t below(uint64_t N) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * N) >> 64);
  }

private:
  uint64_t S[4];
  static uint64_t rotl(uint64_t X, int K) { return (X << K) | (X >> (64 - K)); }
};

void storeElement(ElemType T, void *Data, int64_t I, double V) {
  switch (T) {
  case ElemType::F16:
    static_cast<uint16_t *>(Data)[I] = energy_ref::floatToHalf(static_cast<float>(V));
    return;
  case ElemType::F32: static_cast<float *>(Data)[I] = static_cast<float>(V); return;
  case ElemType::F64: static_cast<double *>(Data)[I] = V; return;
  case ElemType::I32: static_cast<int32_t *>(Data)[I] = static_cast<int32_t>(V); return;
  case ElemType::U32: static_cast<uint32_t *>(Data)[I] = static_cast<uint32_t>(V); return;
  case ElemType::I64: static_cast<int64_t *>(Data)[I] = static_cast<int64_t>(V); return;
  case ElemType::U8: static_cast<uint8_t *>(Data)[I] = static_cast<uint8_t>(V); return;
  default: return;
  }
}

void storeInteger(ElemType T, void *Data, int64_t I, int64_t V) {
  switch (T) {
  case ElemType::I32: static_cast<int32_t *>(Data)[I] = static_cast<int32_t>(V); return;
  case ElemType::U32: static_cast<uint32_t *>(Data)[I] = static_cast<uint32_t>(V); return;
  case ElemType::I64: static_cast<int64_t *>(Data)[I] = V; return;
  case ElemType::U8: static_cast<uint8_t *>(Data)[I] = static_cast<uint8_t>(V); return;
  default: storeElement(T, Data, I, static_cast<double>(V)); return;
  }
}

void fill(const BufferSpec &B, uint64_t Seed, const std::string &Kernel, void *Data) {
  Rng R(hashString(Kernel + "\n" + B.Name, Seed));
  const InitSpec &In = B.Init;
  switch (In.K) {
  case InitSpec::Kind::Zeros:
    std::memset(Data, 0, B.bytes());
    return;
  case InitSpec::Kind::Uniform:
    for (int64_t I = 0; I < B.Count; ++I)
      storeElement(B.Type, Data, I, In.Lo + (In.Hi - In.Lo) * R.unit());
    return;
  case InitSpec::Kind::Randint: {
    int64_t Lo = static_cast<int64_t>(In.Lo);
    uint64_t Range = static_cast<uint64_t>(static_cast<int64_t>(In.Hi) - Lo);
    for (int64_t I = 0; I < B.Count; ++I)
      storeInteger(B.Type, Data, I, Lo + static_cast<int64_t>(R.below(Range)));
    return;
  }
  case InitSpec::Kind::CsrRowPtr:
    for (int64_t I = 0; I < B.Count; ++I)
      storeInteger(B.Type, Data, I, I * In.PerRow);
    return;
  case InitSpec::Kind::Iota:
    for (int64_t I = 0; I < B.Count; ++I)
      storeInteger(B.Type, Data, I, I);
    return;
  }
}

} // namespace

size_t HostData::bytes() const {
  size_t N = 0;
  for (const HostBuffer &B : Inputs)
    N += B.Data.size();
  for (const HostBuffer &B : Expected)
    N += B.Data.size();
  return N;
}

void makeInputs(const std::vector<BufferSpec> &Buffers, uint64_t Seed,
                const std::string &Kernel, std::vector<HostBuffer> &Out) {
  Out.clear();
  Out.resize(Buffers.size());
  for (size_t I = 0; I < Buffers.size(); ++I) {
    Out[I].Spec = &Buffers[I];
    Out[I].Data.resize(Buffers[I].bytes());
    fill(Buffers[I], Seed, Kernel, Out[I].Data.data());
  }
}

bool runReference(const KernelSpec &K, const ConfigSpec &Config, HostData &Data) {
  ReferenceFn Fn = findReference(K.Name);
  if (!Fn)
    return false;
  ReferenceInputs In;
  for (const auto &P : K.Params)
    In.setParam(P.first, P.second);
  static const char *const BlockNames[3] = {"BLOCK_X", "BLOCK_Y", "BLOCK_Z"};
  static const char *const GridNames[3] = {"GRID_X", "GRID_Y", "GRID_Z"};
  for (int D = 0; D < 3; ++D) {
    In.setParam(BlockNames[D], Config.Block[D]);
    In.setParam(GridNames[D], Config.Grid[D]);
  }
  for (const auto &T : Config.Tunables)
    In.setParam(T.first, T.second);
  for (size_t I = 0; I < K.Args.size(); ++I)
    if (K.Args[I].K != ArgSpec::Kind::Buffer)
      In.setValue(static_cast<int>(I), K.Args[I].Value);
  for (const HostBuffer &B : Data.Inputs)
    In.addBuffer(B.Spec->Name, B.Spec->Type, B.Data.data(), B.Spec->Count);
  Data.Expected.clear();
  for (const HostBuffer &B : Data.Inputs)
    if (B.Spec->Output)
      Data.Expected.push_back(B); // starts as the initial contents
  ReferenceOutputs Out;
  for (HostBuffer &B : Data.Expected)
    Out.addBuffer(B.Spec->Name, B.Spec->Type, B.Data.data(), B.Spec->Count);
  Fn(In, Out);
  return true;
}

double elementAsDouble(ElemType T, const void *Data, int64_t I) {
  switch (T) {
  case ElemType::F16: return energy_ref::halfToFloat(static_cast<const uint16_t *>(Data)[I]);
  case ElemType::F32: return static_cast<const float *>(Data)[I];
  case ElemType::F64: return static_cast<const double *>(Data)[I];
  case ElemType::I32: return static_cast<const int32_t *>(Data)[I];
  case ElemType::U32: return static_cast<const uint32_t *>(Data)[I];
  case ElemType::I64: return static_cast<double>(static_cast<const int64_t *>(Data)[I]);
  case ElemType::U8: return static_cast<const uint8_t *>(Data)[I];
  default: return 0;
  }
}

static std::string formatValue(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.9g", V);
  return Buf;
}

std::string compareOutput(const BufferSpec &B, const void *Got, const void *Want,
                          double Rel, double Abs) {
  int64_t Bad = 0, First = -1;
  for (int64_t I = 0; I < B.Count; ++I) {
    double G = elementAsDouble(B.Type, Got, I), W = elementAsDouble(B.Type, Want, I);
    if (std::isnan(W) && std::isnan(G))
      continue;
    if (G == W) // also equal infinities
      continue;
    double Allowed = Abs + Rel * std::fabs(W);
    double Err = std::fabs(G - W);
    if (Err <= Allowed) // false for NaN
      continue;
    if (First < 0)
      First = I;
    ++Bad;
  }
  if (!Bad)
    return "";
  double G = elementAsDouble(B.Type, Got, First), W = elementAsDouble(B.Type, Want, First);
  return "output '" + B.Name + "': " + std::to_string(Bad) + " of " + std::to_string(B.Count) +
         " elements differ from the CPU reference beyond abs " + formatValue(Abs) + " + rel " +
         formatValue(Rel) + "; first at [" + std::to_string(First) + "]: got " + formatValue(G) +
         ", want " + formatValue(W);
}

} // namespace bench
