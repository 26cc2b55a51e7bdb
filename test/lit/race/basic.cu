// RUN: %check_all_front_ends %s shmem-race

// Read-after-write and write-after-read between threads of a block, and the
// code that must stay silent: each thread reading its own write, a leader
// writing before a barrier, tiles with their barrier, disjoint if/else writes.

// A tile read transposed right after it is written: thread (1,0) reads what
// thread (0,1) wrote.
// shmem-lint: block=32x32
__global__ void transposeNoBarrier(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];
  out[threadIdx.y * n + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:40: warning: thread (1,0) reads tile[1][0] (line 13) while thread (0,1) writes tile[1][0] (line 12); no barrier between them; add __syncthreads() between line 12 and line 13 [shmem-race]
}

// The same with the barrier: silent.
// shmem-lint: block=32x32
__global__ void transposeTiled(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * n + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * n + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// A three-point stencil reading its neighbours' elements with no barrier.
// One finding for the missing barrier, not one per read.
// shmem-lint: block=256
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[258];
  unsigned t = threadIdx.x;
  s[t + 1] = in[t];
  if (t == 0)
    s[0] = 0.0f;
  if (t == 255)
    s[257] = 0.0f;
  out[t] = s[t] + s[t + 1] + s[t + 2];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: thread 32 reads s[32] (line 37) while thread 31 writes s[32] (line 32); no barrier between them; add __syncthreads() between line 32 and line 37 [shmem-race]
}

// shmem-lint: block=256
__global__ void stencilBarrier(const float *in, float *out) {
  __shared__ float s[258];
  unsigned t = threadIdx.x;
  s[t + 1] = in[t];
  if (t == 0)
    s[0] = 0.0f;
  if (t == 255)
    s[257] = 0.0f;
  __syncthreads();
  out[t] = s[t] + s[t + 1] + s[t + 2];
}

// Each thread reads back its own element: no other thread is involved.
// shmem-lint: block=256
__global__ void ownElement(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  s[threadIdx.x] *= 2.0f;
  out[threadIdx.x] = s[threadIdx.x];
}

// A leader writes, a barrier, everyone reads: silent. Without the barrier
// the others may read before the leader has written.
// shmem-lint: block=128
__global__ void leader(int *out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = n * 3;
  __syncthreads();
  out[threadIdx.x] = count;
}

// shmem-lint: block=128
__global__ void leaderNoBarrier(int *out, int n) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = n * 3;
  out[threadIdx.x] = count;
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 32 reads count (line 79) while thread 0 writes count (line 78); no barrier between them; add __syncthreads() between line 78 and line 79 [shmem-race]
}

// Write-after-read: the tile is overwritten while neighbours may still read
// it.
// shmem-lint: block=128
__global__ void overwrite(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  float v = s[(threadIdx.x + 1) % 128];
  s[threadIdx.x] = v * 2.0f;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 0 writes s[0] (line 91) while thread 127 reads s[0] (line 90); no barrier between them; add __syncthreads() between line 90 and line 91 [shmem-race]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// One statement reading a neighbour's element and writing its own.
// shmem-lint: block=128
__global__ void shiftInPlace(float *out) {
  __shared__ float s[129];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  s[threadIdx.x] = s[threadIdx.x + 1];
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes s[32] (line 103) while thread 31 reads s[32] (line 103); no barrier between them; read into a register, then __syncthreads(), then write [shmem-race]
}

// Disjoint writes on the two sides of a branch: silent.
// shmem-lint: block=256
__global__ void ifElseDisjoint(float *out) {
  __shared__ float s[256];
  if (threadIdx.x < 128)
    s[threadIdx.x] = 1.0f;
  else
    s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x];
}

// The two sides of a branch run at the same time: the else side reads what
// the then side writes.
// shmem-lint: block=256
__global__ void ifElseOverlap(float *out) {
  __shared__ float s[256];
  if (threadIdx.x < 128)
    s[threadIdx.x] = 1.0f;
  else
    out[threadIdx.x] = s[threadIdx.x - 128];
// CHECK-MESSAGES: :[[@LINE-1]]:24: warning: thread 128 reads s[0] (line 126) while thread 0 writes s[0] (line 124); no barrier between them; warps 0-3 write and warps 4-7 read in the two arms of the branch at line 123, where a __syncthreads() would be a divergent barrier: add 'bar.arrive 1, 256;' after line 124 in warps 0-3 and 'bar.sync 1, 256;' before line 126 in warps 4-7 (named barrier 1 for the 256 threads of both) [shmem-race]
}

// A branch every thread takes the same way does not split them: the code
// after a uniform loop is not concurrent with the loop's next iteration.
// shmem-lint: block=128
__global__ void uniformLoop(const float *in, float *out, int steps) {
  __shared__ float s[128];
  float acc = in[threadIdx.x];
  for (int i = 0; i < steps; ++i) {
    s[threadIdx.x] = acc;
    __syncthreads();
    acc += s[(threadIdx.x + 1) % 128];
    __syncthreads();
  }
  s[threadIdx.x] = acc;
  __syncthreads();
  out[threadIdx.x] = s[127 - threadIdx.x];
}

// Different shared variables never alias.
// shmem-lint: block=64
__global__ void twoArrays(float *out) {
  __shared__ float a[64], b[64];
  a[threadIdx.x] = 1.0f;
  out[threadIdx.x] = b[63 - threadIdx.x];
}
