//===- GpuArch.cpp - NVIDIA compute capabilities and boards ---------------===//
//
// A data table, and long for that reason: the datasheet rows of every
// compute capability and board, with their sources, kept in one place; the
// few lookups over them follow the table.
//
// Sources, cited by short name in the rows below:
//  [CPG]    CUDA C++ Programming Guide, "Technical Specifications per Compute
//           Capability" (threads, warps, blocks, registers, shared memory),
//           its note that from 8.x on 1 KB of shared memory per block is
//           reserved for system use, and its "Arithmetic Instructions"
//           throughput table (results per clock per SM).
//  [OCC]    cuda_occupancy.h of CUDA 13.0 (the code behind
//           cudaOccupancyMaxActiveBlocksPerMultiprocessor): register
//           allocation unit 256, sub-partitions (2 on 6.0, else 4), shared
//           memory granularity 256 B up to 7.x and 128 B on 8.x-12.x, max
//           blocks per SM.
//  [GP104]  NVIDIA GeForce GTX 1080 whitepaper (GP104).
//  [GP100]  NVIDIA Tesla P100 whitepaper (GP100: 56 of 60 SMs, 64 FP32
//           cores and 2 warp schedulers per SM, 4 MB L2) and NVIDIA's P100
//           launch figures: 1328/1480 MHz, 10.6/21.2/5.3 TFLOPS FP32/FP16/
//           FP64, HBM2 at 1.4 Gbps x 4096 bit = 720 GB/s, 300 W (as
//           reported by tech4gamers.com, "Tesla P100 will be available in
//           two variants", and xtreview.com, 2016).
//  [GM200]  GeForce GTX TITAN X (Maxwell) specifications: 24 SMs x 128
//           cores, 1000/1075 MHz, 7 Gbps x 384 bit = 336.5 GB/s, 3 MB L2,
//           250 W (NVIDIA's reviewer table as printed by hothardware.com,
//           "GeForce GTX Titan X Review", 2015; FP64 1/32 rate:
//           ocaholic.ch, 2015).
//  [GP102]  GeForce GTX 1080 Ti: 28 SMs (GP102-350), 1480/1582 MHz, 11
//           GDDR5X chips at 11 Gbps on 352 bits, 250 W, 256 KB of L2 per
//           32-bit controller (gamegpu.com and ua.gecid.com reviews, 2017;
//           [GEFORCE]).
//  [TU10X]  GeForce RTX 2070 (TU106: 36 SMs, 1410/1620 MHz, 175 W; the
//           Founders Edition 1710 MHz, 185 W) and RTX 2080 (TU104: 46 SMs,
//           1515/1710 MHz, 215 W; Founders Edition 1800 MHz, 225 W): 14
//           Gbps x 256 bit = 448 GB/s, 4 MB L2 ([TURING]; as printed by
//           tomshardware.com, "Nvidia's Turing Architecture Explored",
//           2018, and gamegpu.com); reference clocks and power, not the
//           Founders Edition's.
//  [GA10X]  GeForce RTX 3070 (GA104: 46 SMs, 1500/1725 MHz, 14 Gbps x 256
//           bit = 448 GB/s, 4 MB L2, 220 W) and RTX 3080 10 GB (GA102: 68
//           SMs, 1440/1710 MHz, 19 Gbps x 320 bit = 760 GB/s, 5 MB L2, 320
//           W) ([GA102] appendix; techpowerup.com, "NVIDIA GeForce Ampere
//           Architecture, Board Design", 2020).
//  [AD10X]  GeForce RTX 4070 (AD104: 46 SMs, 1920/2475 MHz, 21 Gbps x 192
//           bit = 504 GB/s, 36 MB L2, 200 W) and RTX 4080 (AD103: 76 SMs,
//           2205/2505 MHz, 22.4 Gbps x 256 bit = 716.8 GB/s, 64 MB L2, 320
//           W) ([ADA] appendix; [GEFORCE]).
//  [L40]    NVIDIA L40 datasheet: 18,176 CUDA cores (142 SMs), 90.5 TFLOPS
//           FP32, 181 TFLOPS FP16 tensor dense (362 with sparsity), 864
//           GB/s GDDR6, 300 W; boost 2490 MHz.
//  [VOLTA]  NVIDIA Tesla V100 GPU Architecture whitepaper; [V100] Tesla V100
//           datasheet.
//  [TURING] NVIDIA Turing GPU Architecture whitepaper (TU102, TU104, RTX
//           2080 Ti, Quadro RTX 6000); [T4] Tesla T4 datasheet and product
//           brief; [TITAN] TITAN RTX product page.
//  [A100WP] NVIDIA A100 Tensor Core GPU Architecture whitepaper; [A100]
//           A100 datasheet (SXM4 and PCIe); [A100PB] A100 PCIe product brief;
//           [A30] A30 datasheet and product brief.
//  [GA102]  NVIDIA Ampere GA102 GPU Architecture whitepaper (RTX 3090, RTX
//           A6000, A40; its appendix: GA104); [A10], [A40], [A4000], [A6000]
//           the boards' datasheets and product briefs; [3060M] GeForce RTX
//           3060 Laptop GPU specifications.
//  [ADA]    NVIDIA Ada GPU Architecture whitepaper (AD102, AD104, RTX 4090);
//           [L4], [L40S], [4000ADA] the boards' datasheets and product
//           briefs.
//  [H100WP] NVIDIA H100 Tensor Core GPU Architecture whitepaper; [H100]
//           H100 datasheet (SXM and PCIe); [H200] H200 datasheet.
//  [B200]   HGX B200 specifications (per GPU); [C&C] Chips and Cheese,
//           "Nvidia's B200: Keeping the CUDA Juggernaut Rolling" (L2 size).
//  [GEFORCE] NVIDIA's GeForce product specifications (GTX 1070, RTX 2080 Ti,
//           RTX 3090, RTX 4090): cores, base and boost clocks, memory, power.
//
// Every compute capability has 128 B/clk/SM of shared memory bandwidth: 32
// banks of 4 bytes each per clock [CPG, "Shared Memory"].
//
// Derived where the vendor gives no figure (the row says which):
//  * FP16 non-tensor, FP64 and tensor rates: SMs x the per-SM rate of the
//    architecture (its whitepaper or [CPG]) x boost clock.
//  * BaseClockGHz: 0 where NVIDIA publishes none.
// Estimates (no vendor figure exists; refine them with measurements, see
// shared/MEASURE.md):
//  * IdlePowerW: typical nvidia-smi reading of the idle board without a CUDA
//    context. Creating a context raises it by about 26-66 W on H100, A100 and
//    L40S (arXiv:2605.23918), so a running kernel never sees less.
//  * LaunchFloorW: only where a clock sweep measured it ([SWEEP]: an FP32
//    FMA loop at 10 graphics clocks, NVML power,
//    ../shared/data/public-measurements/energy/synthetic_fp32_*; the rule in
//    lib/CostModel/EventEnergies.cpp, launchFloorW).
//  * L2BandwidthGBs where NVIDIA publishes no L2 bytes/clock: 3.5 x DRAM
//    bandwidth, the L2:DRAM ratio of the two parts whose L2 bytes/clock NVIDIA
//    did publish (V100: 3133/900 = 3.5; A100 SXM4 80GB: 7219/2039 = 3.5).
//
//===----------------------------------------------------------------------===//

