// RUN: %check_all_front_ends %s shmem-layout-mismatch
// RUN: %check_all_front_ends %s shmem-layout-mismatch --prefix=CHECK-SHAPE --tidy-config='{CheckOptions: {shmem-layout-mismatch.BlockDim: 32x8}}' --plugin-args=block=32x8 --driver-args=--block-dim=32x8

// Launched nowhere, and nothing in the code bounds the shape (the tile is
// indexed through one flat formula): with the default 256x1 block every
// thread has row 0, where the swizzle is the identity and both formulas
// agree. Given as 32x8 (the BlockDim option), rows 1-7 read other elements
// than they index.
__global__ void unlaunched(float *out, const float *in) {
  __shared__ float t[8 * 32];
  t[threadIdx.y * 32 + (threadIdx.x ^ threadIdx.y)] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y * 32 + threadIdx.x];
  // CHECK-SHAPE: :[[@LINE-1]]:41: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[32] as element (1, 0), but the store at line [[@LINE-3]] put element (1, 0) at t[33] and t[32] holds element (1, 1) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
}

// Launched nowhere, but every thread indexes a row of 32 by threadIdx.x
// and one of 8 rows by threadIdx.y: the shape assumed is 32x8, the most
// the tile allows, with or without the option.
__global__ void narrowed(float *out, const float *in) {
  __shared__ float t[8][32];
  t[threadIdx.y][threadIdx.x ^ threadIdx.y] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y][threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[1][0] as element (1, 0), but the store at line [[@LINE-3]] put element (1, 0) at t[1][1] and t[1][0] holds element (1, 1) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 32x8 threads (x = 32 assumed: blockDim.x is at most 32 since 't' has 32 elements where every thread indexes it by threadIdx.x (line [[@LINE-2]]); y = 8 assumed)
  // CHECK-SHAPE: :[[@LINE-3]]:41: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[1][0] as element (1, 0)
}

// Launched with its shape: the option does not apply.
__global__ void launched(float *out, const float *in) {
  __shared__ float t[32 * 33];
  t[threadIdx.y * 33 + threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y * 32 + threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[32] as element (1, 0), but the store at line [[@LINE-3]] put element (1, 0) at t[33] (992 of 1024 reads
  // CHECK-SHAPE: :[[@LINE-2]]:41: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[32] as element (1, 0), but the store at line [[@LINE-4]] put element (1, 0) at t[33] (992 of 1024 reads
}

void launch(float *out, const float *in) { launched<<<1, dim3(32, 32)>>>(out, in); }
