// ggml's "sync not needed on last iteration" (fattn-tile.cuh's
// flash_attn_tile_iter_KQ, fattn-vec.cuh's combine loop), reduced and
// written anew for the H200: an unrolled loop whose step ends with
// `if (k < last) __syncthreads();`. The barrier is skipped only after the
// last step, so a step's reads are ordered before the next step's writes:
// racecheck must find no hazard in skippedInLast. Its twin skips the
// barrier after the first step instead, where the next step's writes do
// overtake the reads: the pair shmem-lint reports (see
// test/lit/race/unrolled-barrier-h200.test).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__device__ void step(const float *g, float *buf, float &acc, int k0,
                     bool barrierAfter) {
  buf[threadIdx.x] = g[k0 + threadIdx.x];
  __syncthreads();
  acc += buf[(threadIdx.x + 1) % 256];
  if (barrierAfter)
    __syncthreads();
}

// The barrier after every step but the last (ggml's pattern).
__global__ void __launch_bounds__(256) skippedInLast(const float *g,
                                                     float *out) {
  __shared__ float buf[256];
  float acc = 0;
#pragma unroll
  for (int k0 = 0; k0 < 1024; k0 += 256)
    step(g, buf, acc, k0, k0 + 256 < 1024);
  out[threadIdx.x] = acc;
}

// The barrier after every step but the first.
__global__ void __launch_bounds__(256) skippedInFirst(const float *g,
                                                      float *out) {
  __shared__ float buf[256];
  float acc = 0;
#pragma unroll
  for (int k0 = 0; k0 < 1024; k0 += 256)
    step(g, buf, acc, k0, k0 > 0);
  out[threadIdx.x] = acc;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  float *g, *out;
  cudaMalloc(&g, 1024 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  float h[1024];
  for (int k = 0; k < 1024; ++k)
    h[k] = float(k % 7);
  cudaMemcpy(g, h, sizeof(h), cudaMemcpyHostToDevice);
  auto run = [&](const char *name, auto launch) {
    if (strcmp(which, "all") && strcmp(which, name))
      return;
    launch();
    cudaError_t e = cudaDeviceSynchronize();
    float o[256];
    cudaMemcpy(o, out, sizeof(o), cudaMemcpyDeviceToHost);
    double s = 0;
    for (float x : o)
      s += x;
    printf("%s: %s, sum = %g\n", name, cudaGetErrorString(e), s);
  };
  run("skippedInLast", [&] { skippedInLast<<<1, 256>>>(g, out); });
  run("skippedInFirst", [&] { skippedInFirst<<<1, 256>>>(g, out); });
  return 0;
}
