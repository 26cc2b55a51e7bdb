//===- ShapeFactsTest.cpp - What a kernel says about its block shape ------===//
//
// shapeFactsOf() reads exact extents from asserts, assumptions and early
// outs on blockDim, and upper bounds from arrays every thread indexes by
// threadIdx. Each case pairs a statement that states a fact with the nearly
// identical one that does not (guarded, after a thread's return, short-
// circuited, a variable that changes).
//
//===----------------------------------------------------------------------===//

#include "Analysis/ShapeFacts.h"

#include "ParseCuda.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace shmem;

namespace {

constexpr unsigned None = 0;

struct Case {
  const char *Name;
  const char *Body;
  /// Expected per axis (x, y): the exact extent and the upper bound, None
  /// where nothing is stated.
  unsigned ExactX, AtMostX, ExactY, AtMostY;
};

#define TX "__nvvm_read_ptx_sreg_tid_x()"
#define TY "__nvvm_read_ptx_sreg_tid_y()"
#define NX "__nvvm_read_ptx_sreg_ntid_x()"
#define NY "__nvvm_read_ptx_sreg_ntid_y()"
#define ASSERT(C)                                                              \
  "(static_cast<bool>(" C ") ? void(0) : __assert_fail(\"\", \"\", 0, \"\"));"

const Case Cases[] = {
    {"assert", ASSERT(NX " == 32"), 32, None, None, None},
    {"assert, constant first", ASSERT("64 == " NX), 64, None, None, None},
    {"assert of a conjunction", ASSERT(NX " == 32 && " NY " == 4"), 32, None,
     4, None},
    {"assert of a disjunction states nothing",
     ASSERT(NX " == 32 || " NY " == 4"), None, None, None, None},
    {"early return on another shape",
     "if (" NX " != 32 || " NY " != 4) return;", 32, None, 4, None},
    {"early return on a conjunction states nothing",
     "if (" NX " != 32 && n > 0) return;", None, None, None, None},
    {"if-else assert (C's form)",
     "if (" NX " == 16) ; else __assert_fail(\"\", \"\", 0, \"\");", 16, None,
     None, None},
    {"__builtin_assume of a bound", "__builtin_assume(" NX " <= 64);", None,
     64, None, None},
    {"a strict bound", ASSERT(NX " < 128"), None, 127, None, None},
    {"a lower bound states nothing", ASSERT(NX " >= 32"), None, None, None,
     None},
    {"an array indexed by threadIdx", "t[" TY "][" TX "] = 0;", None, 32,
     None, 8},
    {"through a variable that only holds threadIdx",
     "const int tx = " TX "; int ty = " TY "; t[ty][tx] = 0;", None, 32, None,
     8},
    {"through a variable that changes",
     "int tx = " TX "; tx += 1; t[0][tx] = 0;", None, None, None, None},
    {"under a thread-dependent branch", "if (" TX " < 32) t[0][" TX "] = 0;",
     None, None, None, None},
    {"under a uniform branch", "if (n > 0) t[0][" TX "] = 0;", None, 32, None,
     None},
    {"after a thread's return",
     "if (in[" TX "] > 0) return; t[0][" TX "] = 0;", None, None, None, None},
    {"after an early out on the shape",
     "if (" NX " > 512) return; t[0][" TX "] = 0;", None, 32, None, None},
    {"in a loop every thread runs alike",
     "for (int i = 0; i < n; ++i) t[i % 8][" TX "] = 0;", None, 32, None,
     None},
    {"in a loop bounded by locals every thread computes alike",
     "int first = n * 8; int last = first + 8; "
     "for (int i = first; i < last; ++i) t[i % 8][" TX "] = 0;",
     None, 32, None, None},
    {"in a loop bounded by a local that changes",
     "int last = n; last += " TX "; "
     "for (int i = 0; i < last; ++i) t[i % 8][" TX "] = 0;",
     None, None, None, None},
    {"in a loop whose start depends on the thread",
     "for (int i = " TX " / 32; i < 8; i += 4) t[i][" TX "] = 0;", None, None,
     None, None},
    {"in a loop with a break",
     "for (int i = 0; i < n; ++i) { if (in[i] > 0) break; t[i % 8][" TX
     "] = 0; }",
     None, None, None, None},
    {"behind a short circuit", "(void)(n > 0 && t[0][" TX "] > 0);", None,
     None, None, None},
    {"in the condition of a short circuit",
     "(void)(t[0][" TX "] > 0 && n > 0);", None, 32, None, None},
    {"an array of unknown extent", "e[" TX "] = 0;", None, None, None, None},
    {"the smallest bound wins", "u[" TX "] = 0; t[0][" TX "] = 0;", None, 32,
     None, None},
    {"an exact extent and a bound together",
     ASSERT(NX " == 16") " t[0][" TX "] = 0;", 16, 32, None, None},
};

class ShapeFactsTest : public testing::TestWithParam<Case> {};

TEST_P(ShapeFactsTest, Reads) {
  const Case &C = GetParam();
  std::string Code = std::string("__global__ void k(const float *in, int n) {\n"
                                 "  __shared__ float t[8][32];\n"
                                 "  __shared__ float u[64];\n"
                                 "  extern __shared__ float e[];\n  ") +
                     C.Body + "\n}\n";
  auto AST = test::parseDeviceCode(
      Code, "__device__ void __assert_fail(const char *, const char *, "
            "unsigned, const char *);\n");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
  const FunctionDecl *K = test::lastKernel(AST->getASTContext());
  ASSERT_TRUE(K);
  ShapeFacts F = shapeFactsOf(K, AST->getASTContext());
  auto Value = [](const std::optional<unsigned> &V) { return V ? *V : None; };
  EXPECT_EQ(Value(F.Axis[0].Exact), C.ExactX) << Code;
  EXPECT_EQ(Value(F.Axis[0].AtMost), C.AtMostX) << Code;
  EXPECT_EQ(Value(F.Axis[1].Exact), C.ExactY) << Code;
  EXPECT_EQ(Value(F.Axis[1].AtMost), C.AtMostY) << Code;
  EXPECT_FALSE(F.Axis[2].Exact || F.Axis[2].AtMost);
}

INSTANTIATE_TEST_SUITE_P(Cases, ShapeFactsTest, testing::ValuesIn(Cases),
                         [](const testing::TestParamInfo<Case> &I) {
                           std::string N;
                           for (const char *P = I.param.Name; *P; ++P)
                             N += isalnum(static_cast<unsigned char>(*P)) ? *P
                                                                          : '_';
                           return N;
                         });

TEST(ShapeFactsTest, WhyNamesTheStatement) {
  auto AST = test::parseDeviceCode(
      "__global__ void k() {\n"
      "  __shared__ float tile[32][32];\n"
      "  if (" NX " != 32) return;\n"
      "  tile[" TY "][" TX "] = 0;\n"
      "}\n");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *K = test::lastKernel(Ctx);
  ShapeFacts F = shapeFactsOf(K, Ctx);
  // Lines as the other notes count them, from the file's start (the
  // kernel is on the first line of the code).
  unsigned First =
      Ctx.getSourceManager().getExpansionLineNumber(K->getLocation());
  EXPECT_EQ(F.Axis[0].ExactWhy,
            "the early return at line " + std::to_string(First + 2));
  EXPECT_EQ(F.Axis[1].AtMostWhy,
            "'tile' has 32 elements where every thread indexes it by "
            "threadIdx.y (line " + std::to_string(First + 3) + ")");
}

} // namespace
