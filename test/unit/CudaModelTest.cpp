//===- CudaModelTest.cpp - The CUDA vocabulary, named once ----------------===//
//
// cuda::barrierOf, asmBarrierOf and collectiveOf: every barrier with its
// scope, the inline-asm barriers (barrier.red included, which the walker
// once missed), and every warp collective, by the names CUDA code uses.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Program/CudaModel.h"

#include "ParseCuda.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

using namespace clang;
using namespace shmem;

namespace {

TEST(CudaModel, AsmMatrixAccesses) {
  auto M = cuda::asmMatrixOf(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Mnemonic, "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
  EXPECT_FALSE(M->Store);
  EXPECT_EQ(M->Matrices, 4u);
  EXPECT_EQ(M->activeLanes(), 32u);
  EXPECT_FALSE(M->Trans);
  EXPECT_TRUE(M->SharedSpace);
  EXPECT_EQ(M->AddressOperand, 4u);
  EXPECT_EQ(M->Displacement, 0);

  M = cuda::asmMatrixOf(
      "ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%0, %1}, [%2+32];");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Matrices, 2u);
  EXPECT_EQ(M->activeLanes(), 16u);
  EXPECT_TRUE(M->Trans);
  EXPECT_TRUE(M->SharedSpace);
  EXPECT_EQ(M->AddressOperand, 2u);
  EXPECT_EQ(M->Displacement, 32);

  M = cuda::asmMatrixOf(
      "stmatrix.sync.aligned.x1.m8n8.b16 [%0], {%1};");
  ASSERT_TRUE(M);
  EXPECT_TRUE(M->Store);
  EXPECT_EQ(M->Matrices, 1u);
  EXPECT_FALSE(M->SharedSpace); // A generic pointer operand.
  EXPECT_EQ(M->AddressOperand, 0u);

  // Not these: other shapes and element types, no address operand, other
  // instructions.
  EXPECT_FALSE(cuda::asmMatrixOf(
      "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];"));
  EXPECT_FALSE(cuda::asmMatrixOf(
      "ldmatrix.sync.aligned.m8n8.shared.b16 {%0}, [%1];"));
  EXPECT_FALSE(cuda::asmMatrixOf(
      "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [smem];"));
  EXPECT_FALSE(cuda::asmMatrixOf("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"));
  EXPECT_FALSE(cuda::asmMatrixOf("bar.sync 0;"));

  EXPECT_TRUE(cuda::isSharedAddressConversion("__cvta_generic_to_shared"));
  EXPECT_FALSE(cuda::isSharedAddressConversion("__cvta_generic_to_global"));
}

TEST(CudaModel, AsmBarriers) {
  auto A = cuda::asmBarrierOf("bar.sync 0;");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Mnemonic, "bar.sync");
  EXPECT_FALSE(A->Counted);
  EXPECT_FALSE(A->Reduces);

  A = cuda::asmBarrierOf("barrier.sync.aligned 1, 128;");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Mnemonic, "barrier.sync");
  EXPECT_TRUE(A->Counted);
  EXPECT_EQ(A->Count, 128u);
  A = cuda::asmBarrierOf("bar.sync 1, %0;");
  ASSERT_TRUE(A);
  EXPECT_TRUE(A->Counted);
  EXPECT_FALSE(A->Count);

  A = cuda::asmBarrierOf("barrier.red.popc.u32 %0, 0, %1;");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Mnemonic, "barrier.red");
  EXPECT_TRUE(A->Reduces);
  EXPECT_FALSE(A->Counted);

  A = cuda::asmBarrierOf("{ .reg .pred p; bar.red.or.pred p, 0, p; }");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Mnemonic, "bar.red");

  // Arriving does not wait; other instructions are not barriers.
  EXPECT_FALSE(cuda::asmBarrierOf("bar.arrive 1, 64;"));
  EXPECT_FALSE(cuda::asmBarrierOf("mov.u32 %0, %%laneid;"));
}

