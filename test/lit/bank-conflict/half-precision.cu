// RUN: %check_all_front_ends %s shmem-bank-conflict

// Stores through cuda_fp16's assignment (user-provided, in the toolkit's
// header) are 4-byte stores of the half2 element, checked like any other.
#include <cuda_fp16.h>

// Positive: a 32x32 half2 tile written down a column.
// shmem-lint: block=32x8
__global__ void columnStore(const half2 *in, half2 *out) {
  __shared__ half2 s[32][32];
  for (int r = 0; r < 32; r += 8)
    s[threadIdx.x][r + threadIdx.y] = in[(r + threadIdx.y) * 32 + threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 32-way bank conflict: lanes 0-31
  // write 32 distinct words of 's' in bank 0 (32 wavefronts instead of 1);
  // successive lanes are 32 words apart and 32 ≡ 0 (mod 32), so every lane maps
  // to the same bank; pad the row of 's' to 33 elements [shmem-bank-conflict]
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

// Negative: the padded tile.
// shmem-lint: block=32x8
__global__ void columnStorePadded(const half2 *in, half2 *out) {
  __shared__ half2 s[32][33];
  for (int r = 0; r < 32; r += 8)
    s[threadIdx.x][r + threadIdx.y] = in[(r + threadIdx.y) * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}
