// The barrier fix-its of test/lit/race/barrier-fixes.cu on the H200 (issue
// #25): each kernel before and after `clang-tidy --fix` inserted its
// barrier (__syncthreads(), __syncwarp(), __syncwarp(0x0000ffff)), and the
// named barrier that replaces a divergent __syncthreads() (divergent*), every
// value checked over many blocks and launches, and racecheck run on both.
// run.sh builds and runs this; its output is h200.txt.
#include <cstdio>
#include <cstring>

// shmem-lint: block=256
__global__ void exchangeBefore(const float *, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}
// shmem-lint: block=256
__global__ void exchangeAfter(const float *, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// shmem-lint: block=256
__global__ void tilesBefore(const float *g, float *out) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < 8; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    acc += s[255 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}
// shmem-lint: block=256
__global__ void tilesAfter(const float *g, float *out) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < 8; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    __syncthreads();
    acc += s[255 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// Across iterations: the next tile's write against this tile's reads.
// shmem-lint: block=256
__global__ void trailingBefore(const float *g, float *out) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < 8; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    __syncthreads();
    acc += s[255 - threadIdx.x];
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}
// shmem-lint: block=256
__global__ void trailingAfter(const float *g, float *out) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < 8; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    __syncthreads();
    acc += s[255 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// shmem-lint: block=256
__global__ void halfWarpBefore(const float *, float *out) {
  __shared__ float s[16];
  float y = 0;
  if (threadIdx.x < 16) {
    s[threadIdx.x] = threadIdx.x;
    y = s[15 - threadIdx.x];
  }
  out[blockIdx.x * 256 + threadIdx.x] = y;
}
// shmem-lint: block=256
__global__ void halfWarpAfter(const float *, float *out) {
  __shared__ float s[16];
  float y = 0;
  if (threadIdx.x < 16) {
    s[threadIdx.x] = threadIdx.x;
    __syncwarp(0x0000ffff);
    y = s[15 - threadIdx.x];
  }
  out[blockIdx.x * 256 + threadIdx.x] = y;
}

// shmem-lint: block=256
__global__ void oneWarpBefore(const float *, float *out) {
  __shared__ float s[32];
  float y = 0;
  if (threadIdx.x < 32) {
    s[threadIdx.x] = threadIdx.x;
    y = s[31 - threadIdx.x];
  }
  out[blockIdx.x * 256 + threadIdx.x] = y;
}
// shmem-lint: block=256
__global__ void oneWarpAfter(const float *, float *out) {
  __shared__ float s[32];
  float y = 0;
  if (threadIdx.x < 32) {
    s[threadIdx.x] = threadIdx.x;
    __syncwarp();
    y = s[31 - threadIdx.x];
  }
  out[blockIdx.x * 256 + threadIdx.x] = y;
}

// A __syncthreads() only warps 0-1 reach (shmem-divergent-barrier), and
// its fix-it: their named barrier. The others wait at the barrier after
// the branch, which the first pairs with (threads that exit instead would
// not hold it up: a bar.sync waits for the non-exited threads).
// shmem-lint: block=256
__global__ void divergentBefore(const float *, float *out) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 64) {
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    y = s[63 - threadIdx.x];
  }
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = y;
}
// shmem-lint: block=256
__global__ void divergentAfter(const float *, float *out) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 64) {
    s[threadIdx.x] = threadIdx.x;
    asm volatile("bar.sync 1, 64;");
    y = s[63 - threadIdx.x];
  }
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = y;
}

typedef void (*Kernel)(const float *, float *);
struct Entry {
  const char *Name;
  Kernel K;
  float (*Expect)(const float *g, unsigned t);
};
static float exchangeExpect(const float *, unsigned t) { return 255 - t; }
static float tilesExpect(const float *g, unsigned t) {
  float a = 0;
  for (int k = 0; k < 8; ++k)
    a += g[k * 256 + 255 - t];
  return a;
}
static float halfExpect(const float *, unsigned t) {
  return t < 16 ? 15 - t : 0;
}
static float oneExpect(const float *, unsigned t) {
  return t < 32 ? 31 - t : 0;
}
static float divergentExpect(const float *, unsigned t) {
  return t < 64 ? 63 - t : 0;
}
static const Entry Kernels[] = {
    {"exchangeBefore", exchangeBefore, exchangeExpect},
    {"exchangeAfter", exchangeAfter, exchangeExpect},
    {"tilesBefore", tilesBefore, tilesExpect},
    {"tilesAfter", tilesAfter, tilesExpect},
    {"trailingBefore", trailingBefore, tilesExpect},
    {"trailingAfter", trailingAfter, tilesExpect},
    {"halfWarpBefore", halfWarpBefore, halfExpect},
    {"halfWarpAfter", halfWarpAfter, halfExpect},
    {"oneWarpBefore", oneWarpBefore, oneExpect},
    {"oneWarpAfter", oneWarpAfter, oneExpect},
    {"divergentBefore", divergentBefore, divergentExpect},
    {"divergentAfter", divergentAfter, divergentExpect},
};

// barriers KERNEL [BLOCKS [LAUNCHES]]: wrong values over every launch.
int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  int Blocks = argc > 2 ? atoi(argv[2]) : 4096;
  int Launches = argc > 3 ? atoi(argv[3]) : 50;
  const Entry *E = nullptr;
  for (const Entry &X : Kernels)
    if (!strcmp(X.Name, argv[1]))
      E = &X;
  if (!E)
    return 2;
  static float G[8 * 256];
  for (int I = 0; I < 8 * 256; ++I)
    G[I] = (I * 37) % 101;
  float *DG, *DOut;
  size_t N = size_t(Blocks) * 256;
  cudaMalloc(&DG, sizeof G);
  cudaMalloc(&DOut, N * sizeof(float));
  cudaMemcpy(DG, G, sizeof G, cudaMemcpyHostToDevice);
  float *Host = new float[N];
  long long Wrong = 0, Total = 0;
  for (int L = 0; L < Launches; ++L) {
    cudaMemset(DOut, 0xff, N * sizeof(float));
    E->K<<<Blocks, 256>>>(DG, DOut);
    cudaError_t Err = cudaDeviceSynchronize();
    if (Err != cudaSuccess) {
      printf("%s: %s\n", E->Name, cudaGetErrorString(Err));
      return 1;
    }
    cudaMemcpy(Host, DOut, N * sizeof(float), cudaMemcpyDeviceToHost);
    for (size_t I = 0; I < N; ++I, ++Total)
      Wrong += Host[I] != E->Expect(G, unsigned(I % 256));
  }
  printf("%s: %lld of %lld values wrong\n", E->Name, Wrong, Total);
  return 0;
}
