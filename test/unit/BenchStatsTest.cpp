//===- BenchStatsTest.cpp - energy-bench's sample summaries ---------------===//
//
// Hand-computed cases for the numbers that decide whether energy-bench
// re-measures a run (tools/energy-bench/Stats.h).
//
//===----------------------------------------------------------------------===//

#include "Stats.h"

#include <gtest/gtest.h>

using namespace bench;

TEST(BenchStats, MedianAndRange) {
  Stats S = statsOf({3, 1, 4, 2});
  EXPECT_DOUBLE_EQ(S.Median, 2.5);
  EXPECT_DOUBLE_EQ(S.Min, 1);
  EXPECT_DOUBLE_EQ(S.Max, 4);
  EXPECT_EQ(S.Count, 4u);
  EXPECT_DOUBLE_EQ(statsOf({5, 1, 3}).Median, 3);
  EXPECT_EQ(statsOf({}).Count, 0u);
}

TEST(BenchStats, SpreadIsRangeOverMedian) {
  EXPECT_DOUBLE_EQ(spreadOf({100, 103, 101, 102}), 3 / 101.5);
  EXPECT_DOUBLE_EQ(spreadOf({7, 7, 7, 7}), 0);
  EXPECT_DOUBLE_EQ(spreadOf({1, 2, 3}), 0); // fewer than four windows
}

TEST(BenchStats, SubWindowPowersFollowTheCounter) {
  // Readings at 0..4 s of a counter whose power is 1, 2, 3, 4 W in turn.
  std::vector<double> P = subWindowPowers({0, 1, 2, 3, 4}, {0, 1, 3, 6, 10});
  ASSERT_EQ(P.size(), 4u);
  EXPECT_DOUBLE_EQ(P[0], 1);
  EXPECT_DOUBLE_EQ(P[1], 2);
  EXPECT_DOUBLE_EQ(P[2], 3);
  EXPECT_DOUBLE_EQ(P[3], 4);
  EXPECT_DOUBLE_EQ(spreadOf(P), 3 / 2.5);
}

TEST(BenchStats, SubWindowsBetweenReadingsAreInterpolated) {
  // Two readings 0.2 s apart at 300 W: every sub-window sees 300 W.
  std::vector<double> P = subWindowPowers({10.0, 10.2}, {1000, 1060});
  ASSERT_EQ(P.size(), 4u);
  for (double W : P)
    EXPECT_NEAR(W, 300, 1e-9);
  // Updates at 0, 0.1 and 0.4 s (30 J, then 30 J): 0.1 s windows.
  P = subWindowPowers({0, 0.1, 0.4}, {0, 30, 60});
  ASSERT_EQ(P.size(), 4u);
  EXPECT_NEAR(P[0], 300, 1e-9);
  EXPECT_NEAR(P[1], 100, 1e-9);
  EXPECT_NEAR(P[3], 100, 1e-9);
  EXPECT_TRUE(subWindowPowers({1}, {5}).empty());
}
