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

// A tile's own sync() on the tile object: with the toolkit's headers a
// static member of a base class, reached through the object. Whole tiles
// take the branch: silent (it was once taken for a full-warp barrier).
__global__ void wholeTileDirect(int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  if (threadIdx.x < 16) {
    s[threadIdx.x] = 1;
    t16.sync();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

// A vote of the tile, or a shuffle from one of its lanes, is the same in
// every thread of the tile: a branch on it keeps each tile whole. Silent.
__global__ void tileVote(const int *in, int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  bool p = t16.any(in[threadIdx.x] > 0);
  if (p) {
    s[threadIdx.x] = 1;
    t16.sync();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

__global__ void tileShuffle(const int *in, int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cta);
  int v = t8.shfl(in[threadIdx.x], 0);
  if (v > 3) {
    s[threadIdx.x] = 1;
    t8.sync();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

// A butterfly over the tile's lane offsets 8, 4, 2, 1 gives every lane of
// the tile the same sum (the toolkit's shfl_xor takes its operand by
// forwarding reference; it only reads it). Silent.
__global__ void tileButterfly(const int *in, int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  int v = in[threadIdx.x];
  for (int o = 8; o > 0; o >>= 1)
    v += t16.shfl_xor(v, o);
  if (v > 0) {
    s[threadIdx.x] = 1;
    t16.sync();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

// Offsets 4, 2, 1 only: the two halves of the tile may disagree.
__global__ void halfButterfly(const int *in, int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  int v = in[threadIdx.x];
  for (int o = 4; o > 0; o >>= 1)
    v += t16.shfl_xor(v, o);
  if (v > 0) {
    s[threadIdx.x] = 1;
    t16.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: t16.sync() is reached only by the threads for which 'v > 0' is true, but every thread of the 16-thread tile must reach it, so the tile may hang [shmem-divergent-barrier]
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

// A vote of 8-thread tiles decides for a 16-thread tile: its two halves
// may disagree.
__global__ void smallerTileVote(const int *in, int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cta);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  bool p = t8.all(in[threadIdx.x] > 0);
  if (p) {
    s[threadIdx.x] = 1;
    t16.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: t16.sync() is reached only by the threads for which 'p' is true, but every thread of the 16-thread tile must reach it, so the tile may hang [shmem-divergent-barrier]
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

// Each thread's own data decides: reported.
__global__ void dataDependent(const int *in, int *out) {
  __shared__ int s[64];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cta);
  if (in[threadIdx.x] > 0) {
    s[threadIdx.x] = 1;
    t16.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: t16.sync() is reached only by the threads for which 'in[threadIdx.x] > 0' is true, but every thread of the 16-thread tile must reach it, so the tile may hang [shmem-divergent-barrier]
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

int main() {
  wholeTiles<<<1, 64>>>(nullptr);
  halfTile<<<1, 64>>>(nullptr);
  wholeTileDirect<<<1, 64>>>(nullptr);
  tileVote<<<1, 64>>>(nullptr, nullptr);
  tileShuffle<<<1, 64>>>(nullptr, nullptr);
  tileButterfly<<<1, 64>>>(nullptr, nullptr);
  halfButterfly<<<1, 64>>>(nullptr, nullptr);
  smallerTileVote<<<1, 64>>>(nullptr, nullptr);
  dataDependent<<<1, 64>>>(nullptr, nullptr);
}
