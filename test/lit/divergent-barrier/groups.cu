// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Cooperative groups, the barrier builtins and inline asm. Blocks of 128.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void blockSyncUnderRank(float *out) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 64)
    block.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: block.sync() is reached only by threads with threadIdx.x < 64 (64 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on block.thread_rank();
  if (threadIdx.x >= 96)
    cg::sync(block);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: cg::sync(block) is reached only by threads with threadIdx.x >= 96 (32 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
}

__global__ void tileSyncUnderRank(float *out) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  if (tile.thread_rank() < 8)
    tile.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: tile.sync() is reached only by threads 0-7 of each 16-thread tile; the rest of the tile never arrives, so the tile may hang [shmem-divergent-barrier]
  auto warp = cg::tiled_partition<32>(block);
  if (warp.thread_rank() == 0)
    warp.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: warp.sync() is reached only by thread 0 of each 32-thread tile; the rest of the tile never arrives, so the tile may hang [shmem-divergent-barrier]
}

__global__ void builtinsUnderBranch(const int *in) {
  if (threadIdx.x < 32)
    __syncthreads_count(in[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads_count(in[threadIdx.x]) is reached only by threads with threadIdx.x < 32 (32 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  if (threadIdx.x < 32)
    __barrier_sync(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __barrier_sync(0) is reached only by threads with threadIdx.x < 32 (32 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
}

__global__ void asmBarrier(float *out) {
  if (threadIdx.x < 64)
    asm volatile("bar.sync 0;");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: inline asm 'bar.sync' is reached only by threads with threadIdx.x < 64 (64 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
}

// barrier.red is a block barrier that also reduces; the walk records it, so
// the witness names the threads.
__global__ void asmReductionBarrier(unsigned *out) {
  unsigned n = 0;
  if (threadIdx.x < 96)
    asm volatile("barrier.red.popc.u32 %0, 0, %1;" : "=r"(n) : "r"(threadIdx.x & 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: inline asm 'barrier.red' is reached only by threads with threadIdx.x < 96 (96 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  out[threadIdx.x] = n;
}

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

__global__ void uniformGroups(float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  if (blockIdx.x < n)
    block.sync();
  auto tile = cg::tiled_partition<16>(block);
  // Whole tiles take the branch.
  if (tile.meta_group_rank() == 0)
    tile.sync();
  if (threadIdx.x < 48)
    tile.sync();
  auto warp = cg::tiled_partition<32>(block);
  if (warp.any(out[threadIdx.x] > 0))
    warp.sync();
}

// A named barrier for the first two warps only: a thread count makes it a
// barrier of whole warps, and the condition selects whole warps.
__global__ void producerWarps(float *out) {
  if (threadIdx.x / 32 < 2)
    asm volatile("bar.sync 1, 64;");
}

int main() {
  blockSyncUnderRank<<<1, 128>>>(nullptr);
  tileSyncUnderRank<<<1, 128>>>(nullptr);
  builtinsUnderBranch<<<1, 128>>>(nullptr);
  asmBarrier<<<1, 128>>>(nullptr);
  asmReductionBarrier<<<1, 128>>>(nullptr);
  uniformGroups<<<4, 128>>>(nullptr, 2);
  producerWarps<<<1, 128>>>(nullptr);
}
