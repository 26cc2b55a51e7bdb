// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Threads that return from the kernel before a barrier do not hold it up
// (exits.cu); what goes wrong is the data: a surviving thread that reads an
// element only an exited thread would have written reads a value nobody
// wrote. Blocks of 256 threads.

// The tree reduction after a bounds check: at s = 128, thread 0 adds
// sdata[128], which thread 128 would have loaded had it not returned. The
// exit depends on n: the check walks the kernel again with n pinned and
// says which value shows it.
__global__ void reduceAfterExit(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  sdata[tid] = in[i];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: thread 0 reads sdata[128] (line 22, s = 128), which only thread 128 writes (line 18), but thread 128 has returned at line 17 when n = 128 in block 0; threads that have exited do not wait at a barrier, so thread 0 reads a value that was never written [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-7]]:5: note: 128 of 256 threads, thread 128 among them, return here when n = 128 in block 0; keep them to the barrier and let them store a neutral value (guard the load, not the thread)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The same reduction with the load guarded instead of the thread: every
// thread stores its element (0 past the end) and none exits.
__global__ void reduceGuardedLoad(const float *in, float *out, int n) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// An exit where the survivors read only the survivors' elements.
__global__ void rotateSurvivors(const float *in, float *out, int n) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  if (tid >= n)
    return;
  s[tid] = in[tid];
  __syncthreads();
  out[tid] = s[(tid + 1) % n];
}

// A constant bound: the trace knows who exits without pinning anything.
__global__ void neighbourAfterConstantExit(const float *in, float *out) {
  __shared__ float s[257];
  if (threadIdx.x >= 100)
    return;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 99 reads s[100] (line 66), which only thread 100 writes (line 64), but thread 100 has returned at line 63; threads that have exited do not wait at a barrier, so thread 99 reads a value that was never written [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: 156 of 256 threads, thread 100 among them, return here; keep them to the barrier and let them store a neutral value (guard the load, not the thread)
}

// Every thread fills its element before any leaves: what the survivors
// read was written.
__global__ void filledBeforeExit(const float *in, float *out) {
  __shared__ float s[257];
  s[threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x >= 100)
    return;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}

// A barrier skipped without exiting is still reported: the threads that
// skip it go on and read s, and the barrier does not wait for them.
__global__ void skipWithoutExit(const float *in, float *out, int n) {
  __shared__ float s[256];
  if (threadIdx.x < n) {
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x < n' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
  }
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// A tile transpose after a 2-D bounds check, whose two parameters are tried
// in turn: with h = 8 the threads of rows 8-15 leave, and thread (8,0) reads
// the element thread (0,8) would have stored.
// shmem-lint: block=16x16
__global__ void transposeAfterExit(const float *in, float *out, int w, int h) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x >= w || y >= h)
    return;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  out[x * h + y] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: thread (8,0) reads tile[8][0] (line 106), which only thread (0,8) writes (line 104), but thread (0,8) has returned at line 103 when h = 8 in block 0; threads that have exited do not wait at a barrier, so thread (8,0) reads a value that was never written [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: 128 of 256 threads, thread (0,8) among them, return here when h = 8 in block 0; keep them to the barrier and let them store a neutral value (guard the load, not the thread)
}

// The same bounds check around a plain copy through the tile: each thread
// reads its own element.
// shmem-lint: block=16x16
__global__ void copyAfterExit(const float *in, float *out, int w, int h) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x >= w || y >= h)
    return;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  out[y * w + x] = tile[threadIdx.y][threadIdx.x];
}

// An exit on data: the walk cannot tell who leaves, so no claim (a limit).
__global__ void exitOnData(const float *in, float *out) {
  __shared__ float s[256];
  if (in[threadIdx.x] < 0)
    return;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// The n-body tile loop after a bounds check: each survivor sums every slot
// of the tile, with a counter that runs over more iterations than the walker
// unrolls (256), so the read is judged in each iteration: with n = 128 the
// threads from 128 up leave, and thread 0 reads sp[128] at counter = 128.
// shmem-lint: block=256
__global__ void tileSumAfterExit(const float *pos, float *out, int n,
                                 int tiles) {
  __shared__ float sp[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0;
  for (int tile = 0; tile < tiles; tile++) {
    sp[threadIdx.x] = pos[tile * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned counter = 0; counter < blockDim.x; counter++)
      acc += sp[counter];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: thread 0 reads sp[128] (line 150, counter = 128), which only thread 128 writes (line 147), but thread 128 has returned at line 144 when n = 128 in block 0; threads that have exited do not wait at a barrier, so thread 0 reads a value that was never written [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-8]]:5: note: 128 of 256 threads, thread 128 among them, return here when n = 128 in block 0; keep them to the barrier and let them store a neutral value (guard the load, not the thread)
    __syncthreads();
  }
  out[i] = acc;
}

// The same loop bounded by the number of survivors: with n pinned it runs
// over the slots the survivors wrote only.
// shmem-lint: block=256
__global__ void tileSumSurvivors(const float *pos, float *out, int n,
                                 int tiles) {
  __shared__ float sp[256];
  if (threadIdx.x >= n)
    return;
  float acc = 0;
  for (int tile = 0; tile < tiles; tile++) {
    sp[threadIdx.x] = pos[tile * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int counter = 0; counter < n; counter++)
      acc += sp[counter];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

int main(int argc, char **) { // run-time arguments: parameters stay unknown
  reduceAfterExit<<<4, 256>>>(nullptr, nullptr, argc);
  reduceGuardedLoad<<<4, 256>>>(nullptr, nullptr, argc);
  rotateSurvivors<<<1, 256>>>(nullptr, nullptr, argc);
  neighbourAfterConstantExit<<<1, 256>>>(nullptr, nullptr);
  filledBeforeExit<<<1, 256>>>(nullptr, nullptr);
  skipWithoutExit<<<1, 256>>>(nullptr, nullptr, argc);
  exitOnData<<<1, 256>>>(nullptr, nullptr);
  tileSumAfterExit<<<4, 256>>>(nullptr, nullptr, argc, argc);
  tileSumSurvivors<<<1, 256>>>(nullptr, nullptr, argc, argc);
}
