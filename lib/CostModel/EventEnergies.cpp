//===- EventEnergies.cpp - Energy per operation, instruction and byte -----===//
//
// Sources:
// [HOR]  M. Horowitz, "Computing's Energy Problem (and what we can do about
//        it)", ISSCC 2014, the energy table of 45 nm CMOS at 0.9 V:
//        32-bit integer add 0.1 pJ; FP16 add 0.4 pJ, multiply 1.1 pJ; FP32
//        add 0.9 pJ, multiply 3.7 pJ; a 64-bit read from an 8 KB SRAM 10 pJ,
//        from a 32 KB SRAM 20 pJ, from a 1 MB SRAM 100 pJ.
// [PED]  A. Pedram, S. Richardson, S. Kvatinsky, M. Horowitz, "Dark Memory
//        and Accelerator-Rich System Optimization in the Dark Silicon Era",
//        IEEE Design & Test 2017: since voltage stopped scaling, a node that
//        scales the feature size by a scales gate energy by a at best.
// [MIC]  Micron, "Ultra-Bandwidth Solutions" memory comparison (GDDR6,
//        GDDR6X, HBM2E), average device power: GDDR6 7.5 pJ/bit, GDDR6X
//        7.25 pJ/bit, HBM2E 6.0 pJ/bit.
// [AW]   V. Kandiah et al., "AccelWattch: A Power Modeling Framework for
//        Modern GPUs", MICRO 2021; its Volta model as distributed with
//        Accel-Sim (github.com/accel-sim/gpgpu-sim_distribution at 667834c):
//        configs/tested-cfgs/SM7_QV100/accelwattch_sass_sim.xml lines
//        75-106, the static power of the whole chip by the kinds of work a
//        sample issues, "first lane" plus "additional lane" watts, e.g.
//        INT+FP 18.618 + 0.645 per lane past the first; the rule in
//        src/accelwattch/gpgpu_sim_wrapper.cc, calculate_static_power()
//        (lines 790-918): category by the kinds issued, base + (lanes - 1) x
//        per-lane, times the share of the 80 SMs (gpgpusim.config line 64)
//        that are active. Its idle_core_power (0.283 W, line 73) is charged
//        to the SMs with no work (power_interface.cc lines 102-106): those
//        are in the launch floor here.
// [SWEEP] An FP32 FMA loop at 10 graphics clocks with NVML power on an RTX
//        A4000 (Kernel Tuner's test data) and an A100 PCIe 40GB (Kernel
//        Tuner tutorial, energy/data/):
//        ../shared/data/public-measurements/energy/synthetic_fp32_*: the
//        calibration set of the launch floor; no evaluation set is used.
// [GPUW] GPUWattch (ISCA 2013) / AccelWattch component breakdowns, as in
//        AnalyticModel.cpp: estimates where no table has the figure.
//
// The rule. On-chip figures are [HOR]'s 45 nm ones times node / 45 nm
// ([PED]: energy scales at best with the feature size once voltage stays);
// the board's node is GpuBoard::ProcessNm (a "5 nm-class" TSMC 4N counts as
// 5). DRAM figures are per device kind and do not scale with the GPU's node.
// What each event is, in [HOR]'s rows:
//  * an FMA: a multiply and an add of its width; any other floating-point
//    operation: an add (the features do not tell adds from multiplies, and
//    multiplies are mostly fused);
//  * an integer operation: a 32-bit add (most are address arithmetic);
//  * a tensor-core flop: half an FP16 multiply plus an FP32 add (one
//    multiply-accumulate is 2 flops);
//  * fetching and decoding a warp instruction: a 128-bit instruction read
//    from a 32 KB-class instruction cache, 2 x 20 pJ, once per warp;
//  * register operands: an 8 KB-class register bank (a GPU's register file
//    is banked per sub-partition), 10 pJ per 8 bytes; a thread's
//    instruction reads three 4-byte sources and writes one result (16
//    bytes), an FP64 operation twice that;
//  * L1/shared memory: a 32 KB-class SRAM, 20 pJ per 8 bytes; L2: a 1
//    MB-class SRAM (a slice), 100 pJ per 8 bytes.
// Estimates [GPUW] with no table figure, kept from the analytic model's
// power weights: an FP64 FMA costs 2 FP32 FMAs, a special function (MUFU)
// 2, a conversion an FP32 add.
// An SM holding blocks draws [AW]'s static power of an active SM, whatever
// it issues per second: the chip's static power for the launch's category
// and lanes per warp over the V100's 80 SMs, scaled from the V100 (12 nm,
// 1.53 GHz) by node and clock (P ~ C f, as the events). The category as
// [AW] picks it, from the kinds the features count: integer (adds and
// multiplies are not told apart: INT ADD+MUL), FP32/FP16, FP64, special
// functions, tensor; textures are not counted. A launch with no
// arithmetic is sorted by its memory (L1/shared, else L2, else LIGHT_SM).
// The launch floor: what the board draws during a launch beyond the events
// and the busy SMs' static power. Where a clock sweep of the board measured
// it ([SWEEP]), GpuBoard::LaunchFloorW: the sweep's power at the clock
// nearest the model's (the boost clock), minus what this model predicts for
// the swept FP32 loop (data/energy-checks/fp32_fma.cu through
// `python3 -m energy.power_check`) above the floor it used, 17% of TDP:
// RTX A4000 103.0 W at 1530 MHz - (81.8 - 23.8) = 45.0 W (32% of its 140 W);
// A100 PCIe 40GB 153.4 W at 1410 MHz - (112.6 - 42.5) = 83.3 W (33% of
// 250 W). It exceeds the sweeps' zero-clock intercepts (29.6 and 32.7 W,
// the lower half of the clocks) because a launch runs at its clock, not at
// zero: an SM without blocks is clocked, not power-gated, and so are the
// clock tree and the uncore, at the voltage of that clock. Other boards,
// with no sweep, keep LaunchIdleShareOfTdp of TDP, the median of those two
// intercepts and our H100's draw idle under a context (118-122 W against
// 70.8 W without one, 17% of 700 W, data/h100-corpus-sweep): a lower bound
// at the clock; an idle figure above it stays.
// Not counted: the on-chip network between SMs and L2, and the memory
// controllers and PHYs, for which no per-byte figure is at hand.
//
//===----------------------------------------------------------------------===//