#include "energy/GpuArch.h"

#include "energy/DidYouMean.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace energy;

constexpr unsigned KiB = 1024;
constexpr unsigned MiB = 1024 * KiB;

// Field groups, one per line: warp size, threads/block, threads/SM,
// warps/SM, blocks/SM; registers/SM, /thread, /block; register unit,
// sub-partitions; shared memory/SM, /block opt-in, /block default; shared
// memory unit, reserved/block; shared memory bytes/clock/SM; unified L1 and
// shared memory/SM ([CPG], "Compute Capability 7.x" ff.: 128 KB on 7.0, 96
// KB on 7.5, 192 KB on 8.0, 128 KB on 8.6 and 8.9, 256 KB on 9.0 and 10.0;
// 6.x caches global loads in L2 only, "Compute Capability 6.x").
// clang-format off
static const ComputeCapability ComputeCapabilities[] = {
    {
        52, "sm_52", "gtx-titan-x",
        // [CPG], [OCC]: Maxwell GM20x; 4 sub-partitions, 96 KB per SM,
        // global loads cached in L2 only by default, as 6.x.
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        96 * KiB, 48 * KiB, 48 * KiB,
        256, 0,
        128.0,
        0,
    },
    {
        60, "sm_60", "p100-sxm2",
        // [CPG], [OCC]: Pascal GP100; 2 sub-partitions (two warp schedulers
        // per SM [GP100]), 64 KB per SM.
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 2,
        64 * KiB, 48 * KiB, 48 * KiB,
        256, 0,
        128.0,
        0,
    },
    {
        61, "sm_61", "gtx-1070",
        // [CPG], [OCC]: Pascal GP10x; no opt-in beyond 48 KB per block.
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        96 * KiB, 48 * KiB, 48 * KiB,
        256, 0,
        128.0,
        0,
    },
    {
        70, "sm_70", "v100",
        // [CPG], [OCC].
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        96 * KiB, 96 * KiB, 48 * KiB,
        256, 0,
        128.0,
        128 * KiB,
    },
    {
        75, "sm_75", "t4",
        // [CPG], [OCC]: Turing halves threads and blocks per SM.
        32, 1024, 1024, 32, 16,
        65536, 255, 65536,
        256, 4,
        64 * KiB, 64 * KiB, 48 * KiB,
        256, 0,
        128.0,
        96 * KiB,
    },
    {
        80, "sm_80", "a100-sxm-80gb",
        // [CPG], [OCC].
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        164 * KiB, 163 * KiB, 48 * KiB,
        128, 1024,
        128.0,
        192 * KiB,
    },
    {
        86, "sm_86", "a10",
        // [CPG], [OCC]: 1536 threads and 16 blocks per SM, 100 KB.
        32, 1024, 1536, 48, 16,
        65536, 255, 65536,
        256, 4,
        100 * KiB, 99 * KiB, 48 * KiB,
        128, 1024,
        128.0,
        128 * KiB,
    },
    {
        89, "sm_89", "l4",
        // [CPG], [OCC]: as sm_86 but 24 blocks per SM.
        32, 1024, 1536, 48, 24,
        65536, 255, 65536,
        256, 4,
        100 * KiB, 99 * KiB, 48 * KiB,
        128, 1024,
        128.0,
        128 * KiB,
    },
    {
        90, "sm_90", "h100-sxm",
        // [CPG], [OCC].
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        228 * KiB, 227 * KiB, 48 * KiB,
        128, 1024,
        128.0,
        256 * KiB,
    },
    {
        100, "sm_100", "b200",
        // [CPG], [OCC]: the same limits as sm_90.
        32, 1024, 2048, 64, 32,
        65536, 255, 65536,
        256, 4,
        228 * KiB, 227 * KiB, 48 * KiB,
        128, 1024,
        128.0,
        256 * KiB,
    },
};

