// RUN: %check_all_front_ends %s shmem-divergent-barrier

// The verdict depends on the block shape; a barrier is reported once, for
// the first shape that shows the problem.

// Launched with 128 and 256 threads: only the larger block splits.
__global__ void launchedTwice(float *out) {
  if (threadIdx.x < 128)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 128 (128 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 256 threads (launch at line {{[0-9]+}})
}

// With 32 threads in x, each warp is one row: threadIdx.y is warp-uniform.
// shmem-lint: block=32x8
__global__ void rows(float *out) {
  if (threadIdx.y == 0)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.y == 0 (32 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  if (threadIdx.y == 0)
    __syncwarp();
}

// With 16 threads in x, a warp spans two rows.
// shmem-lint: block=16x16
__global__ void halfRows(float *out) {
  if (threadIdx.y % 2 == 0)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncwarp() is reached only by lanes 0-15 of each warp; lanes 16-31, which its mask names, never arrive, so the warp may hang [shmem-divergent-barrier]
}

// The instantiation with Half = 128 splits a block of 256; the other does
// not. Template-constant conditions are uniform.
template <int Half, bool Sync> __global__ void templated(float *out) {
  if (threadIdx.x < Half)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 128 (128 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-4]]:48: note: in instantiation 'templated<128, true>'
  if (Sync)
    __syncthreads();
}

int main() {
  launchedTwice<<<1, 128>>>(nullptr);
  launchedTwice<<<1, 256>>>(nullptr);
  rows<<<1, dim3(32, 8)>>>(nullptr);
  halfRows<<<1, dim3(16, 16)>>>(nullptr);
  templated<256, false><<<1, 256>>>(nullptr);
  templated<128, true><<<1, 256>>>(nullptr);
}
