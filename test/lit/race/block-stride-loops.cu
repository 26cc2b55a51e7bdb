// RUN: %check_all_front_ends %s shmem-race

// A loop whose counter starts at a different value in each thread (a
// block-stride loop, `for (i = threadIdx.x; i < n; i += blockDim.x)`) is
// walked once for all its iterations; with constant bounds each thread's
// own trip count is known, and a thread does not run the iterations past
// it. Iterations no thread runs were taken as run: thread (0,1) "wrote"
// s[0][33], which is s[1][0], in a fifth iteration of a four-trip loop.

// Negative: each thread's rows of a padded tile, four trips each.
// shmem-lint: block=32x8
__global__ void rowsPerThread(const float *in, float *out) {
  __shared__ float s[32][33];
  for (int r = threadIdx.y; r < 32; r += 8)
    s[threadIdx.x][r] = in[r * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

// Negative: trips differ between threads (threads 0-31 run two, 32-63
// one); the words past the loop's bound are written after it.
// shmem-lint: block=64
__global__ void unevenTrips(const float *in, float *out) {
  __shared__ float s[128];
  for (int i = threadIdx.x; i < 96; i += 64)
    s[i] = in[i];
  if (threadIdx.x >= 32)
    s[threadIdx.x + 64] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 64];
}

// Positive: the words the second trip writes (threads 0-31 run it) read
// with no barrier.
// shmem-lint: block=64
__global__ void secondTripRaces(const float *in, float *out) {
  __shared__ float s[128];
  for (int i = threadIdx.x; i < 96; i += 64)
    s[i] = in[i];
  out[threadIdx.x] = s[64 + threadIdx.x % 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 32 reads s[64] (line
  // [[@LINE-1]]) while thread 0 writes s[64] (line [[@LINE-2]]); no barrier
  // between them; add __syncthreads() between line [[@LINE-2]] and line
  // [[@LINE-1]] [shmem-race]
}