// Field groups: name, marketing name, compute capability; SMs, boost and
// base clock (GHz); peak FP32, FP16, FP64, tensor FP16 (TFLOPS); DRAM (GB/s);
// L2 size; L2 bandwidth (GB/s); idle and maximum power (W); the DRAM's kind
// and the chip's process node (nm; the foundry's name in the comment; a
// "5 nm-class" node counts as 5), both from the source the comment names.
static const GpuBoard GpuBoards[] = {
    // sm_52
    {
        "gtx-titan-x", "GeForce GTX TITAN X (Maxwell)", 52,
        24, 1.075, 1.000, // [GM200]
        6.60,   // FP32: 24 x 128 x 2 x 1.075 GHz
        6.60,   // FP16: no FP16 rate on 5.2 [CPG]; half is computed in FP32
        0.206,  // FP64: 4 results/clk/SM on 5.x [CPG]: 24 x 4 x 2 x 1.075
        0.0,    // no tensor cores
        336.5,  // GDDR5, [GM200]
        3 * MiB, // [GM200]
        1178.0, // estimate, 3.5 x DRAM (see header)
        15.0,   // estimate, see header
        250.0,  // [GM200]
        DramKind::GDDR5, 28.0, // TSMC 28 nm [GM200]
    },
    // sm_60
    {
        "p100-sxm2", "Tesla P100 SXM2 16GB", 60,
        56, 1.480, 1.328, // [GP100]
        10.6,   // FP32, [GP100]
        21.2,   // FP16 non-tensor, [GP100]
        5.3,    // FP64, [GP100]
        0.0,    // no tensor cores
        720.0,  // HBM2, [GP100]
        4 * MiB, // [GP100]
        2520.0, // estimate, 3.5 x DRAM (see header)
        30.0,   // estimate, see header
        300.0,  // [GP100]
        DramKind::HBM2, 16.0, // TSMC 16 nm FinFET [GP100]
    },
    // sm_61
    {
        "gtx-1070", "GeForce GTX 1070", 61,
        // [GEFORCE]: 1920 CUDA cores = 15 SMs x 128, 1506/1683 MHz.
        15, 1.683, 1.506,
        6.46,   // FP32: 15 x 128 x 2 x 1.683 GHz ([GEFORCE]: 6.5)
        0.101,  // FP16: 2 results/clk/SM on 6.1 [CPG]: 15 x 2 x 2 x 1.683
        0.202,  // FP64: 4 results/clk/SM on 6.1 [CPG]: 15 x 4 x 2 x 1.683
        0.0,    // no tensor cores
        256.0,  // GDDR5, 8 Gbps x 256 bit [GEFORCE]
        2 * MiB, // GP104 [GP104]
        896.0,  // estimate, 3.5 x DRAM (see header)
        8.0,    // estimate, see header
        150.0,  // [GEFORCE]
        DramKind::GDDR5, 16.0, // TSMC 16 nm FinFET [GP104]
    },
    {
        "gtx-1080-ti", "GeForce GTX 1080 Ti", 61,
        28, 1.582, 1.480, // [GP102]
        11.34,  // FP32: 28 x 128 x 2 x 1.582 GHz
        0.177,  // FP16: 2 results/clk/SM on 6.1 [CPG]: 28 x 2 x 2 x 1.582
        0.354,  // FP64: 4 results/clk/SM on 6.1 [CPG]: 28 x 4 x 2 x 1.582
        0.0,    // no tensor cores
        484.0,  // GDDR5X, 11 Gbps x 352 bit [GP102]
        2816 * KiB, // 11 controllers x 256 KB [GP102]
        1694.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        250.0,  // [GP102]
        DramKind::GDDR5X, 16.0, // TSMC 16 nm FinFET [GP102]
    },
    // sm_70
    {
        "v100", "Tesla V100 SXM2", 70,
        // [VOLTA]: 80 SMs at 1530 MHz; [V100].
        80, 1.530, 0,
        15.7,   // FP32, [V100]
        31.4,   // FP16 non-tensor: 2 x FP32, half2 [CPG]
        7.8,    // FP64, [V100]
        125.0,  // tensor FP16, [V100]
        900.0,  // HBM2, [V100]
        6 * MiB, // [VOLTA]
        3133.0, // 2048 B/clk ([A100WP], V100 L2 read) x 1.53 GHz
        40.0,   // estimate, see header
        300.0,  // [V100]
        DramKind::HBM2, 12.0, // TSMC 12 nm FFN [VOLTA]
    },
    // sm_75
    {
        "t4", "Tesla T4", 75,
        // [T4]: 2560 CUDA cores = 40 SMs x 64, 585/1590 MHz.
        40, 1.590, 0.585,
        8.1,    // FP32, [T4]
        16.3,   // FP16 non-tensor: 2 x FP32 on Turing [TURING]
        0.25,   // FP64: 2 units/SM [TURING]: 40 x 2 x 2 x 1.59 GHz
        65.0,   // tensor FP16 (mixed precision), [T4]
        320.0,  // GDDR6, [T4]
        4 * MiB, // TU104 [TURING]
        1120.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        70.0,   // [T4]
        DramKind::GDDR6, 12.0, // TSMC 12 nm FFN [TURING]
    },
    {
        "rtx-2080-ti", "GeForce RTX 2080 Ti", 75,
        // [TURING], [GEFORCE]: 68 SMs, 1350/1545 MHz (reference board; the
        // Founders Edition boosts to 1635 MHz at 260 W).
        68, 1.545, 1.350,
        13.4,   // FP32, [TURING]
        26.9,   // FP16 non-tensor: 2 x FP32 [TURING]
        0.42,   // FP64: 2 units/SM [TURING]: 68 x 2 x 2 x 1.545 GHz
        53.8,   // tensor FP16, FP32 accumulate (half rate on GeForce) [TURING]
        616.0,  // GDDR6, 14 Gbps x 352 bit [TURING]
        5632 * KiB, // [TURING]
        2156.0, // estimate, 3.5 x DRAM (see header)
        15.0,   // estimate, see header
        250.0,  // [TURING]
        DramKind::GDDR6, 12.0, // TSMC 12 nm FFN [TURING]
    },
    {
        "titan-rtx", "TITAN RTX", 75,
        // [TITAN]: full TU102, 72 SMs, 1350/1770 MHz.
        72, 1.770, 1.350,
        16.3,   // FP32: 72 x 64 x 2 x 1.77 GHz
        32.6,   // FP16 non-tensor: 2 x FP32 [TURING]
        0.51,   // FP64: 2 units/SM [TURING]: 72 x 2 x 2 x 1.77 GHz
        130.5,  // tensor FP16, FP32 accumulate at full rate: [TITAN] 130
        672.0,  // GDDR6, 14 Gbps x 384 bit [TITAN]
        6 * MiB, // full TU102 (Quadro RTX 6000) [TURING]
        2352.0, // estimate, 3.5 x DRAM (see header)
        15.0,   // estimate, see header
        280.0,  // [TITAN]
        DramKind::GDDR6, 12.0, // TSMC 12 nm FFN [TURING]
    },
    {
        "rtx-2070", "GeForce RTX 2070", 75,
        36, 1.620, 1.410, // [TU10X]
        7.46,   // FP32: 36 x 64 x 2 x 1.62 GHz
        14.9,   // FP16 non-tensor: 2 x FP32 [TURING]
        0.233,  // FP64: 2 units/SM [TURING]: 36 x 2 x 2 x 1.62 GHz
        29.9,   // tensor FP16, FP32 accumulate at GeForce's half rate:
                // 512 flop/clk/SM [TURING] x 36 x 1.62 GHz
        448.0,  // GDDR6, 14 Gbps x 256 bit [TU10X]
        4 * MiB, // TU106 [TU10X]
        1568.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        175.0,  // [TU10X]
        DramKind::GDDR6, 12.0, // TSMC 12 nm FFN [TURING]
    },
    {
        "rtx-2080", "GeForce RTX 2080", 75,
        46, 1.710, 1.515, // [TU10X]
        10.07,  // FP32: 46 x 64 x 2 x 1.71 GHz
        20.1,   // FP16 non-tensor: 2 x FP32 [TURING]
        0.315,  // FP64: 2 units/SM [TURING]: 46 x 2 x 2 x 1.71 GHz
        40.3,   // tensor FP16, FP32 accumulate at GeForce's half rate:
                // 512 flop/clk/SM [TURING] x 46 x 1.71 GHz
        448.0,  // GDDR6, 14 Gbps x 256 bit [TU10X]
        4 * MiB, // TU104 [TU10X]
        1568.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        215.0,  // [TU10X]
        DramKind::GDDR6, 12.0, // TSMC 12 nm FFN [TURING]
    },
    // sm_80
    {
        "a100-sxm-80gb", "A100 SXM4 80GB", 80,
        // [A100WP]: 108 SMs at 1410 MHz; [A100] (SXM4 80GB).
        108, 1.410, 0,
        19.5,   // FP32, [A100]
        // FP16 non-tensor, [A100WP] Table 1: 4 x FP32, reached only by some
        // FP16 instruction mixes (NVIDIA forum); BF16 non-tensor is 39.
        78.0,
        9.7,    // FP64 non-tensor, [A100]
        312.0,  // tensor FP16 dense, [A100]
        2039.0, // HBM2e, [A100]
        40 * MiB, // [A100WP]
        7219.0, // 5120 B/clk ([A100WP], L2 read) x 1.41 GHz
        55.0,   // estimate, see header
        400.0,  // [A100]
        DramKind::HBM2e, 7.0, // TSMC 7 nm [A100WP]
    },
    {
        "a100-pcie-40gb", "A100 PCIe 40GB", 80,
        // [A100PB]: 108 SMs, 765/1410 MHz.
        108, 1.410, 0.765,
        19.5,   // FP32, [A100]
        78.0,   // FP16 non-tensor, as the SXM4 board [A100WP]
        9.7,    // FP64 non-tensor, [A100]
        312.0,  // tensor FP16 dense, [A100]
        1555.0, // HBM2, [A100]
        40 * MiB, // [A100WP]
        7219.0, // the same die and clock as the SXM4 board: 5120 B/clk x 1.41
        35.0,   // estimate, see header
        250.0,  // [A100]
        DramKind::HBM2, 7.0, // TSMC 7 nm [A100WP]
        83.3,   // launch floor at 1410 MHz, measured [SWEEP]
    },
    {
        "a30", "A30", 80,
        // [A30]: 3584 CUDA cores = 56 SMs x 64, 930/1440 MHz.
        56, 1.440, 0.930,
        10.3,   // FP32, [A30]
        41.3,   // FP16 non-tensor: 4 x FP32 on GA100 [A100WP]
        5.2,    // FP64 non-tensor, [A30]
        165.0,  // tensor FP16 dense, [A30]
        933.0,  // HBM2, [A30]
        // 3 HBM2 stacks (3072 bit) x GA100's 8 MB of L2 per stack (A100:
        // 40 MB for 5) [A100WP]; [A30] does not list it.
        24 * MiB,
        3266.0, // estimate, 3.5 x DRAM (see header)
        30.0,   // estimate, see header
        165.0,  // [A30]
        DramKind::HBM2, 7.0, // TSMC 7 nm [A100WP]
    },
    // sm_86
    {
        "a10", "A10", 86,
        // [A10]: 9216 CUDA cores = 72 SMs x 128; 885/1695 MHz
        // (31.2 TFLOPS = 9216 x 2 x 1.695 GHz).
        72, 1.695, 0.885,
        31.2,   // FP32, [A10]
        31.2,   // FP16 non-tensor: FP32's rate on GA10x [GA102]
        0.49,   // FP64: 2 units/SM [GA102]: 72 x 2 x 2 x 1.695 GHz
        125.0,  // tensor FP16 dense, [A10]
        600.0,  // GDDR6, [A10]
        6 * MiB, // GA102 [GA102]
        2100.0, // estimate, 3.5 x DRAM (see header)
        20.0,   // estimate, see header
        150.0,  // [A10]
        DramKind::GDDR6, 8.0, // Samsung 8 nm [GA102]
    },
    {
        "a40", "A40", 86,
        // [A40]: 10752 CUDA cores = 84 SMs x 128; 1305/1740 MHz.
        84, 1.740, 1.305,
        37.4,   // FP32, [A40]
        37.4,   // FP16 non-tensor: FP32's rate on GA10x [GA102]
        0.58,   // FP64: 2 units/SM [GA102]: 84 x 2 x 2 x 1.74 GHz
        149.7,  // tensor FP16 dense, [A40]
        696.0,  // GDDR6, [A40]
        6 * MiB, // GA102 [GA102]
        2436.0, // estimate, 3.5 x DRAM (see header)
        30.0,   // estimate, see header
        300.0,  // [A40]
        DramKind::GDDR6, 8.0, // Samsung 8 nm [GA102]
    },
    {
        "rtx-3060-laptop", "GeForce RTX 3060 Laptop GPU (115 W)", 86,
        // [3060M]: 3840 CUDA cores = 30 SMs x 128; boost 1283-1703 MHz with
        // 60-115 W of graphics power: the top of both ranges.
        30, 1.703, 0,
        13.1,   // FP32: 30 x 128 x 2 x 1.703 GHz
        13.1,   // FP16 non-tensor: FP32's rate on GA10x [GA102]
        0.20,   // FP64: 2 units/SM [GA102]: 30 x 2 x 2 x 1.703 GHz
        // Tensor FP16, FP32 accumulate, half rate on GeForce: 512 flop/clk/SM
        // (RTX 3090: 71 TFLOPS at 82 SMs, 1.695 GHz [GA102]) x 30 x 1.703.
        26.2,
        336.0,  // GDDR6, 14 Gbps x 192 bit [3060M]
        // GA106: 512 KB of L2 per 32-bit memory channel as on GA102/GA104
        // [GA102], 6 channels.
        3 * MiB,
        1176.0, // estimate, 3.5 x DRAM (see header)
        8.0,    // estimate, see header
        115.0,  // [3060M], without Dynamic Boost
        DramKind::GDDR6, 8.0, // Samsung 8 nm [GA102]
    },
    {
        "rtx-3090", "GeForce RTX 3090", 86,
        // [GA102], [GEFORCE]: 82 SMs, 1395/1695 MHz.
        82, 1.695, 1.395,
        35.6,   // FP32, [GA102]
        35.6,   // FP16 non-tensor: FP32's rate [GA102]
        0.556,  // FP64: 2 units/SM [GA102]: 82 x 2 x 2 x 1.695 GHz
        71.0,   // tensor FP16, FP32 accumulate (half rate on GeForce) [GA102]
        936.0,  // GDDR6X, 19.5 Gbps x 384 bit [GA102]
        6 * MiB, // [GA102]
        3276.0, // estimate, 3.5 x DRAM (see header)
        25.0,   // estimate, see header
        350.0,  // [GA102]
        DramKind::GDDR6X, 8.0, // Samsung 8 nm [GA102]
    },
    {
        "rtx-3070", "GeForce RTX 3070", 86,
        46, 1.725, 1.500, // [GA10X]
        20.3,   // FP32: 46 x 128 x 2 x 1.725 GHz
        20.3,   // FP16 non-tensor: FP32's rate [GA102]
        0.317,  // FP64: 2 units/SM [GA102]: 46 x 2 x 2 x 1.725 GHz
        40.6,   // tensor FP16, FP32 accumulate at GeForce's half rate:
                // 512 flop/clk/SM [GA102] x 46 x 1.725 GHz
        448.0,  // GDDR6, 14 Gbps x 256 bit [GA10X]
        4 * MiB, // GA104 [GA10X]
        1568.0, // estimate, 3.5 x DRAM (see header)
        12.0,   // estimate, see header
        220.0,  // [GA10X]
        DramKind::GDDR6, 8.0, // Samsung 8 nm [GA102]
    },
    {
        "rtx-3080", "GeForce RTX 3080 (10 GB)", 86,
        68, 1.710, 1.440, // [GA10X]
        29.8,   // FP32: 68 x 128 x 2 x 1.71 GHz
        29.8,   // FP16 non-tensor: FP32's rate [GA102]
        0.465,  // FP64: 2 units/SM [GA102]: 68 x 2 x 2 x 1.71 GHz
        59.5,   // tensor FP16, FP32 accumulate at GeForce's half rate:
                // 512 flop/clk/SM [GA102] x 68 x 1.71 GHz
        760.0,  // GDDR6X, 19 Gbps x 320 bit [GA10X]
        5 * MiB, // GA102 with 10 of its 12 controllers [GA10X]
        2660.0, // estimate, 3.5 x DRAM (see header)
        20.0,   // estimate, see header
        320.0,  // [GA10X]
        DramKind::GDDR6X, 8.0, // Samsung 8 nm [GA102]
    },
    {
        "rtx-a4000", "RTX A4000", 86,
        // [A4000]: 6144 CUDA cores = 48 SMs x 128 (GA104); boost
        // 19.2 TFLOPS / (6144 x 2) = 1.56 GHz.
        48, 1.560, 0,
        19.2,   // FP32, [A4000]
        19.2,   // FP16 non-tensor: FP32's rate on GA10x [GA102]
        0.30,   // FP64: 2 units/SM [GA102]: 48 x 2 x 2 x 1.56 GHz
        76.7,   // tensor FP16 dense: [A4000] 153.4 with sparsity / 2
        448.0,  // GDDR6, [A4000]
        4 * MiB, // GA104 [GA102, appendix]
        1568.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        140.0,  // [A4000]
        DramKind::GDDR6, 8.0, // Samsung 8 nm [GA102]
        45.0,   // launch floor at 1530 MHz, measured [SWEEP]
    },
    {
        "rtx-a6000", "RTX A6000", 86,
        // [A6000], [GA102]: 10752 CUDA cores = 84 SMs x 128; boost
        // 38.7 TFLOPS / (10752 x 2) = 1.8 GHz.
        84, 1.800, 0,
        38.7,   // FP32, [A6000]
        38.7,   // FP16 non-tensor: FP32's rate on GA10x [GA102]
        0.605,  // FP64: 2 units/SM [GA102]: 84 x 2 x 2 x 1.8 GHz
        154.8,  // tensor FP16 dense: [A6000] 309.7 with sparsity / 2
        768.0,  // GDDR6, [A6000]
        6 * MiB, // GA102 [GA102]
        2688.0, // estimate, 3.5 x DRAM (see header)
        20.0,   // estimate, see header
        300.0,  // [A6000]
        DramKind::GDDR6, 8.0, // Samsung 8 nm [GA102]
    },
    // sm_89
    {
        "l4", "L4", 89,
        // [L4]: 30.3 TFLOPS FP32 at 2040 MHz = 58 SMs x 128 x 2; base 795.
        58, 2.040, 0.795,
        30.3,   // FP32, [L4]
        30.3,   // FP16 non-tensor: FP32's rate on AD10x [ADA]
        0.47,   // FP64: 2 units/SM [ADA]: 58 x 2 x 2 x 2.04 GHz
        121.0,  // tensor FP16 dense: [L4] 242 with sparsity / 2
        300.0,  // GDDR6, [L4]
        48 * MiB, // AD104 [ADA]
        // Estimate, 3.5 x DRAM (see header); likely low, as Ada pairs narrow
        // DRAM with a large L2.
        1050.0,
        16.0,   // estimate, see header
        72.0,   // [L4]
        DramKind::GDDR6, 5.0, // TSMC 4N, a 5 nm-class node [ADA]
    },
    {
        "l40s", "L40S", 89,
        // [L40S]: 18176 CUDA cores = 142 SMs x 128; 1110/2520 MHz.
        142, 2.520, 1.110,
        91.6,   // FP32, [L40S]
        91.6,   // FP16 non-tensor: FP32's rate on AD10x [ADA]
        1.43,   // FP64: 2 units/SM [ADA]: 142 x 2 x 2 x 2.52 GHz
        362.05, // tensor FP16 dense, FP32 accumulate, [L40S]
        864.0,  // GDDR6, [L40S]
        96 * MiB, // AD102 [ADA]; [L40S] does not list it
        3024.0, // estimate, 3.5 x DRAM (see header)
        35.0,   // estimate, see header
        350.0,  // [L40S]
        DramKind::GDDR6, 5.0, // TSMC 4N, a 5 nm-class node [ADA]
    },
    {
        "l40", "L40", 89,
        142, 2.490, 0.735, // [L40]; base clock: techpowerup.com's database
        90.5,   // FP32, [L40]
        90.5,   // FP16 non-tensor: FP32's rate on AD10x [ADA]
        1.41,   // FP64: 2 units/SM [ADA]: 142 x 2 x 2 x 2.49 GHz
        181.0,  // tensor FP16 dense, FP32 accumulate, [L40]
        864.0,  // GDDR6, [L40]
        96 * MiB, // AD102 [ADA]; [L40] does not list it
        3024.0, // estimate, 3.5 x DRAM (see header)
        30.0,   // estimate, see header
        300.0,  // [L40]
        DramKind::GDDR6, 5.0, // TSMC 4N, a 5 nm-class node [ADA]
    },
    {
        "rtx-4090", "GeForce RTX 4090", 89,
        // [ADA], [GEFORCE]: 128 SMs, 2235/2520 MHz.
        128, 2.520, 2.235,
        82.6,   // FP32, [ADA]
        82.6,   // FP16 non-tensor: FP32's rate [ADA]
        1.29,   // FP64: 2 units/SM [ADA]: 128 x 2 x 2 x 2.52 GHz
        165.2,  // tensor FP16, FP32 accumulate (half rate on GeForce) [ADA]
        1008.0, // GDDR6X, 21 Gbps x 384 bit [ADA]
        72 * MiB, // [ADA]
        3528.0, // estimate, 3.5 x DRAM (see header)
        20.0,   // estimate, see header
        450.0,  // [ADA]
        DramKind::GDDR6X, 5.0, // TSMC 4N, a 5 nm-class node [ADA]
    },
    {
        "rtx-4080", "GeForce RTX 4080", 89,
        76, 2.505, 2.205, // [AD10X]
        48.7,   // FP32: 76 x 128 x 2 x 2.505 GHz
        48.7,   // FP16 non-tensor: FP32's rate [ADA]
        0.762,  // FP64: 2 units/SM [ADA]: 76 x 2 x 2 x 2.505 GHz
        97.5,   // tensor FP16, FP32 accumulate at GeForce's half rate:
                // 512 flop/clk/SM [ADA] x 76 x 2.505 GHz
        716.8,  // GDDR6X, 22.4 Gbps x 256 bit [AD10X]
        64 * MiB, // AD103 [AD10X]
        2509.0, // estimate, 3.5 x DRAM (see header)
        15.0,   // estimate, see header
        320.0,  // [AD10X]
        DramKind::GDDR6X, 5.0, // TSMC 4N, a 5 nm-class node [ADA]
    },
    {
        "rtx-4070", "GeForce RTX 4070", 89,
        46, 2.475, 1.920, // [AD10X]
        29.1,   // FP32: 46 x 128 x 2 x 2.475 GHz
        29.1,   // FP16 non-tensor: FP32's rate [ADA]
        0.455,  // FP64: 2 units/SM [ADA]: 46 x 2 x 2 x 2.475 GHz
        58.3,   // tensor FP16, FP32 accumulate at GeForce's half rate:
                // 512 flop/clk/SM [ADA] x 46 x 2.475 GHz
        504.0,  // GDDR6X, 21 Gbps x 192 bit [AD10X]
        36 * MiB, // AD104 with 36 of its 48 MB [AD10X]
        1764.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        200.0,  // [AD10X]
        DramKind::GDDR6X, 5.0, // TSMC 4N, a 5 nm-class node [ADA]
    },
    {
        "rtx-4000-ada", "RTX 4000 Ada Generation", 89,
        // [4000ADA]: 6144 CUDA cores = 48 SMs x 128 (AD104); boost
        // 26.7 TFLOPS / (6144 x 2) = 2.175 GHz.
        48, 2.175, 0,
        26.7,   // FP32, [4000ADA]
        26.7,   // FP16 non-tensor: FP32's rate on AD10x [ADA]
        0.42,   // FP64: 2 units/SM [ADA]: 48 x 2 x 2 x 2.175 GHz
        // Tensor FP16 dense, FP32 accumulate at full rate as on L4: 1024
        // flop/clk/SM x 48 x 2.175 GHz ([4000ADA] gives only FP8 figures).
        106.9,
        360.0,  // GDDR6, [4000ADA]
        // AD104's L2 [ADA]; [4000ADA] does not list it, and this 160-bit
        // board may have part of it disabled: unverified.
        48 * MiB,
        1260.0, // estimate, 3.5 x DRAM (see header)
        10.0,   // estimate, see header
        130.0,  // [4000ADA]
        DramKind::GDDR6, 5.0, // TSMC 4N, a 5 nm-class node [ADA]
    },
    // sm_90
    {
        "h100-sxm", "H100 SXM5 80GB", 90,
        // [H100WP] (SXM5): 132 SMs, 1980 MHz for non-tensor math.
        132, 1.980, 0,
        66.9,    // FP32, [H100WP] ([H100]: 67)
        133.8,   // FP16 non-tensor, [H100WP]
        33.5,    // FP64 non-tensor, [H100WP] ([H100]: 34)
        989.4,   // tensor FP16 dense, [H100WP] ([H100]: 1979 sparse)
        3350.0,  // HBM3, [H100]
        50 * MiB, // [H100WP]
        11725.0, // estimate, 3.5 x DRAM (see header)
        70.0,    // estimate, see header
        700.0,   // [H100]
        DramKind::HBM3, 5.0, // TSMC 4N, a 5 nm-class node [H100WP]
    },
    {
        "h100-pcie", "H100 PCIe 80GB", 90,
        // [H100WP] (PCIe): 114 SMs; boost 51.2 TFLOPS / (114 x 128 x 2) =
        // 1.755 GHz.
        114, 1.755, 0,
        51.2,    // FP32, [H100WP]
        102.4,   // FP16 non-tensor: 2 x FP32 [H100WP]
        25.6,    // FP64 non-tensor, [H100WP]
        756.5,   // tensor FP16 dense: [H100] 1513 with sparsity / 2
        2000.0,  // HBM2e, [H100]
        50 * MiB, // [H100WP]
        7000.0,  // estimate, 3.5 x DRAM (see header)
        50.0,    // estimate, see header
        350.0,   // [H100]
        DramKind::HBM2e, 5.0, // TSMC 4N, a 5 nm-class node [H100WP]
    },
    {
        "h200", "H200 SXM 141GB", 90,
        // [H200]: the H100 SXM5's GH100 (132 SMs) at its clock (FP32 67).
        132, 1.980, 0,
        66.9,    // FP32, [H200] 67; as [H100WP] for the SXM5 board
        133.8,   // FP16 non-tensor: 2 x FP32, as the H100 SXM5 [H100WP]
        33.5,    // FP64 non-tensor, [H200] 34; as [H100WP]
        989.4,   // tensor FP16 dense: [H200] 1979 with sparsity / 2
        4800.0,  // HBM3e, [H200]
        50 * MiB, // GH100's [H100WP]; [H200] does not list it
        // Estimate, 3.5 x DRAM (see header); likely high, as the L2 is the
        // H100 SXM5's.
        16800.0,
        70.0,    // estimate, the H100 SXM5's (same die and TDP)
        700.0,   // [H200]
        DramKind::HBM3e, 5.0, // TSMC 4N, a 5 nm-class node [H100WP]
    },
    // sm_100
    {
        "b200", "B200 (HGX, 1000 W)", 100,
        // NVIDIA publishes neither SM count nor clock: 148 SMs is the count
        // device queries report [C&C]; 1.98 GHz = 75 TFLOPS / (148 x 128 x 2).
        148, 1.980, 0,
        75.0,    // FP32, [B200]
        150.0,   // FP16 non-tensor: estimate, 2 x FP32 as on sm_90
        37.0,    // FP64, [B200]
        2250.0,  // tensor FP16 dense: 4.5 PFLOPS sparse / 2, [B200]
        7700.0,  // HBM3e, [B200]
        126 * MiB, // [C&C]: two dies; NVIDIA publishes none
        26950.0, // estimate, 3.5 x DRAM (see header)
        100.0,   // estimate: the H100 estimate scaled by TDP, 70 x 1000/700
        1000.0,  // [B200] (configurable up to 1000 W)
        DramKind::HBM3e, 5.0, // TSMC 4NP, a 5 nm-class node [B200]
    },
};
// clang-format on