#include "EventEnergies.h"

#include <algorithm>

using namespace energy;

namespace {

constexpr double PicoJoule = 1e-12;
constexpr double ReferenceNodeNm = 45; // [HOR]

// [HOR], 45 nm, pJ.
constexpr double IntAdd32 = 0.1;
constexpr double Fp16Add = 0.4, Fp16Mul = 1.1;
constexpr double Fp32Add = 0.9, Fp32Mul = 3.7;
constexpr double Sram8KBPer8Bytes = 10, Sram32KBPer8Bytes = 20,
                 Sram1MBPer8Bytes = 100;

// Estimates [GPUW], relative to an FP32 FMA.
constexpr double Fp64PerFp32 = 2.0;
constexpr double SfuPerFp32Fma = 2.0;

constexpr double InstructionBytes = 16; // 128-bit SASS (Volta on)

// [AW]: the V100 model's static power of the whole chip, watts, when all
// its SMs are active: the first lane's and each further lane's.
struct StaticPower {
  double FirstLane, AddedLane;
};
constexpr StaticPower StaticInt = {15.29035866, 0.586233603};     // cat1
constexpr StaticPower StaticIntFp = {18.6179906, 0.645228013};    // cat2
constexpr StaticPower StaticIntFpDp = {19.10017723, 0.726863055}; // cat3
constexpr StaticPower StaticIntFpSfu = {18.55029744, 0.6099397};  // cat4
constexpr StaticPower StaticIntFpTensor = {48.94875596, 0.0};     // cat6
constexpr StaticPower StaticLight = {1.965373811, 0.003966868};
constexpr StaticPower StaticGeomean = {17.21745077, 0.650630555};
// Memory-only samples: no per-lane term. [AW] tells shared memory (31.41 W)
// from L1D; the features count both as L1 bytes: L1D's figure.
constexpr StaticPower StaticL1 = {34.79491352, 0};
constexpr StaticPower StaticL2 = {17.30654755, 0};
constexpr double V100SMs = 80;
constexpr double V100NodeNm = 12, V100ClockGHz = 1.53;

/// [AW]'s category, in calculate_static_power()'s order.
StaticPower staticPowerOf(const IssuedKinds &K) {
  if (!K.Int && !K.Fp && !K.Fp64 && !K.Sfu && !K.Tensor)
    return K.L1 ? StaticL1 : K.L2 ? StaticL2 : StaticLight;
  if (K.Int && K.Fp && K.Fp64 && !K.Sfu && !K.Tensor)
    return StaticIntFpDp;
  if (K.Int && K.Fp && !K.Fp64 && !K.Sfu && K.Tensor)
    return StaticIntFpTensor;
  if (K.Int && K.Fp && !K.Fp64 && K.Sfu && !K.Tensor)
    return StaticIntFpSfu;
  if (K.Int && K.Fp && !K.Fp64 && !K.Sfu && !K.Tensor)
    return StaticIntFp;
  if (K.Int && !K.Fp && !K.Fp64 && !K.Sfu && !K.Tensor)
    return StaticInt;
  return StaticGeomean;
}

} // namespace