TEST(CudaModel, NamedBarrierOperands) {
  // Immediates, operands (outputs numbered first) and modifiers.
  auto A = cuda::asmCountedBarrierOf("bar.sync 1, 64;");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Mnemonic, "bar.sync");
  EXPECT_FALSE(A->Arrive);
  EXPECT_EQ(A->Id, 1u);
  EXPECT_EQ(A->Count, 64u);

  A = cuda::asmCountedBarrierOf("bar.arrive %0, %1;");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Mnemonic, "bar.arrive");
  EXPECT_TRUE(A->Arrive);
  EXPECT_FALSE(A->Id);
  EXPECT_EQ(A->IdOperand, 0u);
  EXPECT_EQ(A->CountOperand, 1u);

  A = cuda::asmCountedBarrierOf("barrier.cta.arrive.aligned 3, 0x100;");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Mnemonic, "barrier.arrive");
  EXPECT_EQ(A->Id, 3u);
  EXPECT_EQ(A->Count, 256u);
  EXPECT_TRUE(A->Aligned);
  // bar.* is barrier.*.aligned; barrier.* without .aligned is not.
  EXPECT_TRUE(cuda::asmCountedBarrierOf("bar.sync 1, 64;")->Aligned);
  EXPECT_FALSE(cuda::asmCountedBarrierOf("barrier.sync 1, 64;")->Aligned);

  // The first counted barrier of several; a sync with no count is none.
  A = cuda::asmCountedBarrierOf("bar.sync 0;\n\tbar.sync 2, %2;");
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Id, 2u);
  EXPECT_EQ(A->CountOperand, 2u);
  EXPECT_FALSE(cuda::asmCountedBarrierOf("bar.sync 0;"));
  // mbarrier and cluster barriers are other instructions.
  EXPECT_FALSE(cuda::asmCountedBarrierOf("mbarrier.arrive.shared.b64 %0, [%1];"));
  EXPECT_FALSE(cuda::asmBarrierOf("mbarrier.arrive.shared.b64 %0, [%1];"));
  EXPECT_FALSE(cuda::asmBarrierOf("barrier.cluster.arrive;"));
}

TEST(CudaModel, Collectives) {
  using Op = cuda::CollectiveOp;
  const std::pair<const char *, Op> Sync[] = {
      {"__shfl_sync", Op::Shuffle},         {"__shfl_up_sync", Op::ShuffleUp},
      {"__shfl_down_sync", Op::ShuffleDown}, {"__shfl_xor_sync", Op::ShuffleXor},
      {"__ballot_sync", Op::Ballot},        {"__all_sync", Op::All},
      {"__any_sync", Op::Any},              {"__uni_sync", Op::Uni},
      {"__match_any_sync", Op::MatchAny},   {"__match_all_sync", Op::MatchAll},
      {"__reduce_add_sync", Op::Reduce},    {"__reduce_min_sync", Op::Reduce},
      {"__reduce_max_sync", Op::Reduce},    {"__reduce_and_sync", Op::Reduce},
      {"__reduce_or_sync", Op::Reduce},     {"__reduce_xor_sync", Op::Reduce},
  };
  for (const auto &[Name, K] : Sync) {
    SCOPED_TRACE(Name);
    auto C = cuda::collectiveOf(Name);
    ASSERT_TRUE(C);
    EXPECT_EQ(C->Op, K);
    EXPECT_TRUE(C->Sync);
  }
  // Shuffles and __match_any_sync give each lane its own result.
  EXPECT_FALSE(cuda::collectiveOf("__shfl_xor_sync")->sameInEveryLane());
  EXPECT_FALSE(cuda::collectiveOf("__match_any_sync")->sameInEveryLane());
  EXPECT_TRUE(cuda::collectiveOf("__reduce_add_sync")->sameInEveryLane());
  // The legacy forms have no mask.
  auto Legacy = cuda::collectiveOf("__shfl_down");
  ASSERT_TRUE(Legacy);
  EXPECT_FALSE(Legacy->Sync);
  EXPECT_FALSE(cuda::collectiveOf("__ballot")->Sync);
  // Not collectives.
  for (const char *Name : {"__uni", "__reduce_add", "__reduce_mul_sync",
                           "__syncwarp", "__activemask", "shfl_sync"})
    EXPECT_FALSE(cuda::collectiveOf(Name)) << Name;
  EXPECT_TRUE(cuda::isLaneMaskQuery("__activemask"));
  EXPECT_TRUE(cuda::isLaneMaskQuery("__lanemask_lt"));
}

/// Every call in the last kernel of \p Code, in source order.
std::vector<const CallExpr *> callsIn(ASTContext &Ctx) {
  struct V : RecursiveASTVisitor<V> {
    std::vector<const CallExpr *> Calls;
    bool VisitCallExpr(CallExpr *C) {
      Calls.push_back(C);
      return true;
    }
  } Vis;
  Vis.TraverseStmt(test::lastKernel(Ctx)->getBody());
  return Vis.Calls;
}