llvm::ArrayRef<ComputeCapability> energy::allComputeCapabilities() {
  return ComputeCapabilities;
}

llvm::ArrayRef<GpuBoard> energy::allGpuBoards() { return GpuBoards; }

const ComputeCapability *energy::lookupComputeCapability(unsigned SmVersion) {
  for (const ComputeCapability &C : ComputeCapabilities)
    if (C.SmVersion == SmVersion)
      return &C;
  return nullptr;
}

/// Every board joined with its compute capability: first each compute
/// capability's default board, in ComputeCapabilities' order (allGpuArchs()),
/// then the other boards.
static const std::vector<GpuArch> &joinedRows() {
  static const std::vector<GpuArch> Rows = [] {
    auto Join = [](const GpuBoard &B) {
      const ComputeCapability *C = lookupComputeCapability(B.BoardSm);
      assert(C && "every board's compute capability has a row");
      return GpuArch{*C, B};
    };
    auto IsDefault = [](const GpuBoard &B) {
      const ComputeCapability *C = lookupComputeCapability(B.BoardSm);
      return C && llvm::StringRef(C->DefaultGpu) == B.Gpu;
    };
    std::vector<GpuArch> Out;
    for (const ComputeCapability &C : ComputeCapabilities) {
      const GpuBoard *B = llvm::find_if(GpuBoards, [&](const GpuBoard &B) {
        return llvm::StringRef(C.DefaultGpu) == B.Gpu;
      });
      assert(B != std::end(GpuBoards) && "every default board has a row");
      Out.push_back(Join(*B));
    }
    for (const GpuBoard &B : GpuBoards)
      if (!IsDefault(B))
        Out.push_back(Join(B));
    return Out;
  }();
  return Rows;
}

