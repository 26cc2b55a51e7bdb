// Block cuda::barrier orderings on the GPU machine (run.sh): how many values
// come out wrong, and what compute-sanitizer's racecheck says, for the
// kernels of test/lit/driver/Inputs/shared-objects.cu. Each kernel writes
// out[] that the host knows exactly (small integers, exact in float).
#include <cuda/barrier>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int B = 16, T = 8; // 16x16 threads, T tiles of 16 columns.

// The barrier itself is declared in each kernel: the driver rewrites
// the declaration in place, which it cannot do inside a macro.
#define BAR_PROLOGUE                                                           \
  int x = threadIdx.x, y = threadIdx.y;                                        \
  if (x == 0 && y == 0)                                                        \
    init(&bar, blockDim.x * blockDim.y);

// Copies tied to the barrier, read after arrive_and_wait(), and a second
// arrive_and_wait() before the next tile: correct.
__global__ void tiled(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  BAR_PROLOGUE
  __shared__ alignas(16) float as[B][B];
  const float *g = in + blockIdx.x * B * B * T;
  as[y][x] = -1;
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < T; ++k) {
    if (x < B / 4)
      cuda::memcpy_async(&as[y][x * 4], &g[y * B * T + k * B + x * 4],
                         sizeof(float4), bar);
    bar.arrive_and_wait();
    for (int j = 0; j < B; ++j)
      sum += as[y][j];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * B * B + y * B + x] = sum;
}

// Own element read before the wait that completes its copy.
__global__ void early(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  BAR_PROLOGUE
  __shared__ float as[B][B];
  as[y][x] = -1;
  __syncthreads();
  cuda::memcpy_async(&as[y][x], &in[blockIdx.x * B * B * T + y * B + x],
                     sizeof(float), bar);
  float v = as[y][x];
  bar.arrive_and_wait();
  out[blockIdx.x * B * B + y * B + x] = v;
}

// The same, read after the wait: correct.
__global__ void waited(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  BAR_PROLOGUE
  __shared__ float as[B][B];
  as[y][x] = -1;
  __syncthreads();
  cuda::memcpy_async(&as[y][x], &in[blockIdx.x * B * B * T + y * B + x],
                     sizeof(float), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * B * B + y * B + x] = as[y][x];
}

// No second arrive_and_wait(): the next tile's copy against this tile's
// (transposed) reads.
__global__ void noTrailing(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  BAR_PROLOGUE
  __shared__ float as[B][B];
  const float *g = in + blockIdx.x * B * B * T;
  as[y][x] = -1;
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < T; ++k) {
    cuda::memcpy_async(&as[y][x], &g[y * B * T + k * B + x], sizeof(float),
                       bar);
    bar.arrive_and_wait();
    sum += as[x][y];
  }
  out[blockIdx.x * B * B + y * B + x] = sum;
}

// The same with the trailing arrive_and_wait(): correct.
__global__ void trailing(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  BAR_PROLOGUE
  __shared__ float as[B][B];
  const float *g = in + blockIdx.x * B * B * T;
  as[y][x] = -1;
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < T; ++k) {
    cuda::memcpy_async(&as[y][x], &g[y * B * T + k * B + x], sizeof(float),
                       bar);
    bar.arrive_and_wait();
    sum += as[x][y];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * B * B + y * B + x] = sum;
}

// simpleAWBarrier's split arrive() / wait(): each warp's first lane writes,
// thread t < 8 reads warp t's word after the wait: correct.
__global__ void split(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  BAR_PROLOGUE
  __shared__ float partial[8];
  int t = y * B + x;
  if (t < 8)
    partial[t] = -1;
  __syncthreads();
  if (t % 32 == 0)
    partial[t / 32] = in[blockIdx.x * B * B * T + t];
  auto token = bar.arrive();
  bar.wait(std::move(token));
  out[blockIdx.x * B * B + t] = t < 8 ? partial[t] : 0;
}

// The read between arrive() and wait(): other warps may not have written.
__global__ void splitEarly(float *out, const float *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  BAR_PROLOGUE
  __shared__ float partial[8];
  int t = y * B + x;
  if (t < 8)
    partial[t] = -1;
  __syncthreads();
  if (t % 32 == 0)
    partial[t / 32] = in[blockIdx.x * B * B * T + t];
  auto token = bar.arrive();
  float v = t < 8 ? partial[t] : 0;
  bar.wait(std::move(token));
  out[blockIdx.x * B * B + t] = v;
}

// Launched by name, each directly, so that shmem-lint sees every kernel's
// block shape (16x16) at its launch.
static void launch(const char *Name, int Blocks, float *out, const float *in) {
  dim3 Block(B, B);
  if (!strcmp(Name, "tiled"))
    tiled<<<Blocks, Block>>>(out, in);
  else if (!strcmp(Name, "early"))
    early<<<Blocks, Block>>>(out, in);
  else if (!strcmp(Name, "waited"))
    waited<<<Blocks, Block>>>(out, in);
  else if (!strcmp(Name, "noTrailing"))
    noTrailing<<<Blocks, Block>>>(out, in);
  else if (!strcmp(Name, "trailing"))
    trailing<<<Blocks, Block>>>(out, in);
  else if (!strcmp(Name, "split"))
    split<<<Blocks, Block>>>(out, in);
  else if (!strcmp(Name, "splitEarly"))
    splitEarly<<<Blocks, Block>>>(out, in);
}

// What each kernel's out[] must hold.
static float expected(const char *Name, const float *h, size_t b, int y,
                      int x) {
  const float *g = h + b * B * B * T;
  if (!strcmp(Name, "tiled")) {
    float s = 0;
    for (int k = 0; k < T; ++k)
      for (int j = 0; j < B; ++j)
        s += g[y * B * T + k * B + j];
    return s;
  }
  if (!strcmp(Name, "noTrailing") || !strcmp(Name, "trailing")) {
    float s = 0;
    for (int k = 0; k < T; ++k)
      s += g[x * B * T + k * B + y];
    return s;
  }
  int t = y * B + x;
  if (!strcmp(Name, "split") || !strcmp(Name, "splitEarly"))
    return t < 8 ? h[b * B * B * T + t * 32] : 0;
  return h[b * B * B * T + t];
}

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 4096;
  int launches = argc > 2 ? atoi(argv[2]) : 50;
  const char *only = argc > 3 ? argv[3] : nullptr;
  // Block b reads B rows of B*T floats from in + b*B*B*T (the one-tile
  // kernels only the first B*B of them).
  size_t n = size_t(blocks) * B * B * T, m = size_t(blocks) * B * B;
  float *in, *out, *h = new float[n], *o = new float[m];
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, m * 4);
  for (size_t i = 0; i < n; ++i)
    h[i] = float(i % 97 + 1);
  cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice);
  const char *Names[] = {"tiled",    "early", "waited",    "noTrailing",
                         "trailing", "split", "splitEarly"};
  for (const char *Name : Names) {
    if (only && strcmp(only, Name))
      continue;
    long wrong = 0;
    for (int l = 0; l < launches; ++l) {
      launch(Name, blocks, out, in);
      cudaMemcpy(o, out, m * 4, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < m; ++i) {
        size_t b = i / (B * B);
        int t = int(i % (B * B));
        wrong += o[i] != expected(Name, h, b, t / B, t % B);
      }
    }
    printf("%s\twrong %ld of %ld\t%s\n", Name, wrong, long(m) * launches,
           cudaGetErrorString(cudaGetLastError()));
  }
  return 0;
}
