#include "LaneValue.h"
#include "ThreadGeometry.h"
#include <gtest/gtest.h>
using namespace shmem;
TEST(LaneValue, Placeholder) { EXPECT_TRUE(LaneValue::constant(4, 1).isConcrete()); }
