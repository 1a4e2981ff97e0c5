//===- GpuArch.cpp - NVIDIA GPU architecture tables -----------------------===//
//
// Sources, cited by short name in the rows below:
//  [CPG]   CUDA C++ Programming Guide, "Technical Specifications per Compute
//          Capability" (threads, warps, blocks, registers, shared memory),
//          and its note that from 8.x on 1 KB of shared memory per block is
//          reserved for system use.
//  [OCC]   cuda_occupancy.h of CUDA 13.0 (the code behind
//          cudaOccupancyMaxActiveBlocksPerMultiprocessor): register allocation
//          unit 256, 4 sub-partitions, shared memory granularity 256 B on 7.x
//          and 128 B on 8.x-12.x, max blocks per SM.
//  Datasheets and whitepapers of each reference board, named in its row.
//
// Every row uses 128 B/clk/SM of shared memory bandwidth: 32 banks of 4 bytes
// each per clock [CPG, "Shared Memory"].
//
// Estimates (no vendor figure exists; refine them with measurements, see
// shared/MEASURE.md):
//  * IdlePowerW: typical nvidia-smi reading of the idle board without a CUDA
//    context. Creating a context raises it by about 26-66 W on H100, A100 and
//    L40S (arXiv:2605.23918), so a running kernel never sees less.
//  * L2BandwidthGBs where NVIDIA publishes no L2 bytes/clock: 3.5 x DRAM
//    bandwidth, the L2:DRAM ratio of the two parts whose L2 bytes/clock NVIDIA
//    did publish (V100: 3133/900 = 3.5; A100 SXM4 80GB: 7219/2039 = 3.5).
//
//===----------------------------------------------------------------------===//

#include "energy/GpuArch.h"

using namespace energy;

