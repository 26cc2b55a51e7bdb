// RUN: %check_all_front_ends %s shmem-race,shmem-divergent-barrier
// With the toolkit's own headers:
// RUN: %if cuda-toolkit %{ %exit_status %{shmem-lint-raw} --cuda-path=%cuda_toolkit --checks=shmem-race,shmem-divergent-barrier %s -- -std=c++17 -isystem %cuda_toolkit/include/cccl | FileCheck --check-prefix=CHECK-MESSAGES %s %}

// Reductions as the CUDA programming guide writes them with cooperative
// groups, through <cooperative_groups/reduce.h> and <scan.h>, which
// shmem-lint's own headers provide too (the code compiles, and is analysed
// the same, with or without a toolkit).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// Negative: cg::reduce per warp tile, one word per warp, a block barrier,
// then the first warp reduces the partial sums.
__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float r = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = r;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    float p = tile.thread_rank() < tile.meta_group_size()
                  ? partial[tile.thread_rank()]
                  : 0.0f;
    p = cg::reduce(tile, p, cg::plus<float>());
    if (tile.thread_rank() == 0)
      out[blockIdx.x] = p;
  }
}

// Positive: the same without the block barrier.
__global__ void blockSumNoBarrier(const float *in, float *out, int n) {
  __shared__ float partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  float r = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = r;
  if (tile.meta_group_rank() == 0) {
    float p = tile.thread_rank() < tile.meta_group_size()
                  ? partial[tile.thread_rank()]
                  : 0.0f;
    // CHECK-MESSAGES: :[[@LINE-2]]:21: warning: thread 1 reads partial[1] (line [[@LINE-2]]) while thread 32 writes partial[1] (line [[@LINE-5]]); no barrier between them; add __syncthreads() between line [[@LINE-5]] and line [[@LINE-2]] [shmem-race]
    p = cg::reduce(tile, p, cg::plus<float>());
    if (tile.thread_rank() == 0)
      out[blockIdx.x] = p;
  }
}

// Negative: a shfl_down tree in each warp tile, lane 0 writes, a barrier.
__global__ void tileTree(const float *in, float *out) {
  __shared__ float s[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0)
    s[tile.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() < 8)
    out[block.thread_rank()] = s[block.thread_rank()];
}

// Negative: the active lanes of a warp take slots through one atomic of
// their leader, each its own slot; then each tile's prefix sum.
__global__ void compaction(int *counter, const int *flags, int *sums) {
  __shared__ int slot[256];
  if (flags[threadIdx.x]) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0)
      base = atomicAdd(counter, active.size());
    base = active.shfl(base, 0);
    slot[threadIdx.x] = base + active.thread_rank();
  }
  __syncthreads();
  cg::thread_block_tile<32> tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  sums[threadIdx.x] = cg::exclusive_scan(tile, slot[threadIdx.x]);
}

// cg::reduce reads its operand where the toolkit binds it to a forwarding
// reference: a read of shared memory like any other. Positive: a thread's
// neighbour's element, before the barrier that orders its write.
__global__ void reduceNeighbourEarly(const float *in, float *out) {
  __shared__ float s[128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  s[threadIdx.x] = in[threadIdx.x];
  float r = cg::reduce(tile, s[(threadIdx.x + 1) % 128], cg::plus<float>());
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: thread 31 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-2]]); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
  out[threadIdx.x] = r;
}

// Negative: the same after the barrier, and nothing said of the read.
__global__ void reduceNeighbour(const float *in, float *out) {
  __shared__ float s[128];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  s[threadIdx.x] = in[threadIdx.x];
  block.sync();
  out[threadIdx.x] =
      cg::reduce(tile, s[(threadIdx.x + 1) % 128], cg::plus<float>());
}

int main() {
  blockSum<<<64, 256>>>(nullptr, nullptr, 0);
  blockSumNoBarrier<<<64, 256>>>(nullptr, nullptr, 0);
  tileTree<<<64, 256>>>(nullptr, nullptr);
  compaction<<<1, 256>>>(nullptr, nullptr, nullptr);
  reduceNeighbourEarly<<<1, 128>>>(nullptr, nullptr);
  reduceNeighbour<<<1, 128>>>(nullptr, nullptr);
}
