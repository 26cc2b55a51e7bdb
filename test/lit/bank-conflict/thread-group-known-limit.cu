// RUN: %check_all_front_ends %s shmem-bank-conflict

// Known limit (found in cuda-samples' simpleCooperativeGroups): a group
// passed as the type-erased `thread_group` is taken to be the whole block,
// so `g.thread_rank()` of a 16-thread tile is modelled as the block rank.
// Here the tile's lanes write `x[rank]` with x = s + 16 * tile: really
// s[threadIdx.x], conflict-free, but under the model lane 16 writes s[32]
// and meets lane 0 in bank 0. This test pins the false alarm; it must
// change when the walker learns which group a thread_group holds.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void store(cg::thread_group g, int *x, int v) {
  x[g.thread_rank()] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way bank conflict: lanes 0, 16 write 2 distinct words of 's' in bank 0 (2 wavefronts instead of 1)
}

__global__ void tiles(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cta);
  int base = cta.thread_rank() - tile.thread_rank();
  store(tile, s + base, 1);
  cta.sync();
  out[threadIdx.x] = s[threadIdx.x];
}

// The block itself as a thread_group: modelled right, silent.
__global__ void block(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  store(cta, s, 1);
  cta.sync();
  out[threadIdx.x] = s[threadIdx.x];
}

int main() {
  tiles<<<1, 64>>>(nullptr);
  block<<<1, 64>>>(nullptr);
}
