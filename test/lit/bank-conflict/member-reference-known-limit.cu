// RUN: %check_all_front_ends %s shmem-bank-conflict

// Known limit (found instantiating CUB's block primitives, see
// bench/corpus/cub_blocks.cu): shared memory reached through a reference
// or pointer stored in an object, as in CUB's
// `BlockReduce(temp_storage).Sum(x)` where the constructor keeps
// `TempStorage &temp_storage`, is not followed: the accesses are not
// analysed at all (no claim either way). Here a 32-way conflict through
// such a member goes unreported; the same access made directly is found.
// This test pins the gap; it must change when the walker tracks the
// fields of an object whose constructor it follows.

struct Tile {
  float (&rows)[32][32];
  __device__ explicit Tile(float (&r)[32][32]) : rows(r) {}
  __device__ float column(int c) const { return rows[threadIdx.x][c]; }
};

// shmem-lint: block=32
__global__ void throughMember(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x / 32][threadIdx.x % 32] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = Tile(s).column(0);
}

// shmem-lint: block=32
__global__ void direct(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x / 32][threadIdx.x % 32] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's'
}