TEST(CudaModel, BarrierCalls) {
  auto AST = test::parseDeviceCode(R"(
struct Queue { __device__ void sync(); };
__global__ void k(int *out, Queue *q) {
  __syncthreads();
  out[0] = __syncthreads_count(out[1]);
  __syncwarp(0x0000ffffu);
  __barrier_sync(0);
  q->sync();
}
)",
                                   R"(
    __device__ int __syncthreads_count(int);
    __device__ void __syncwarp(unsigned mask = 0xffffffffu);
    __device__ void __barrier_sync(unsigned);
  )");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls = callsIn(AST->getASTContext());
  ASSERT_EQ(Calls.size(), 5u);

  auto B = cuda::barrierOf(Calls[0]);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Scope, cuda::SyncScope::Block);
  EXPECT_FALSE(B->WarpLevel);
  EXPECT_FALSE(B->Reduces);

  B = cuda::barrierOf(Calls[1]);
  ASSERT_TRUE(B);
  EXPECT_TRUE(B->Reduces);

  B = cuda::barrierOf(Calls[2]);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Scope, cuda::SyncScope::Warp);
  EXPECT_TRUE(B->WarpLevel);
  EXPECT_EQ(B->MaskArg, 0u);

  B = cuda::barrierOf(Calls[3]);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Scope, cuda::SyncScope::Block);

  // A sync() of a class that is no cooperative group is no barrier.
  EXPECT_FALSE(cuda::barrierOf(Calls[4]));
}

// The toolkit's tiles as its headers lay them out: sync() and thread_rank()
// static members of one base class, any() a member of another, all reached
// through a thread_block_tile<16>. The group is the object's class as
// written, not the base class that declares the member.
TEST(CudaModel, TileMembersOfBaseClasses) {
  auto AST = test::parseDeviceCode(R"(
namespace cooperative_groups { inline namespace v1 {
template <unsigned Size> struct static_size_base {
  static __device__ void sync();
  static __device__ unsigned thread_rank();
};
template <unsigned Size> struct single_warp_base : static_size_base<Size> {
  __device__ int any(int p) const;
};
template <unsigned Size, class Parent = void>
struct thread_block_tile : single_warp_base<Size> {};
} }
namespace cg = cooperative_groups;
__global__ void k(int *out, cg::thread_block_tile<16> t,
                  cg::thread_block_tile<8> *p) {
  t.sync();
  p->sync();
  out[0] = t.any(out[1]);
  out[2] = t.thread_rank();
}
)");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls = callsIn(AST->getASTContext());
  ASSERT_EQ(Calls.size(), 4u);
  auto B = cuda::barrierOf(Calls[0]);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Scope, cuda::SyncScope::Tile);
  EXPECT_EQ(B->TileSize, 16u);
  B = cuda::barrierOf(Calls[1]);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Scope, cuda::SyncScope::Tile);
  EXPECT_EQ(B->TileSize, 8u);
  for (unsigned I : {2u, 3u}) {
    const CXXRecordDecl *RD = cuda::groupCalledOn(Calls[I]);
    ASSERT_TRUE(RD) << I;
    EXPECT_EQ(RD->getName(), "thread_block_tile");
    EXPECT_EQ(cuda::tileSizeOf(RD), 16u);
  }
}

