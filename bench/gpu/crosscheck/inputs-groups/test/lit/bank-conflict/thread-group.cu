// RUN: %check_all_front_ends %s shmem-bank-conflict
// With the toolkit's own cooperative_groups.h:
// RUN: %if cuda-toolkit %{ %exit_status %{shmem-lint-raw} --cuda-path=%cuda_toolkit --checks=shmem-bank-conflict %s -- -isystem %cuda_toolkit/include/cccl | FileCheck --check-prefix=CHECK-MESSAGES %s %}

// A `thread_group` is type-erased: which group it holds (the block, or a
// tile of n threads whose thread_rank() is the block rank mod n) comes from
// where it was made. Found in cuda-samples' simpleCooperativeGroups, whose
// sumReduction(thread_group g, int *x, ...) writes x[g.thread_rank()] for
// the block and for 16-thread tiles.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void store(cg::thread_group g, int *x, int v) {
  x[g.thread_rank()] = v;
}

// A 16-thread tile passed as a thread_group: x = s + 16 * tile, so lane t
// writes s[t]: conflict-free. (Taken for the block, lane 16 would write
// s[32] and meet lane 0 in bank 0.)
__global__ void staticTile(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cta);
  int base = cta.thread_rank() - tile.thread_rank();
  store(tile, s + base, 1);
  cta.sync();
  out[threadIdx.x] = s[threadIdx.x];
}

// The block itself as a thread_group.
__global__ void block(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  store(cta, s, 1);
  cta.sync();
  out[threadIdx.x] = s[threadIdx.x];
}

// A tile whose size is known at run time only, tiled_partition(parent, n):
// the 4 lanes of a tile read words 0, 4, 8, 12 and the 8 tiles of a warp
// share them (broadcast): conflict-free. Ranks 0-31 would be 4-way.
__device__ int load(const cg::thread_group &g, const int *x) {
  return x[g.thread_rank() * 4];
}

__global__ void dynamicTile(int *out) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  cg::thread_block cta = cg::this_thread_block();
  cta.sync();
  cg::thread_group quad = cg::tiled_partition(cta, 4);
  out[threadIdx.x] = load(quad, s);
}

// A conflict through a tile held by a thread_group is still reported, with
// the tile's ranks: lane t reads word 32 * (t % 8) + t / 8, so the 8 lanes
// of a tile are 32 words apart.
__device__ int column(cg::thread_group g, const int *x) {
  return x[g.thread_rank() * 32 + threadIdx.x / 8];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 8-way bank conflict: lanes 0-7 read 8 distinct words of 's' in bank 0 (8 wavefronts instead of 1)
}

__global__ void conflictingTile(int *out) {
  __shared__ int s[32 * 8];
  cg::thread_block cta = cg::this_thread_block();
  s[threadIdx.x] = threadIdx.x;
  cta.sync();
  int n = 8;
  out[threadIdx.x] = column(cg::tiled_partition(cta, n), s);
}

// Where the group comes from is not known (chosen per thread here): no
// claim, rather than taking it for the block (4-way) or a tile.
__global__ void unknownGroup(int *out, bool small) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  cg::thread_block cta = cg::this_thread_block();
  cta.sync();
  cg::thread_group g = small ? cg::tiled_partition(cta, 4) : cg::thread_group(cta);
  out[threadIdx.x] = s[g.thread_rank() * 4];
}

int main() {
  staticTile<<<1, 64>>>(nullptr);
  block<<<1, 64>>>(nullptr);
  dynamicTile<<<1, 32>>>(nullptr);
  conflictingTile<<<1, 32>>>(nullptr);
  unknownGroup<<<1, 32>>>(nullptr, true);
}
