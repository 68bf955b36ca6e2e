// Growable (math/growable.hpp): VecX / MatX semantics with a capacity that only grows. That a
// simulation step allocates nothing with it is checked in tests/sim/test_alloc.cpp.
#include <gtest/gtest.h>

#include <utility>

#include "moreau/math/growable.hpp"

using namespace moreau;

TEST(Growable, ResizeKeepsTheStorageWithinCapacity) {
  GrowVec v(10);
  EXPECT_EQ(v.size(), 10);
  EXPECT_EQ(v.capacity(), 10);
  const double* storage = v.data();
  v.resize(3);  // shrink: same storage, capacity kept
  EXPECT_EQ(v.size(), 3);
  EXPECT_EQ(v.capacity(), 10);
  EXPECT_EQ(v.data(), storage);
  v.resize(10);  // back up to the capacity: still no new storage
  EXPECT_EQ(v.data(), storage);
  v.resize(11);  // beyond: grows
  EXPECT_EQ(v.size(), 11);
  EXPECT_EQ(v.capacity(), 11);
  v.resize(0);
  EXPECT_EQ(v.size(), 0);
  EXPECT_EQ(v.capacity(), 11);
}

TEST(Growable, AssignmentResizesToTheRightHandSideLikeVecX) {
  GrowVec v;
  v = VecX::LinSpaced(5, 1.0, 5.0);
  ASSERT_EQ(v.size(), 5);
  EXPECT_EQ(v[4], 5.0);
  v = 2.0 * v;  // same size, element-wise: no aliasing problem
  EXPECT_EQ(v[4], 10.0);
  const double* storage = v.data();
  v = VecX::Ones(2);  // smaller: in place
  EXPECT_EQ(v.size(), 2);
  EXPECT_EQ(v.data(), storage);
  EXPECT_EQ(v.sum(), 2.0);
  v.setZero(4);
  EXPECT_EQ(v.size(), 4);
  EXPECT_EQ(v.squaredNorm(), 0.0);
  v.setConstant(3, 0.5);
  EXPECT_EQ(v.sum(), 1.5);
  // Expressions, segments and views work as on a VecX.
  VecX w = VecX::Constant(3, 2.0);
  EXPECT_EQ(v.dot(w), 3.0);
  v.segment(1, 2) += w.head(2);
  EXPECT_EQ(v[2], 2.5);
  const VecCRef view = v;
  EXPECT_EQ(view.data(), v.data());  // a Ref binds to the storage, no copy
}

TEST(Growable, CopiesAreDeepMovesAndSwapsExchangeStorage) {
  GrowVec a = VecX::LinSpaced(4, 0.0, 3.0);
  GrowVec b = a;
  EXPECT_NE(a.data(), b.data());
  b[0] = 7.0;
  EXPECT_EQ(a[0], 0.0);
  const double* pa = a.data();
  GrowVec c = std::move(a);
  EXPECT_EQ(c.data(), pa);
  EXPECT_EQ(c.size(), 4);
  EXPECT_EQ(a.size(), 0);
  GrowVec d(2);
  d.setZero();
  const double* pd = d.data();
  swap(c, d);
  EXPECT_EQ(c.data(), pd);
  EXPECT_EQ(d.data(), pa);
  EXPECT_EQ(c.size(), 2);
  EXPECT_EQ(d[3], 3.0);
}

TEST(Growable, MatrixKeepsItsCapacityAcrossShapes) {
  GrowMat m;
  m.setZero(4, 4);
  m(3, 2) = 1.0;
  EXPECT_EQ(m.rows(), 4);
  EXPECT_EQ(m.capacity(), 16);
  const double* storage = m.data();
  m.resize(2, 2);
  EXPECT_EQ(m.data(), storage);
  EXPECT_EQ(m.outerStride(), 2);  // contiguous at every shape
  m = MatX::Identity(3, 3);
  EXPECT_EQ(m.data(), storage);
  EXPECT_EQ(m.trace(), 3.0);
  const VecX x = m * VecX::Ones(3);
  EXPECT_EQ(x.sum(), 3.0);
}

TEST(Growable, ReserveKeepsTheLiveEntries) {
  GrowVec v = VecX::LinSpaced(3, 1.0, 3.0);
  v.reserve(100);
  EXPECT_EQ(v.capacity(), 100);
  ASSERT_EQ(v.size(), 3);
  EXPECT_EQ(v[2], 3.0);
  const double* storage = v.data();
  v.resize(100);
  EXPECT_EQ(v.data(), storage);
}

TEST(Growable, VectorTakesARowExpressionAsVecXDoes) {
  const MatX m = MatX::Constant(2, 5, 1.5);
  GrowVec v;
  v = m.row(1);
  ASSERT_EQ(v.size(), 5);
  EXPECT_EQ(v.cols(), 1);
  EXPECT_EQ(v.sum(), 7.5);
}
