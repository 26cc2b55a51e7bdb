// RUN: %check_all_front_ends %s shmem-divergent-barrier
// With the toolkit's own cooperative_groups.h:
// RUN: %if cuda-toolkit %{ %exit_status %{shmem-lint-raw} --cuda-path=%cuda_toolkit --checks=shmem-divergent-barrier %s -- -isystem %cuda_toolkit/include/cccl | FileCheck --check-prefix=CHECK-MESSAGES %s %}

// A tile's sync() waits for the tile's threads only, also when the tile is
// passed to a function or held by a type-erased thread_group (the pattern
// of cuda-samples' dxtc: `thread_group tile = tiled_partition(cta, 16)`,
// then work for the first tile under `if (idx < 16)`). Blocks of 64.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void viaGroup(cg::thread_group g, int *s) {
  s[threadIdx.x] = 1;
  cg::sync(g);
}

__device__ void viaTile(cg::thread_block_tile<16> t, int *s) {
  s[threadIdx.x] = 2;
  t.sync();
}

// Whole tiles take the branch: silent.
__global__ void wholeTiles(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(cta, 16);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  if (threadIdx.x < 16) {
    cg::sync(tile);
    tile.sync();
    viaGroup(tile, s);
    viaTile(t16, s);
  }
  out[threadIdx.x] = s[threadIdx.x];
}

// Half of the first tile: the rest of it never arrives.
__global__ void halfTile(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(cta, 16);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  if (threadIdx.x < 8) {
    cg::sync(tile);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: cg::sync(tile) is reached only by threads 0-7 of the 16-thread tile starting at thread 0; the rest of the tile never arrives, so the tile may hang [shmem-divergent-barrier]
    viaGroup(tile, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the call to 'viaGroup' executes cg::sync(g) but is reached only by threads 0-7 of the 16-thread tile starting at thread 0; the rest of the tile never arrives, so the tile may hang [shmem-divergent-barrier]
    viaTile(t16, s);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the call to 'viaTile' executes t.sync() but is reached only by threads 0-7 of the 16-thread tile starting at thread 0; the rest of the tile never arrives, so the tile may hang [shmem-divergent-barrier]
  }
  out[threadIdx.x] = s[threadIdx.x];
}

int main() {
  wholeTiles<<<1, 64>>>(nullptr);
  halfTile<<<1, 64>>>(nullptr);
}
