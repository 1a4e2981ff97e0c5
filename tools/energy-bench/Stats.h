//===- Stats.h - Summaries of a measurement's samples -----------*- C++ -*-===//
//
// Median and range of samples, the spread that decides a re-measure, and the
// average power of a run's sub-windows from a cumulative energy counter.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_BENCH_STATS_H
#define ENERGY_BENCH_STATS_H

#include <cstddef>
#include <vector>

namespace bench {

struct Stats {
  double Median = 0, Min = 0, Max = 0;
  size_t Count = 0;
};
Stats statsOf(std::vector<double> V);

/// (max - min) / median of V (four values or more); 0 otherwise or if the
/// median is 0.
double spreadOf(const std::vector<double> &V);

/// Average power in four equal sub-windows of [Times.front(), Times.back()],
/// from a cumulative counter (joules) read at Times, linear in between; empty
/// with fewer than two readings.
std::vector<double> subWindowPowers(const std::vector<double> &Times,
                                    const std::vector<double> &Joules);

} // namespace bench

#endif
