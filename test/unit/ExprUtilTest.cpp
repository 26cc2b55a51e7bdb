//===- ExprUtilTest.cpp - What every pass takes for an integer constant ---===//
//
// foldInteger, the one integer folding of the analysis and the checks: a
// value that fits in 64 bits, unsigned ones zero-extended; nothing for a
// wider value, a non-integer, a side effect or a dependent expression.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ExprUtil.h"

#include "ParseCuda.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

#include <map>
#include <string>

using namespace clang;
using namespace shmem;

namespace {

/// The initialiser of each variable of \p Code by name, folded.
std::map<std::string, std::optional<int64_t>> foldInits(const char *Code) {
  auto AST = test::parseDeviceCode(Code);
  EXPECT_TRUE(AST);
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext &Ctx;
    std::map<std::string, std::optional<int64_t>> Out;
    explicit Visitor(ASTContext &C) : Ctx(C) {}
    bool VisitVarDecl(VarDecl *V) {
      if (V->getInit())
        Out[V->getNameAsString()] = foldInteger(V->getInit(), Ctx);
      return true;
    }
  } V(AST->getASTContext());
  V.TraverseAST(AST->getASTContext());
  return V.Out;
}

TEST(FoldInteger, ValuesThatFitIn64Bits) {
  auto F = foldInits(R"(
    constexpr int twice(int x) { return 2 * x; }
    enum E { A = 3 };
    __device__ void f() {
      int sum = 1 + 2;
      int call = twice(21);
      unsigned all = 0xffffffffu;
      long long negative = -5;
      unsigned long long top = 1ull << 63;
      E e = A;
      unsigned __int128 small = 7;
    }
  )");
  EXPECT_EQ(F["sum"], 3);
  EXPECT_EQ(F["call"], 42);
  EXPECT_EQ(F["all"], 4294967295);
  EXPECT_EQ(F["negative"], -5);
  EXPECT_EQ(F["top"], INT64_MIN); // Its 64 bits, as int64_t.
  EXPECT_EQ(F["e"], 3);
  EXPECT_EQ(F["small"], 7);
}

TEST(FoldInteger, NothingElse) {
  auto F = foldInits(R"(
    __device__ int g;
    template <int N> __device__ void t() { int dependent = N + 1; }
    __device__ void f(int p) {
      unsigned __int128 wide = (unsigned __int128)1 << 100;
      __int128 wideNegative = -((__int128)1 << 100);
      float real = 1.5f;
      int param = p + 1;
      int global = g;
      int effect = (g = 3);
    }
  )");
  ASSERT_TRUE(F.count("wide"));
  EXPECT_EQ(F["wide"], std::nullopt);
  EXPECT_EQ(F["wideNegative"], std::nullopt);
  EXPECT_EQ(F["real"], std::nullopt);
  EXPECT_EQ(F["param"], std::nullopt);
  EXPECT_EQ(F["global"], std::nullopt);
  EXPECT_EQ(F["effect"], std::nullopt);
  ASSERT_TRUE(F.count("dependent"));
  EXPECT_EQ(F["dependent"], std::nullopt);
  EXPECT_EQ(foldInteger(nullptr, test::parseDeviceCode("")->getASTContext()),
            std::nullopt);
}

} // namespace