// libcu++'s synchronisation objects, told apart by their scope: a block
// cuda::barrier's waits are block barriers that complete the copies tied
// to it; a barrier of another scope is none; a thread's own pipeline is
// followed, one the block shares is not (its calls are what the race
// check reports as a gap).
TEST(CudaModel, CudaBarriersAndPipelines) {
  auto AST = test::parseDeviceCode(R"(
__global__ void k(float *s, const float *g,
                  cuda::barrier<cuda::thread_scope_block> &b,
                  cuda::barrier<cuda::thread_scope_device> &d,
                  cuda::pipeline<cuda::thread_scope_thread> &own,
                  cuda::pipeline<cuda::thread_scope_block> &shared) {
  b.arrive_and_wait();
  b.wait(b.arrive());
  d.arrive_and_wait();
  cuda::memcpy_async(s, g, 4, b);
  cuda::memcpy_async(s, g, 4, own);
  cuda::memcpy_async(s, g, 4, shared);
  shared.consumer_wait();
  own.consumer_wait();
}
)",
                                   R"(
    namespace cuda {
    enum thread_scope { thread_scope_system, thread_scope_device,
                        thread_scope_block, thread_scope_thread };
    template <thread_scope S> struct barrier {
      __device__ void arrive_and_wait();
      __device__ unsigned long long arrive();
      __device__ void wait(unsigned long long &&);
    };
    template <thread_scope S> struct pipeline {
      __device__ void consumer_wait();
    };
    template <class Sync>
    __device__ void memcpy_async(void *, const void *, unsigned long, Sync &);
    }
  )");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls = callsIn(AST->getASTContext());
  ASSERT_EQ(Calls.size(), 9u);

  auto B = cuda::barrierOf(Calls[0]); // b.arrive_and_wait()
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Scope, cuda::SyncScope::Block);
  EXPECT_TRUE(B->CompletesBarrierCopies);
  B = cuda::barrierOf(Calls[1]); // b.wait(...)
  ASSERT_TRUE(B);
  EXPECT_TRUE(B->CompletesBarrierCopies);
  EXPECT_FALSE(cuda::barrierOf(Calls[2])); // b.arrive(): not a wait
  EXPECT_FALSE(cuda::barrierOf(Calls[3])); // a device-scope barrier

  auto C = cuda::asyncCopyOf(Calls[4]);
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->BarrierTied);
  EXPECT_FALSE(C->UntrackedCompletion);
  C = cuda::asyncCopyOf(Calls[5]);
  ASSERT_TRUE(C);
  EXPECT_FALSE(C->BarrierTied);
  EXPECT_FALSE(C->UntrackedCompletion);
  // libcu++ and the primitives emit cp.async.cg for 16 bytes.
  EXPECT_EQ(C->SrcOperand, 1u);
  EXPECT_TRUE(C->BypassAt16);
  C = cuda::asyncCopyOf(Calls[6]);
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->UntrackedCompletion);

  EXPECT_TRUE(cuda::isSharedPipelineCall(Calls[6]));
  EXPECT_TRUE(cuda::isSharedPipelineCall(Calls[7]));
  EXPECT_FALSE(cuda::asyncWaitOf(Calls[7])); // shared.consumer_wait()
  EXPECT_FALSE(cuda::isSharedPipelineCall(Calls[8]));
  auto W = cuda::asyncWaitOf(Calls[8]); // own.consumer_wait()
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->Oldest);
  EXPECT_FALSE(cuda::isSharedPipelineCall(Calls[0]));
}

// threadIdx.y spelled three ways: the property the headers declare, its
// getter, and the NVVM register read; and what is not an index builtin.
TEST(CudaModel, BuiltinIndices) {
  std::unique_ptr<ASTUnit> AST = test::parseDeviceCode(R"(
    struct __cuda_builtin_threadIdx_t {
      static __device__ unsigned __fetch_builtin_y() {
        return __nvvm_read_ptx_sreg_tid_y();
      }
      __declspec(property(get = __fetch_builtin_y)) unsigned y;
    };
    extern const __device__ __cuda_builtin_threadIdx_t threadIdx;
    struct Other { __declspec(property(get = get)) int y; static __device__ int get(); };
    extern const __device__ Other other;
    __global__ void k(int *out) {
      out[0] = threadIdx.y;
      out[1] = __cuda_builtin_threadIdx_t::__fetch_builtin_y();
      out[2] = __nvvm_read_ptx_sreg_ctaid_z();
      out[3] = other.y;
      out[4] = __nvvm_read_ptx_sreg_laneid();
    })");
  ASSERT_TRUE(AST);
  std::vector<std::optional<cuda::BuiltinIndex>> Found;
  const FunctionDecl *K = test::lastKernel(AST->getASTContext());
  ASSERT_TRUE(K);
  for (const Stmt *S : cast<CompoundStmt>(K->getBody())->body()) {
    const auto *A = cast<BinaryOperator>(S);
    Found.push_back(cuda::builtinIndexOf(A->getRHS()->IgnoreImpCasts()));
  }
  ASSERT_EQ(Found.size(), 5u);
  for (unsigned I : {0u, 1u}) {
    ASSERT_TRUE(Found[I]) << I;
    EXPECT_EQ(Found[I]->Var, cuda::IndexVar::ThreadIdx);
    EXPECT_EQ(Found[I]->Axis, 1u);
    EXPECT_EQ(cuda::indexName(*Found[I]), "threadIdx.y");
  }
  ASSERT_TRUE(Found[2]);
  EXPECT_EQ(cuda::indexName(*Found[2]), "blockIdx.z");
  EXPECT_FALSE(Found[3]);
  EXPECT_FALSE(Found[4]);
}