llvm::ArrayRef<GpuArch> energy::allGpuArchs() {
  return llvm::ArrayRef(joinedRows())
      .take_front(std::size(ComputeCapabilities));
}

const GpuArch *energy::lookupGpuArch(unsigned SmVersion) {
  for (const GpuArch &A : allGpuArchs())
    if (A.SmVersion == SmVersion)
      return &A;
  return nullptr;
}

/// A board's name as people write it, as a key: case, spaces and dashes
/// aside, without the vendor's and the product line's words ("NVIDIA
/// GeForce RTX 4090", "rtx4090", "Tesla T4", "NVIDIA H100 SXM").
static std::string boardKey(llvm::StringRef Name) {
  std::string Key = energy::nameKey(Name);
  for (llvm::StringRef Word : {"nvidia", "geforce", "tesla", "quadro"}) {
    size_t At = Key.find(Word.str());
    if (At != std::string::npos)
      Key.erase(At, Word.size());
  }
  return Key;
}

const GpuArch *energy::lookupGpuBoard(llvm::StringRef Gpu) {
  for (const GpuArch &A : joinedRows())
    if (Gpu == A.Gpu)
      return &A;
  std::string Key = boardKey(Gpu);
  for (const GpuArch &A : joinedRows())
    if (!Key.empty() && Key == boardKey(A.Gpu))
      return &A;
  return nullptr;
}

