//===- UnitsTest.cpp - The console's durations and energies ---------------===//

#include "energy/Units.h"

#include <gtest/gtest.h>

#include <limits>

using namespace energy;

TEST(Units, DurationPicksTheUnitThatKeepsOneToAThousand) {
  EXPECT_EQ(formatDuration(850e-9), "850 ns");
  EXPECT_EQ(formatDuration(1e-6), "1 us");
  EXPECT_EQ(formatDuration(73.3609e-6), "73.36 us");
  EXPECT_EQ(formatDuration(2.135e-2), "21.35 ms"); // once "2.135e+04 us"
  EXPECT_EQ(formatDuration(1.5), "1.5 s");
}

TEST(Units, DurationRoundsBeforeChoosingTheUnit) {
  // 999.96 us has four digits only as 1000 us: it is 1 ms.
  EXPECT_EQ(formatDuration(999.96e-6), "1 ms");
  EXPECT_EQ(formatDuration(999.94e-6), "999.9 us");
  EXPECT_EQ(formatDuration(0.99996e-9), "1 ns");
}

TEST(Units, DurationOutsideTheUnitsHasNoExponent) {
  EXPECT_EQ(formatDuration(0.5e-9), "0.5 ns");
  EXPECT_EQ(formatDuration(12345.0), "12345 s");
  EXPECT_EQ(formatDuration(0), "0 s");
  EXPECT_EQ(formatDuration(std::numeric_limits<double>::quiet_NaN()), "n/a");
  EXPECT_EQ(formatDuration(std::numeric_limits<double>::infinity()), "n/a");
}

TEST(Units, Energy) {
  EXPECT_EQ(formatEnergy(12e-6), "12 uJ");
  EXPECT_EQ(formatEnergy(0.0303678), "30.37 mJ");
  EXPECT_EQ(formatEnergy(7.750309), "7.75 J"); // once "7750 mJ"
  EXPECT_EQ(formatEnergy(999.96e-3), "1 J");
  EXPECT_EQ(formatEnergy(3e-10), "0.3 nJ");
  EXPECT_EQ(formatEnergy(-2e-3), "-2 mJ");
}
