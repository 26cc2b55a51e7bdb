// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Barriers in loops whose trip count varies by thread. Blocks of 128.

__global__ void raggedLoop(const float *in, float *out) {
  __shared__ float s[128];
  unsigned tid = threadIdx.x;
  float acc = in[tid];
  for (unsigned i = 0; i < tid % 4; ++i) {
    s[tid] = acc;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'i < tid % 4' of the loop at line [[@LINE-3]] differs between threads, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-4]]:24: note: this condition depends on threadIdx.x; loop to a bound that is the same for the whole block and guard the body with each thread's own condition
    acc += s[(tid + 1) % 128];
  }
  out[tid] = acc;
}

// The grid-stride loop: threads near the end run one iteration fewer.
__global__ void gridStride(const float *in, float *out, int n) {
  __shared__ float s[128];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'i < n' of the loop at line [[@LINE-4]] differs between threads, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    out[i] = s[127 - threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'i < n' of the loop at line [[@LINE-7]] differs between threads, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  }
}

__global__ void whileLoop(const int *work, float *out) {
  int left = work[threadIdx.x];
  while (left > 0) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'left > 0' of the loop at line [[@LINE-2]] differs between threads, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    --left;
  }
}

__global__ void doWhileLoop(float *out) {
  unsigned k = 0;
  do {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'k < threadIdx.x % 3' of the loop at line [[@LINE-2]] differs between threads, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    ++k;
  } while (k < threadIdx.x % 3);
}

// Polling a flag in shared memory: each thread may see the store at a
// different time.
__global__ void pollVolatile(volatile int *flag) {
  while (flag[0] == 0) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'flag[0] == 0' of the loop at line [[@LINE-2]] differs between threads, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  }
}

// The bound comes out of a thread-dependent branch.
__global__ void boundFromBranch(float *out, int n) {
  int rounds = n;
  if (threadIdx.x < 32)
    rounds = n + 1;
  for (int r = 0; r < rounds; ++r)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'r < rounds' of the loop at line [[@LINE-2]] differs between threads, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:19: note: this condition depends on 'rounds', which is assigned under the thread-dependent branch at line [[@LINE-5]];
}

// Threads leave the search at different iterations: after the loop the
// counter differs between them, even though each step was uniform.
__global__ void searchThenSync(const int *keys, int *out) {
  int k = 0;
  for (; k < 8; ++k)
    if (keys[k] == (int)threadIdx.x)
      break;
  if (k == 8)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'k == 8' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on 'k', whose value after the loop at line [[@LINE-6]] depends on the iteration each thread left it in;
}

// A loop that never exits still rejoins after the branch.
__global__ void persistentDivergent(int *out) {
  for (;;) {
    if (threadIdx.x < 8)
      __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: __syncthreads() is reached only by threads with threadIdx.x < 8 (8 of 128 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    out[threadIdx.x] += 1;
  }
}

//===----------------------------------------------------------------------===//
// Silent: trip counts the whole block agrees on.
//===----------------------------------------------------------------------===//

__global__ void tiledMatmul(const float *a, const float *b, float *c, int n) {
  __shared__ float ta[16][16], tb[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < (n + 15) / 16; ++t) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t * 16 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t * 16 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n)
    c[row * n + col] = acc;
}

// The block-uniform form of the grid-stride loop.
__global__ void blockStride(const float *in, float *out, int n) {
  __shared__ float s[128];
  for (int base = blockIdx.x * blockDim.x; base < n;
       base += blockDim.x * gridDim.x) {
    int i = base + threadIdx.x;
    if (i < n)
      s[threadIdx.x] = in[i];
    __syncthreads();
    if (i < n)
      out[i] = s[127 - threadIdx.x];
    __syncthreads();
  }
}

// Every thread leaves a uniform search at the same iteration.
__global__ void uniformSearch(const int *keys, int *out, int key) {
  int k = 0;
  for (; k < 8; ++k)
    if (keys[k] == key)
      break;
  if (k == 8)
    __syncthreads();
}

// A thread-dependent loop with no barrier in it, before one.
__global__ void raggedLoopThenSync(const float *in, float *out) {
  float acc = 0;
  for (unsigned i = 0; i < threadIdx.x % 4; ++i)
    acc += in[i];
  __syncthreads();
  out[threadIdx.x] = acc;
}

// A persistent kernel: the thread-dependent branch closes before the
// barrier comes round again.
__global__ void persistent(int *out) {
  for (;;) {
    __syncthreads();
    if (out[threadIdx.x] > 0)
      out[threadIdx.x] = 0;
  }
}

int main() {
  raggedLoop<<<1, 128>>>(nullptr, nullptr);
  gridStride<<<4, 128>>>(nullptr, nullptr, 1000);
  whileLoop<<<1, 128>>>(nullptr, nullptr);
  doWhileLoop<<<1, 128>>>(nullptr);
  pollVolatile<<<1, 128>>>(nullptr);
  boundFromBranch<<<1, 128>>>(nullptr, 3);
  searchThenSync<<<1, 128>>>(nullptr, nullptr);
  tiledMatmul<<<dim3(4, 4), dim3(16, 16)>>>(nullptr, nullptr, nullptr, 64);
  blockStride<<<4, 128>>>(nullptr, nullptr, 1000);
  uniformSearch<<<1, 128>>>(nullptr, nullptr, 3);
  raggedLoopThenSync<<<1, 128>>>(nullptr, nullptr);
  persistentDivergent<<<1, 128>>>(nullptr);
  persistent<<<1, 128>>>(nullptr);
}