// One field group per line, each with its source.
// clang-format off
static const GpuArch GpuArchTable[] = {
    {
        70, "sm_70", "Tesla V100 SXM2",
        // Occupancy [CPG], [OCC]. Field groups: warp size, threads/block,
        // threads/SM, warps/SM, blocks/SM; registers/SM, /thread, /block;
        // register unit, sub-partitions; shared memory/SM, /block opt-in,
        // /block default; shared memory unit, reserved/block.
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        96 * 1024, 96 * 1024, 48 * 1024,
        256, 0,
        // Volta whitepaper (80 SMs at 1530 MHz); V100 SXM2 datasheet.
        80, 1.530,
        15.7,   // FP32, datasheet
        31.4,   // FP16 non-tensor: 2 x FP32, half2 [CPG throughput table]
        7.8,    // FP64, datasheet
        125.0,  // tensor FP16, datasheet
        900.0,  // HBM2, datasheet
        128.0,
        3133.0, // 2048 B/clk (A100 whitepaper, V100 L2 read) x 1.53 GHz
        40.0,   // estimate, see header
        300.0,  // datasheet
    },
    {
        75, "sm_75", "Tesla T4",
        // Occupancy [CPG], [OCC]: Turing halves threads and blocks per SM.
        32, 1024, 1024, 32, 16,
        65536, 255, 65536,
        256, 4,
        64 * 1024, 64 * 1024, 48 * 1024,
        256, 0,
        // T4 datasheet and product brief: 2560 CUDA cores = 40 SMs x 64,
        // 1590 MHz boost.
        40, 1.590,
        8.1,    // FP32, datasheet
        16.3,   // FP16 non-tensor: 2 x FP32 on Turing (TU102 whitepaper)
        0.25,   // FP64: 2 units/SM (Turing whitepaper): 40 x 2 x 2 x 1.59 GHz
        65.0,   // tensor FP16 (mixed precision), datasheet
        320.0,  // GDDR6, datasheet
        128.0,
        1120.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        70.0,   // datasheet
    },
    {
        80, "sm_80", "A100 SXM4 80GB",
        // Occupancy [CPG], [OCC].
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        164 * 1024, 163 * 1024, 48 * 1024,
        128, 1024,
        // A100 whitepaper: 108 SMs at 1410 MHz; A100 datasheet (SXM4 80GB).
        108, 1.410,
        19.5,   // FP32, datasheet
        // FP16 non-tensor, A100 whitepaper Table 1: 4 x FP32, reached only by
        // some FP16 instruction mixes (NVIDIA forum); BF16 non-tensor is 39.
        78.0,
        9.7,    // FP64 non-tensor, datasheet
        312.0,  // tensor FP16 dense, datasheet
        2039.0, // HBM2e, datasheet
        128.0,
        7219.0, // 5120 B/clk (A100 whitepaper, L2 read) x 1.41 GHz
        55.0,   // estimate, see header
        400.0,  // datasheet
    },
    {
        86, "sm_86", "A10",
        // Occupancy [CPG], [OCC]: 1536 threads and 16 blocks per SM, 100 KB.
        32, 1024, 1536, 48, 16,
        65536, 255, 65536,
        256, 4,
        100 * 1024, 99 * 1024, 48 * 1024,
        128, 1024,
        // A10 datasheet: 9216 CUDA cores = 72 SMs x 128; 1695 MHz boost
        // (31.2 TFLOPS = 9216 x 2 x 1.695 GHz).
        72, 1.695,
        31.2,   // FP32, datasheet
        31.2,   // FP16 non-tensor: FP32's rate on GA10x (GA102 whitepaper)
        0.49,   // FP64: 2 units/SM (GA102 whitepaper): 72 x 2 x 2 x 1.695 GHz
        125.0,  // tensor FP16 dense, datasheet
        600.0,  // GDDR6, datasheet
        128.0,
        2100.0, // estimate, 3.5 x DRAM (see header)
        20.0,   // estimate, see header
        150.0,  // datasheet
    },
    {
        89, "sm_89", "L4",
        // Occupancy [CPG], [OCC]: as sm_86 but 24 blocks per SM.
        32, 1024, 1536, 48, 24,
        65536, 255, 65536,
        256, 4,
        100 * 1024, 99 * 1024, 48 * 1024,
        128, 1024,
        // L4 datasheet: 30.3 TFLOPS FP32 at 2040 MHz = 58 SMs x 128 x 2.
        58, 2.040,
        30.3,   // FP32, datasheet
        30.3,   // FP16 non-tensor: FP32's rate on AD10x (Ada whitepaper)
        0.47,   // FP64: 2 units/SM (Ada whitepaper): 58 x 2 x 2 x 2.04 GHz
        121.0,  // tensor FP16 dense: datasheet 242 with sparsity / 2
        300.0,  // GDDR6, datasheet
        128.0,
        // Estimate, 3.5 x DRAM (see header); likely low, as Ada pairs narrow
        // DRAM with a large (48 MB) L2.
        1050.0,
        16.0,   // estimate, see header
        72.0,   // datasheet
    },
    {
        90, "sm_90", "H100 SXM5 80GB",
        // Occupancy [CPG], [OCC].
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        228 * 1024, 227 * 1024, 48 * 1024,
        128, 1024,
        // H100 whitepaper (SXM5): 132 SMs, 1980 MHz for non-tensor math.
        132, 1.980,
        66.9,    // FP32, whitepaper (datasheet: 67)
        133.8,   // FP16 non-tensor, whitepaper
        33.5,    // FP64 non-tensor, whitepaper (datasheet: 34)
        989.4,   // tensor FP16 dense, whitepaper (datasheet: 1979 sparse)
        3350.0,  // HBM3, datasheet
        128.0,
        11725.0, // estimate, 3.5 x DRAM (see header)
        70.0,    // estimate, see header
        700.0,   // datasheet
    },
    {
        100, "sm_100", "B200 (HGX, 1000 W)",
        // Occupancy [CPG], [OCC]: the same limits as sm_90.
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        228 * 1024, 227 * 1024, 48 * 1024,
        128, 1024,
        // NVIDIA publishes neither SM count nor clock: 148 SMs is the count
        // device queries report; 1.98 GHz = 75 TFLOPS / (148 x 128 x 2).
        148, 1.980,
        75.0,    // FP32, HGX B200 specifications (per GPU)
        150.0,   // FP16 non-tensor: estimate, 2 x FP32 as on sm_90
        37.0,    // FP64, HGX B200 specifications
        2250.0,  // tensor FP16 dense: 4.5 PFLOPS sparse / 2, HGX B200
        7700.0,  // HBM3e, HGX B200 specifications
        128.0,
        26950.0, // estimate, 3.5 x DRAM (see header)
        100.0,   // estimate: the H100 estimate scaled by TDP, 70 x 1000/700
        1000.0,  // HGX B200 specifications (configurable up to 1000 W)
    },
};
// clang-format on

