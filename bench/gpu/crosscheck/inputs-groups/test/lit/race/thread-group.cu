// RUN: %check_all_front_ends %s shmem-race
// With the toolkit's own cooperative_groups.h:
// RUN: %if cuda-toolkit %{ %exit_status %{shmem-lint-raw} --cuda-path=%cuda_toolkit --checks=shmem-race %s -- -isystem %cuda_toolkit/include/cccl | FileCheck --check-prefix=CHECK-MESSAGES %s %}

// sync() on a `thread_group` waits for the group it holds: the block, or a
// tile, whose sync() orders the tile's threads only (as a
// thread_block_tile's does). Which one comes from where the group was made.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Each thread reads the word the other warp wrote.
__device__ void exchange(cg::thread_group g, int *s, int *out) {
  s[threadIdx.x] = threadIdx.x;
  g.sync();
  out[threadIdx.x] = s[(threadIdx.x + 32) % 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-3]]); no barrier between them
}

// Each thread reads its neighbour's word, in its own warp.
__device__ void neighbour(cg::thread_group g, int *s, int *out) {
  s[threadIdx.x] = threadIdx.x;
  g.sync();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// A warp-sized tile's sync() does not order the two warps: a race.
__global__ void tileSync(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  exchange(cg::tiled_partition(cta, 32), s, out);
}

// The block's sync() does.
__global__ void blockSync(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  exchange(cta, s, out);
}

// Within a tile, its sync() orders the threads.
__global__ void tileNeighbour(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
  neighbour(warp, s, out);
}

int main() {
  tileSync<<<1, 64>>>(nullptr);
  blockSync<<<1, 64>>>(nullptr);
  tileNeighbour<<<1, 64>>>(nullptr);
}
