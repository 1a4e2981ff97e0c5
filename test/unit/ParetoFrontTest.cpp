//===- ParetoFrontTest.cpp - Time/energy Pareto front ---------------------===//

#include "energy/ParetoFront.h"

#include "gtest/gtest.h"
#include <limits>

using namespace energy;

namespace {

std::vector<size_t> indices(const std::vector<ParetoPoint> &Front) {
  std::vector<size_t> Result;
  for (const ParetoPoint &P : Front)
    Result.push_back(P.Index);
  return Result;
}

using Indices = std::vector<size_t>;

TEST(ParetoFrontTest, EmptyInputGivesEmptyFront) {
  EXPECT_TRUE(computeParetoFront({}).empty());
}

TEST(ParetoFrontTest, SinglePointIsTheFront) {
  std::vector<ParetoPoint> Front = computeParetoFront({{2.0, 3.0, 7}});
  ASSERT_EQ(Front.size(), 1u);
  EXPECT_EQ(Front[0].Time, 2.0);
  EXPECT_EQ(Front[0].Energy, 3.0);
  EXPECT_EQ(Front[0].Index, 7u);
}

TEST(ParetoFrontTest, DominatedPointsAreDropped) {
  const ParetoPoint Points[] = {
      {4.0, 1.0, 0},  // slowest, least energy: front
      {3.0, 7.0, 1},  // dominated by 2 (2.0, 5.0)
      {2.0, 5.0, 2},  // front
      {1.0, 10.0, 3}, // fastest: front
      {2.5, 5.0, 4},  // same energy as 2 but slower: dominated
      {5.0, 2.0, 5},  // dominated by 0
  };
  EXPECT_EQ(indices(computeParetoFront(Points)), (Indices{3, 2, 0}));
}

TEST(ParetoFrontTest, SortedByTimeWithEnergyFalling) {
  const ParetoPoint Points[] = {
      {3.0, 2.0, 0}, {1.0, 4.0, 1}, {4.0, 1.0, 2}, {2.0, 3.0, 3}};
  std::vector<ParetoPoint> Front = computeParetoFront(Points);
  EXPECT_EQ(indices(Front), (Indices{1, 3, 0, 2}));
  for (size_t I = 1; I < Front.size(); ++I) {
    EXPECT_LT(Front[I - 1].Time, Front[I].Time);
    EXPECT_GT(Front[I - 1].Energy, Front[I].Energy);
  }
}

TEST(ParetoFrontTest, EqualTimeKeepsLessEnergy) {
  const ParetoPoint Points[] = {{1.0, 3.0, 0}, {1.0, 2.0, 1}};
  EXPECT_EQ(indices(computeParetoFront(Points)), (Indices{1}));
}

TEST(ParetoFrontTest, EqualEnergyKeepsLessTime) {
  const ParetoPoint Points[] = {{3.0, 2.0, 0}, {1.0, 2.0, 1}};
  EXPECT_EQ(indices(computeParetoFront(Points)), (Indices{1}));
}

TEST(ParetoFrontTest, TiesOnBothKeepTheLowestIndex) {
  const ParetoPoint Points[] = {
      {1.0, 1.0, 5}, {1.0, 1.0, 2}, {0.5, 4.0, 8}, {1.0, 1.0, 9}};
  EXPECT_EQ(indices(computeParetoFront(Points)), (Indices{8, 2}));
}

TEST(ParetoFrontTest, NaNPointsAreIgnored) {
  const double NaN = std::numeric_limits<double>::quiet_NaN();
  const ParetoPoint Points[] = {
      {NaN, 0.0, 0}, {0.0, NaN, 1}, {2.0, 2.0, 2}, {1.0, 3.0, 3}};
  EXPECT_EQ(indices(computeParetoFront(Points)), (Indices{3, 2}));
}

} // namespace