// cooperative_groups::memcpy_async is a group's collective copy (bytes or
// elements; an aligned_size_t's alignment kept), cg::wait / wait_prior<N>
// the group's sync that completes all but N batches; a memcpy_async or a
// wait of another namespace is neither, but libcu++'s group form is a
// group copy tied to its barrier.
TEST(CudaModel, GroupCopies) {
  auto AST = test::parseDeviceCode(R"(
__global__ void k(float *s, const float *g,
                  cuda::barrier<cuda::thread_scope_block> &bar) {
  cooperative_groups::thread_block b;
  cooperative_groups::memcpy_async(b, s, g, 64ul);
  cooperative_groups::memcpy_async(b, s, 16ul, g, 16ul);
  cooperative_groups::memcpy_async(b, s, g, cuda::aligned_size_t<16>(64));
  cooperative_groups::wait(b);
  cooperative_groups::wait_prior<1>(b);
  other::memcpy_async(b, s, g, 64ul);
  other::wait(b);
  cuda::memcpy_async(b, s, g, 64ul, bar);
}
)",
                                   R"(
    namespace cuda {
    template <unsigned long A> struct aligned_size_t {
      __device__ explicit aligned_size_t(unsigned long);
    };
    enum thread_scope { thread_scope_block = 2 };
    template <thread_scope S> struct barrier {};
    template <class G, thread_scope S>
    __device__ void memcpy_async(const G &, void *, const void *,
                                 unsigned long, barrier<S> &);
    }
    namespace cooperative_groups {
    struct thread_block { __device__ void sync() const; };
    template <class G, class T, class S>
    __device__ void memcpy_async(const G &, T *, const T *, const S &);
    template <class G, class T>
    __device__ void memcpy_async(const G &, T *, unsigned long, const T *,
                                 unsigned long);
    template <class G> __device__ void wait(const G &);
    template <unsigned N, class G> __device__ void wait_prior(const G &);
    }
    namespace other {
    template <class G, class T, class S>
    __device__ void memcpy_async(const G &, T *, const T *, const S &);
    template <class G> __device__ void wait(const G &);
    }
  )");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls = callsIn(AST->getASTContext());
  ASSERT_EQ(Calls.size(), 8u);
  auto C = cuda::groupCopyOf(Calls[0]);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->SrcOperand, 2u);
  EXPECT_EQ(C->CountOperand, 3u);
  EXPECT_FALSE(C->ElementCount);
  EXPECT_EQ(C->AlignHint, 0u);
  C = cuda::groupCopyOf(Calls[1]);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->SrcOperand, 3u);
  EXPECT_EQ(C->CountOperand, 4u);
  EXPECT_TRUE(C->ElementCount);
  C = cuda::groupCopyOf(Calls[2]);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->AlignHint, 16u);
  auto W = cuda::barrierOf(Calls[3]);
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Scope, cuda::SyncScope::Block);
  EXPECT_TRUE(W->CompletesAsyncCopies);
  EXPECT_EQ(W->AsyncPending, 0u);
  W = cuda::barrierOf(Calls[4]);
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->CompletesAsyncCopies);
  EXPECT_EQ(W->AsyncPending, 1u);
  EXPECT_FALSE(cuda::groupCopyOf(Calls[5]));
  EXPECT_FALSE(cuda::barrierOf(Calls[6]));
  EXPECT_FALSE(cuda::barrierOf(Calls[0]));
  // libcu++'s group form, completed through a block barrier.
  C = cuda::groupCopyOf(Calls[7]);
  ASSERT_TRUE(C);
  ASSERT_TRUE(C->Sync);
  EXPECT_TRUE(C->Sync->BarrierTied);
  EXPECT_EQ(C->CountOperand, 3u);
  EXPECT_FALSE(cuda::asyncCopyOf(Calls[7]));
}