void energy::printGpuBoards(llvm::raw_ostream &OS) {
  OS << "Boards of -energy-gpu (energy-cuda --energy-gpu), by compute "
        "capability.\nA name matches in any case, without spaces or dashes "
        "and without NVIDIA,\nGeForce, Tesla or Quadro (RTX4090 = rtx-4090); "
        "a quoted marketing name\nmatches too.\n";
  for (const ComputeCapability &C : ComputeCapabilities)
    for (const GpuBoard &B : GpuBoards) {
      if (B.BoardSm != C.SmVersion)
        continue;
      // The marketing name where it names this board too.
      const GpuArch *ByMarketing = lookupGpuBoard(B.MarketingName);
      std::string Also = ByMarketing && llvm::StringRef(ByMarketing->Gpu) == B.Gpu
                             ? std::string("\"") + B.MarketingName + "\""
                             : std::string("(") + B.MarketingName + ")";
      bool Default = llvm::StringRef(C.DefaultGpu) == B.Gpu;
      OS << llvm::formatv("  {0,-7} {1,-16} {2}{3}\n", C.Name, B.Gpu, Also,
                          Default ? "  [default of " + std::string(C.Name) + "]"
                                  : std::string());
    }
}

const std::string &energy::gpuBoardNames() {
  static const std::string Names = [] {
    std::string S;
    for (const GpuBoard &B : GpuBoards)
      S += (S.empty() ? "" : ", ") + std::string(B.Gpu);
    return S;
  }();
  return Names;
}

