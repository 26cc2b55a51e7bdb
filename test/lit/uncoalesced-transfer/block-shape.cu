// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer
// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer --prefix=CHECK-SHAPE --tidy-config='{CheckOptions: {shmem-uncoalesced-transfer.BlockDim: 4x64}}' --plugin-args=block=4x64 --driver-args=--block-dim=4x64

// The block shape decides which threads share a warp: the BlockDim option
// (driver --block-dim, plugin block=) applies to kernels whose shape the
// source does not state.

// Rows of a tile with an unknown pitch, launched nowhere: with the default
// 256 threads a warp reads one row. With the block shape given as 4x64, a
// warp holds 8 rows of 16 bytes: twice the ideal once the rows no longer
// share sectors (each warp's first row is taken to start a sector; the
// others straddle two when the pitch is not a multiple of 8).
__global__ void tileRows(float *out, const float *in, int pitch) {
  __shared__ float s[256];
  s[threadIdx.y * blockDim.x + threadIdx.x] = in[threadIdx.y * pitch + threadIdx.x];
  // CHECK-SHAPE: :[[@LINE-1]]:47: warning: global load from 'in' is uncoalesced when 'pitch' ≥ 8: a warp's request touches up to 11 sectors of 32 bytes for 128 bytes, where 4 would do; its lanes touch 8 separate runs of 16 contiguous bytes [shmem-uncoalesced-transfer]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Launched with a shape: the option does not apply.
__global__ void launched(float *out, const float *in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x * 2];
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: global load from 'in' is uncoalesced: a warp's request touches 8 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 8 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-SHAPE: :[[@LINE-2]]:20: warning: global load from 'in' is uncoalesced: a warp's request touches 8 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 8 bytes apart [shmem-uncoalesced-transfer]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(float *out, const float *in) { launched<<<1, 256>>>(out, in); }