llvm::ArrayRef<GpuArch> energy::allGpuArchs() { return GpuArchTable; }

const GpuArch *energy::lookupGpuArch(unsigned SmVersion) {
  for (const GpuArch &A : GpuArchTable)
    if (A.SmVersion == SmVersion)
      return &A;
  return nullptr;
}

const GpuArch *energy::nearestGpuArch(unsigned SmVersion) {
  auto SameMajor = [SmVersion](const GpuArch &A) {
    return A.SmVersion / 10 == SmVersion / 10;
  };
  // Rows ascend, so the last row at or below SmVersion is the closest lower
  // one; it has SmVersion's major whenever that major has a row that low.
  const GpuArch *Lower = nullptr;
  for (const GpuArch &A : GpuArchTable)
    if (A.SmVersion <= SmVersion)
      Lower = &A;
  if (Lower && SameMajor(*Lower))
    return Lower;
  for (const GpuArch &A : GpuArchTable)
    if (SameMajor(A))
      return &A;
  return Lower ? Lower : &GpuArchTable[0];
}

std::optional<unsigned> energy::parseSmVersion(llvm::StringRef Cpu) {
  if (!Cpu.consume_front("sm_"))
    return std::nullopt;
  if (Cpu.ends_with("a") || Cpu.ends_with("f"))
    Cpu = Cpu.drop_back();
  if (Cpu.size() < 2 || Cpu.size() > 3 || Cpu.front() == '0')
    return std::nullopt;
  unsigned Version = 0;
  for (char C : Cpu) {
    if (C < '0' || C > '9')
      return std::nullopt;
    Version = Version * 10 + unsigned(C - '0');
  }
  return Version;
}

llvm::Expected<const GpuArch *>
energy::parseGpuArchOption(llvm::StringRef Name) {
  std::optional<unsigned> Sm = parseSmVersion(Name);
  if (!Sm)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "arch must be sm_XX, got '" + Name + "'");
  if (const GpuArch *Exact = lookupGpuArch(*Sm))
    return Exact;
  std::string Known;
  for (const GpuArch &A : GpuArchTable)
    Known += (Known.empty() ? "" : ", ") + std::string(A.Name);
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "no tables for arch '" + Name +
                                     "' (known: " + Known + ")");
}

const GpuArch &energy::resolveGpuArch(llvm::StringRef Target,
                                      llvm::StringRef Missing,
                                      std::vector<std::string> &Notes) {
  std::optional<unsigned> Sm = parseSmVersion(Target);
  if (!Sm) {
    Notes.push_back(Target.empty() ? "no " + Missing.str() + "; assuming sm_90"
                                   : "target '" + Target.str() +
                                         "' is not sm_XX; assuming sm_90");
    Sm = 90;
  }
  if (const GpuArch *Exact = lookupGpuArch(*Sm))
    return *Exact;
  const GpuArch &Near = *nearestGpuArch(*Sm);
  Notes.push_back("no tables for sm_" + std::to_string(*Sm) + "; using " +
                  Near.Name);
  return Near;
}