TEST(CudaModel, AsmAsyncCopies) {
  // ggml's cp_async_cg_16, with the L2 prefetch hint.
  auto C = cuda::asmAsyncCopyOf(
      "cp.async.cg.shared.global.L2::128B [%0], [%1], 16;");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->DstOperand, 0u);
  EXPECT_EQ(C->SrcOperand, 1u);
  EXPECT_EQ(C->Bytes, 16u);
  EXPECT_FALSE(C->SizeOperand);
  EXPECT_TRUE(C->BypassAt16); // .cg: BypassCopyModel prices it
  // The size in an operand, blanks and tabs anywhere.
  C = cuda::asmAsyncCopyOf("cp.async.ca.shared.global\t[ %1 ],  [%2], %3;");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->DstOperand, 1u);
  EXPECT_EQ(C->SrcOperand, 2u);
  EXPECT_FALSE(C->Bytes);
  EXPECT_EQ(C->SizeOperand, 3u);
  EXPECT_FALSE(C->BypassAt16); // .ca: a store of its width
  // Not async copies into shared memory from global.
  EXPECT_FALSE(cuda::asmAsyncCopyOf("cp.async.bulk.shared::cluster.global "
                                    "[%0], [%1], %2, [%3];"));
  EXPECT_FALSE(cuda::asmAsyncCopyOf("cp.async.commit_group;"));
  EXPECT_FALSE(cuda::asmAsyncCopyOf("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"));
}

TEST(CudaModel, AsmAsyncWaits) {
  auto W = cuda::asmAsyncWaitOf("cp.async.commit_group;");
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->Commit);
  EXPECT_FALSE(W->Wait);
  W = cuda::asmAsyncWaitOf("cp.async.wait_group 2;");
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->Wait);
  EXPECT_FALSE(W->Commit);
  EXPECT_EQ(W->Pending, 2u);
  W = cuda::asmAsyncWaitOf("cp.async.wait_group %0;");
  ASSERT_TRUE(W);
  EXPECT_EQ(W->PendingOperand, 0u);
  // wait_all commits first, then waits for every group.
  W = cuda::asmAsyncWaitOf("cp.async.wait_all;");
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->Commit);
  EXPECT_TRUE(W->Wait);
  EXPECT_EQ(W->Pending, 0u);
  // The bulk copies' groups are others (TMA, not modelled).
  EXPECT_FALSE(cuda::asmAsyncWaitOf("cp.async.bulk.wait_group 0;"));
  EXPECT_FALSE(cuda::asmAsyncWaitOf("cp.async.bulk.commit_group;"));
  EXPECT_FALSE(cuda::asmAsyncWaitOf("bar.sync 0;"));
}

TEST(CudaModel, AsmBulkTensorCopies) {
  // CUTLASS's spelling, with the tensor map's coordinates in braces.
  auto C = cuda::asmBulkTensorCopyOf(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
      "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Dims, 2u);
  EXPECT_EQ(C->DstOperand, 0u);
  EXPECT_EQ(C->MapOperand, 1u);
  EXPECT_EQ(C->BarrierOperand, 4u);
  C = cuda::asmBulkTensorCopyOf("cp.async.bulk.tensor.3d.shared::cta.global."
                                "mbarrier::complete_tx::bytes [ %1 ], [%2, "
                                "{%3, %4, %5}], [%6];");
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Dims, 3u);
  EXPECT_EQ(C->DstOperand, 1u);
  EXPECT_EQ(C->MapOperand, 2u);
  EXPECT_EQ(C->BarrierOperand, 6u);
  // A TMA store reads shared memory: not a copy into it. Nor is the bulk
  // copy without a tensor map.
  EXPECT_FALSE(cuda::asmBulkTensorCopyOf(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], "
      "[%3];"));
  EXPECT_FALSE(cuda::asmBulkTensorCopyOf(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
      "[%0], [%1], %2, [%3];"));
}