const GpuArch *energy::nearestGpuArch(unsigned SmVersion) {
  llvm::ArrayRef<GpuArch> Rows = allGpuArchs();
  auto SameMajor = [SmVersion](const GpuArch &A) {
    return A.SmVersion / 10 == SmVersion / 10;
  };
  // Rows ascend, so the last row at or below SmVersion is the closest lower
  // one; it has SmVersion's major whenever that major has a row that low.
  const GpuArch *Lower = nullptr;
  for (const GpuArch &A : Rows)
    if (A.SmVersion <= SmVersion)
      Lower = &A;
  if (Lower && SameMajor(*Lower))
    return Lower;
  for (const GpuArch &A : Rows)
    if (SameMajor(A))
      return &A;
  return Lower ? Lower : &Rows.front();
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

static llvm::Error optionError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Expected<const GpuArch *>
energy::parseGpuArchOption(llvm::StringRef Name) {
  std::optional<unsigned> Sm = parseSmVersion(Name);
  if (!Sm)
    return optionError("arch must be sm_XX, got '" + Name + "'");
  if (const GpuArch *Exact = lookupGpuArch(*Sm))
    return Exact;
  std::string Known;
  for (const GpuArch &A : allGpuArchs())
    Known += (Known.empty() ? "" : ", ") + std::string(A.Name);
  return optionError("no tables for arch '" + Name + "' (known: " + Known +
                     ")");
}

llvm::Expected<const GpuArch *>
energy::parseGpuBoardOption(llvm::StringRef Gpu) {
  if (const GpuArch *Board = lookupGpuBoard(Gpu))
    return Board;
  std::vector<std::string> Boards;
  for (const GpuBoard &B : GpuBoards)
    Boards.push_back(B.Gpu);
  return optionError("unknown gpu '" + Gpu + "'" + didYouMean(boardKey(Gpu), Boards) +
                     " (known: " + gpuBoardNames() + ")");
}

llvm::Error energy::checkGpuOptions(llvm::StringRef Arch, llvm::StringRef Gpu) {
  const GpuArch *FromArch = nullptr;
  if (!Arch.empty()) {
    auto A = parseGpuArchOption(Arch);
    if (!A)
      return A.takeError();
    FromArch = *A;
  }
  if (Gpu.empty())
    return llvm::Error::success();
  auto Board = parseGpuBoardOption(Gpu);
  if (!Board)
    return Board.takeError();
  if (FromArch && FromArch->SmVersion != (*Board)->SmVersion)
    return optionError("gpu '" + Gpu + "' is " + (*Board)->Name +
                       ", but arch is '" + Arch +
                       "' (name one of them, or matching ones)");
  return llvm::Error::success();
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
  if (const GpuArch *Exact = lookupGpuArch(*Sm)) {
    // The user's board may be any of the architecture's: say whose figures
    // stand for it, so that a consumer card is not silently a T4.
    std::string Boards;
    for (const GpuBoard &B : GpuBoards)
      if (B.BoardSm == *Sm)
        Boards += (Boards.empty() ? "" : ", ") + std::string(B.Gpu);
    if (Boards != Exact->Gpu)
      Notes.push_back(std::string(Exact->Name) + " is modelled on its default board " +
                      Exact->Gpu + " (" + Exact->MarketingName +
                      "); -energy-gpu names the board that runs it (" +
                      Exact->Name + ": " + Boards + ")");
    return *Exact;
  }
  const GpuArch &Near = *nearestGpuArch(*Sm);
  Notes.push_back("no tables for sm_" + std::to_string(*Sm) + "; using " +
                  Near.Name);
  return Near;
}

const GpuArch &energy::resolveGpuBoard(llvm::StringRef Target,
                                       llvm::StringRef Gpu,
                                       std::vector<std::string> &Notes) {
  const GpuArch *Board = lookupGpuBoard(Gpu);
  assert(Board && "checkGpuOptions accepted the board");
  std::optional<unsigned> Sm = parseSmVersion(Target);
  if (Sm && *Sm != Board->SmVersion)
    Notes.push_back("target is sm_" + std::to_string(*Sm) + "; using gpu " +
                    Board->Gpu + ", which is " + Board->Name);
  return *Board;
}