double energy::dramJoulesPerBit(DramKind Kind) {
  switch (Kind) {
  case DramKind::GDDR6X:
    return 7.25 * PicoJoule; // [MIC]
  case DramKind::GDDR6:
  // GDDR5 and GDDR5X: [MIC] lists neither; GDDR6's figure is a lower bound
  // (each generation lowered the energy per bit).
  case DramKind::GDDR5:
  case DramKind::GDDR5X:
    return 7.5 * PicoJoule; // [MIC]
  case DramKind::HBM2e:
  // HBM2 and HBM3/HBM3e: [MIC] lists HBM2E only; it stands for its
  // neighbours.
  case DramKind::HBM2:
  case DramKind::HBM3:
  case DramKind::HBM3e:
    return 6.0 * PicoJoule; // [MIC]
  }
  return 7.5 * PicoJoule;
}

double energy::processScale(const GpuArch &A) {
  return A.ProcessNm / ReferenceNodeNm;
}

EventEnergies energy::eventEnergies(const GpuArch &A) {
  const double S = processScale(A) * PicoJoule;
  EventEnergies E;
  E.Fp32Fma = (Fp32Mul + Fp32Add) * S;
  E.Fp32Op = Fp32Add * S;
  E.Fp16Fma = (Fp16Mul + Fp16Add) * S;
  E.Fp16Op = Fp16Add * S;
  E.Fp64Fma = Fp64PerFp32 * E.Fp32Fma;
  E.Fp64Op = Fp64PerFp32 * E.Fp32Op;
  E.TensorFlop = (Fp16Mul + Fp32Add) / 2 * S;
  E.IntOp = IntAdd32 * S;
  E.Conversion = Fp32Add * S;
  E.Sfu = SfuPerFp32Fma * E.Fp32Fma;
  E.WarpInstruction = InstructionBytes / 8 * Sram32KBPer8Bytes * S;
  E.RegisterByte = Sram8KBPer8Bytes / 8 * S;
  E.L1Byte = Sram32KBPer8Bytes / 8 * S;
  E.L2Byte = Sram1MBPer8Bytes / 8 * S;
  E.DramByte = 8 * dramJoulesPerBit(A.Dram);
  return E;
}

// [SWEEP]'s median zero-clock intercept share (see the rule above).
constexpr double LaunchIdleShareOfTdp = 0.17;

double energy::launchFloorW(const GpuArch &A) {
  if (A.LaunchFloorW > 0)
    return A.LaunchFloorW;
  return std::max(A.IdlePowerW, LaunchIdleShareOfTdp * A.MaxPowerW);
}

double energy::busySmWatts(const GpuArch &A, const IssuedKinds &K) {
  StaticPower P = staticPowerOf(K);
  double Lanes = std::clamp(K.LanesPerWarp, 1.0, 32.0);
  double ChipW = P.FirstLane + (Lanes - 1) * P.AddedLane;
  return ChipW / V100SMs * (A.ProcessNm / V100NodeNm) *
         (A.BoostClockGHz / V100ClockGHz);
}