TEST(CudaModel, AsmMbarrierWaits) {
  EXPECT_EQ(cuda::asmMbarrierWaitOf(
                "{\n.reg .pred P1;\nLAB_WAIT:\nmbarrier.try_wait.parity."
                "shared::cta.b64 P1, [%0], %1;\n@!P1 bra LAB_WAIT;\n}"),
            0u);
  EXPECT_EQ(cuda::asmMbarrierWaitOf(
                "mbarrier.test_wait.shared.b64 p, [%1], %2;"),
            1u);
  // Arrivals and inits do not wait.
  EXPECT_FALSE(cuda::asmMbarrierWaitOf(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"));
  EXPECT_FALSE(cuda::asmMbarrierWaitOf("mbarrier.init.shared::cta.b64 [%0], %1;"));
}

TEST(CudaModel, AsmMbarrierArrives) {
  // A consumer's release, fast.cu's form with a count, the producer's
  // expect_tx arrival and arrive_drop all arrive; the address operand.
  EXPECT_EQ(cuda::asmMbarrierArriveOf("mbarrier.arrive.shared::cta.b64 _, [%0];"),
            0u);
  EXPECT_EQ(cuda::asmMbarrierArriveOf(
                "mbarrier.arrive.release.cta.shared::cta.b64 _, [%1], %0;\n"),
            1u);
  EXPECT_EQ(cuda::asmMbarrierArriveOf(
                "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"),
            0u);
  EXPECT_EQ(cuda::asmMbarrierArriveOf(
                "mbarrier.arrive_drop.shared.b64 state, [%2];"),
            2u);
  // Waits, inits and copies do not arrive.
  EXPECT_FALSE(cuda::asmMbarrierArriveOf(
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;"));
  EXPECT_FALSE(cuda::asmMbarrierArriveOf("mbarrier.init.shared::cta.b64 [%0], %1;"));
  EXPECT_FALSE(cuda::asmMbarrierArriveOf(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
      "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"));
}

} // namespace

// vector_functions.h's makers, and what only looks like one.
TEST(CudaModel, VectorMakers) {
  auto AST = test::parseDeviceCode(R"(
namespace mine { __device__ float2 make_float2(float, float); }
__device__ float2 make_float(float);
__global__ void k(float *out) {
  float2 a = make_float2(1.0f, 2.0f);
  int4 b = make_int4(1, 2, 3, 4);
  uchar4 c = make_uchar4(1, 2, 3, 4);
  double2 d = make_double2(1.0, 2.0);
  float2 e = mine::make_float2(1.0f, 2.0f);
  float2 f = make_float(1.0f);
  out[0] = a.x + b.x + c.x + d.x + e.x + f.x;
}
)",
                                   R"(
    struct float2 { float x, y; };
    struct int4 { int x, y, z, w; };
    struct uchar4 { unsigned char x, y, z, w; };
    struct double2 { double x, y; };
    __device__ float2 make_float2(float, float);
    __device__ int4 make_int4(int, int, int, int);
    __device__ uchar4 make_uchar4(unsigned char, unsigned char,
                                  unsigned char, unsigned char);
    __device__ double2 make_double2(double, double);
  )");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls = callsIn(AST->getASTContext());
  ASSERT_EQ(Calls.size(), 6u);
  for (unsigned I = 0; I < 4; ++I)
    EXPECT_TRUE(cuda::isVectorMaker(Calls[I])) << I;
  // In another namespace, or no component count: not the toolkit's.
  EXPECT_FALSE(cuda::isVectorMaker(Calls[4]));
  EXPECT_FALSE(cuda::isVectorMaker(Calls[5]));
}

// PTX special registers by how widely one value is shared, and the asm
// that only copies one into its output.
TEST(CudaModel, SpecialRegisters) {
  using S = cuda::RegisterSpan;
  EXPECT_EQ(cuda::specialRegisterSpan("tid.x"), S::Thread);
  EXPECT_EQ(cuda::specialRegisterSpan("laneid"), S::Thread);
  EXPECT_EQ(cuda::specialRegisterSpan("clock64"), S::Thread);
  EXPECT_EQ(cuda::specialRegisterSpan("warpid"), S::Warp);
  EXPECT_EQ(cuda::specialRegisterSpan("clusterid.x"), S::Block);
  EXPECT_EQ(cuda::specialRegisterSpan("cluster_ctarank"), S::Block);
  EXPECT_EQ(cuda::specialRegisterSpan("ctaid_y"), S::Block); // NVVM's name
  EXPECT_EQ(cuda::specialRegisterSpan("smid"), S::Block);
  EXPECT_EQ(cuda::specialRegisterSpan("nclusterid.z"), S::Launch);
  EXPECT_EQ(cuda::specialRegisterSpan("dynamic_smem_size"), S::Launch);
  EXPECT_FALSE(cuda::specialRegisterSpan("r1"));
  EXPECT_FALSE(cuda::specialRegisterSpan("clusterid.q"));

  EXPECT_EQ(cuda::asmSpecialRegisterMove("mov.u32 %0, %%clusterid.x;\n"),
            "clusterid.x");
  EXPECT_EQ(cuda::asmSpecialRegisterMove("mov.u32 %0, %cluster_ctarank;"),
            "cluster_ctarank");
  // Not a plain copy of a register into the output.
  EXPECT_FALSE(cuda::asmSpecialRegisterMove("mov.u32 %1, %%laneid;"));
  EXPECT_FALSE(cuda::asmSpecialRegisterMove("mov.u32 %0, %1;"));
  EXPECT_FALSE(cuda::asmSpecialRegisterMove(
      "mov.u32 %0, %%laneid; add.u32 %0, %0, 1;"));
  EXPECT_FALSE(cuda::asmSpecialRegisterMove("elect.sync %0|%1, %2;"));
}

TEST(CudaModel, AsmThatOnlyComputes) {
  EXPECT_TRUE(cuda::asmComputesOnly("bfind.u32 %0, %1;"));
  EXPECT_TRUE(cuda::asmComputesOnly("prmt.b32 %0, %1, %2, 0x5410;"));
  EXPECT_TRUE(cuda::asmComputesOnly(
      "{\n .reg .pred p;\n setp.ne.b32 p, %1, 0;\n selp.u32 %0, 1, 0, p;\n}"));
  EXPECT_TRUE(cuda::asmComputesOnly("cvt.rn.f16x2.f32 %0, %2, %1; // pack"));
  EXPECT_TRUE(cuda::asmComputesOnly("mov.b32 %[out], %[in];"));
  // Special registers, nvcc's lone `%` or clang's `%%`.
  EXPECT_FALSE(cuda::asmComputesOnly("mov.u32 %0, %%laneid;"));
  EXPECT_FALSE(cuda::asmComputesOnly("mov.u32 %0, %laneid;"));
  EXPECT_FALSE(cuda::asmComputesOnly("add.u32 %0, %1, %%tid.x;"));
  // Memory, lanes, clocks, barriers.
  EXPECT_FALSE(cuda::asmComputesOnly("ld.global.u32 %0, [%1];"));
  EXPECT_FALSE(cuda::asmComputesOnly("shfl.sync.bfly.b32 %0, %1, 1, 31, -1;"));
  EXPECT_FALSE(cuda::asmComputesOnly("atom.add.u32 %0, [%1], 1;"));
  EXPECT_FALSE(
      cuda::asmComputesOnly("bfind.u32 %0, %1; ld.shared.u32 %0, [%0];"));
  EXPECT_FALSE(cuda::asmComputesOnly(""));
}

// The toolkit's half-precision classes, whose user-provided assignments
// the walk takes as stores of the object: by name at file scope only.
TEST(CudaModel, HalfPrecisionClasses) {
  auto AST = test::parseDeviceCode(R"(
struct __half { unsigned short x; };
struct __half2 { __half a, b; };
struct __nv_bfloat16 { unsigned short x; };
struct __nv_bfloat162 { __nv_bfloat16 a, b; };
struct half4 { __half a, b, c, d; };
namespace mine { struct __half2 { int v; }; }
)");
  ASSERT_TRUE(AST);
  std::map<std::string, bool> Seen;
  for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      for (const Decl *Inner : NS->decls())
        if (const auto *RD = dyn_cast<CXXRecordDecl>(Inner))
          Seen[NS->getNameAsString() + "::" + RD->getNameAsString()] =
              cuda::isHalfPrecisionClass(RD);
    } else if (const auto *RD = dyn_cast<CXXRecordDecl>(D);
               RD && RD->getIdentifier()) {
      Seen[RD->getNameAsString()] = cuda::isHalfPrecisionClass(RD);
    }
  }
  EXPECT_TRUE(Seen.at("__half"));
  EXPECT_TRUE(Seen.at("__half2"));
  EXPECT_TRUE(Seen.at("__nv_bfloat16"));
  EXPECT_TRUE(Seen.at("__nv_bfloat162"));
  EXPECT_FALSE(Seen.at("half4"));
  EXPECT_FALSE(Seen.at("mine::__half2"));
  EXPECT_FALSE(cuda::isHalfPrecisionClass(nullptr));
}
