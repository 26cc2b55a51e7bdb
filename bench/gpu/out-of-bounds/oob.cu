// The kernels of test/lit/out-of-bounds/basic.cu on the H200: each run
// plainly and under compute-sanitizer's memcheck, to see which of the
// accesses shmem-out-of-bounds reports memcheck reports too (it checks the
// block's shared window, not each array). run.sh builds and runs this;
// h200.txt is its output.
#include <cstdio>
#include <cstring>

// A shared access past its variable for some thread of the block shape,
// with the first such thread, the element, the iteration and every thread
// that goes outside (issue #22).

// An unrolled loop one iteration too long: rows 96-127 of a 96-row tile.
// shmem-lint: block=32
__global__ void loopTooLong(float *out) {
  __shared__ float tile[96][128];
  for (int j = 0; j < 4; ++j)
    tile[threadIdx.x + 32 * j][j] = j;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][0];
}

// A tile sized for fewer threads than the block has.
// shmem-lint: block=256
__global__ void tileTooSmall(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 128];
}

// A neighbour read without its guard: the last thread reads one past.
// shmem-lint: block=128
__global__ void neighbour(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}

// Unsigned arithmetic: `threadIdx.x - 1 < 0` is never true, so thread 0
// reads element 2^32 - 1.
// shmem-lint: block=128
__global__ void unsignedWrap(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x - 1 < 0 ? 0 : threadIdx.x - 1];
}

// A vector access whose last bytes pass the end: thread 63's float2 is
// elements 126 and 127 of 127.
// shmem-lint: block=64
__global__ void vectorTail(float2 *out) {
  __shared__ float s[127];
  if (threadIdx.x < 63)
    s[2 * threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = *reinterpret_cast<float2 *>(&s[2 * threadIdx.x]);
}

// Negative: the guard keeps the last thread in.
// shmem-lint: block=128
__global__ void guarded(float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x < 127)
    out[threadIdx.x] = s[threadIdx.x + 1];
}

// Negative: the loop stays in the tile.
// shmem-lint: block=32
__global__ void loopInBounds(float *out) {
  __shared__ float tile[96][128];
  for (int j = 0; j < 3; ++j)
    tile[threadIdx.x + 32 * j][j] = j;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][0];
}

// Negative: no shape is stated, and with an assumed one a tile indexed by
// the thread would look too small.
__global__ void shapeAssumed(float *out) {
  __shared__ float s[32];
  s[threadIdx.x] = 1;
}

// Negative: dynamic shared memory without a launch that gives its size
// has no extent to check against.
// shmem-lint: block=256
__global__ void dynamicShared(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x + 4096] = 1;
}

// Dynamic shared memory has the extent its launches give: 128 floats for
// 256 threads.
__global__ void dynamicTooSmall(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x % 128];
}
void launchTooSmall(float *out) {
  dynamicTooSmall<<<1, 256, 128 * sizeof(float)>>>(out);
}

// Negative: launched with enough.
__global__ void dynamicEnough(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = dyn[255 - threadIdx.x];
}
void launchEnough(float *out) {
  dynamicEnough<<<1, 256, 256 * sizeof(float)>>>(out);
}

// Negative: one launch's size is known only at run time, so the extent is
// not known.
__global__ void dynamicRunTime(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = 1;
}
void launchRunTime(float *out, int n) {
  dynamicRunTime<<<1, 256, 128 * sizeof(float)>>>(out);
  dynamicRunTime<<<1, 256, n>>>(out);
}

// Negative: an offset with an unknown (a run-time trip count) is not
// judged.
// shmem-lint: block=32
__global__ void runTimeLoop(float *out, int n) {
  __shared__ float s[64];
  for (int i = 0; i < n; ++i)
    s[threadIdx.x + 32 * i] = i;
}

template <typename T> static void launch(void (*K)(T *), int Threads,
                                         size_t Dyn = 0) {
  T *Out;
  cudaMalloc(&Out, 1024 * sizeof(T));
  K<<<1, Threads, Dyn>>>(Out);
}
static float *out() {
  float *Out;
  cudaMalloc(&Out, 1024 * sizeof(float));
  return Out;
}
static void launchN(void (*K)(float *, int), int Threads, int N) {
  float *Out;
  cudaMalloc(&Out, 1024 * sizeof(float));
  K<<<1, Threads>>>(Out, N);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *K = argv[1];
  if (!strcmp(K, "loopTooLong")) launch(loopTooLong, 32);
  else if (!strcmp(K, "tileTooSmall")) launch(tileTooSmall, 256);
  else if (!strcmp(K, "neighbour")) launch(neighbour, 128);
  else if (!strcmp(K, "unsignedWrap")) launch(unsignedWrap, 128);
  else if (!strcmp(K, "vectorTail")) launch(vectorTail, 64);
  else if (!strcmp(K, "guarded")) launch(guarded, 128);
  else if (!strcmp(K, "loopInBounds")) launch(loopInBounds, 32);
  else if (!strcmp(K, "shapeAssumed")) launch(shapeAssumed, 32);
  else if (!strcmp(K, "dynamicShared")) launch(dynamicShared, 256, 32768);
  else if (!strcmp(K, "runTimeLoop")) launchN(runTimeLoop, 32, 2);
  else if (!strcmp(K, "dynamicTooSmall")) launchTooSmall(out());
  else if (!strcmp(K, "dynamicEnough")) launchEnough(out());
  else if (!strcmp(K, "dynamicRunTime")) launchRunTime(out(), 1024);
  else return 2;
  cudaError_t E = cudaDeviceSynchronize();
  printf("%s: %s\n", K, cudaGetErrorString(E));
  return E != cudaSuccess;
}
